/* SPDX-License-Identifier: MIT */
/* The SBO paper as the report quotes it: title, headline claim, figures. */
#include "harness/paper.h"

/* the paper's words                                    its figure  reference */
static const struct rb_claim claims[] = {
    { "the OpenCL GPU implementation accelerates SBO dictionary learning over "
      "the CPU (no figure quoted here)", "GPU > CPU", RB_CLAIM_BASELINE, "the CPU baseline" },
    { NULL, NULL, RB_CLAIM_BASELINE, NULL }
};

static const struct rb_caption captions[] = {
    { "sbo_time", "Time of a representation pass and of a whole training against the "
      "number of signals m, each series at its fastest setting" },
    { "sbo_block", "Time against the block or work-group size (the paper's m-tilde) at "
      "the largest m" },
    { "sbo_speedup", "Speedup over the serial CPU version against m" },
    { NULL, NULL }
};

/* Registered whether or not BLAS was found: the report reads old runs too. */
const struct rb_paper sbo_paper = {
    .name = "sbo",
    .title = "Irofti, Efficient GPU Implementation for Single Block Orthogonal "
             "Dictionary Learning (arXiv:1412.4944)",
    .claims = claims,
    .captions = captions,
};
