# SPDX-License-Identifier: MIT
# Time against the block size (CUDA, HIP) or work-group size (OpenCL) of
# every GPU Sammon series at the largest N the run timed them at: the
# paper's block-size study (it found 16 best on a Vega 56).
#   gnuplot -e "in='RUN/records.tsv'; outdir='RUN/plots'" sammon_block.gp
if (!exists("in")) in = "records.tsv"
if (!exists("outdir")) outdir = "."
# This script's folder (ARG0 is its path): everything up to the last "/".
dir(s) = (p = strstrt(s, "/"), p ? s[1:p].dir(s[p+1:]) : "")
call dir(ARG0)."block_vs_time.gp" "sammon" "points" "sammon_block" \
    "Sammon mapping: time against block size"
