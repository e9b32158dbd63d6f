# SPDX-License-Identifier: MIT
# Figure 2 of the Givens paper: time of the forward and the backward pass
# against n, one line per series (variant, backend, precision, and the
# restricted m and the tunables where a record has them); median with
# p10-p90 bars.  Reads records.tsv by column name:
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" givens_fig2.gp
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

# A series label has no spaces ("roundrobin|omp|f32|threads=4"), so a list of
# them is a gnuplot word list; titles show it with spaces.
part(c) = (t = strcol(c), t eq "" || t eq "NaN" || t eq "0" ? "" : "|".c."=".t)
opt(i) = i <= words(present) ? part(word(present, i)) : ""
label(x) = strcol("variant")."|".strcol("backend")."|".strcol("prec").opt(1).opt(2).opt(3).opt(4).opt(5).opt(6).opt(7)
spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
keep(a) = strcol("paper") eq "givens" && strcol("status") eq "ok" && strcol("algo") eq a
collect(a) = (keep(a) ? (k = label(0), strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." ")) : 0, 0)
sel(a, k, col) = keep(a) && label(0) eq k ? column(col) : NaN

acc = " "
stats in using (collect("forward")) nooutput
series_forward = acc
acc = " "
stats in using (collect("backward")) nooutput
series_backward = acc
if (words(series_forward) + words(series_backward) == 0) {
    print "givens_fig2: no successful givens records in ".in
    exit
}

set logscale x 2
set logscale y
set format x "%g"
ax(x) = keep(a) ? column("n") : NaN
ay(x) = keep(a) ? column("median_ms") : NaN
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set xlabel "n"
set ylabel "time (ms, median; bars p10-p90)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key top left noenhanced opaque
set bars small
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1400,560 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 9in,3.6in font ",9" noenhanced
    }
    set output outdir."/givens_fig2.".fmt
    set multiplot layout 1,2 \
        title "Givens rotations: forward (U from the angles) and backward (JVP)"
    do for [a in "forward backward"] {
        s = a eq "forward" ? series_forward : series_backward
        set title a." pass"
        if (words(s) == 0) {
            set label 1 "no successful records" at graph 0.5, graph 0.5 center
            plot [1:10] [1:10] 1/0 notitle
            unset label 1
        } else {
            call log_axes in "y"
            plot for [i=1:words(s)] in \
                     using "n":(sel(a, word(s, i), "median_ms")):(sel(a, word(s, i), "p10_ms")) \
                     :(sel(a, word(s, i), "p90_ms")) with yerrorbars lc i pt 7 ps 0.6 notitle, \
                 for [i=1:words(s)] in using "n":(sel(a, word(s, i), "median_ms")) \
                     smooth unique with lines lc i lw 1.5 title spaced(word(s, i))
        }
    }
    unset multiplot
    unset output
}
