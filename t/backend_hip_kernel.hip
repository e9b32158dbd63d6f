/* SPDX-License-Identifier: MIT */
/* Device half of t/backend_hip.c: a saxpy and two deliberate failures run
 * through the HIP plumbing (checks, timer, occupancy). */
#include <hip/hip_runtime.h>
#include "harness/backend/hip.h"
#include "harness/backend/hip_check.h"

__global__ void rb_test_saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

struct saxpy_state {
    float *x, *y;
    struct rb_hip_timer t;
};

static int saxpy(struct rb_case *c, struct saxpy_state *s, int n, float a, const float *x,
                 float *y, int block, double *ms)
{
    size_t bytes = (size_t)n * sizeof(float);
    RB_HIP_CHECK(c, hipMalloc(&s->x, bytes));
    RB_HIP_CHECK(c, hipMalloc(&s->y, bytes));
    RB_HIP_CHECK(c, hipMemcpy(s->x, x, bytes, hipMemcpyHostToDevice));
    RB_HIP_CHECK(c, hipMemcpy(s->y, y, bytes, hipMemcpyHostToDevice));
    if (rb_hip_timer_create(c, &s->t))
        return RB_EDEVICE;
    if (rb_hip_timer_start(c, &s->t, 0))
        return RB_EDEVICE;
    hipLaunchKernelGGL(rb_test_saxpy, dim3((n + block - 1) / block), dim3(block), 0, 0, n, a,
                       s->x, s->y);
    RB_HIP_CHECK_LAUNCH(c);
    if (rb_hip_timer_stop(c, &s->t, 0, ms))
        return RB_EDEVICE;
    RB_HIP_CHECK(c, hipMemcpy(y, s->y, bytes, hipMemcpyDeviceToHost));
    return 0;
}

/* y = a*x + y on the case's device; the kernel's occupancy at `block`. */
extern "C" int rb_test_hip_saxpy(struct rb_case *c, int n, float a, const float *x, float *y,
                                  int block, double *ms, struct rb_occ_kernel *occ)
{
    struct saxpy_state s = {};
    int rc = rb_hip_select(c);
    if (rc == 0)
        rc = saxpy(c, &s, n, a, x, y, block, ms);
    if (rc == 0)
        rc = rb_hip_occupancy((const void *)rb_test_saxpy, block, 0, "rb_test_saxpy", occ);
    (void)hipFree(s.x);
    (void)hipFree(s.y);
    rb_hip_timer_destroy(&s.t);
    return rc;
}

/* An allocation no GPU grants: RB_EDEVICE through RB_HIP_CHECK. */
extern "C" int rb_test_hip_bad_alloc(struct rb_case *c)
{
    void *p = NULL;
    RB_HIP_CHECK(c, hipMalloc(&p, (size_t)1 << 62));
    (void)hipFree(p);
    return 0;
}

/* More threads per block than any GPU allows: RB_ELAUNCH. */
extern "C" int rb_test_hip_bad_launch(struct rb_case *c)
{
    hipLaunchKernelGGL(rb_test_saxpy, dim3(1), dim3(4096), 0, 0, 0, 1.0f, (const float *)NULL,
                       (float *)NULL);
    RB_HIP_CHECK_LAUNCH(c);
    return 0;
}

/* The error state left behind: hipSuccess (0) once a check has cleared it. */
extern "C" int rb_test_hip_last_error(void)
{
    return (int)hipPeekAtLastError();
}
