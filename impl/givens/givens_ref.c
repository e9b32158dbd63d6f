/* SPDX-License-Identifier: MIT */
/* Serial Givens code: Algorithm 1 (sequential), Algorithm 2 (round-robin
 * blocks), Algorithm 3 (JVP), and the apply form Y = U X with its JVP.
 * Paper: Hamze, arXiv:2106.00003, sections 2-4; notes/givens.md sections 2-5. */
#include <math.h>
#include <string.h>
#include "impl/common/roundrobin.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_rot.h"

size_t givens_theta_count(int n, int m)
{
    if (m <= 0 || m > n)
        m = n;
    return (size_t)m * n - (size_t)m * (m + 1) / 2;
}

size_t givens_theta_index(int n, int i, int j)
{
    return (size_t)i * n - (size_t)i * (i + 1) / 2 + (size_t)(j - i - 1);
}

size_t givens_backward_work_count(int n)
{
    return 2 * (size_t)n * n;
}

static void identity_f(int n, float *U)
{
    memset(U, 0, (size_t)n * n * sizeof *U);
    for (int r = 0; r < n; r++)
        U[(size_t)r * n + r] = 1.0f;
}

static void identity_d(int n, double *U)
{
    memset(U, 0, (size_t)n * n * sizeof *U);
    for (int r = 0; r < n; r++)
        U[(size_t)r * n + r] = 1.0;
}

/* Algorithm 1 walks E = (step-major, slot-minor) backwards one rotation at a
 * time, as a generic sequence would be walked; nothing uses the blocks. */
void givens_forward_seq_f(int n, int m, const float *theta, float *U)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n);
    identity_f(n, U);
    for (long long e = (long long)rb_rr_steps(n) * slots - 1; e >= 0; e--) {
        int i, j;
        rb_rr_pair(nt, (int)(e / slots), (int)(e % slots), &i, &j);
        if (!rb_rr_keep(n, m, i, j))
            continue;
        float t = theta[givens_theta_index(n, i, j)];
        givens_rot_rows_f(U + (size_t)i * n, U + (size_t)j * n, n, cosf(t), sinf(t));
    }
}

void givens_forward_seq_d(int n, int m, const double *theta, double *U)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n);
    identity_d(n, U);
    for (long long e = (long long)rb_rr_steps(n) * slots - 1; e >= 0; e--) {
        int i, j;
        rb_rr_pair(nt, (int)(e / slots), (int)(e % slots), &i, &j);
        if (!rb_rr_keep(n, m, i, j))
            continue;
        double t = theta[givens_theta_index(n, i, j)];
        givens_rot_rows_d(U + (size_t)i * n, U + (size_t)j * n, n, cos(t), sin(t));
    }
}

/* Algorithm 2: block b_1 (step 0) is the leftmost factor, so it comes last. */
void givens_forward_rr_f(int n, int m, const float *theta, float *U)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n);
    identity_f(n, U);
    for (int step = rb_rr_steps(n) - 1; step >= 0; step--)
        for (int slot = 0; slot < slots; slot++) {
            int i, j;
            rb_rr_pair(nt, step, slot, &i, &j);
            if (!rb_rr_keep(n, m, i, j))
                continue;
            float t = theta[givens_theta_index(n, i, j)];
            givens_rot_rows_f(U + (size_t)i * n, U + (size_t)j * n, n, cosf(t), sinf(t));
        }
}

void givens_forward_rr_d(int n, int m, const double *theta, double *U)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n);
    identity_d(n, U);
    for (int step = rb_rr_steps(n) - 1; step >= 0; step--)
        for (int slot = 0; slot < slots; slot++) {
            int i, j;
            rb_rr_pair(nt, step, slot, &i, &j);
            if (!rb_rr_keep(n, m, i, j))
                continue;
            double t = theta[givens_theta_index(n, i, j)];
            givens_rot_rows_d(U + (size_t)i * n, U + (size_t)j * n, n, cos(t), sin(t));
        }
}

