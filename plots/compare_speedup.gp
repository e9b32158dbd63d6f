# SPDX-License-Identifier: MIT
# Run B against run A: each case's speedup (A's median over B's, or minima,
# with the bootstrap interval as error bars) against its first size, one line
# per series (variant, backend, precision, other sizes and tunables).  Reads
# the table `reprobench compare --plot FILE` writes beside FILE.
#   gnuplot -e "in='x.tsv'; out='x.png'; aname='A'; bname='B'; metric='median'" \
#       compare_speedup.gp
if (!exists("in")) in = "compare.tsv"
if (!exists("out")) out = "compare.png"
if (!exists("aname")) aname = "A"
if (!exists("bname")) bname = "B"
if (!exists("metric")) metric = "median"
set datafile separator tab
set datafile columnheaders

# The series and the size axes present, as word lists (names hold no space).
acc = " "
axes = " "
collect(x) = (k = strcol("series"), a = strcol("axis"), \
              strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." "), \
              strstrt(axes, " ".a." ") ? 0 : (axes = axes.a." "), 0)
stats in using (collect(0)) nooutput
series = acc
stats in using "x" nooutput
xmin = STATS_min
stats in using "lo" nooutput
ymin = STATS_min
stats in using "hi" nooutput
ymax = STATS_max

spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
sel(k, c) = strcol("series") eq k ? column(c) : NaN

if (xmin > 0) { set logscale x 2 }
# A regression of 100x and one of 5% both have to read: log scale once the
# range spans more than a factor of 4.
if (ymin > 0 && ymax / ymin > 4) { set logscale y 10 }
set format x "%g"
set format y "%g"
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set xlabel (words(axes) == 1 ? word(axes, 1) : "size")
set ylabel "speedup of B over A (".aname." ".metric." / ".bname." ".metric.")"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key outside right top noenhanced
if (strlen(out) > 4 && out[strlen(out)-3:] eq ".pdf") {
    set terminal pdfcairo size 9in,4in font ",8" noenhanced
} else {
    set terminal pngcairo size 1400,640 font ",10" noenhanced
}
set output out
set title "B = ".bname." against A = ".aname.": above 1 B is faster" noenhanced
plot for [i=1:words(series)] in using "x":(sel(word(series, i), "speedup")) \
         :(sel(word(series, i), "lo")):(sel(word(series, i), "hi")) \
         with yerrorlines lc i pt 7 ps 0.7 title spaced(word(series, i)), \
     1 with lines dt 2 lc rgb "black" title "1x (same)"
unset output
