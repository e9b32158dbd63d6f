#!/bin/sh
# SPDX-License-Identifier: MIT
# run --devices over two PoCL devices of one platform: the same cases, each
# recorded once, as on one device, split over both; a device that does not
# exist refused before anything is written; --resume keeps the list.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
# Two pthread devices (space-separated), one core each: CI has two.
POCL_DEVICES="pthread pthread"
POCL_MAX_PTHREAD_COUNT=1
export POCL_DEVICES POCL_MAX_PTHREAD_COUNT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR
"$RB_BIN" info 2>/dev/null | grep -q 'opencl 0\.1 .*PoCL' \
    || tap_skip_all "no two PoCL devices (POCL_DEVICES=\"pthread pthread\")"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
tap_plan 10

sweep="--paper givens --algo forward --variant paper --backend opencl --n 16,32,64 --m 0
       --prec f32 --min-samples 1 --seed 7 --no-plot --no-ceilings --no-db --quiet"
keys() { sed 's/.*"key":"\([^"]*\)".*/\1/' "$1"; }

expect_usage_error "a device that does not exist is refused" \
    run $sweep --max-samples 3 --devices opencl:0:0,opencl:0:9 --out "$tmp/bad"
tap_ok $([ ! -e "$tmp/bad" ]; echo $?) "and nothing is written"

# shellcheck disable=SC2086
"$RB_BIN" run $sweep --max-samples 3 --devices opencl:0:0,opencl:0:1 --out "$tmp/two" 2>"$tmp/err"; st=$?
two=$(ls -d "$tmp"/two/*/ | head -n 1)
tap_ok $st "a sweep over two devices succeeds"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
# shellcheck disable=SC2086
"$RB_BIN" run $sweep --max-samples 3 --device opencl:0:0 --out "$tmp/one" 2>"$tmp/err"
one=$(ls -d "$tmp"/one/*/ | head -n 1)
keys "$one/records.jsonl" | sort > "$tmp/one.keys"
keys "$two/records.jsonl" | sort > "$tmp/two.keys"
tap_ok $([ -s "$tmp/one.keys" ] && cmp -s "$tmp/one.keys" "$tmp/two.keys"; echo $?) \
    "the same keys as on one device"
tap_ok $([ -z "$(uniq -d "$tmp/two.keys")" ]; echo $?) "each key once"
n0=$(grep -c '"device_id":"opencl:0:0"' "$two/records.jsonl")
n1=$(grep -c '"device_id":"opencl:0:1"' "$two/records.jsonl")
tap_ok $([ "$n0" -gt 0 ] && [ "$n1" -gt 0 ] \
         && [ $((n0 + n1)) -eq "$(wc -l < "$tmp/two.keys")" ]; echo $?) \
    "the cases split over both devices ($n0 and $n1)"

# --resume of the finished run keeps its devices and adds nothing.
lines=$(wc -l < "$two/records.jsonl")
"$RB_BIN" run --resume "$two" --no-plot --no-ceilings --no-db --quiet 2>"$tmp/err"; st=$?
tap_ok $([ $st -eq 0 ] && [ "$(wc -l < "$two/records.jsonl")" -eq "$lines" ] \
         && grep -q '"devices": *"opencl:0:0,opencl:0:1"' "$two/meta.json"; echo $?) \
    "--resume keeps the device list and adds no record"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
expect_usage_error "--resume with another device list is refused" \
    run --resume "$two" --devices opencl:0:1

# A worker killed mid-run (cases of 1.5 s each, so that a worker is almost
# always inside one): the records it sent are kept, its case is named,
# and --resume completes the run with each key once.  The first record may
# take long where the kernels' first compile is slow (PoCL under ASan on a
# loaded machine took over 10 s), so the wait is up to 120 s, and the kill
# only once a record is in.
if command -v pgrep >/dev/null; then
    # shellcheck disable=SC2086
    "$RB_BIN" run $sweep --min-time 1.5 --devices opencl:0:0,opencl:0:1 \
        --out "$tmp/kill" 2>"$tmp/kerr" & parent=$!
    pid= busy=
    for _ in $(seq 1200); do
        pid=$(pgrep -f -- "--worker $tmp/kill" | head -n 1)
        # once a record is in, the worker is busy with its next case
        if [ -n "$pid" ] && [ -s "$(ls -d "$tmp"/kill/*/ 2>/dev/null | head -n 1)records.jsonl" ]
        then
            busy=1
            break
        fi
        kill -0 "$parent" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$busy" ] && kill -9 "$pid"
    [ -n "$busy" ] || tap_diag "no worker seen busy after a record (120 s at most): none killed"
    wait $parent; st=$?
    kill=$(ls -d "$tmp"/kill/*/ | head -n 1)
    tap_ok $([ $st -eq 1 ] && grep -q 'ended (killed by signal 9) before finishing' "$tmp/kerr"
             echo $?) "a killed worker's case is reported (exit $st)"
    [ $st -eq 1 ] || tap_diag "$(cat "$tmp/kerr")"
    "$RB_BIN" run --resume "$kill" --no-plot --no-ceilings --no-db --quiet 2>"$tmp/err"
    keys "$kill/records.jsonl" | sort > "$tmp/kill.keys"
    tap_ok $(cmp -s "$tmp/one.keys" "$tmp/kill.keys"; echo $?) \
        "and --resume completes the run, each key once"
else
    tap_skip "no pgrep to find a worker"
    tap_skip "no pgrep to find a worker"
fi
