#!/bin/sh
# SPDX-License-Identifier: MIT
# A signal in the first seconds of a run, while the ceilings are probed and
# before any case: the probe's step ends, the run directory is named with
# the --resume hint, the exit status is 128 + the signal, and the hint
# continues the run.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR

args="--paper givens --backend serial --n 16 --m 0 --prec f32 --min-samples 1
      --min-time 0.001 --no-plot --quiet"

# early SIG OUT: start a run, send SIG once its meta.json is there (the
# ceilings probe follows, and no case has run); status in $st, run in $run.
early() {
    # shellcheck disable=SC2086
    "$RB_BIN" run $args --out "$tmp/$2" 2>"$tmp/err" &
    pid=$!
    i=0
    while [ $i -lt 400 ] && ! [ -s "$(ls "$tmp/$2"/*/meta.json 2>/dev/null | head -n 1)" ]; do
        sleep 0.01; i=$((i + 1))
    done
    kill -"$1" $pid
    wait $pid; st=$?
    run=$(ls -d "$tmp/$2"/*/ 2>/dev/null | head -n 1)
    run=${run%/}
}

tap_plan 5
early INT int
tap_ok $([ $st -eq 130 ] && [ -n "$run" ] \
         && grep -q "interrupted; .*Continue with: reprobench run --resume $run\$" "$tmp/err"; \
         echo $?) "SIGINT during the ceilings probe: exit $st, the run directory and hint"
[ $st -eq 130 ] || tap_diag "$(cat "$tmp/err")"
tap_ok $([ -e "$run/records.jsonl" ] && [ ! -s "$run/records.jsonl" ] \
         && ! ls -a "$run" | grep -q '\.tmp$'; echo $?) "no case run, no temporary left"
"$RB_BIN" run --resume "$run" --quiet --no-plot 2>"$tmp/err"; st=$?
tap_ok $([ $st -eq 0 ] && [ "$(wc -l < "$run/records.jsonl")" -eq 3 ]; echo $?) \
    "the hint continues it (exit $st, 3 records)"
early TERM term
tap_ok $([ $st -eq 143 ] && grep -q "Continue with: reprobench run --resume $run\$" \
         "$tmp/err"; echo $?) "SIGTERM likewise: exit $st and the hint"
[ $st -eq 143 ] || tap_diag "$(cat "$tmp/err")"
tap_ok $([ "$(wc -l < "$tmp/err")" -eq 1 ]; echo $?) "in one line on stderr"
