#!/bin/sh
# SPDX-License-Identifier: MIT
# reprobench learn: the same files as its old name sbo-learn from the same
# options (times aside), --image repeatable, and a --help written from the
# option table (every option listed, every option listed accepted).
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
old=$(dirname "$RB_BIN")/sbo-learn
[ -x "$old" ] || tap_skip_all "no sbo-learn next to $RB_BIN (needs BLAS and OpenMP)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
opts="--image --patches --distinct --blocks --s --rounds --iters --worst --backend
--threads --svd --clblast --cublas --device --profile --seed --out --help"
img="$RB_TOP_SRCDIR/datasets/camera.pgm"
tap_plan 6

# Times differ from run to run; everything else is the same.
untimed() { grep -v '_seconds' "$1/summary.txt"; cut -f 1-3 "$1/rmse.tsv"; }
args="--image $img --image $img --patches 1500 --blocks 2 --rounds 1 --iters 2 --threads 1"
# shellcheck disable=SC2086
"$RB_BIN" learn $args --backend omp --out new 2>/dev/null; st_new=$?
# shellcheck disable=SC2086
"$old" $args --backend omp --out old 2>/dev/null
[ "$st_new" -eq 0 ] && cmp -s new/atoms.pgm old/atoms.pgm \
    && [ "$(untimed new)" = "$(untimed old)" ]
tap_ok $? "learn and sbo-learn write the same files (omp, --image twice)"
[ "$(grep -c '^image' new/summary.txt)" -eq 2 ]
tap_ok $? "--image is repeatable"

"$RB_BIN" learn --blocks 0 >out 2>err; st=$?
[ "$st" -eq 2 ] && [ "$(wc -l < err)" -eq 1 ] && grep -q '^reprobench: --blocks' err
tap_ok $? "a bad value: exit 2, one line naming the option"

help_checks learn "$old" "$opts" --blocks 0
