# SPDX-License-Identifier: MIT
# SBO's representation error against the number of blocks, from sbo-learn's
# rmse.tsv (blocks, round, rmse, seconds): the last refinement round of each
# block count, log y.  Not a records figure, so `reprobench plot` does not
# run it; `make sbo-figures` does:
#   gnuplot -e "in='rmse.tsv'; out='sbo-rmse'; name='16384 patches'" sbo-rmse.gp
if (!exists("in")) in = "rmse.tsv"
if (!exists("out")) out = "sbo-rmse"
if (!exists("name")) name = in
set datafile separator tab
set datafile columnheaders

# The RMSE after the last round of each block count: rows come in training
# order, so the last row seen for a count holds it.
stats in using "blocks" nooutput
nmax = int(STATS_max)
array fin[nmax]
do for [k = 1:nmax] { fin[k] = NaN }
stats in using (fin[int(column("blocks"))] = column("rmse"), 0) nooutput
lo = fin[1]
hi = fin[1]
do for [k = 2:nmax] { lo = fin[k] < lo ? fin[k] : lo; hi = fin[k] > hi ? fin[k] : hi }
# The '+' pseudo-file below has no header line.
set datafile nocolumnheaders

set logscale y
set grid lc rgb "#dddddd"
set xlabel "blocks (64 atoms each)"
set ylabel "RMSE (pixel values 0..255)"
set xtics 1
set xrange [0.5:nmax + 0.5]
set format y "%g"
set yrange [lo / 1.1:hi * 1.1]
# A log axis over less than a decade gets no automatic labels: label round
# values at a step of about a fifth of the range.
step = 10 ** floor(log10((hi * 1.1 - lo / 1.1) / 2))
set ytics ()
do for [t = ceil(lo / 1.1 / step):floor(hi * 1.1 / step)] { set ytics add (t * step) }
unset key
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 800,560 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 5.5in,4in font ",9" noenhanced
    }
    set output out.".".fmt
    set title sprintf("SBO on mean-removed 8x8 patches: %s", name)
    plot sample [k = 1:nmax:1] "+" using (k):(fin[k]) with linespoints pt 7 lw 2, \
         [k = 1:nmax:1] "+" using (k):(fin[k]):(sprintf("%.2f", fin[k])) with labels \
             offset 0, 1
    unset output
}
