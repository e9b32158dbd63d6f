#!/bin/sh
# SPDX-License-Identifier: MIT
# One rule for options in every command: an option given twice is exit 2
# with one line; an unknown option is named as unknown; --help lists every
# option; an unusable --out and a plot of a missing directory are bad input
# (exit 2), not failed writes.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR RB_MEM_LIMIT_MB

mkdir -p run && : > run/records.jsonl
twice() {   # twice WHAT ARGS...: exit 2, one line saying the option is given twice
    what=$1; shift
    "$RB_BIN" "$@" >/dev/null 2>"$tmp/err"; st=$?
    tap_ok $([ $st -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
             && grep -q 'given twice' "$tmp/err"; echo $?) "$what: exit $st, given twice"
    [ $st -eq 2 ] || tap_diag "$(cat "$tmp/err")"
}

tap_plan 21
sel="--paper givens --backend serial --dry-run"
# shellcheck disable=SC2086
{
twice "run --n 64 --n 128" run $sel --n 64 --n 128
twice "run --prec f32 --prec f64" run $sel --prec f32 --prec f64
twice "run --paper twice" run --paper givens --paper sammon --dry-run
twice "run --quiet twice" run $sel --quiet --quiet
twice "run --n=64 --n 64" run $sel --n=64 --n 64
twice "plot --quiet twice" plot --quiet --quiet run
twice "report --no-plot twice" report --no-plot --no-plot run
twice "compare --format twice" compare --format tsv --format json run run
twice "list --paper twice" list --paper givens --paper sammon
twice "info --json twice" info --json --json
}
for args in "run --bogus" "run --bogus 3" "plot --bogus run" "report --bogus run" \
            "compare --bogus run run" "list --bogus" "info --bogus"; do
    # shellcheck disable=SC2086
    "$RB_BIN" $args >/dev/null 2>"$tmp/err"; st=$?
    tap_ok $([ $st -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
             && grep -q "unknown option '--bogus'" "$tmp/err"; echo $?) \
        "$args: exit $st, unknown option"
    [ $st -eq 2 ] || tap_diag "$(cat "$tmp/err")"
done

"$RB_BIN" run --help > "$tmp/help"
missing=
for o in paper algo variant backend prec preset warmup min-samples max-samples min-time \
         max-time seed out resume no-plot no-ceilings dry-run quiet device cl-dir; do
    grep -q -- "^  --$o " "$tmp/help" || missing="$missing --$o"
done
tap_ok $([ -z "$missing" ]; echo $?) "run --help lists every option${missing:+ (missing$missing)}"

: > afile
expect_usage_error "--out under a file" run --paper givens --backend serial --n 16 --m 0 \
    --prec f32 --no-ceilings --quiet --out afile/x
expect_usage_error "--out a file" run --paper givens --backend serial --n 16 --m 0 \
    --prec f32 --no-ceilings --quiet --out afile
expect_usage_error "plot of a missing directory" plot /nonexistent
