#!/bin/sh
# SPDX-License-Identifier: MIT
# A small real Sammon sweep, then reprobench plot: best.tsv carries the
# stress metrics as columns, and every Sammon figure is drawn; the block-size
# figure needs a GPU-style backend, so it is checked where OpenCL runs.  A
# sweep of one size still gets an x axis (an octave either side), with no
# warning from gnuplot.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
command -v gnuplot >/dev/null 2>&1 || tap_skip_all "gnuplot not found"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

backends=serial,omp
"$RB_BIN" list --paper sammon --backend opencl 2>/dev/null | grep -q " yes" \
    && backends=$backends,opencl
"$RB_BIN" list --paper sammon --backend omp 2>/dev/null | grep -q " yes" \
    || backends=serial

tap_plan 10
"$RB_BIN" run --paper sammon --backend $backends --points 33,64 --dim 4 --threads 1 \
    --wg 16 --prec f32 --min-samples 2 --min-time 0.01 --quiet --no-plot \
    --out "$tmp/res" > "$tmp/out" 2> "$tmp/err"
st=$?
tap_ok $st "a small sammon sweep on $backends succeeds"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
run=$(ls -d "$tmp"/res/*/ 2>/dev/null | head -n 1)
tab=$(printf '\t')
head -n 1 "$run/best.tsv" | grep -q "${tab}stress${tab}stress_ref$tab"
tap_ok $? "best.tsv has the stress and stress_ref columns"
"$RB_BIN" plot "$run" > "$tmp/out" 2> "$tmp/err"
tap_ok $? "reprobench plot succeeds"
for f in sammon_time sammon_speedup sammon_stress; do
    tap_ok $(head -c 4 "$run/plots/$f.png" 2>/dev/null | grep -q PNG; echo $?) "$f.png drawn"
done
case $backends in
*opencl*)
    tap_ok $(head -c 4 "$run/plots/sammon_block.png" 2>/dev/null | grep -q PNG; echo $?) \
        "sammon_block.png drawn" ;;
*)
    tap_skip "no OpenCL device for the block-size figure" ;;
esac
tap_ok $([ -s "$run/plots/sammon_time.pdf" ]; echo $?) "and the PDF"

"$RB_BIN" run --paper sammon --backend serial --points 33 --dim 4 --prec f32 \
    --min-samples 2 --min-time 0.01 --quiet --no-plot --out "$tmp/one" > "$tmp/out" 2> "$tmp/err" \
    && one=$(ls -d "$tmp"/one/*/ | head -n 1) && "$RB_BIN" plot "$one" > "$tmp/out" 2> "$tmp/err"
tap_ok $? "a sweep of one size is plotted"
! grep -i 'warning' "$tmp/err" && head -c 4 "$one/plots/sammon_time.png" 2>/dev/null | grep -q PNG
tap_ok $? "its sammon_time.png drawn with no gnuplot warning"
