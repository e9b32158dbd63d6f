/* SPDX-License-Identifier: MIT */
/* A planted union of orthonormal bases for dictionary learning: L random
 * orthonormal p x p blocks, each signal s-sparse in one random block with
 * Gaussian coefficients, plus white Gaussian noise at a chosen SNR
 * (shared/notes/sbo.md, section 6).  Column-major, as impl/sbo/sbo.h. */
#ifndef RB_PLANTED_H
#define RB_PLANTED_H

#include <stdint.h>
#include "impl/common/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rb_planted {
    int p, m, L, s;
    double snr_db;          /* INFINITY: no noise */
    double *D;              /* L blocks of p x p, column-major, orthonormal */
    double *Y;              /* p x m signals */
    int *block;             /* m: each signal's true block */
};

/* Q (p x p) = the Q factor of a p x p standard Gaussian matrix with R's
 * diagonal positive (Haar distributed), by modified Gram-Schmidt applied
 * twice.  Draws p^2 normals from r. */
void rb_planted_orth(struct rb_rng *r, int p, double *Q);
/* Draw the blocks, then per signal a uniform block, s distinct uniform
 * atoms with N(0, 1) coefficients, then noise of standard deviation
 * 10^(-snr_db / 20) mean_i |y_i| / sqrt(p).  0, RB_EINVAL (s > p or a size
 * < 1) or RB_ENOMEM. */
int rb_planted_make(struct rb_planted *pl, int p, int m, int L, int s, double snr_db,
                    uint64_t seed);
void rb_planted_free(struct rb_planted *pl);
/* How many of the nt * p true atoms (unit columns of Dt) have a learned
 * atom (a column of the nb blocks of D) with |<dt, d>| > tol; no one-to-one
 * matching (notes, section 8). */
int rb_planted_recovered(int p, int nt, const double *Dt, int nb, const double *D, double tol);

#ifdef __cplusplus
}
#endif

#endif
