// SPDX-License-Identifier: MIT
// The CUDA and HIP Sammon variants' cases, compiled once for CUDA and once
// for HIP (sammon_gpu_state.h): admission, device footprint, setup (the shared case's data,
// uploaded), the check against the fp64 reference and teardown.
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_gpu_state.h"
#include "kernels/cuda/sammon_tiled.cuh"

namespace sammon_gpu {
inline namespace RB_GPU_NS {

static int is_tiled(int kind)
{
    return kind == SAMMON_KIND_TILED || kind == SAMMON_KIND_TILED_SYMMETRIC
           || kind == SAMMON_KIND_STORED;
}

// The table row's kind where it is one of the GPU variants', else -1.
static int kind_of(const struct rb_case *c)
{
    int k = c->v->kind;
    return k >= SAMMON_KIND_STANDARD_FLAT && k <= SAMMON_KIND_STORED ? k : -1;
}

static int case_tile(const struct rb_case *c)
{
    return (int)rb_case_param(c, "tile", sammon_tiled_tile(4));
}

int admit(struct rb_case *c)
{
    long long m = rb_case_param(c, "outdim", 2), tile = case_tile(c);
    int kind = kind_of(c);
    if (kind < 0)
        return rb_fail(c, RB_EINVAL, "no GPU Sammon variant is named %s", c->v->name);
    if (m > SAMMON_GPU_MAXM)
        return rb_fail(c, RB_ESKIP, "outdim=%lld: the kernels are built for 1 to %d", m,
                       SAMMON_GPU_MAXM);
    if (!is_tiled(kind))
        return 0;
    if (tile != sammon_tiled_tile(2) && tile != sammon_tiled_tile(4)
        && tile != sammon_tiled_tile(8))
        return rb_fail(c, RB_ESKIP, "tile=%lld: the tiled kernel is built for 32, 64 and 128",
                       tile);
    if (tile == sammon_tiled_tile(8) && c->prec == RB_PREC_F64)
        return rb_fail(c, RB_ESKIP, "tile=128 is built for f32 only (8 x 8 fp64 sums a "
                                    "thread outgrow the registers)");
    if (kind != SAMMON_KIND_STORED)
        return 0;
    if (c->prec != RB_PREC_F32)
        return rb_fail(c, RB_ESKIP, "the stored variant is f32 only");
    if (gpu_select(c) != 0)
        return 0;                       // setup reports it
    return stored_fits(c, footprint(c), 0);
}

size_t footprint(const struct rb_case *c)
{
    size_t N = (size_t)rb_case_param(c, "points", 2), n = (size_t)rb_case_param(c, "dim", 1);
    size_t m = (size_t)rb_case_param(c, "outdim", 2), sz = rb_prec_size(c->prec);
    size_t bytes = (N * n + 3 * N * m) * sz;
    int kind = kind_of(c);
    if (sammon_last_step_checked((long long)N, (long long)n, rb_case_param(c, "iters", 1)))
        bytes += N * m * sz;            // the iterate before the last step
    if (kind == SAMMON_KIND_MODIFIED_FLAT || kind == SAMMON_KIND_MODIFIED_TRANSPOSED
        || kind == SAMMON_KIND_TILED_SYMMETRIC)
        bytes += N * m * sz;
    if (kind == SAMMON_KIND_STORED)
        bytes += stored_extra_bytes(c);
    if (kind == SAMMON_KIND_TILED && case_tile(c) > 0)
        bytes += (size_t)tiled_splits_max((int)N, case_tile(c)) * N * m * sz;
    return bytes;
}

// src (rows x cols, row-major, sz-byte values) into dst as cols x rows.
static void transpose(void *dst, const void *src, size_t rows, size_t cols, size_t sz)
{
    for (size_t r = 0; r < rows; r++)
        for (size_t k = 0; k < cols; k++)
            memcpy((char *)dst + (k * rows + r) * sz, (const char *)src + (r * cols + k) * sz,
                   sz);
}

static int dev_init(struct rb_case *c, struct sammon_state *s, dev *d)
{
    int kind = kind_of(c);
    if (kind < 0)
        return rb_fail(c, RB_EINVAL, "no GPU Sammon variant is named %s", c->v->name);
    d->kind = (enum sammon_kind)kind;
    d->transposed = kind == SAMMON_KIND_STANDARD_TRANSPOSED
                    || kind == SAMMON_KIND_MODIFIED_TRANSPOSED;
    d->block = (int)rb_case_param(c, "block", 256);
    d->tile = case_tile(c);
    d->coef = 2.0 * s->alpha / s->c;
    d->splits = d->per_split = 1;
    d->g_len = kind == SAMMON_KIND_STANDARD_FLAT || kind == SAMMON_KIND_STANDARD_TRANSPOSED
                   ? 0 : (size_t)s->N * s->m;
    d->precompute = kind == SAMMON_KIND_STORED && rb_case_param(c, "precompute", 0) != 0;
    if (!is_tiled(kind))
        return 0;
    int rc = tiled_plan_case(c, s, d);
    if (kind == SAMMON_KIND_TILED)
        d->g_len *= (size_t)d->splits;
    return rc;
}

static int device_alloc(struct rb_case *c, const struct sammon_state *s, dev *d)
{
    size_t sz = rb_prec_size(c->prec), ny = (size_t)s->N * s->m;
    GPU_CHECK(c, gpuStreamCreateWithFlags(&d->stream, gpuStreamNonBlocking));
    int rc = gpu_timer_create(c, &d->timer);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuMalloc(&d->x, (size_t)s->N * s->n * sz));
    GPU_CHECK(c, gpuMalloc(&d->y0, ny * sz));
    GPU_CHECK(c, gpuMalloc(&d->ya, ny * sz));
    GPU_CHECK(c, gpuMalloc(&d->yb, ny * sz));
    if (s->y_prev)
        GPU_CHECK(c, gpuMalloc(&d->prev, ny * sz));
    if (d->g_len)
        GPU_CHECK(c, gpuMalloc(&d->g, d->g_len * sz));
    if (d->kind == SAMMON_KIND_STORED) {
        GPU_CHECK(c, gpuMalloc(&d->store, sammon_stored_bytes(s->N, d->tile)));
        GPU_CHECK(c, gpuMalloc((void **)&d->lost, sizeof *d->lost));
    }
    return 0;
}

// x and y0 to the device (transposed first where the variant wants it),
// the copies timed into c->transfer_ms; the iterates poisoned with NaN (all
// bits set) and the modified sums zeroed, untimed.
static int upload(struct rb_case *c, const struct sammon_state *s, dev *d)
{
    size_t sz = rb_prec_size(c->prec), nx = (size_t)s->N * s->n, ny = (size_t)s->N * s->m;
    const void *x = s->x, *y0 = s->y0;
    if (d->transposed) {
        d->host = malloc((nx + ny) * sz);
        if (!d->host)
            return rb_fail(c, RB_ENOMEM, "transposing copies of points=%d", s->N);
        transpose(d->host, s->x, s->N, s->n, sz);
        transpose((char *)d->host + nx * sz, s->y0, s->N, s->m, sz);
        x = d->host;
        y0 = (const char *)d->host + nx * sz;
    }
    int rc = gpu_timer_start(c, &d->timer, d->stream);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuMemcpyAsync(d->x, x, nx * sz, gpuMemcpyHostToDevice, d->stream));
    GPU_CHECK(c, gpuMemcpyAsync(d->y0, y0, ny * sz, gpuMemcpyHostToDevice, d->stream));
    if ((rc = gpu_timer_stop(c, &d->timer, d->stream, &c->transfer_ms)))
        return rc;
    GPU_CHECK(c, gpuMemsetAsync(d->ya, 0xff, ny * sz, d->stream));
    GPU_CHECK(c, gpuMemsetAsync(d->yb, 0xff, ny * sz, d->stream));
    if (d->prev)
        GPU_CHECK(c, gpuMemsetAsync(d->prev, 0xff, ny * sz, d->stream));
    if (d->g)
        GPU_CHECK(c, gpuMemsetAsync(d->g, 0, d->g_len * sz, d->stream));
    d->result = d->ya;
    GPU_CHECK(c, gpuStreamSynchronize(d->stream));
    return 0;
}

