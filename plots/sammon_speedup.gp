# SPDX-License-Identifier: MIT
# Speedup of every Sammon series at its fastest tunable (best.tsv) over the
# paper's CPU baseline (serial standard, one thread, same precision and
# sizes) against the number of points N.
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" sammon_speedup.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
# This script's folder (ARG0 is its path): everything up to the last "/".
dir(s) = (p = strstrt(s, "/"), p ? s[1:p].dir(s[p+1:]) : "")
call dir(ARG0)."speedup_vs_size.gp" "sammon" "points" "dim outdim iters" "sammon_speedup" \
    "Sammon mapping: speedup over one CPU thread, each series at its fastest tunable" \
    "serial standard"
