# SPDX-License-Identifier: MIT
# A 2-D Sammon embedding (sammon-embed's TSV: x, y, label) as a scatter
# plot coloured by class.  Not a records figure, so `reprobench plot` does
# not run it; `make embeddings` and `sammon-embed --plot` do:
#   gnuplot -e "in='iris.tsv'; out='iris'; name='iris'" sammon-embedding.gp
# writes iris.png and iris.pdf; fmts='png' writes the PNG alone.
if (!exists("in")) in = "embedding.tsv"
if (!exists("out")) out = "embedding"
if (!exists("name")) name = in
if (!exists("fmts")) fmts = "png pdf"
set datafile separator tab
set datafile columnheaders

stats in using "label" nooutput
lo = int(STATS_min)
hi = int(STATS_max)
of(k) = column("label") == k ? column("y") : NaN

# Ten distinct colours (gnuplot's default cycle repeats after eight).
array colours[10] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", \
                     "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
colour(k) = colours[k % 10 + 1]

set size ratio -1
set key outside right top noenhanced title "class"
set grid lc rgb "#eeeeee"
set xlabel "Sammon coordinate 1"
set ylabel "Sammon coordinate 2"
do for [fmt in fmts] {
    if (fmt eq "png") {
        set terminal pngcairo size 900,760 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 6in,5in font ",9" noenhanced
    }
    set output out.".".fmt
    set title sprintf("Sammon mapping of %s (%d points)", name, STATS_records)
    plot for [k=lo:hi] in using "x":(of(k)) with points pt 7 ps 0.5 lc rgb colour(k) title sprintf("%d", k)
    unset output
}
