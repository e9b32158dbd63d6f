# SPDX-License-Identifier: MIT
# Speedup of every series at its fastest tunable (best.tsv, beside
# records.tsv) over its paper's CPU baseline (same algorithm, precision and
# sizes; the `speedup` column) against one size axis, one line per variant,
# backend and precision (and the other sizes named).  Not a figure of its
# own: a paper's script calls it,
#   call "speedup_vs_size.gp" PAPER XAXIS "OTHER SIZES" OUTNAME "TITLE" "BASELINE"
# with `in` and `outdir` set as reprobench plot sets them, and dir() as
# the paper's scripts define it.
paper = ARG1
xcol = ARG2
others = ARG3
outname = ARG4
title = ARG5
baseline = ARG6
log_axes = dir(ARG0)."log_axes.gp"   # first: ARG0 is gone after a call returns
best = in[1:strlen(in) - strlen("records.tsv")]."best.tsv"
set datafile separator tab
set datafile columnheaders
set datafile missing NaN

other(i) = i <= words(others) ? "|".word(others, i)."=".strcol(word(others, i)) : ""
label(x) = strcol("variant")."|".strcol("backend")."|".strcol("prec") \
           .other(1).other(2).other(3).other(4)
spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
has(c) = (h = strcol(c), h ne "" && h ne "NaN")
keep(x) = strcol("paper") eq paper && strcol("status") eq "ok" \
          && strcol("baseline") eq "0" && has("speedup")
collect(x) = (keep(0) ? (k = label(0), strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." ")) : 0, 0)
sel(k) = keep(0) && label(0) eq k ? column("speedup") : NaN

acc = " "
stats best using (collect(0)) nooutput
series = acc
if (words(series) == 0) {
    print outname.": no ".paper." record with a baseline to compare in ".best
    exit
}

set logscale x 2
set logscale y 2
set format x "%g"
set format y "%g"
ax(x) = keep(0) ? column(xcol) : NaN
call log_axes best
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set xlabel xcol
set ylabel "speedup over ".baseline." (median / median)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key outside right top noenhanced
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1400,700 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 9in,4.5in font ",9" noenhanced
    }
    set output outdir."/".outname.".".fmt
    set title title
    plot for [i=1:words(series)] best using xcol:(sel(word(series, i))) \
             with points lc i pt 7 ps 0.6 notitle, \
         for [i=1:words(series)] best using xcol:(sel(word(series, i))) \
             smooth unique with lines lc i lw 1.5 title spaced(word(series, i)), \
         1 with lines dt 2 lc rgb "black" title "1x"
    unset output
}
