/* SPDX-License-Identifier: MIT */
/* The check of a run of several steps too large for the fp64 reference of
 * all of them (sammon_last_step_checked): its last step from the run's own
 * iterate before it, on sampled rows (sammon_case.c's verify_last_step).
 * At N = 8192, n = 2 and 5000 iterations, through the harness's entry
 * points with the outputs a variant would leave, made here from a fresh
 * seed's case:
 *  - the predicate: beyond the reference's reach only, never one step;
 *  - sammon_setup skips such a case with its reason; sammon_setup_keeping
 *    takes it, y_prev poisoned, so that verify fails before a run;
 *  - y the exact fp64 step from y_prev, rounded to float: passes;
 *  - one sampled row off by 1e-3 of the step's movement, or y_prev not the
 *    iterate y came from (one row moved): fails; restored: passes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "impl/sammon/sammon.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_check.h"
#include "t/tap.h"

enum { N = 8192, DIM = 2, M = 2, ITERS = 5000 };

static void make_case(struct rb_case *c, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->prec = RB_PREC_F32;
    c->seed = seed;
    c->params[c->nparams++] = (struct rb_param){ "points", N };
    c->params[c->nparams++] = (struct rb_param){ "dim", DIM };
    c->params[c->nparams++] = (struct rb_param){ "outdim", M };
    c->params[c->nparams++] = (struct rb_param){ "iters", ITERS };
}

static int verify(struct rb_case *c, struct rb_check *chk)
{
    memset(chk, 0, sizeof *chk);
    return sammon_verify(c, chk);
}

int main(void)
{
    const uint64_t seed = tap_seed();
    struct rb_case c;
    struct rb_check chk;
    tap_plan(8);
    tap_ok(sammon_last_step_checked(N, DIM, ITERS) && !sammon_last_step_checked(N, DIM, 1)
               && !sammon_last_step_checked(4096, 64, 100000)
               && !sammon_last_step_checked(65536, 64, 1)
               && sammon_last_step_checked(65536, 64, 100),
           "the last step is checked beyond the reference's reach only (65536 x 64: at 100 "
           "iterations, not at 1; never at 4096 points or fewer)");

    make_case(&c, seed);
    int rc = sammon_setup(&c);
    tap_ok(rc == RB_ESKIP && strstr(c.msg, "does not keep"), "a variant that keeps no "
           "earlier iterate skips it (%s)", c.msg);
    sammon_teardown(&c);

    make_case(&c, seed);
    rc = sammon_setup_keeping(&c);
    struct sammon_state *s = c.state;
    if (!tap_ok(rc == 0 && s->y_prev, "sammon_setup_keeping takes it: y_prev kept"))
        return tap_done();
    rc = verify(&c, &chk);
    tap_ok(rc == 0 && !chk.pass && strstr(chk.method, "no y before"), "verify before a run "
           "fails (%s)", chk.method);

    /* The iterate before the last step: y0 moved a little, so that it is
     * no start the check could know; y the fp64 step from it, in float. */
    const size_t ny = (size_t)N * M;
    double *yp = malloc(ny * sizeof *yp), *y = malloc(ny * sizeof *y), budget = 0.0;
    float *fp = s->y_prev, *fy = s->y;
    for (size_t k = 0; k < ny; k++)
        yp[k] = fp[k] = (float)(s->y0_d[k] * (1.0 + 1e-3 * (double)(k % 7)));
    sammon_check_reference(N, DIM, M, 1, s->x_d, yp, s->c, s->alpha, y, &budget);
    for (size_t k = 0; k < ny; k++)
        fy[k] = (float)y[k];
    rc = verify(&c, &chk);
    tap_ok(rc == 0 && chk.pass, "the exact step from y_prev passes: %.3g <= %.3g (%s)",
           chk.error, chk.tolerance, chk.method);

    /* Row 1 is sampled (rows (2i + 1) N / 8192 of 4096). */
    double moved = 0.0;
    for (size_t k = 0; k < ny; k++)
        moved = fmax(moved, fabs(y[k] - yp[k]));
    fy[1 * M] = (float)(y[1 * M] + 1e-3 * moved);
    rc = verify(&c, &chk);
    tap_ok(rc == 0 && !chk.pass, "a sampled row off by 1e-3 of the step fails: %.3g > %.3g",
           chk.error, chk.tolerance);
    fy[1 * M] = (float)y[1 * M];

    fp[3 * M + 1] = (float)(yp[3 * M + 1] + moved);
    rc = verify(&c, &chk);
    tap_ok(rc == 0 && !chk.pass, "y_prev not the iterate y came from fails: %.3g > %.3g",
           chk.error, chk.tolerance);
    fp[3 * M + 1] = (float)yp[3 * M + 1];
    rc = verify(&c, &chk);
    tap_ok(rc == 0 && chk.pass, "and passes again once restored: %.3g <= %.3g", chk.error,
           chk.tolerance);
    free(y);
    free(yp);
    sammon_teardown(&c);
    return tap_done();
}
