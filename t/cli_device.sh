#!/bin/sh
# SPDX-License-Identifier: MIT
# --device, one option for run, embed and learn: a device as `reprobench
# info` names it, checked against the backends built in (bad input is exit
# 2 with one line naming it); run keeps it in its stored plan, and a resume
# that asks for another device is refused.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR RB_MEM_LIMIT_MB
tap_plan 16

sel="--paper givens --backend serial --n 16 --m 0 --prec f32 --no-ceilings --quiet"
# shellcheck disable=SC2086
{
expect_usage_error "an unknown backend" run $sel --dry-run --device nope:0
expect_usage_error "no index" run $sel --dry-run --device cuda
expect_usage_error "an index that is not a number" run $sel --dry-run --device opencl:x
expect_usage_error "an index past 63" run $sel --dry-run --device opencl:0:64
expect_usage_error "a third index" run $sel --dry-run --device opencl:0:0:0
expect_usage_error "a host backend" run $sel --dry-run --device serial:0
expect_usage_error "a backend named twice" run $sel --dry-run --device opencl:0:0,opencl:0:1
}
if ! "$RB_BIN" list --backend opencl 2>/dev/null | grep -q opencl; then
    for k in 1 2 3 4 5 6 7 8 9; do tap_skip "this reprobench has no OpenCL"; done
    exit 0
fi
# shellcheck disable=SC2086
"$RB_BIN" run $sel --device opencl:0:0 --out out >/dev/null 2>"$tmp/err"; st=$?
run=$(ls -d out/*/ 2>/dev/null | head -n 1)
tap_ok $([ $st -eq 0 ] && [ -n "$run" ]; echo $?) "run --device opencl:0:0 runs (status $st)"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
tap_ok $(grep -q '"device": *"opencl:0:0"' "$run/meta.json"; echo $?) "the plan keeps the device"
# shellcheck disable=SC2086
expect_usage_error "a resume on another device" run --resume "$run" --device opencl:0:1
grep -q -- '--device' "$tmp/err"
tap_ok $? "the refusal names --device"
# shellcheck disable=SC2086
"$RB_BIN" run --resume "$run" >/dev/null 2>"$tmp/err"
tap_ok $? "a resume with the stored device continues"
# A plan stored before --device held one index per backend: read as picks.
sed 's/"device": *"opencl:0:0"/"cl_platform": 0, "cl_device": 0, "cuda_device": null, "hip_device": null/' \
    "$run/meta.json" > "$tmp/meta" && cp "$tmp/meta" "$run/meta.json"
"$RB_BIN" run --resume "$run" --device opencl:0:0 >/dev/null 2>"$tmp/err"
tap_ok $? "an older plan's cl_platform and cl_device read as --device opencl:0:0"
expect_usage_error "and another device refused" run --resume "$run" --device opencl:0:1
"$RB_BIN" embed --data iris --dedup --backend omp --device opencl:0:0 --iters 2 \
    >/dev/null 2>"$tmp/err"; st=$?
tap_ok $([ $st -eq 2 ] && grep -q 'not a device of --backend omp' "$tmp/err"; echo $?) \
    "embed: a device of another backend than --backend is exit 2 (status $st)"
"$RB_BIN" embed --data iris --dedup --device opencl:0:0 --iters 2 --out map.tsv 2>"$tmp/err"
st=$?
tap_ok $([ $st -eq 0 ] && grep -q 'backend opencl' "$tmp/err"; echo $?) \
    "embed: --device alone picks its backend (status $st)"
