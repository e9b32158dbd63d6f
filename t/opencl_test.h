/* SPDX-License-Identifier: MIT */
/* What the OpenCL variant tests share: the device (or a skip of the whole
 * test), whether it has fp64, and the plan of cases over a paper's OpenCL
 * variants, precisions and work-group sizes.  Include after t/tap.h. */
#ifndef RB_T_OPENCL_TEST_H
#define RB_T_OPENCL_TEST_H

#include <string.h>
#include "harness/backend/opencl.h"
#include "harness/ctx.h"
#include "harness/registry.h"

/* ctx initialised and its OpenCL device; without one the test is skipped. */
static inline struct rb_opencl *cl_test_open(struct rb_ctx *ctx)
{
    struct rb_opencl *cl = NULL;
    char why[512];

    rb_ctx_init(ctx);
    if (!rb_opencl_available(ctx, why, sizeof why))
        tap_skip_all("no OpenCL device: %s", why);
    if (rb_opencl_get(ctx, &cl, why, sizeof why))
        tap_skip_all("OpenCL device unusable: %s", why);
    return cl;
}

static inline int cl_test_fp64(const struct rb_opencl *cl)
{
    cl_device_fp_config fp = 0;
    return clGetDeviceInfo(cl->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL)
           == CL_SUCCESS && fp != 0;
}

/* One planned case: a variant, a precision, an index into the test's sizes
 * and a work-group size. */
struct cl_tcase {
    const struct rb_variant *v;
    enum rb_prec prec;
    int size;
    long long wg;
};

/* Each OpenCL variant of `paper` and precision (f64 only with fp64) at each
 * of the nwgs group sizes, the size index turning with the group size, the
 * variant and the precision so that every size meets each; at most max
 * cases.  *nvariants gets the variants seen. */
static inline int cl_test_plan(const char *paper, struct cl_tcase *list, int max,
                               const long long *wgs, int nwgs, int nsizes, int fp64,
                               int *nvariants)
{
    int count = 0;
    const struct rb_variant *v;

    *nvariants = 0;
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if (strcmp(v->paper, paper) || v->backend != RB_BACKEND_OPENCL)
            continue;
        for (unsigned p = RB_PREC_F32; p <= RB_PREC_F64; p <<= 1) {
            if (!(v->precs & p) || (p == RB_PREC_F64 && !fp64))
                continue;
            for (int w = 0; w < nwgs && count < max; w++)
                list[count++] = (struct cl_tcase){ v, (enum rb_prec)p,
                                                   (w + *nvariants + (int)p) % nsizes, wgs[w] };
        }
        ++*nvariants;
    }
    return count;
}

#endif