int setup(struct rb_case *c)
{
    int rc = sammon_setup_keeping(c);
    if (rc)
        return rc;
    struct sammon_state *s = (struct sammon_state *)c->state;
    dev *d = (dev *)calloc(1, sizeof *d);
    if (!d)
        return rb_fail(c, RB_ENOMEM, "GPU Sammon state");
    s->backend = d;
    if ((rc = gpu_select(c)) || (rc = dev_init(c, s, d)))
        return rc;
    if (d->kind == SAMMON_KIND_STORED && (rc = stored_fits(c, footprint(c), 1)))
        return rc;
    if ((rc = device_alloc(c, s, d)) || (rc = upload(c, s, d)))
        return rc;
    return d->kind == SAMMON_KIND_STORED ? stored_setup(c, s, d) : 0;
}

int verify(struct rb_case *c, struct rb_check *out)
{
    struct sammon_state *s = (struct sammon_state *)c->state;
    dev *d = (dev *)s->backend;
    size_t sz = rb_prec_size(c->prec), ny = (size_t)s->N * s->m;
    void *const from[2] = { d->result, d->prev }, *const to[2] = { s->y, s->y_prev };
    for (int k = 0; k < 2 && from[k]; k++) {
        void *dst = d->transposed ? d->host : to[k];
        GPU_CHECK(c, gpuMemcpyAsync(dst, from[k], ny * sz, gpuMemcpyDeviceToHost, d->stream));
        GPU_CHECK(c, gpuStreamSynchronize(d->stream));
        if (d->transposed)
            transpose(to[k], d->host, s->m, s->N, sz);
    }
    return sammon_verify(c, out);
}

void teardown(struct rb_case *c)
{
    struct sammon_state *s = (struct sammon_state *)c->state;
    if (!s)
        return;
    dev *d = (dev *)s->backend;
    if (d) {
        if (d->stream)
            (void)gpuStreamSynchronize(d->stream);
        void *mem[] = { d->x, d->y0, d->ya, d->yb, d->prev, d->g, d->store, d->lost };
        for (size_t k = 0; k < sizeof mem / sizeof *mem; k++)
            if (mem[k])
                (void)gpuFree(mem[k]);
        gpu_timer_destroy(&d->timer);
        if (d->stream)
            (void)gpuStreamDestroy(d->stream);
        (void)gpuGetLastError();
        free(d->host);
        free(d);
        s->backend = NULL;
    }
    sammon_teardown(c);
}
} // namespace RB_GPU_NS
} // namespace sammon_gpu

// The engine C sees, spelled out per backend; its entry points are this
// backend's namespace's.  A function, not an object: the device compiler
// leaves host functions alone.
#ifdef RB_GPU_HIP
extern "C" const struct sammon_gpu_engine *sammon_hip_engine(void)
#else
extern "C" const struct sammon_gpu_engine *sammon_cuda_engine(void)
#endif
{
    using namespace sammon_gpu;
    static const struct sammon_gpu_engine engine = {
        admit, footprint, setup, run, verify, occupancy, teardown,
    };
    return &engine;
}