/* Algorithm 3.  Row r of work is [M_r | W_r] with W = (U^fwd)^T: peeling
 * block b_k is then one rotation of rows i, j over 2n entries, and the
 * gradient is read after the update (notes section 5: the antisymmetric part
 * is invariant under the block's rotation in the real case). */
void givens_backward_rr_f(int n, int m, const float *theta, const float *U,
                          const float *Gamma, float *dtheta, float *work)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n);
    size_t w = 2 * (size_t)n;
    givens_work_load_f(n, Gamma, U, work, 0, n);
    for (int step = rb_rr_steps(n) - 1; step >= 0; step--)
        for (int slot = 0; slot < slots; slot++) {
            int i, j;
            rb_rr_pair(nt, step, slot, &i, &j);
            if (!rb_rr_keep(n, m, i, j))
                continue;
            size_t e = givens_theta_index(n, i, j);
            float *ri = work + i * w, *rj = work + j * w;
            givens_rot_rows_f(ri, rj, w, cosf(theta[e]), sinf(theta[e]));
            dtheta[e] = givens_cross_dot_f(ri, rj, ri + n, rj + n, (size_t)n);
        }
}

void givens_backward_rr_d(int n, int m, const double *theta, const double *U,
                          const double *Gamma, double *dtheta, double *work)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n);
    size_t w = 2 * (size_t)n;
    givens_work_load_d(n, Gamma, U, work, 0, n);
    for (int step = rb_rr_steps(n) - 1; step >= 0; step--)
        for (int slot = 0; slot < slots; slot++) {
            int i, j;
            rb_rr_pair(nt, step, slot, &i, &j);
            if (!rb_rr_keep(n, m, i, j))
                continue;
            size_t e = givens_theta_index(n, i, j);
            double *ri = work + i * w, *rj = work + j * w;
            givens_rot_rows_d(ri, rj, w, cos(theta[e]), sin(theta[e]));
            dtheta[e] = givens_cross_dot_d(ri, rj, ri + n, rj + n, (size_t)n);
        }
}

void givens_apply_d(int n, int m, const double *theta, double *X, int B)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n);
    for (int step = rb_rr_steps(n) - 1; step >= 0; step--)
        for (int slot = 0; slot < slots; slot++) {
            int i, j;
            rb_rr_pair(nt, step, slot, &i, &j);
            if (!rb_rr_keep(n, m, i, j))
                continue;
            double t = theta[givens_theta_index(n, i, j)];
            givens_rot_rows_d(X + (size_t)i * B, X + (size_t)j * B, (size_t)B, cos(t), sin(t));
        }
}

/* The state after block k is Y_k = U^{k+1:} X and GY_k = (U^{1:k})^T GY, so
 * Y_k GY_k^T is the X_k of notes section 5 and the gradient is its
 * antisymmetric part at (i, j). */
void givens_apply_backward_d(int n, int m, const double *theta, double *Y, double *GY,
                             int B, double *dtheta, double *dscale)
{
    int nt = rb_rr_padded(n), slots = rb_rr_slots(n);
    for (int step = 0; step < rb_rr_steps(n); step++)
        for (int slot = 0; slot < slots; slot++) {
            int i, j;
            rb_rr_pair(nt, step, slot, &i, &j);
            if (!rb_rr_keep(n, m, i, j))
                continue;
            size_t e = givens_theta_index(n, i, j);
            double c = cos(theta[e]), s = sin(theta[e]);
            double *yi = Y + (size_t)i * B, *yj = Y + (size_t)j * B;
            double *gi = GY + (size_t)i * B, *gj = GY + (size_t)j * B;
            givens_rot_rows_d(yi, yj, (size_t)B, c, -s);
            givens_rot_rows_d(gi, gj, (size_t)B, c, -s);
            dtheta[e] = givens_cross_dot_d(yi, yj, gi, gj, (size_t)B);
            if (dscale) {
                double a = 0.0;
                for (int b = 0; b < B; b++)
                    a += fabs(yi[b] * gj[b]) + fabs(yj[b] * gi[b]);
                dscale[e] = a;
            }
        }
}
