/* SPDX-License-Identifier: MIT */
/* The Givens paper as the report quotes it: title, headline claim, figures. */
#include "harness/paper.h"

/* the paper's words                                    its figure  reference */
static const struct rb_claim claims[] = {
    { "GPU speedups over a sequential CPU for forward and backward "
      "'measure in the hundreds' (Tesla K80 against one Xeon E5-2690 thread, n up to 2000)",
      "hundreds", RB_CLAIM_BASELINE, "the sequential CPU baseline" },
    { NULL, NULL, RB_CLAIM_BASELINE, NULL }
};

static const struct rb_caption captions[] = {
    { "givens_fig2", "The paper's Figure 2: forward and backward time against n" },
    { "givens_speedup", "Speedup over the sequential CPU baseline against n" },
    { NULL, NULL }
};

const struct rb_paper givens_paper = {
    .name = "givens",
    .title = "Hamze, Parallelized Computation and Backpropagation Under "
             "Angle-Parametrized Orthogonal Matrices (arXiv:2106.00003)",
    .claims = claims,
    .captions = captions,
};
