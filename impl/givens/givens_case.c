/* SPDX-License-Identifier: MIT */
/* Setup, verification and teardown shared by the CPU Givens variants, the
 * serial variants' timed regions, and the axes they sweep. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/cpu.h"
#include "harness/error.h"
#include "impl/common/rng.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"

/* Axis values.  n: the paper's CPU grid is N = 20 to 1120 in steps of 220
 * (notes section 7).  m: 0 means all rows. */
static const long long n_deflt[] = { 64, 128, 256, 512, RB_AXIS_END };
static const long long n_quick[] = { 64, 128, 256, RB_AXIS_END };
static const long long n_paper[] = { 20, 240, 460, 680, 900, 1120, RB_AXIS_END };
static const long long m_all[] = { 0, RB_AXIS_END };
/* GPU n: the paper's GPU grid goes to 2000 (notes section 7), then beyond. */
static const long long n_gpu_deflt[] = { 256, 512, 1024, 2048, RB_AXIS_END };
static const long long n_gpu_quick[] = { 64, 256, RB_AXIS_END };
static const long long n_gpu_paper[] = { 20, 240, 460, 680, 900, 1120, 1560, 2000, 4096, 8192,
                                         RB_AXIS_END };
static const long long threads_deflt[] = { 1, 2, 4, 8, 16, RB_AXIS_END };
static const long long threads_quick[] = { 1, 2, RB_AXIS_END };
static const long long threads_paper[] = { 1, 2, 4, 8, 16, RB_AXIS_END };

const struct rb_axis givens_sizes[] = {
    { .name = "n", .help = "matrix size n (U is n x n; odd n pads the schedule)",
      .min = 2, .max = 65536, .deflt = n_deflt, .quick = n_quick, .paper = n_paper },
    { .name = "m", .help = "rows kept (paper section 5: pairs with i >= m dropped); "
                           "0: all rows",
      .min = 0, .max = 65536, .deflt = m_all, .quick = m_all, .paper = m_all },
    { 0 }
};

const struct rb_axis givens_gpu_sizes[] = {
    { .name = "n", .help = "matrix size n (U is n x n; odd n pads the schedule)",
      .min = 2, .max = 65536, .deflt = n_gpu_deflt, .quick = n_gpu_quick,
      .paper = n_gpu_paper },
    { .name = "m", .help = "rows kept (paper section 5: pairs with i >= m dropped); "
                           "0: all rows",
      .min = 0, .max = 65536, .deflt = m_all, .quick = m_all, .paper = m_all },
    { 0 }
};

/* Apply mode: X is n x batch; 64 columns as in the notes' H200 anchors. */
static const long long batch_deflt[] = { 64, RB_AXIS_END };
static const long long batch_quick[] = { 16, RB_AXIS_END };
const struct rb_axis givens_apply_sizes[] = {
    { .name = "n", .help = "matrix size n (U is n x n, never formed)",
      .min = 2, .max = 65536, .deflt = n_gpu_deflt, .quick = n_gpu_quick, .paper = n_gpu_paper },
    { .name = "m", .help = "rows kept (paper section 5: pairs with i >= m dropped); "
                           "0: all rows",
      .min = 0, .max = 65536, .deflt = m_all, .quick = m_all, .paper = m_all },
    { .name = "batch", .help = "columns of X in Y = U X",
      .min = 1, .max = 65536, .deflt = batch_deflt, .quick = batch_quick,
      .paper = batch_deflt },
    { 0 }
};

/* block: the paper's GPU kernels; the official code launched 64 threads
 * over columns. */
static const long long block_deflt[] = { 64, 128, 256, RB_AXIS_END };
static const long long block_quick[] = { 64, RB_AXIS_END };
static const long long block_paper[] = { 64, RB_AXIS_END };
const struct rb_axis givens_gpu_block_axis[] = {
    { .name = "block", .help = "threads per block over the columns of one pair",
      .min = 32, .max = 1024, .deflt = block_deflt, .quick = block_quick,
      .paper = block_paper },
    { 0 }
};

const struct rb_axis givens_threads_axis[] = {
    { .name = "threads", .help = "OpenMP threads",
      .min = 1, .max = 1024, .deflt = threads_deflt, .quick = threads_quick,
      .paper = threads_paper },
    { 0 }
};

static int case_m(const struct rb_case *c)
{
    long long m = rb_case_param(c, "m", 0);
    return m < 0 ? 0 : (int)m;
}

int givens_admit(struct rb_case *c)
{
    long long n = rb_case_param(c, "n", 0), m = case_m(c);
    long long threads = rb_case_param(c, "threads", 1);
    if (n < 2)
        return rb_fail(c, RB_ESKIP, "n=%lld: Givens needs n >= 2", n);
    if (m > n)
        return rb_fail(c, RB_ESKIP, "m=%lld > n=%lld", m, n);
    if (threads > rb_omp_max_threads())
        return rb_fail(c, RB_ESKIP, "threads=%lld > the %d cores OpenMP may use here",
                       threads, rb_omp_max_threads());
    return 0;
}

