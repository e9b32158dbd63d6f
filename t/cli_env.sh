#!/bin/sh
# SPDX-License-Identifier: MIT
# The environment's values are read strictly: a malformed RB_MEM_LIMIT_MB,
# RB_CL_PLATFORM, RB_CL_DEVICE or RB_CL_DIR, and a --cl-dir that is not a
# directory, are exit 2 with one line naming the variable or option.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR RB_MEM_LIMIT_MB RB_CL_PLATFORM RB_CL_DEVICE

plan="run --paper givens --backend serial --n 16 --m 0 --dry-run"
# bad VAR VALUE [COMMAND...]: exit 2, one line naming VAR.
bad() {
    var=$1 val=$2; shift 2
    [ $# -gt 0 ] || set -- $plan
    env "$var=$val" "$RB_BIN" "$@" >/dev/null 2>"$tmp/err"; st=$?
    tap_ok $([ $st -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
             && grep -q "^reprobench: $var" "$tmp/err"; echo $?) \
        "$var='$val' ($1): exit $st, one line naming it"
    [ $st -eq 2 ] || tap_diag "$(cat "$tmp/err")"
}

tap_plan 15
for v in abc 0 -5 10abc 18446744073709551616 1099511627777; do bad RB_MEM_LIMIT_MB "$v"; done
for var in RB_CL_PLATFORM RB_CL_DEVICE; do
    for v in abc -1; do bad "$var" "$v"; done
done
bad RB_CL_DEVICE 65 list
bad RB_CL_PLATFORM x info
bad RB_CL_DIR /nonexistent
# shellcheck disable=SC2086
"$RB_BIN" $plan --cl-dir /nonexistent >/dev/null 2>"$tmp/err"; st=$?
tap_ok $([ $st -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
         && grep -q '^reprobench: --cl-dir /nonexistent: No such file' "$tmp/err"; echo $?) \
    "--cl-dir /nonexistent: exit $st, one line"
# shellcheck disable=SC2086
RB_MEM_LIMIT_MB=100000 RB_CL_DEVICE=0 RB_CL_DIR=$tmp "$RB_BIN" $plan >/dev/null 2>&1
tap_ok $? "good values are accepted"
