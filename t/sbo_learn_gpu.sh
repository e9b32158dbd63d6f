# SPDX-License-Identifier: MIT
# sbo-learn on the first CUDA or HIP device (t/sbo_learn_cuda.sh and
# t/sbo_learn_hip.sh set backend and NAME, then source this): the omp
# trainer's files and rows, the device, the block update and what
# train_seconds holds in summary.txt, a final RMSE within 3% of omp's on the
# same patches, polar and jacobi (and cuBLAS's GEMMs on CUDA where built);
# bad device indices and switches exit 2 (t/sbo_learn_lib.sh's checks).
# Without a device the run must be one line and exit status 2; then the
# test is skipped.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
. "$RB_TOP_SRCDIR/t/sbo_learn_lib.sh"
bin=$(dirname "$RB_BIN")/sbo-learn
[ -x "$bin" ] || tap_skip_all "no sbo-learn next to $RB_BIN (needs BLAS and OpenMP)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
camera="$RB_TOP_SRCDIR/datasets/camera.pgm"
seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
small="--image $camera --patches 2000 --blocks 3 --seed $seed"
other=cuda
[ "$backend" = cuda ] && other=hip

# shellcheck disable=SC2086
"$bin" $small --backend $backend --out dev 2>log; st=$?
grep -q "built without $NAME" log && tap_skip_all "sbo-learn built without $NAME"
if grep -q "no $NAME device" log; then
    # The binary started without a driver and said so in one line.
    if [ $st -eq 2 ] && [ "$(wc -l < log)" -eq 1 ] && [ ! -e dev ]; then
        tap_skip_all "$(sed 's/^sbo-learn: //' log)"
    fi
    echo "1..1"
    echo "not ok 1 - without a device: exit status 2, one line, no --out folder"
    tap_diag "status $st, stderr:" "$(cat log)"
    exit 0
fi

# The omp run is the reference of the RMSE checks.
"$bin" $small --out omp 2>/dev/null || { echo "1..1"; echo "not ok 1 - omp run"; exit 0; }
# shellcheck disable=SC2086
"$bin" $small --backend $backend --svd jacobi --out jac 2>/dev/null; jst=$?
# shellcheck disable=SC2086
"$bin" $small --backend $backend --profile --out prof 2>/dev/null; pst=$?
blas=0
if [ "$backend" = cuda ]; then
    # shellcheck disable=SC2086
    "$bin" $small --backend cuda --cublas --out blas 2>blas.log; bst=$?
    grep -q 'no cuBLAS' blas.log || blas=1
fi

tap_plan $((26 + 10 * blas))
tap_diag "seed $seed: 2000 random sliding patches of camera.pgm, 3 blocks"
tap_ok $st "sbo-learn --backend $backend runs"
[ "$(grep -c '^blocks ' log)" -eq 3 ] && grep -q '^final rmse ' log
tap_ok $? "progress: one line per block count, then the final RMSE"
check_run dev polar
s=dev/summary.txt
[ "$(field $s ${backend}_device)" = 0 ] && [ "$(field $s cublas)" = 0 ] \
    && [ -n "$(field $s block)" ] && [ -n "$(field $s setup_seconds)" ]
tap_ok $? "summary: ${backend}_device 0, cublas 0, block, setup_seconds"
tap_ok $jst "--svd jacobi runs"
check_run jac jacobi
tap_ok $pst "--profile runs"
check_profile prof
if [ $blas -eq 1 ]; then
    tap_ok $bst "--cublas runs"
    check_run blas polar
    [ "$(field blas/summary.txt cublas)" = 1 ]
    tap_ok $? "--cublas: summary says cublas 1"
fi

expect_error "--${backend}-device past the last device" $small --backend $backend \
    --${backend}-device 63
expect_error "--${other}-device with --backend $backend" $small --backend $backend \
    --${other}-device 0
expect_error "--${backend}-device with another backend" $small --${backend}-device 0
if [ "$backend" = hip ]; then
    expect_error "--cublas with --backend hip" $small --backend hip --cublas
elif [ $blas -eq 0 ]; then
    expect_error "--cublas where built without cuBLAS" $small --backend cuda --cublas
else
    expect_error "--cublas with another backend" $small --cublas
fi
