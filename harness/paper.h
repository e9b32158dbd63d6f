/* SPDX-License-Identifier: MIT */
/* What the report says of each paper, defined next to the paper
 * (impl/<paper>/<paper>_paper.c) and reached through the registry. */
#ifndef RB_PAPER_H
#define RB_PAPER_H

#include <stddef.h>

/* Which CPU record a claim divides by. */
enum rb_claim_ref {
    RB_CLAIM_BASELINE,          /* the paper's baseline record ("baseline": true) */
    RB_CLAIM_OMP_MOST_THREADS,  /* OpenMP at the largest "threads" timed */
};

struct rb_claim {
    const char *words;          /* what the paper says, with its setting; NULL ends */
    const char *figure;         /* its number */
    enum rb_claim_ref ref;
    const char *ref_name;
};

struct rb_caption {
    const char *figure;         /* the figure's file name without extension; NULL ends */
    const char *caption;        /* what it shows */
};

struct rb_paper {
    const char *name;
    const char *title;
    const struct rb_claim *claims;
    const struct rb_caption *captions;
};

/* The i-th paper, in the papers' fixed order, or NULL past the end. */
const struct rb_paper *rb_registry_paper(size_t i);

#endif
