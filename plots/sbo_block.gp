# SPDX-License-Identifier: MIT
# SBO: time against the block size (CUDA, HIP) or work-group size (OpenCL,
# the paper's m-tilde) of every GPU series at the largest m the run timed.
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" sbo_block.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
# This script's folder (ARG0 is its path): everything up to the last "/".
dir(s) = (p = strstrt(s, "/"), p ? s[1:p].dir(s[p+1:]) : "")
call dir(ARG0)."block_vs_time.gp" "sbo" "signals" "sbo_block" \
    "SBO dictionary learning: time against block size (m-tilde)"
