/* SPDX-License-Identifier: MIT */
/* Single Block Orthogonal (SBO) dictionary learning (Irofti; facts in
 * shared/notes/sbo.md): coding in one orthonormal block, the block choice,
 * 1ONB and the SBO training loop, in double on the CPU.
 *
 * Conventions (frozen; every backend follows them):
 *  - Column-major throughout.  Y is p x m, signal i in Y[i*p .. i*p+p-1].
 *    A block Q is p x p; a dictionary of nb blocks is nb*p*p doubles, block j
 *    at D + j*p*p (so D is the p x nb*p matrix [Q_1 ... Q_nb]).
 *  - Coding in one block is exact hard thresholding, x = H_s(Q^T y): the s
 *    entries of largest magnitude kept, ties to the lower index.  The
 *    retained energy is |x|^2; the error |y|^2 - |x|^2 (notes, fact A).
 *  - The best block is the one of largest retained energy, ties to the lower
 *    block index.
 *  - RMSE = |Y - DX|_F / sqrt(p m), computed from the energies as
 *    sqrt(sum_i (|y_i|^2 - E_i) / (p m)) without forming DX.
 *  - A block update is the orthogonal Procrustes step: M = Y X^T, M = U S V^T
 *    (LAPACK gesvd), Q = U V^T (notes, fact B).
 *
 * Details the paper text does not confirm are options (struct sbo_opts) with
 * the defaults documented there. */
#ifndef SBO_H
#define SBO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest signal dimension p and sparsity s the code handles. */
#define SBO_MAX_P 4096
#define SBO_MAX_S 64

/* The initial basis of a block before 1ONB (the paper's eq. (5) is not in
 * the text we have; which matrix its SVD decomposes is unconfirmed). */
enum sbo_init {
    SBO_INIT_SVD_OF_DATA,   /* left singular vectors of the block's signals Y
                               (those of Y Y^T, by its SVD), descending */
    SBO_INIT_IDENTITY,
    SBO_INIT_RANDOM_ORTH    /* QR of a Gaussian, R's diagonal made positive */
};

/* Called after each representation pass of sbo_train: the block count, the
 * round within that count (0: just after the block was added) and the RMSE. */
typedef void (*sbo_trace_fn)(int blocks, int round, double rmse, void *arg);

struct sbo_opts {
    int s;                  /* sparsity per signal; default 8 */
    int L;                  /* stop at this many blocks; default 4 */
    int W;                  /* worst signals that train a new block; <= 0: m / 4
                               (the notes' regression runs), at least 1 */
    int K;                  /* 1ONB iterations of a new block; default 20 */
    int R;                  /* refinement rounds after each addition; default 20 */
    int refine_iters;       /* 1ONB iterations per block and round; default 1 */
    double target_rmse;     /* also stop once RMSE <= this; default 0 (off) */
    enum sbo_init init;     /* default SBO_INIT_SVD_OF_DATA */
    uint64_t seed;          /* of SBO_INIT_RANDOM_ORTH's draws */
    sbo_trace_fn trace;     /* may be NULL */
    void *trace_arg;
};

/* The defaults above (s 8, L 4, W m/4, K 20, R 20, refine_iters 1, no
 * target, svd_of_data). */
void sbo_opts_default(struct sbo_opts *o);
/* W for m signals: o->W, or m / 4 when it is <= 0; between 1 and m. */
int sbo_worst_count(const struct sbo_opts *o, int m);

/* The sum of the s largest c_k^2 of c (p entries). */
double sbo_top_energy(int p, int s, const double *c);
/* The same in float, s <= SBO_MAX_S, for the float variants' inner loops. */
float sbo_top_energy_f(int p, int s, const float *c);
/* x = H_s(Q^T y); the retained energy |x|^2. */
double sbo_code(int p, int s, const double *Q, const double *y, double *x);
/* For each signal: best[i] the block of largest energy among nb, energy[i]
 * that energy; either may be NULL.  all, if not NULL, gets every energy,
 * nb x m (block-major per signal: all[i*nb + j]). */
void sbo_represent(int p, int s, int nb, const double *D, int m, const double *Y,
                   int *best, double *energy, double *all);
/* The block minimising the explicit residual |y - Q_j x_j|^2, x_j from a
 * full sort of Q_j^T y by magnitude; *resid gets it.  The check of
 * sbo_represent's choice.  -1 on allocation failure. */
int sbo_best_block_brute(int p, int s, int nb, const double *D, const double *y,
                         double *resid);
/* |Y - DX|_F / sqrt(p m), the codes of each signal in its block assign[i],
 * computed explicitly (DX formed column by column). */
double sbo_rmse_explicit(int p, int s, const double *D, int m, const double *Y,
                         const int *assign);
/* max_j |Q_j^T Q_j - I|_F over nb blocks; NaN where a block holds a NaN. */
double sbo_orth_error(int p, int nb, const double *D);

/* Q (p x p) = U V^T of M's SVD, the nearest orthonormal matrix.  0, or
 * RB_ENOMEM, or RB_EINVAL when LAPACK fails (a NaN
 * in M). */
int sbo_polar(int p, const double *M, double *Q);
/* The initial basis of the m signals Y by `how`.  0, RB_ENOMEM or RB_EINVAL. */
int sbo_init_basis(int p, int m, const double *Y, enum sbo_init how, uint64_t seed,
                   double *Q);
/* K iterations of 1ONB on the m signals Y from Q (updated in place).  err,
 * if not NULL, gets K + 1 squared errors |Y - QX|_F^2: before the first
 * iteration and after each.  0, RB_ENOMEM or RB_EINVAL. */
int sbo_1onb(int p, int m, const double *Y, int s, int K, double *Q, double *err);

/* idx gets the W indices of the largest r_i, by descending r, ties to the
 * lower index (the signals a new block trains on).  -1 when out of memory. */
int sbo_worst(int m, const double *r, int W, int *idx);

/* SBO training (notes section 4): D gets up to o->L blocks (room for L p^2
 * doubles), *nb their count, assign[i] each signal's block, *rmse the final
 * RMSE.  0, RB_EINVAL, RB_ENOMEM or RB_EINVAL. */
int sbo_train(int p, int m, const double *Y, const struct sbo_opts *o, double *D, int *nb,
              int *assign, double *rmse);

#ifdef __cplusplus
}
#endif

#endif
