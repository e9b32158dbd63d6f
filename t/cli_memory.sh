#!/bin/sh
# SPDX-License-Identifier: MIT
# A case too large for the memory a run allows is refused alone: recorded
# as skipped at stage setup with the reason, naming whose limit it is
# (RB_MEM_LIMIT_MB's or the host's), while the rest of the sweep runs;
# exit 1.  A sweep with nothing that fits is bad input (exit 2).
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR RB_MEM_LIMIT_MB

args="--paper givens --backend serial --m 0 --prec f32 --min-samples 1 --min-time 0.001
      --no-plot --no-ceilings --quiet"

tap_plan 6
# shellcheck disable=SC2086
RB_MEM_LIMIT_MB=64 "$RB_BIN" run $args --n 64,8192 --out "$tmp/res" 2>"$tmp/err"; st=$?
run=$(ls -d "$tmp"/res/*/ 2>/dev/null | head -n 1)
ok=$(grep -c '"sizes":{"n":64,"m":0}.*"status":"ok"' "$run/records.jsonl" 2>/dev/null)
why='"status":"skipped","stage":"setup","message":"needs [0-9.]* GiB of host memory, more'
why="$why than the 0.06 GiB RB_MEM_LIMIT_MB=64 allows\""
refused=$(grep '"sizes":{"n":8192,"m":0}' "$run/records.jsonl" 2>/dev/null | grep -c "$why")
tap_ok $([ $st -eq 1 ]; echo $?) "RB_MEM_LIMIT_MB=64, --n 64,8192: the sweep runs, exit $st"
[ $st -eq 1 ] || tap_diag "$(cat "$tmp/err")"
tap_ok $([ "${ok:-0}" -eq 3 ]; echo $?) "the 3 cases at n=64 ran (${ok:-0} ok)"
tap_ok $([ "${refused:-0}" -eq 3 ]; echo $?) \
    "the 3 at n=8192: skipped at setup, the reason naming RB_MEM_LIMIT_MB ($refused)"
tap_ok $(grep -q '3 ok, 0 failed, 3 skipped (3 too large for memory)' "$tmp/err"; echo $?) \
    "the summary counts them"

# shellcheck disable=SC2086
RB_MEM_LIMIT_MB=64 "$RB_BIN" run $args --n 8192 --out "$tmp/none" >/dev/null 2>"$tmp/err"; st=$?
tap_ok $([ $st -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
         && grep -q '^reprobench: no case fits in memory: .*RB_MEM_LIMIT_MB=64' "$tmp/err" \
         && ! [ -d "$tmp/none" ]; echo $?) "nothing fits: exit $st, one line, no run directory"

# The host's own limit: a size the host cannot hold, only planned.
"$RB_BIN" run --paper givens --backend serial --variant sequential --n 65536 --m 0 \
    --prec f64 --dry-run >/dev/null 2>"$tmp/err"; st=$?
if grep -q 'no case fits in memory: .*this host allows (90% of its memory)' "$tmp/err"; then
    tap_ok $([ $st -eq 2 ]; echo $?) "without RB_MEM_LIMIT_MB the reason names the host's memory"
else
    tap_skip "this host holds an n=65536 f64 Givens case"
fi
