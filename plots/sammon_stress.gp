# SPDX-License-Identifier: MIT
# Table III of the Sammon paper as a figure: the final stress of every
# series (at its fastest tunable, best.tsv) against the fp64 serial
# reference's from the same start and iterations, as the relative
# difference |E - E_ref| / E_ref against N.  E is the textbook stress
# (1/c) sum (d* - d)^2 / d*.
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" sammon_stress.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
# This script's folder (ARG0 is its path): everything up to the last "/".
dir(s) = (p = strstrt(s, "/"), p ? s[1:p].dir(s[p+1:]) : "")
log_axes = dir(ARG0)."log_axes.gp"   # first: ARG0 is gone after a call returns
best = in[1:strlen(in) - strlen("records.tsv")]."best.tsv"
set datafile separator tab

set datafile nocolumnheaders
stats best every ::0::0 using (0) nooutput
ncol = STATS_columns
have = 0
stats best every ::0::0 using (sum [i=1:ncol] (strcol(i) eq "stress_ref" ? have = 1 : 0), 0) nooutput
set datafile columnheaders
set datafile missing NaN
if (!have) {
    print "sammon_stress: no stress columns in ".best
    exit
}

label(x) = strcol("variant")."|".strcol("backend")."|".strcol("prec") \
           ."|dim=".strcol("dim")."|m=".strcol("outdim")."|iters=".strcol("iters")
spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
keep(x) = strcol("paper") eq "sammon" && strcol("status") eq "ok"
collect(x) = (keep(0) ? (k = label(0), strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." ")) : 0, 0)
# A difference of exactly zero (the fp64 reference against itself) sits at
# the axis floor rather than vanishing from a log axis.
floor = 1e-17
rel(x) = (d = abs(column("stress") - column("stress_ref")) / column("stress_ref"), \
          d > floor ? d : floor)
sel(k) = keep(0) && label(0) eq k ? rel(0) : NaN

acc = " "
stats best using (collect(0)) nooutput
series = acc
if (words(series) == 0) {
    print "sammon_stress: no successful sammon records in ".best
    exit
}

set logscale x 2
set logscale y
set format x "%g"
set format y "%.0e"
ax(x) = keep(0) ? column("points") : NaN
ay(x) = keep(0) ? rel(0) : NaN
call log_axes best "y"
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set xlabel "points N"
set ylabel "|E - E_ref| / E_ref"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key outside right top noenhanced
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1400,700 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 9in,4.5in font ",9" noenhanced
    }
    set output outdir."/sammon_stress.".fmt
    set title "Sammon mapping: final stress against the fp64 serial reference (same start, same iterations)"
    plot for [i=1:words(series)] best using "points":(sel(word(series, i))) \
             with linespoints lc i pt 7 ps 0.6 title spaced(word(series, i))
    unset output
}