size_t givens_footprint(const struct rb_case *c)
{
    size_t n = (size_t)rb_case_param(c, "n", 0), sz = rb_prec_size(c->prec);
    size_t count = givens_theta_count((int)n, case_m(c));
    size_t bytes = count * (sz + sizeof(double)) + n * n * sz;
    if (strcmp(c->v->algo, "backward") == 0)
        bytes += n * n * sz + count * sz + givens_backward_work_count((int)n) * sz
                 + 2 * n * GIVENS_COTANGENT_RANK * sizeof(double);
    return bytes;
}

/* The count behind every Givens record's roofline numbers.  A rotation of
 * rows i and j, per column, is u_i <- c u_i - s u_j and u_j <- s u_i + c u_j:
 * two multiplies and two fused multiply-adds, 6 flops (the README's floor of
 * 2 n^3 instructions is the same work as 4 instructions per rotation and
 * column).  R = givens_theta_count(n, m) rotations are applied, the pairs with
 * i >= m being dropped (paper section 5); the angles' sines and cosines, R of
 * each, are left out.
 *  - forward, forming U (n x n): 6 n R flops; theta read, U written.
 *  - backward (Algorithm 3): U^fwd and M both rotated (12 flops per pair and
 *    column) and dtheta_e = M_i . u_j - M_j . u_i accumulated by two fused
 *    multiply-adds (4 flops): 16 n R; theta, U, Gamma read, dtheta written.
 *  - apply mode (a batch axis, X n x B): the same per column of X, 6 B R
 *    forward (theta and X read, Y written) and 16 B R backward (theta, Y and
 *    dL/dY read, dtheta and dL/dX written); Y's in-place return to X is not
 *    an output. */
void givens_work(const struct rb_case *c, double *flops, double *bytes)
{
    double n = (double)rb_case_param(c, "n", 0), batch = (double)rb_case_param(c, "batch", 0);
    double rot = (double)givens_theta_count((int)n, case_m(c));
    double sz = (double)rb_prec_size(c->prec);
    int backward = strcmp(c->v->algo, "backward") == 0;
    double cols = batch > 0 ? batch : n;

    *flops = (backward ? 16.0 : 6.0) * cols * rot;
    if (batch > 0)
        *bytes = sz * (backward ? 2.0 * rot + 3.0 * n * batch : rot + 2.0 * n * batch);
    else
        *bytes = sz * (backward ? 2.0 * rot + 2.0 * n * n : rot + n * n);
}

static void fill_nan(void *p, size_t len, enum rb_prec prec)
{
    for (size_t k = 0; k < len; k++)
        if (prec == RB_PREC_F64)
            ((double *)p)[k] = NAN;
        else
            ((float *)p)[k] = NAN;
}

/* Gamma = G X^T in the case's precision. */
static void form_gamma(const struct givens_state *s, enum rb_prec prec)
{
    int n = s->n, r = GIVENS_COTANGENT_RANK;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double v = 0.0;
            for (int k = 0; k < r; k++)
                v += s->G[(size_t)a * r + k] * s->X[(size_t)b * r + k];
            if (prec == RB_PREC_F64)
                ((double *)s->gamma)[(size_t)a * n + b] = v;
            else
                ((float *)s->gamma)[(size_t)a * n + b] = (float)v;
        }
}

void givens_theta_draw(uint64_t seed, enum rb_prec prec, size_t count, double *theta_d,
                       void *theta)
{
    struct rb_rng r;
    rb_rng_seed(&r, rb_seed_derive(seed, "givens/theta"));
    for (size_t e = 0; e < count; e++) {
        double t = rb_rng_range(&r, -M_PI, M_PI);
        if (prec == RB_PREC_F64) {
            ((double *)theta)[e] = t;
        } else {
            ((float *)theta)[e] = (float)t;
            t = (float)t;
        }
        theta_d[e] = t;
    }
}

void givens_cotangent_draw(uint64_t seed, int n, double *G, double *X)
{
    size_t lr = (size_t)n * GIVENS_COTANGENT_RANK;
    struct rb_rng r;
    rb_rng_seed(&r, rb_seed_derive(seed, "givens/cotangent"));
    for (size_t k = 0; k < lr; k++)
        G[k] = rb_rng_normal(&r);
    for (size_t k = 0; k < lr; k++)
        X[k] = rb_rng_normal(&r);
}

