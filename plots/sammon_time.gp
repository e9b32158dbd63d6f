# SPDX-License-Identifier: MIT
# Table II of the Sammon paper as a figure: time of one run (`iters`
# gradient-descent iterations) against the number of points N, each series
# at its fastest block / work-group / thread count.
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" sammon_time.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
# This script's folder (ARG0 is its path): everything up to the last "/".
dir(s) = (p = strstrt(s, "/"), p ? s[1:p].dir(s[p+1:]) : "")
call dir(ARG0)."time_vs_size.gp" "sammon" "points" "dim outdim iters" "sammon_time" \
    "Sammon mapping: gradient-descent run time, each series at its fastest tunable"
