# SPDX-License-Identifier: MIT
# The roofline of one device: every successful record's arithmetic intensity
# (flops over the fewest bytes, the record's "work") against the GFLOP/s it
# reached at its median time, one colour per variant and precision, under
# the device's ceilings: min(peak, bw x intensity) for FP32 and FP64.
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'; backend='cuda'" roofline.gp
# The ceilings come from RUN/ceilings.tsv (written by reprobench run) for
# `backend`; -e "bw=3800; peak=60000; peak64=30000" sets or overrides them
# (GB/s, GFLOP/s).  Without `backend` every backend's records are drawn and
# ceilings only if given.
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
if (!exists("backend")) backend = ""
ceilfile = in[1:strlen(in) - strlen("records.tsv")]."ceilings.tsv"
set datafile separator tab
set datafile columnheaders
set datafile missing NaN

# The run's measured ceilings of `backend`, where -e did not set them.
if (backend ne "" && system("test -r '".ceilfile."' && echo y") eq "y") {
    stats ceilfile using (strcol("backend") eq backend \
        ? (bw_run = column("copy_gbps"), peak_run = column("fp32_gflops"), \
           peak64_run = column("fp64_gflops"), 1) : 0) nooutput
    # NaN (a probe that failed) is not equal to itself: no ceiling then.
    if (!exists("bw") && exists("bw_run") && bw_run == bw_run) { bw = bw_run }
    if (!exists("peak") && exists("peak_run") && peak_run == peak_run) { peak = peak_run }
    if (!exists("peak64") && exists("peak64_run") && peak64_run == peak64_run) {
        peak64 = peak64_run
    }
}

# A series label has no spaces ("tiled|cuda|f32"): a word list.
label(x) = strcol("paper")."/".strcol("variant")."|".strcol("backend")."|".strcol("prec")
spaced(s) = (p = strstrt(s, "|"), p ? s[1:p-1]." ".spaced(s[p+1:]) : s)
keep(x) = strcol("status") eq "ok" && (backend eq "" || strcol("backend") eq backend) \
          && column("gflops") > 0 && column("intensity") > 0
collect(x) = (keep(0) ? (k = label(0), strstrt(acc, " ".k." ") ? 0 : (acc = acc.k." ")) : 0, 0)
sel(k, col) = keep(0) && label(0) eq k ? column(col) : NaN

acc = " "
stats in using (collect(0)) nooutput
series = acc
if (words(series) == 0) {
    print "roofline: no successful record with a work count" \
          .(backend ne "" ? " on ".backend : "")." in ".in
    exit
}

roof(x, p) = (exists("bw") ? (bw * x < p ? bw * x : p) : p)
set logscale xy
set format x "%g"
set format y "%g"
set xlabel "arithmetic intensity (flop / byte, fewest bytes)"
set ylabel "GFLOP/s (at the median time)"
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key outside right top noenhanced
# The x range holds every point and the ridge (peak / bw), with room around.
stats in using (keep(0) ? column("intensity") : NaN) nooutput
xlo = STATS_min / 2
xhi = STATS_max * 2
if (exists("bw") && exists("peak")) {
    xlo = xlo < peak / bw / 4 ? xlo : peak / bw / 4
    xhi = xhi > peak / bw * 4 ? xhi : peak / bw * 4
}
set xrange [xlo:xhi]
set samples 400
name = backend ne "" ? "roofline-".backend : "roofline"
do for [fmt in "png pdf"] {
    if (fmt eq "png") {
        set terminal pngcairo size 1400,800 font ",11" noenhanced
    } else {
        set terminal pdfcairo size 9in,5in font ",9" noenhanced
    }
    set output outdir."/".name.".".fmt
    set title "Roofline".(backend ne "" ? " of ".backend : "") \
        .(exists("bw") ? sprintf(": copy %.4g GB/s", bw) : "") \
        .(exists("peak") ? sprintf(", FP32 %.4g GFLOP/s", peak) : "") \
        .(exists("peak64") ? sprintf(", FP64 %.4g GFLOP/s", peak64) : "")
    plot for [i=1:words(series)] in using "intensity":(sel(word(series, i), "gflops")) \
             with points lc i pt 7 ps 0.8 title spaced(word(series, i)), \
         (exists("peak") ? roof(x, peak) : NaN) with lines lc rgb "black" lw 2 \
             title (exists("peak") ? "FP32 ceiling" : ""), \
         (exists("peak64") ? roof(x, peak64) : NaN) with lines lc rgb "black" lw 2 dt 2 \
             title (exists("peak64") ? "FP64 ceiling" : "")
    unset output
}
