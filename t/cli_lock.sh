#!/bin/sh
# SPDX-License-Identifier: MIT
# One writer per run directory: of two concurrent resumes of one plan, one
# runs and the other is refused (exit 2, "RUN is in use by pid N"), so
# every case is recorded once; report and plot are refused while a run
# writes; a records.jsonl with a case recorded twice is refused by report,
# plot and compare.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR

args="--paper givens --backend serial --n 16,18,20 --m 0 --prec f32 --min-samples 1
      --min-time 0.001 --no-plot --no-ceilings --quiet"
# one_line_status WANT FILE STATUS: STATUS is WANT and FILE one line.
one_line() { [ "$3" -eq "$1" ] && [ "$(wc -l < "$2")" -eq 1 ]; }

tap_plan 8
# shellcheck disable=SC2086
"$RB_BIN" run $args --out "$tmp/res" 2>/dev/null
run=$(ls -d "$tmp"/res/*/ | head -n 1)
run=${run%/}
tap_ok $([ "$(wc -l < "$run/records.jsonl")" -eq 9 ]; echo $?) "a plan of 9 cases"

# Both resumes start at once on the emptied run; each case takes 150 ms.
: > "$run/records.jsonl"
export RB_INJECT_DELAY='givens/*/*:150'
# shellcheck disable=SC2086
"$RB_BIN" run --resume "$run" $args 2>"$tmp/err1" & p1=$!
# shellcheck disable=SC2086
"$RB_BIN" run --resume "$run" $args 2>"$tmp/err2" & p2=$!
wait $p1; s1=$?
wait $p2; s2=$?
if [ $s1 -eq 0 ]; then winner=$p1 loser=$tmp/err2 sl=$s2; else winner=$p2 loser=$tmp/err1 sl=$s1; fi
tap_ok $([ $((s1 + s2)) -eq 2 ] && one_line 2 "$loser" "$sl" \
         && grep -q "^reprobench: $run is in use by pid $winner\$" "$loser"; echo $?) \
    "two resumes at once: exits $s1 and $s2, the second told the first's pid"
[ $((s1 + s2)) -eq 2 ] || tap_diag "$(cat "$tmp/err1" "$tmp/err2")"
n=$(wc -l < "$run/records.jsonl")
dups=$(grep -o '"key":"[^"]*"' "$run/records.jsonl" | sort | uniq -d | wc -l)
tap_ok $([ "$n" -eq 9 ] && [ "$dups" -eq 0 ]; echo $?) "9 records for 9 keys ($n, $dups twice)"

# While a run writes, report and plot are refused.
sed -i '4,$d' "$run/records.jsonl"
# shellcheck disable=SC2086
"$RB_BIN" run --resume "$run" $args 2>/dev/null & p1=$!
i=0
while [ $i -lt 100 ] && ! grep -q . "$run/.lock" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
"$RB_BIN" report --quiet --no-plot "$run" >/dev/null 2>"$tmp/err"; st=$?
tap_ok $(one_line 2 "$tmp/err" $st && grep -q "in use by pid $p1" "$tmp/err"; echo $?) \
    "report during a run: exit $st, in use by pid $p1"
"$RB_BIN" plot --quiet "$run" >/dev/null 2>"$tmp/err"; st=$?
tap_ok $(one_line 2 "$tmp/err" $st && grep -q "in use by pid $p1" "$tmp/err"; echo $?) \
    "plot during a run: exit $st, in use by pid $p1"
wait $p1
unset RB_INJECT_DELAY

# A case recorded twice (two writers before there was a lock).
sed -n 2p "$run/records.jsonl" >> "$run/records.jsonl"
for cmd in "report --quiet --no-plot $run" "plot --quiet $run" "compare --no-plot $run $run"; do
    # shellcheck disable=SC2086
    "$RB_BIN" $cmd >/dev/null 2>"$tmp/err"; st=$?
    tap_ok $(one_line 2 "$tmp/err" $st \
             && grep -q 'records.jsonl:10: case .* is recorded twice (first at line 2)' \
                "$tmp/err"; echo $?) "${cmd%% *} refuses a case recorded twice (exit $st)"
    [ $st -eq 2 ] || tap_diag "$(cat "$tmp/err")"
done
