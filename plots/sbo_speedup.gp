# SPDX-License-Identifier: MIT
# SBO: speedup of every series at its fastest tunable (threads, wg, block)
# over the serial `loops` baseline of the same algorithm and precision,
# against the number of signals m.
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" sbo_speedup.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
# This script's folder (ARG0 is its path): everything up to the last "/".
dir(s) = (p = strstrt(s, "/"), p ? s[1:p].dir(s[p+1:]) : "")
call dir(ARG0)."speedup_vs_size.gp" "sbo" "signals" "algo p s blocks" "sbo_speedup" \
    "SBO dictionary learning: speedup over one CPU thread, each series at its fastest tunable" \
    "serial loops"
