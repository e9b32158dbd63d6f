/* SPDX-License-Identifier: MIT */
/* Every CUDA Givens variant through the harness's life cycle on a device
 * (t/givens_gpu_test.h); also the fused U against the paper's U, and the
 * fused kernels' refusals.  Skips without a CUDA device. */
#include <math.h>
#include "harness/backend/cuda.h"
#include "impl/givens/givens_cuda.h"
#define GIVENS_TEST_BACKEND RB_BACKEND_CUDA
#include "t/givens_gpu_test.h"

/* One result: U of forward/fused (slots, cols) equals forward/paper's U. */
static void fused_matches_paper(struct rb_ctx *ctx, enum rb_prec prec, int n, int slots,
                                int cols, uint64_t seed)
{
    const struct rb_variant *vp = find("forward", "paper"), *vf = find("forward", "fused");
    struct rb_case cp, cf;
    struct grid gp, gf;
    const void *up = NULL, *uf = NULL;
    grid_make(&gp, vp);
    grid_make(&gf, vf);
    make_case(&cp, vp, ctx, prec, n, 0, &gp, 0, seed);
    make_case(&cf, vf, ctx, prec, n, 0, &gf, 0, seed);
    case_set(&cf, "slots", slots);
    case_set(&cf, "cols", cols);
    int rc = vp->admit(&cp) || vf->admit(&cf) || vp->setup(&cp) || vf->setup(&cf)
             || vp->run(&cp) || vf->run(&cf) || givens_cuda_fetch(&cp, &up)
             || givens_cuda_fetch(&cf, &uf);
    double err = rc ? INFINITY : 0, eps = prec == RB_PREC_F64 ? 2.2e-16 : 1.2e-7;
    for (size_t k = 0; !rc && k < (size_t)n * n; k++) {
        double a = prec == RB_PREC_F64 ? ((const double *)up)[k] : ((const float *)up)[k];
        double b = prec == RB_PREC_F64 ? ((const double *)uf)[k] : ((const float *)uf)[k];
        double d = fabs(a - b);
        if (!(d <= err))
            err = isnan(d) ? INFINITY : d;
    }
    if (!tap_ok(!rc && err <= 4 * n * eps, "%s n=%d: fused U (slots=%d cols=%d) = paper U "
                "(max |diff| %.3g <= %.3g)", rb_prec_name(prec), n, slots, cols, err,
                4 * n * eps))
        tap_diag("paper '%s' fused '%s'", cp.msg, cf.msg);
    vp->teardown(&cp);
    vf->teardown(&cf);
}

int main(void)
{
    struct rb_ctx ctx;
    uint64_t seed = test_start(&ctx, rb_cuda_available);
    int nv, planned = 1 + plan_variants(&ctx, seed, &nv);
    const struct rb_variant *fused = find("forward", "fused");
    const struct rb_variant *fused_bwd = find("backward", "fused");
    planned += (fused ? 4 : 0) + (fused_bwd ? 1 : 0);
    plan_print(planned, seed);
    tap_ok(nv == 6 && fused && fused_bwd && find("forward", "paper")
           && find("backward", "paper") && find("forward", "apply") && find("backward", "apply"),
           "%d CUDA Givens variants registered", nv);
    test_variants(&ctx, seed);
    if (fused) {
        refused(fused, &ctx, RB_PREC_F64, 64, 0, "cols", 8, "cols=8 in f64");
        refused(fused, &ctx, RB_PREC_F32, 1024, 0, "slots", 1, "512 threads per block");
        fused_matches_paper(&ctx, RB_PREC_F32, 256, 8, 8, seed + 100);
        fused_matches_paper(&ctx, RB_PREC_F64, 257, 1, 4, seed + 101);
    }
    if (fused_bwd)
        refused(fused_bwd, &ctx, RB_PREC_F64, 64, 0, "cols", 4, "cols=4 in f64");
    rb_ctx_release(&ctx);
    return tap_done();
}