static int setup_backward(struct rb_case *c, struct givens_state *s)
{
    size_t nn = (size_t)s->n * s->n, sz = rb_prec_size(c->prec);
    size_t lr = (size_t)s->n * GIVENS_COTANGENT_RANK;
    s->gamma = malloc(nn * sz);
    s->dtheta = malloc(s->count * sz);
    s->work = malloc(givens_backward_work_count(s->n) * sz);
    s->G = malloc(lr * sizeof *s->G);
    s->X = malloc(lr * sizeof *s->X);
    if (!s->gamma || !s->dtheta || !s->work || !s->G || !s->X)
        return rb_fail(c, RB_ENOMEM, "backward arrays for n=%d", s->n);
    givens_cotangent_draw(c->seed, s->n, s->G, s->X);
    form_gamma(s, c->prec);
    if (c->prec == RB_PREC_F64)
        givens_forward_rr_d(s->n, s->m, s->theta, s->U);
    else
        givens_forward_rr_f(s->n, s->m, s->theta, s->U);
    fill_nan(s->dtheta, s->count, c->prec);
    fill_nan(s->work, givens_backward_work_count(s->n), c->prec);
    return 0;
}

int givens_setup(struct rb_case *c)
{
    struct givens_state *s = calloc(1, sizeof *s);
    if (!s)
        return rb_fail(c, RB_ENOMEM, "givens state");
    c->state = s;
    c->device_ms = -1;
    snprintf(c->device, sizeof c->device, "%s", rb_cpu_name());
    s->n = (int)rb_case_param(c, "n", 0);
    s->m = case_m(c);
    s->threads = (int)rb_case_param(c, "threads", 1);
    s->backward = strcmp(c->v->algo, "backward") == 0;
    if (s->n < 2 || s->m > s->n)
        return rb_fail(c, RB_EINVAL, "n=%d m=%d do not combine", s->n, s->m);
    s->count = givens_theta_count(s->n, s->m);
    size_t sz = rb_prec_size(c->prec), nn = (size_t)s->n * s->n;
    s->theta_d = malloc(s->count * sizeof *s->theta_d);
    s->theta = malloc(s->count * sz);
    s->U = malloc(nn * sz);
    if (!s->theta_d || !s->theta || !s->U)
        return rb_fail(c, RB_ENOMEM, "angles and U for n=%d", s->n);
    givens_theta_draw(c->seed, c->prec, s->count, s->theta_d, s->theta);
    if (s->backward)
        return setup_backward(c, s);
    fill_nan(s->U, nn, c->prec);
    return 0;
}

int givens_verify_output(struct rb_case *c, int backward, int n, int m, const double *theta_d,
                         const void *output, const double *G, const double *X,
                         struct rb_check *out)
{
    int rc = backward
        ? givens_check_backward(n, m, theta_d, output, c->prec, G, X, GIVENS_COTANGENT_RANK, out)
        : givens_check_forward(n, m, theta_d, output, c->prec,
                               rb_seed_derive(c->seed, "givens/probe"), out);
    return rc ? rb_fail(c, rc, "verification buffers for n=%d", n) : 0;
}

int givens_verify(struct rb_case *c, struct rb_check *out)
{
    struct givens_state *s = c->state;
    return givens_verify_output(c, s->backward, s->n, s->m, s->theta_d,
                                s->backward ? s->dtheta : s->U, s->G, s->X, out);
}

void givens_teardown(struct rb_case *c)
{
    struct givens_state *s = c->state;
    if (!s)
        return;
    free(s->X);
    free(s->G);
    free(s->work);
    free(s->dtheta);
    free(s->gamma);
    free(s->U);
    free(s->theta);
    free(s->theta_d);
    free(s);
    c->state = NULL;
}

int givens_run_forward_seq(struct rb_case *c)
{
    struct givens_state *s = c->state;
    if (c->prec == RB_PREC_F64)
        givens_forward_seq_d(s->n, s->m, s->theta, s->U);
    else
        givens_forward_seq_f(s->n, s->m, s->theta, s->U);
    c->device_ms = -1;
    return 0;
}

int givens_run_forward_rr(struct rb_case *c)
{
    struct givens_state *s = c->state;
    if (c->prec == RB_PREC_F64)
        givens_forward_rr_d(s->n, s->m, s->theta, s->U);
    else
        givens_forward_rr_f(s->n, s->m, s->theta, s->U);
    c->device_ms = -1;
    return 0;
}

int givens_run_backward_rr(struct rb_case *c)
{
    struct givens_state *s = c->state;
    if (c->prec == RB_PREC_F64)
        givens_backward_rr_d(s->n, s->m, s->theta, s->U, s->gamma, s->dtheta, s->work);
    else
        givens_backward_rr_f(s->n, s->m, s->theta, s->U, s->gamma, s->dtheta, s->work);
    c->device_ms = -1;
    return 0;
}
