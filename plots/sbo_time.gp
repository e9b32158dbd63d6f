# SPDX-License-Identifier: MIT
# SBO: time of a representation pass and of a whole training against the
# number of signals m, each series at its fastest tunable (threads, wg).
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" sbo_time.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
# This script's folder (ARG0 is its path): everything up to the last "/".
dir(s) = (p = strstrt(s, "/"), p ? s[1:p].dir(s[p+1:]) : "")
call dir(ARG0)."time_vs_size.gp" "sbo" "signals" "algo p s blocks" "sbo_time" \
    "SBO dictionary learning: time against the number of signals, each series at its fastest tunable"
