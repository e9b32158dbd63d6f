#!/bin/sh
# SPDX-License-Identifier: MIT
# sbo-learn --backend opencl on the first OpenCL device (PoCL here): the same
# files and rows as the omp trainer, the device and what train_seconds holds
# in summary.txt, a final RMSE within 3% of omp's on the same patches, both
# block updates (polar, jacobi); a bad device index or switch exits 2
# (t/sbo_learn_lib.sh's checks).
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
. "$RB_TOP_SRCDIR/t/sbo_learn_lib.sh"
backend=opencl
bin=$(dirname "$RB_BIN")/sbo-learn
[ -x "$bin" ] || tap_skip_all "no sbo-learn next to $RB_BIN (needs BLAS and OpenMP)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
camera="$RB_TOP_SRCDIR/datasets/camera.pgm"
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
small="--image $camera --patches 2000 --blocks 3 --seed $seed"

# The omp run first: it is the reference of the RMSE check.
"$bin" $small --out omp 2>/dev/null || { echo "1..1"; echo "not ok 1 - omp run"; exit 0; }
# shellcheck disable=SC2086
"$bin" $small --backend opencl --out cl 2>log; st=$?
grep -q 'built without OpenCL' log && tap_skip_all "sbo-learn built without OpenCL"
grep -q 'no OpenCL platform\|no OpenCL device' log && tap_skip_all "$(tail -n 1 log)"

tap_plan 26
tap_diag "seed $seed: 2000 random sliding patches of camera.pgm, 3 blocks"
tap_ok $st "sbo-learn --backend opencl runs"
[ "$(grep -c '^blocks ' log)" -eq 3 ] && grep -q '^final rmse ' log
tap_ok $? "progress: one line per block count, then the final RMSE"
check_run cl polar
# shellcheck disable=SC2086
"$bin" $small --backend opencl --svd jacobi --out jac 2>/dev/null
tap_ok $? "--svd jacobi runs"
check_run jac jacobi
# shellcheck disable=SC2086
"$bin" $small --backend opencl --profile --out prof 2>/dev/null
tap_ok $? "--profile runs"
check_profile prof

expect_error "--device past the last device" $small --backend opencl --device opencl:63
expect_error "--svd other than polar or jacobi" $small --backend opencl --svd qr
expect_error "--svd without a device backend" $small --svd jacobi
expect_error "--device with another backend" $small --device opencl:0:0
expect_error "--profile with another backend" $small --profile
