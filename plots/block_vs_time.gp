# SPDX-License-Identifier: MIT
# Time against the block size (CUDA, HIP) or work-group size (OpenCL) of
# every GPU series of a paper at the largest size the run timed them at.
# Not a figure of its own: a paper's script calls it,
#   call "block_vs_time.gp" PAPER SIZE OUTNAME "TITLE"
# with `in` and `outdir` set as reprobench plot sets them, and dir() as
# the paper's scripts define it.
paper = ARG1
xsize = ARG2
outname = ARG3
title = ARG4
log_axes = dir(ARG0)."log_axes.gp"   # first: ARG0 is gone after a call returns
set datafile separator tab

# Which of the columns block and wg this TSV has: read its header as data.
set datafile nocolumnheaders
stats in every ::0::0 using (0) nooutput
ncol = STATS_columns
have_block = 0
have_wg = 0
stats in every ::0::0 using (sum [i=1:ncol] (strcol(i) eq "block" ? have_block = 1 : 0), 0) nooutput
stats in every ::0::0 using (sum [i=1:ncol] (strcol(i) eq "wg" ? have_wg = 1 : 0), 0) nooutput
set datafile columnheaders
set datafile missing NaN
if (!have_block && !have_wg) {
    print outname.": no block or wg column in ".in
    exit
}

num(c) = (t = strcol(c), t eq "" || t eq "NaN" ? NaN : t + 0)
size(x) = have_block && num("block") == num("block") ? num("block") \
          : have_wg ? num("wg") : NaN
label(x) = strcol("algo")."|".strcol("variant")."|".strcol("backend")."|".strcol("prec")
spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
gpu(x) = strcol("paper") eq paper && strcol("status") eq "ok" && size(0) == size(0)
nmax = 0
stats in using (gpu(0) && column(xsize) > nmax ? nmax = column(xsize) : 0) nooutput
if (nmax == 0) {
    print outname.": no successful GPU ".paper." records in ".in
    exit
}
keep(x) = gpu(0) && column(xsize) == nmax
collect(x) = (keep(0) ? (k = label(0), strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." ")) : 0, 0)
sel(k) = keep(0) && label(0) eq k ? column("median_ms") : NaN
acc = " "
stats in using (collect(0)) nooutput
series = acc

set logscale x 2
set logscale y
set format x "%g"
ax(x) = keep(0) ? size(0) : NaN
ay(x) = keep(0) ? column("median_ms") : NaN
call log_axes in "y"
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set xlabel "threads per block / work-group"
set ylabel "time per run (ms, median)"
set grid xtics ytics mytics lc rgb "#dddddd"
set key outside right top noenhanced
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1400,700 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 9in,4.5in font ",9" noenhanced
    }
    set output outdir."/".outname.".".fmt
    set title sprintf("%s at %s = %d", title, xsize, nmax)
    plot for [i=1:words(series)] in using (size(0)):(sel(word(series, i))) \
             with points lc i pt 7 ps 0.6 notitle, \
         for [i=1:words(series)] in using (size(0)):(sel(word(series, i))) \
             smooth unique with lines lc i lw 1.5 title spaced(word(series, i))
    unset output
}
