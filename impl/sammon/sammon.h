/* SPDX-License-Identifier: MIT */
/* Sammon mapping by gradient descent (Borisov and Myasnikov; facts in
 * shared/notes/sammon.md): the stress, its gradient and diagonal second
 * derivative, the update rules and their drivers, in double on the CPU.
 *
 * Conventions (frozen; every backend follows them):
 *  - x is N x n, y is N x m, both row-major ("flat": point i's coordinates
 *    are x[i*n .. i*n+n-1]); the GPU's transposed layout is a device detail.
 *  - d*_ij = |x_i - x_j|, d_ij = |y_i - y_j|, c = sum_{i<j} d*_ij.
 *  - The stress is the textbook one (Sammon 1969; MASS, dlib, Smile):
 *        E = (1/c) sum_{i<j} (d*_ij - d_ij)^2 / d*_ij.
 *    Cawley's sammon.m and tompollard/sammon report E/2.
 *  - Gradient, for point p and coordinate q, sums over j != p:
 *        dE/dy_pq = -(2/c) sum_j (d*_pj - d_pj) / (d*_pj d_pj) (y_pq - y_jq).
 *  - Every update is Jacobi: all points move from the previous iterate.
 *  - Plain gradient descent (the paper's rule): y <- y - alpha grad E with a
 *    fixed alpha.  The paper's alpha is unknown; sammon_gd_alpha turns a
 *    scale-free step lambda into alpha = lambda dbar c / (2 (N - 1)), dbar =
 *    c / (N (N - 1) / 2) the mean input distance, so that one step moves a
 *    point by at most lambda dbar whatever the data's units.
 *  - Pseudo-Newton (Sammon's rule): y_pq <- y_pq - mf g_pq / |h_pq| with h the
 *    diagonal second derivative.
 *  - Coincident outputs (d_ij = 0) contribute nothing to the gradient and
 *    the second derivative; coincident inputs (d*_ij = 0) are an error the
 *    callers rule out first (sammon_find_duplicate).
 *
 * The functions here neither allocate nor fail unless they say so. */
#ifndef SAMMON_H
#define SAMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The default GD step lambda (see sammon_gd_alpha) and pseudo-Newton factor. */
#define SAMMON_GD_LAMBDA 0.3
#define SAMMON_MAGIC 0.3

/* The diagonal of x's bounding box (N x n): no distance is larger; inf
 * when it exceeds DBL_MAX. */
double sammon_extent(int N, int n, const double *x);
/* c = sum_{i<j} |x_i - x_j|. */
double sammon_input_scale(int N, int n, const double *x);
/* 1 and the first pair *i < *j (in i-major order) with x_i == x_j, else 0. */
int sammon_find_duplicate(int N, int n, const double *x, int *i, int *j);
/* Keep the first of each set of equal rows, in place; the new N.  keep, if
 * not NULL, gets the original index of each kept row. */
int sammon_dedup(int N, int n, double *x, int *keep);

/* The textbook stress E of y. */
double sammon_stress(int N, int n, int m, const double *x, const double *y, double c);
/* The gradient g (N x m) and, if h is not NULL, the diagonal second
 * derivative h (N x m). */
void sammon_gradient(int N, int n, int m, const double *x, const double *y, double c,
                     double *g, double *h);
/* alpha for the scale-free step lambda (see above). */
double sammon_gd_alpha(int N, double c, double lambda);
/* One Jacobi step of each rule, y_in -> y_out (distinct buffers). */
void sammon_step_gd(int N, int n, int m, const double *x, const double *y_in, double c,
                    double alpha, double *y_out);
void sammon_step_newton(int N, int n, int m, const double *x, const double *y_in, double c,
                        double mf, double *y_out);

/* Initial configurations.  Random: uniform in [0, scale) per coordinate from
 * seed.  PCA: the uncentred SVD's first m components, y = U_m S_m (as
 * Cawley's sammon.m); 0, or -1 when x has rank < m. */
void sammon_init_random(uint64_t seed, int N, int m, double scale, double *y);
int sammon_init_pca(int N, int n, int m, const double *x, double *y);

