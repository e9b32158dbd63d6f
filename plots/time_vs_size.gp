# SPDX-License-Identifier: MIT
# Time per run against one size axis, one line per variant, backend and
# precision (and the other sizes named) at its fastest tunable setting
# (best.tsv, beside records.tsv); median with p10-p90 bars.  Not a figure of
# its own: a paper's script calls it,
#   call "time_vs_size.gp" PAPER XAXIS "OTHER SIZES" OUTNAME "TITLE"
# with `in` and `outdir` set as reprobench plot sets them, and dir() as
# the paper's scripts define it.
paper = ARG1
xcol = ARG2
others = ARG3
outname = ARG4
title = ARG5
log_axes = dir(ARG0)."log_axes.gp"   # first: ARG0 is gone after a call returns
best = in[1:strlen(in) - strlen("records.tsv")]."best.tsv"
set datafile separator tab
set datafile columnheaders
set datafile missing NaN

# A series label has no spaces ("standard-flat|cuda|f32|dim=64"): a word list.
other(i) = i <= words(others) ? "|".word(others, i)."=".strcol(word(others, i)) : ""
label(x) = strcol("variant")."|".strcol("backend")."|".strcol("prec") \
           .other(1).other(2).other(3).other(4)
spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
keep(x) = strcol("paper") eq paper && strcol("status") eq "ok"
collect(x) = (keep(0) ? (k = label(0), strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." ")) : 0, 0)
sel(k, col) = keep(0) && label(0) eq k ? column(col) : NaN

acc = " "
stats best using (collect(0)) nooutput
series = acc
if (words(series) == 0) {
    print outname.": no successful ".paper." records in ".best
    exit
}

set logscale x 2
set logscale y
set format x "%g"
ax(x) = keep(0) ? column(xcol) : NaN
ay(x) = keep(0) ? column("median_ms") : NaN
call log_axes best "y"
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set xlabel xcol
set ylabel "time per run (ms, median; bars p10-p90)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key outside right top noenhanced
set bars small
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1400,700 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 9in,4.5in font ",9" noenhanced
    }
    set output outdir."/".outname.".".fmt
    set title title
    plot for [i=1:words(series)] best \
             using xcol:(sel(word(series, i), "median_ms")):(sel(word(series, i), "p10_ms")) \
             :(sel(word(series, i), "p90_ms")) with yerrorbars lc i pt 7 ps 0.6 notitle, \
         for [i=1:words(series)] best using xcol:(sel(word(series, i), "median_ms")) \
             smooth unique with lines lc i lw 1.5 title spaced(word(series, i))
    unset output
}
