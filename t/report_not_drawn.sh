#!/bin/sh
# SPDX-License-Identifier: MIT
# What a first report shows: a figure the records cannot draw (here the
# GPU block-size study of a CPU-only run) is named once, with the reason,
# in plots/not-drawn.tsv and in the report, not as a stderr line per
# figure; the hardware table gives the memory the system reports beside
# hwloc's count.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
command -v gnuplot >/dev/null 2>&1 || tap_skip_all "gnuplot not found"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR

tap_plan 6
"$RB_BIN" run --paper sammon --backend serial --points 33,64 --dim 4 --prec f32 \
    --min-samples 2 --min-time 0.01 --no-ceilings --out "$tmp/res" \
    >"$tmp/out" 2>"$tmp/err"
st=$?
run=$(ls -d "$tmp"/res/*/ | head -n 1)
run=${run%/}
tap_ok $([ $st -eq 0 ] && ! grep -q 'sammon_block' "$tmp/err"; echo $?) \
    "a CPU-only sammon run draws its plots with no stderr line about sammon_block"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
tap_ok $([ "$(grep -c '^not drawn.*sammon_block' "$tmp/out")" -eq 1 ]; echo $?) \
    "one line of its output names the figures not drawn"
tap_ok $(grep -q '^sammon_block	no block or wg column$' "$run/plots/not-drawn.tsv"; echo $?) \
    "plots/not-drawn.tsv gives sammon_block and why"
"$RB_BIN" report --quiet --no-plot "$run" >/dev/null 2>&1
md=$run/report/README.md
tap_ok $([ "$(grep -c 'sammon\\_block: no block or wg column' "$md")" -eq 1 ] \
         && [ "$(grep -c 'sammon\\_block: no block or wg column' "$run/report/index.html")" -eq 0 ] \
         && [ "$(grep -c 'sammon_block: no block or wg column' "$run/report/index.html")" -eq 1 ]; \
         echo $?) "the report names it once, with the reason"
want=$(( $(getconf _PHYS_PAGES) * $(getconf PAGE_SIZE) ))
have=$(sed -n 's/.*"system_memory_bytes": *\([0-9]*\).*/\1/p' "$run/hardware.json")
tap_ok $([ "$have" = "$want" ]; echo $?) "hardware.json: the system's memory ($have bytes)"
tap_ok $(grep -q '| memory | .* as the system reports it; .* as hwloc counts it |' "$md"; echo $?) \
    "the hardware table gives both counts"
