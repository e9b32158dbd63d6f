/* SPDX-License-Identifier: MIT */
/* Device half of t/backend_cuda.c: a saxpy and two deliberate failures run
 * through the CUDA plumbing (checks, timer, occupancy). */
#include <cuda_runtime.h>
#include "harness/backend/cuda.h"
#include "harness/backend/cuda_check.h"

__global__ void rb_test_saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

struct saxpy_state {
    float *x, *y;
    struct rb_cuda_timer t;
};

static int saxpy(struct rb_case *c, struct saxpy_state *s, int n, float a, const float *x,
                 float *y, int block, double *ms)
{
    size_t bytes = (size_t)n * sizeof(float);
    RB_CUDA_CHECK(c, cudaMalloc(&s->x, bytes));
    RB_CUDA_CHECK(c, cudaMalloc(&s->y, bytes));
    RB_CUDA_CHECK(c, cudaMemcpy(s->x, x, bytes, cudaMemcpyHostToDevice));
    RB_CUDA_CHECK(c, cudaMemcpy(s->y, y, bytes, cudaMemcpyHostToDevice));
    if (rb_cuda_timer_create(c, &s->t))
        return RB_EDEVICE;
    if (rb_cuda_timer_start(c, &s->t, 0))
        return RB_EDEVICE;
    rb_test_saxpy<<<(n + block - 1) / block, block>>>(n, a, s->x, s->y);
    RB_CUDA_CHECK_LAUNCH(c);
    if (rb_cuda_timer_stop(c, &s->t, 0, ms))
        return RB_EDEVICE;
    RB_CUDA_CHECK(c, cudaMemcpy(y, s->y, bytes, cudaMemcpyDeviceToHost));
    return 0;
}

/* y = a*x + y on the case's device; the kernel's occupancy at `block`. */
extern "C" int rb_test_cuda_saxpy(struct rb_case *c, int n, float a, const float *x, float *y,
                                  int block, double *ms, struct rb_occ_kernel *occ)
{
    struct saxpy_state s = {};
    int rc = rb_cuda_select(c);
    if (rc == 0)
        rc = saxpy(c, &s, n, a, x, y, block, ms);
    if (rc == 0)
        rc = rb_cuda_occupancy((const void *)rb_test_saxpy, block, 0, "rb_test_saxpy", occ);
    cudaFree(s.x);
    cudaFree(s.y);
    rb_cuda_timer_destroy(&s.t);
    return rc;
}

/* An allocation no GPU grants: RB_EDEVICE through RB_CUDA_CHECK. */
extern "C" int rb_test_cuda_bad_alloc(struct rb_case *c)
{
    void *p = NULL;
    RB_CUDA_CHECK(c, cudaMalloc(&p, (size_t)1 << 62));
    cudaFree(p);
    return 0;
}

/* More threads per block than any GPU allows: RB_ELAUNCH. */
extern "C" int rb_test_cuda_bad_launch(struct rb_case *c)
{
    rb_test_saxpy<<<1, 4096>>>(0, 1.0f, NULL, NULL);
    RB_CUDA_CHECK_LAUNCH(c);
    return 0;
}

/* The error state left behind: cudaSuccess (0) once a check has cleared it. */
extern "C" int rb_test_cuda_last_error(void)
{
    return (int)cudaPeekAtLastError();
}
