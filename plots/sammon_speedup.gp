# SPDX-License-Identifier: MIT
# Speedup of every Sammon series at its fastest tunable (best.tsv) over the
# paper's CPU baseline (serial standard, one thread, same precision and
# sizes) against the number of points N.
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" sammon_speedup.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
best = in[1:strlen(in) - strlen("records.tsv")]."best.tsv"
set datafile separator tab
set datafile columnheaders
set datafile missing NaN

label(x) = strcol("variant")."|".strcol("backend")."|".strcol("prec") \
           ."|dim=".strcol("dim")."|m=".strcol("outdim")."|iters=".strcol("iters")
spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
has(c) = (h = strcol(c), h ne "" && h ne "NaN")
keep(x) = strcol("paper") eq "sammon" && strcol("status") eq "ok" \
          && strcol("baseline") eq "0" && has("speedup")
collect(x) = (keep(0) ? (k = label(0), strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." ")) : 0, 0)
sel(k) = keep(0) && label(0) eq k ? column("speedup") : NaN

acc = " "
stats best using (collect(0)) nooutput
series = acc
if (words(series) == 0) {
    print "sammon_speedup: no sammon record with a baseline to compare in ".best
    exit
}

set logscale x 2
set logscale y 2
set format x "%g"
set format y "%g"
set autoscale xfix
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set xlabel "points N"
set ylabel "speedup over serial standard (median / median)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key outside right top noenhanced
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1400,700 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 9in,4.5in font ",9" noenhanced
    }
    set output outdir."/sammon_speedup.".fmt
    set title "Sammon mapping: speedup over one CPU thread, each series at its fastest tunable"
    plot for [i=1:words(series)] best using "points":(sel(word(series, i))) \
             with points lc i pt 7 ps 0.6 notitle, \
         for [i=1:words(series)] best using "points":(sel(word(series, i))) \
             smooth unique with lines lc i lw 1.5 title spaced(word(series, i)), \
         1 with lines dt 2 lc rgb "black" title "1x"
    unset output
}
