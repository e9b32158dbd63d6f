/* SPDX-License-Identifier: MIT */
/* The Sammon paper as the report quotes it: title, headline claims, figures. */
#include "harness/paper.h"

/* the paper's words                                    its figure  reference */
static const struct rb_claim claims[] = {
    { "the GPU is about 6 times faster than the 16-thread CPU "
      "(RX Vega 56 against OpenMP with AVX)", "~6x", RB_CLAIM_OMP_MOST_THREADS,
      "OpenMP at the most threads timed" },
    { "and almost 60 times faster than one CPU thread", "~60x", RB_CLAIM_BASELINE,
      "one CPU thread (serial standard)" },
    { NULL, NULL, RB_CLAIM_BASELINE, NULL }
};

static const struct rb_caption captions[] = {
    { "sammon_time", "The paper's Table II as a figure: time per run against N, "
      "each series at its fastest setting" },
    { "sammon_block", "Time against the block or work-group size at the largest N" },
    { "sammon_speedup", "Speedup over one CPU thread against N" },
    { "sammon_stress", "The paper's Table III as a figure: relative stress error "
      "against the fp64 reference" },
    { NULL, NULL }
};

const struct rb_paper sammon_paper = {
    .name = "sammon",
    .title = "Borisov and Myasnikov, Dimensionality reduction by gradient descent "
             "using graphics accelerators",
    .claims = claims,
    .captions = captions,
};