/* The peers' drivers, for checking against their published figures
 * (notes section 6).  Each runs from y (updated in place) and returns the
 * iterations taken (MASS: those accepted, as its trace prints them), or
 * RB_ENOMEM; *stress gets the final textbook E.  trace, if not NULL, is
 * called after each accepted iteration with its number and stress. */
struct sammon_mass_opts {               /* 100, 0.2, 1e-4 */
    int niter;
    double magic, tol;
    void (*trace)(int iter, double stress, void *arg);
    void *arg;
};
struct sammon_cawley_opts {             /* 500, 20, 1e-9 */
    int maxiter, maxhalves;
    double tolfun;
    void (*trace)(int iter, double stress, void *arg);
    void *arg;
};
int sammon_run_mass(int N, int n, int m, const double *x, double *y,
                    const struct sammon_mass_opts *o, double *stress);
int sammon_run_cawley(int N, int n, int m, const double *x, double *y,
                      const struct sammon_cawley_opts *o, double *stress);

/* Where a driver gets the stress and its derivatives: fn(arg, y, stress,
 * g, h) puts the textbook stress of y (N x m) in *stress when stress is
 * not NULL, and when g is not NULL the gradient in g and, when h is not
 * NULL, the diagonal second derivative in h; 0, or a negative RB_E* that
 * ends the driver with it.  c is the data's sum of input distances; fused
 * says that one call with everything costs no more than the stress alone
 * (a GPU pass), so the drivers ask for the derivatives with each trial. */
struct sammon_eval {
    int (*fn)(void *arg, const double *y, double *stress, double *g, double *h);
    void *arg;
    double c;
    int fused;
    const struct sammon_resident *resident;     /* NULL: the map stays with the driver */
};

/* An evaluator that keeps the map where it evaluates it (a GPU engine's
 * device), for the fixed-step rules, whose steps need nothing from the
 * driver but the stress: load takes y (N x m) there and evaluates it (the
 * stress, and the derivatives, kept); step moves the map by the rule from
 * the last evaluation's derivatives, as the driver would (newton: y - mf g
 * / |h|, no move where h is 0; else y - alpha g; in double), and evaluates
 * the new map; fetch puts the map of the last step (or load) in y.  step's
 * `left` is how many steps the driver means to ask after this one, with
 * the same rule, unless the stress stops it: the new map's derivatives are
 * needed where left > 0, and the evaluator may start the next step before
 * this one's stress is back (fetch does not return its map).  Each 0 or a
 * negative RB_E*, with arg the evaluator's. */
struct sammon_resident {
    int (*load)(void *arg, const double *y, double *stress);
    int (*step)(void *arg, int newton, double mf, double alpha, int left, double *stress);
    int (*fetch)(void *arg, double *y);
};

/* The fixed-step rules: Sammon's pseudo-Newton (newton 1, factor mf) or
 * plain GD (step lambda through sammon_gd_alpha), Jacobi, until `iters`
 * or a relative change of the stress below tol. */
struct sammon_fixed_opts {              /* 500, 1, 0.3, 0.3, 1e-9 */
    int iters, newton;
    double mf, lambda, tol;
    void (*trace)(int iter, double stress, void *arg);
    void *arg;
};

/* The drivers above over any evaluator, and the fixed-step rules: each
 * returns the iterations taken (as its fp64 namesake) or the evaluator's
 * or RB_ENOMEM's negative code; *stress gets the final stress.  A stress
 * that is not finite ends the run, which returns with it. */
int sammon_run_mass_with(int N, int m, const struct sammon_eval *ev, double *y,
                         const struct sammon_mass_opts *o, double *stress);
int sammon_run_cawley_with(int N, int m, const struct sammon_eval *ev, double *y,
                           const struct sammon_cawley_opts *o, double *stress);
int sammon_run_fixed_with(int N, int m, const struct sammon_eval *ev, double *y,
                          const struct sammon_fixed_opts *o, double *stress);

#ifdef __cplusplus
}
#endif

#endif
