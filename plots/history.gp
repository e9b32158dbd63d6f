# SPDX-License-Identifier: MIT
# A history from the results store: one panel per series, each machine's
# median time per run against the run's start, in its p10-p90 band.  Reads
# the table `reprobench history --plot FILE` writes beside FILE.
#   gnuplot -e "in='history.tsv'; out='history.png'; name='title'" history.gp
if (!exists("in")) in = "history.tsv"
if (!exists("out")) out = "history.png"
if (!exists("name")) name = ""
set datafile separator tab
set datafile columnheaders

# The panels' labels and the machines, as word lists ('|' for a space).
labels = ""
machines = " "
mnames = ""
npanels = 0
collect(x) = (p = column("panel"), \
              p > npanels ? (npanels = p, labels = labels.strcol("series")." ") : 0, \
              strstrt(machines, " ".strcol("machine")." ") ? 0 \
              : (machines = machines.strcol("machine")." ", mnames = mnames.strcol("mname")." "), \
              0)
stats in using (collect(0)) nooutput
stats in using "t" nooutput
tmin = STATS_min
tmax = STATS_max
if (tmax - tmin < 120) { tmin = tmin - 60; tmax = tmax + 60 }
pad = (tmax - tmin) * 0.04
stats in using "p10" nooutput
ymin = STATS_min
stats in using "p90" nooutput
ymax = STATS_max

spaced(s) = (k = strstrt(s, "|"), k ? s[1:k-1]." ".spaced(s[k+1:]) : s)
sel(p, i, c) = (column("panel") == p && strcol("machine") eq word(machines, i)) ? column(c) : NaN

cols = npanels > 1 ? 2 : 1
rows = (npanels + cols - 1) / cols
set terminal pngcairo size 700 * cols, 340 * rows + 40 font ",9" noenhanced
set output out
set xdata time
set timefmt "%s"
# Tics for the span: seconds within a sitting, days across weeks.
span = tmax - tmin
set format x (span < 7200 ? "%H:%M:%S" : span < 3 * 86400 ? "%m-%d\n%H:%M" : "%Y-%m-%d")
set xtics span / 4
set xrange [tmin - pad:tmax + pad]
# Bands of a loaded machine reach 100x the median: then a log scale keeps
# the medians readable; otherwise the axis starts at 0 to show drift to
# scale.
if (ymin > 0 && ymax / ymin > 10) {
    set logscale y 10
    set format y "%g"
} else {
    set yrange [0:*]
    set offsets 0, 0, graph 0.1, 0
}
set ylabel "median ms (band: p10 to p90)"
set grid xtics ytics lc rgb "#dddddd"
set key top left noenhanced font ",8"
set style fill transparent solid 0.2 noborder
set multiplot layout rows, cols title name noenhanced
do for [p=1:npanels] {
    set title spaced(word(labels, p)) noenhanced font ",9"
    plot for [i=1:words(machines)] in using (sel(p, i, "t")):(sel(p, i, "p10")):(sel(p, i, "p90")) \
             with filledcurves lc i notitle, \
         for [i=1:words(machines)] in using (sel(p, i, "t")):(sel(p, i, "median")) \
             with linespoints lc i pt 7 ps 0.8 title spaced(word(mnames, i))
}
unset multiplot
unset output
