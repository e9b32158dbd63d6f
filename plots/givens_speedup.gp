# SPDX-License-Identifier: MIT
# Speedup of every non-baseline Givens series over its baseline (the
# `speedup` column: the baseline's median over the series' median at the same
# paper, algo, precision and sizes) against n, forward and backward panels.
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" givens_speedup.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
# This script's folder (ARG0 is its path): everything up to the last "/".
dir(s) = (p = strstrt(s, "/"), p ? s[1:p].dir(s[p+1:]) : "")
log_axes = dir(ARG0)."log_axes.gp"   # first: ARG0 is gone after a call returns
set datafile separator tab

# Which optional series columns this TSV has: read its header as data.
set datafile nocolumnheaders
stats in every ::0::0 using (0) nooutput
ncol = STATS_columns
present = ""
do for [c in "m threads block wg slots cols batch"] {
    found = 0
    stats in every ::0::0 using (sum [i=1:ncol] (strcol(i) eq c ? found = 1 : 0), 0) nooutput
    if (found) { present = present." ".c }
}
set datafile columnheaders
# Rows of other series are NaN: dropped, so each series' line stays whole.
set datafile missing NaN

# Series labels as in givens_fig2.gp: no spaces, "|" between the parts.
part(c) = (t = strcol(c), t eq "" || t eq "NaN" || t eq "0" ? "" : "|".c."=".t)
opt(i) = i <= words(present) ? part(word(present, i)) : ""
label(x) = strcol("variant")."|".strcol("backend")."|".strcol("prec").opt(1).opt(2).opt(3).opt(4).opt(5).opt(6).opt(7)
spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
# strcol, not column: a NaN read by column() would void the whole row, and a
# missing (NaN) field reads as "".
has(c) = (h = strcol(c), h ne "" && h ne "NaN")
keep(a) = strcol("paper") eq "givens" && strcol("status") eq "ok" && strcol("algo") eq a \
          && strcol("baseline") eq "0" && has("speedup")
collect(a) = (keep(a) ? (k = label(0), strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." ")) : 0, 0)
sel(a, k) = keep(a) && label(0) eq k ? column("speedup") : NaN

acc = " "
stats in using (collect("forward")) nooutput
series_forward = acc
acc = " "
stats in using (collect("backward")) nooutput
series_backward = acc
if (words(series_forward) + words(series_backward) == 0) {
    print "givens_speedup: no givens record with a baseline to compare in ".in
    exit
}

set logscale x 2
set logscale y 2
set format x "%g"
set format y "%g"
ax(x) = keep(a) ? column("n") : NaN
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set xlabel "n"
set ylabel "speedup over the baseline (median / median)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key top left noenhanced opaque
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1400,560 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 9in,3.6in font ",9" noenhanced
    }
    set output outdir."/givens_speedup.".fmt
    set multiplot layout 1,2 title "Givens rotations: speedup over the paper's CPU baseline"
    do for [a in "forward backward"] {
        s = a eq "forward" ? series_forward : series_backward
        set title a." pass"
        if (words(s) == 0) {
            set label 1 "no series with a baseline" at graph 0.5, graph 0.5 center
            plot [1:10] [0.5:2] 1/0 notitle
            unset label 1
        } else {
            call log_axes in
            plot for [i=1:words(s)] in using "n":(sel(a, word(s, i))) \
                     with points lc i pt 7 ps 0.6 notitle, \
                 for [i=1:words(s)] in using "n":(sel(a, word(s, i))) \
                     smooth unique with lines lc i lw 1.5 title spaced(word(s, i)), \
                 1 with lines dt 2 lc rgb "black" title "1x"
        }
    }
    unset multiplot
    unset output
}
