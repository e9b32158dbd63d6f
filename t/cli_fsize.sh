#!/bin/sh
# SPDX-License-Identifier: MIT
# A file-size limit (ulimit -f) on run, plot and report: never a kill by
# SIGXFSZ; a failure is exit 1 with one line naming the file and the
# system's reason; "wrote" only for whole figures; no temporary left; the
# files already there untouched.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
command -v gnuplot >/dev/null 2>&1 || tap_skip_all "gnuplot not found"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR

args="--paper givens --backend serial --n 16,24 --m 0 --prec f32 --min-samples 2
      --min-time 0.001 --no-ceilings --quiet"

# whole FILE: a PNG ends in its IEND chunk, a PDF holds %%EOF at its end.
whole() {
    case $1 in
    *.png) [ "$(tail -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 49454e44ae426082 ] ;;
    *.pdf) tail -c 32 "$1" | grep -q '%%EOF' ;;
    *) [ -s "$1" ] ;;
    esac
}

# limited WHAT BLOCKS CMD...: CMD under ulimit -f BLOCKS, SIGXFSZ at its
# default; checks its exit, its stderr, its "wrote" lines and leftovers.
limited() {
    what=$1 blocks=$2; shift 2
    (ulimit -f "$blocks"; exec "$@") >"$tmp/out" 2>"$tmp/err"
    st=$?
    ok=0
    why=
    if [ "$st" -ne 0 ] && [ "$st" -ne 1 ]; then
        ok=1 why="exit $st"
    elif [ "$st" -eq 1 ] && { [ "$(wc -l < "$tmp/err")" -ne 1 ] \
            || ! grep -Eq '^reprobench: .*/[^ ]*: .*(File too large|File size limit)' \
                "$tmp/err"; }; then
        ok=1 why="not one line naming a file and the reason"
    fi
    for f in $(sed -n 's/^wrote //p' "$tmp/out"); do
        whole "$f" || { ok=1; why="$why; reported $f, which is not whole"; }
    done
    left=$(find "$tmp/res" \( -name '*.tmp' -o \( -name '.*' ! -name .lock \) \) -print | head -n 3)
    [ -z "$left" ] || { ok=1; why="$why; left $left"; }
    tap_ok $ok "$what under ulimit -f $blocks: exit $st"
    [ $ok -eq 0 ] || tap_diag "$why" "$(cat "$tmp/err")"
}

tap_plan 27
"$RB_BIN" run $args --out "$tmp/res" >/dev/null 2>&1
run=$(ls -d "$tmp"/res/*/ 2>/dev/null | head -n 1)
run=${run%/}
tap_ok $([ -n "$run" ] && [ -s "$run/plots/givens_fig2.png" ]; echo $?) \
    "a run with its plots, unlimited"
cp "$run/records.jsonl" "$tmp/records.jsonl"
cp "$run/plots/givens_fig2.png" "$tmp/fig2.png"

for blocks in 1 2 3 4 5 6 7 8; do
    rm -rf "$tmp/res/new"
    # shellcheck disable=SC2086
    limited "run" "$blocks" "$RB_BIN" run $args --no-plot --out "$tmp/res/new"
done
rm -rf "$tmp/res/new"
for blocks in 1 2 4 8 16 32 64 128; do
    limited "plot" "$blocks" "$RB_BIN" plot "$run"
done
for blocks in 1 2 4 8 16 32 64 128; do
    limited "report" "$blocks" "$RB_BIN" report --quiet "$run"
done
tap_ok $(cmp -s "$run/records.jsonl" "$tmp/records.jsonl" \
         && for f in "$run"/plots/*.png "$run"/plots/*.pdf; do whole "$f" || exit 1; done; \
         echo $?) "records.jsonl untouched and every figure in plots/ whole"
"$RB_BIN" report --quiet "$run" >/dev/null 2>&1
tap_ok $? "and the run still reports, unlimited"
