// SPDX-License-Identifier: MIT
// The embedding engine on CUDA and HIP (sammon_engine.h), compiled once for
// each: its definitions in namespace sammon_engine_gpu::RB_GPU_NS
// (impl/common/gpu_api.h), the C entry points spelled out per backend at
// the end.  The scaled float
// inputs uploaded once, the triangle of 1 / d* filled once where the
// device's free memory holds it (else each pass recomputes the distances),
// and per evaluation one pass of kernels/cuda/sammon_stored.cuh over the
// map sent from the host: the per-point sums and the blocks' fp64 stress
// partials come back and become the stress, gradient and second
// derivative in double.  The pass with the derivatives runs without the
// test for coinciding outputs (sammon_stored.cuh) until a stress that is
// not finite says it may have met some: that pass again with the test,
// and the test from then on.  For the fixed rules the map stays on the device
// in double (sammon.h's struct sammon_resident): the step
// (kernels/cuda/sammon_step.cuh) runs there, only the stress comes back
// each iteration, and the next step is queued before it does, so that
// the device does not wait on the host between passes.  Kernels go
// through GPU_LAUNCH, so that t/sammon_engine_emu runs this file whole on
// the CPU.
#include <config.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl/common/gpu_api.h"
#include "impl/sammon/sammon_engine.h"
#include "kernels/cuda/sammon_step.cuh"
#include "kernels/cuda/sammon_stored.cuh"

namespace sammon_engine_gpu {
inline namespace RB_GPU_NS {

// Free device memory left beside the triangle (the runtime's own, other
// buffers), and the blocks per SM a pass's grid aims at (as the harness's
// tiled plan: four waves).
static constexpr size_t HEADROOM = (size_t)256 << 20;
static constexpr long long WAVES = 4;

using pass_fn = void (*)(int, int, const float *, const float4 *, const float *, float *,
                         double *);
using fill_fn = void (*)(int, int, const float *, float4 *, unsigned *, double *, float *);

// A pass's results go to one of two slots, its sums on the device and its
// stress partials on the host (with the event of their arrival), so that
// a pass may run while the host reads the other slot's.
struct gpu_engine {
    struct rb_case c;           // the runtime's checks write c.msg; c.ctx picks the device
    gpuStream_t stream;
    gpuEvent_t back[2];         // a slot's partials are on the host
    double scale, c_scaled;     // the inputs' power of two; c of the scaled inputs
    int stored, R, tiles, splits;
    long long blocks;           // tile pairs
    // The EMBED pass with the test for coinciding outputs (embed) and
    // without (untested, sammon_stored.cuh), and whether the engine takes
    // the test: from the first untested pass whose stress is not finite on.
    pass_fn embed, untested, stress;
    int tested;
    float *x, *y, *sums[2];     // device
    float *rsum, *rsum_h;       // each point's sum of 1/d*: device, pinned host
    double *yd[2];              // device: the resident map, and the next step's
    float4 *store;
    unsigned *lost;
    double *c_part, *st_part;
    float *yh, *sums_h;         // pinned host
    double *st_h[2], *c_h;
    int expanded[2];            // the slot's pass summed the expanded stress (EMBED)
    int ran_untested[2];        // the slot's pass ran without the test (its sums: C, D)
    // The resident map is yd[cur], its pass's results in slot `slot`; with
    // `ahead` the next step (into yd[cur ^ 1] and slot ^ 1) is queued, for
    // the rule and `left` in `next`.
    int cur, slot, ahead;
    struct {
        int newton, left;
        double mf, alpha;
    } next;
};

template <int M, int R> static void pick_kernels(struct gpu_engine *k)
{
    k->embed = k->stored ? sammon_stored_pass<M, R, SAMMON_PASS_EMBED, true>
                         : sammon_stored_pass<M, R, SAMMON_PASS_EMBED, false>;
    k->untested = k->stored ? sammon_stored_pass<M, R, SAMMON_PASS_EMBED, true, false>
                            : sammon_stored_pass<M, R, SAMMON_PASS_EMBED, false, false>;
    k->stress = k->stored ? sammon_stored_pass<M, R, SAMMON_PASS_STRESS, true>
                          : sammon_stored_pass<M, R, SAMMON_PASS_STRESS, false>;
}

// Tiles of 64 and 128 points (R 4 and 8); m 2 or 3, sammon-embed's.
static int kernels_for(struct gpu_engine *k, int m)
{
    if (m == 2 && k->R == 4)
        pick_kernels<2, 4>(k);
    else if (m == 2 && k->R == 8)
        pick_kernels<2, 8>(k);
    else if (m == 3 && k->R == 4)
        pick_kernels<3, 4>(k);
    else if (m == 3 && k->R == 8)
        pick_kernels<3, 8>(k);
    else
        return RB_EINVAL;
    return 0;
}

static fill_fn fill_kernel(int R)
{
    return R == 4 ? sammon_stored_fill<4> : sammon_stored_fill<8>;
}

static long long cdiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

int engine_available(struct rb_ctx *ctx, int gpu_only, char *why, size_t len)
{
    (void)gpu_only;
    return gpu_available(ctx, why, len);
}

// The device chosen, and its context made (the driver's start and the
// context are most of a first call's time): open selects the device again,
// on its own thread, and finds the context there.
static int start_on(struct rb_case *c)
{
    int rc = gpu_select(c);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuFree(NULL));
    return 0;
}

int engine_start(struct rb_ctx *ctx, char *why, size_t len)
{
    struct rb_case c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    int rc = start_on(&c);
    snprintf(why, len, "%s", rc ? c.msg : "");
    return rc;
}

// The device's context torn down (gpuDeviceReset on the device start_on
// chose, from whatever thread), once the program has closed its engines.
void engine_stop(struct rb_ctx *ctx)
{
    struct rb_case c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    if (gpu_select(&c) == 0)
        (void)gpuDeviceReset();
    (void)gpuGetLastError();
}

// The triangle where the free memory holds it beside the rest.
static int choose_form(struct sammon_engine *e, struct gpu_engine *k, size_t rest)
{
    size_t free_b = 0, total_b = 0, tri = (size_t)k->blocks * (16 * k->R) * (16 * k->R) * 4;
    GPU_CHECK(&k->c, gpuMemGetInfo(&free_b, &total_b));
    k->stored = !e->recompute && tri + rest + HEADROOM <= free_b;
    if (k->stored)
        snprintf(e->form, sizeof e->form, "stored 1/d* (%.3g MB), tile %d", tri / 1e6,
                 16 * k->R);
    else if (e->recompute)
        snprintf(e->form, sizeof e->form, "distances recomputed each pass (asked), tile %d",
                 16 * k->R);
    else
        snprintf(e->form, sizeof e->form, "distances recomputed each pass (the %.3g GB "
                 "triangle and the %.3g GB beside it exceed the %.3g GB free), tile %d",
                 tri / 1e9, (rest + HEADROOM) / 1e9, free_b / 1e9, 16 * k->R);
    return 0;
}

static int plan(struct sammon_engine *e, struct gpu_engine *k)
{
    int device = 0, sms = 0, active = 0;
    GPU_CHECK(&k->c, gpuGetDevice(&device));
    GPU_CHECK(&k->c, gpuDeviceGetAttribute(&sms, gpuDevAttrMultiProcessorCount, device));
    GPU_CHECK(&k->c, gpuOccupancyMaxActiveBlocksPerMultiprocessor(&active,
                                                                  (const void *)k->embed,
                                                                  SAMMON_TILED_THREADS, 0));
    long long slots = (long long)sms * (active > 0 ? active : 1);
    long long want = cdiv(WAVES * slots, k->tiles);
    k->splits = (int)(want < 1 ? 1 : want < k->tiles ? want : k->tiles);
    (void)e;
    return 0;
}

static int alloc(struct sammon_engine *e, struct gpu_engine *k)
{
    const size_t N = (size_t)e->N, K = (size_t)SAMMON_ENGINE_SUMS(e->m);
    const size_t parts = (size_t)k->splits * k->tiles;
    GPU_CHECK(&k->c, gpuStreamCreateWithFlags(&k->stream, gpuStreamNonBlocking));
    GPU_CHECK(&k->c, gpuMalloc((void **)&k->x, N * e->n * sizeof(float)));
    GPU_CHECK(&k->c, gpuMalloc((void **)&k->y, N * e->m * sizeof(float)));
    for (int s = 0; s < 2; s++) {
        GPU_CHECK(&k->c, gpuEventCreate(&k->back[s]));
        GPU_CHECK(&k->c, gpuMalloc((void **)&k->yd[s], N * e->m * sizeof(double)));
        GPU_CHECK(&k->c, gpuMalloc((void **)&k->sums[s], N * K * sizeof(float)));
        GPU_CHECK(&k->c, gpuMallocHost((void **)&k->st_h[s], parts * sizeof(double)));
    }
    GPU_CHECK(&k->c, gpuMalloc((void **)&k->lost, sizeof *k->lost));
    GPU_CHECK(&k->c, gpuMalloc((void **)&k->rsum, N * sizeof(float)));
    GPU_CHECK(&k->c, gpuMallocHost((void **)&k->rsum_h, N * sizeof(float)));
    GPU_CHECK(&k->c, gpuMalloc((void **)&k->c_part, (size_t)k->blocks * sizeof(double)));
    GPU_CHECK(&k->c, gpuMalloc((void **)&k->st_part, parts * sizeof(double)));
    GPU_CHECK(&k->c, gpuMallocHost((void **)&k->yh, N * e->m * sizeof(float)));
    GPU_CHECK(&k->c, gpuMallocHost((void **)&k->sums_h, N * K * sizeof(float)));
    GPU_CHECK(&k->c, gpuMallocHost((void **)&k->c_h, (size_t)k->blocks * sizeof(double)));
    if (k->stored && gpuMalloc((void **)&k->store, (size_t)k->blocks * (16 * k->R)
                               * (16 * k->R) * sizeof(float)) != gpuSuccess) {
        (void)gpuGetLastError();        // another process took the memory: recompute
        k->store = NULL;
        k->stored = 0;
        snprintf(e->form, sizeof e->form, "distances recomputed each pass (the triangle's "
                 "allocation failed), tile %d", 16 * k->R);
        kernels_for(k, e->m);
    }
    return 0;
}

// The inputs up, the triangle (or, recomputing, the count and c alone).
static int fill(struct sammon_engine *e, struct gpu_engine *k, const float *xf)
{
    unsigned lost = 0;
    GPU_CHECK(&k->c, gpuMemcpyAsync(k->x, xf, (size_t)e->N * e->n * sizeof(float),
                                    gpuMemcpyHostToDevice, k->stream));
    GPU_CHECK(&k->c, gpuMemsetAsync(k->lost, 0, sizeof *k->lost, k->stream));
    GPU_CHECK(&k->c, gpuMemsetAsync(k->rsum, 0, (size_t)e->N * sizeof(float), k->stream));
    GPU_LAUNCH(fill_kernel(k->R), (unsigned)k->blocks, SAMMON_TILED_THREADS, k->stream, e->N,
               e->n, k->x, k->store, k->lost, k->c_part, k->rsum);
    GPU_CHECK_LAUNCH(&k->c);
    GPU_CHECK(&k->c, gpuMemcpyAsync(&lost, k->lost, sizeof lost, gpuMemcpyDeviceToHost,
                                    k->stream));
    GPU_CHECK(&k->c, gpuMemcpyAsync(k->c_h, k->c_part, (size_t)k->blocks * sizeof(double),
                                    gpuMemcpyDeviceToHost, k->stream));
    GPU_CHECK(&k->c, gpuMemcpyAsync(k->rsum_h, k->rsum, (size_t)e->N * sizeof(float),
                                    gpuMemcpyDeviceToHost, k->stream));
    GPU_CHECK(&k->c, gpuStreamSynchronize(k->stream));
    if (lost)
        return rb_fail(&k->c, RB_EINVAL, "%u pairs of distinct points are too close (or too "
                       "far apart) for single precision to tell their distance "
                       "(--backend omp keeps double)", lost);
    k->c_scaled = 0.0;
    for (long long b = 0; b < k->blocks; b++)
        k->c_scaled += k->c_h[b];
    e->c = k->c_scaled * k->scale;
    return 0;
}

// One pass over the map in k->y into slot s: the sums (with sums: the
// EMBED pass) and the stress partials, the latter on their way to the
// host (read once the slot's event has passed).
static int pass(struct sammon_engine *e, struct gpu_engine *k, int sums, int s)
{
    const size_t K = (size_t)SAMMON_ENGINE_SUMS(e->m), parts = (size_t)k->splits * k->tiles;
    if (sums)
        GPU_CHECK(&k->c, gpuMemsetAsync(k->sums[s], 0, e->N * K * sizeof(float), k->stream));
    dim3 grid((unsigned)k->splits, (unsigned)k->tiles);
    const pass_fn fn = !sums ? k->stress : k->tested ? k->embed : k->untested;
    GPU_LAUNCH(fn, grid, SAMMON_TILED_THREADS, k->stream, e->N, e->n, k->x, k->store, k->y,
               k->sums[s], k->st_part);
    GPU_CHECK_LAUNCH(&k->c);
    GPU_CHECK(&k->c, gpuMemcpyAsync(k->st_h[s], k->st_part, parts * sizeof(double),
                                    gpuMemcpyDeviceToHost, k->stream));
    GPU_CHECK(&k->c, gpuEventRecord(k->back[s], k->stream));
    k->expanded[s] = sums;
    k->ran_untested[s] = sums && !k->tested;
    return 0;
}

// The stress from slot s's partials, once they are back: the EMBED pass
// sums its expanded terms, to which c adds (sammon_stored.cuh).
static double stress_of(const struct gpu_engine *k, int s)
{
    double sum = k->expanded[s] ? k->c_scaled : 0.0;
    for (size_t b = 0; b < (size_t)k->splits * k->tiles; b++)
        sum += k->st_h[s][b];
    return sum / k->c_scaled;
}

// Whether slot s's pass, whose stress came back as `stress`, is to run
// again with the test: it ran untested, and its stress is not finite, as
// coinciding outputs make it (or a map gone to infinity, which the test
// leaves as it is).  The engine takes the test from then on.
static int retest(struct gpu_engine *k, int s, double stress)
{
    if (!k->ran_untested[s] || isfinite(stress))
        return 0;
    k->tested = 1;
    return 1;
}

// The queued step, if any, dropped: it wrote only the other map and slot.
static int drop_ahead(struct gpu_engine *k)
{
    if (k->ahead)
        GPU_CHECK(&k->c, gpuStreamSynchronize(k->stream));
    k->ahead = 0;
    return 0;
}

// The resident map (sammon.h): y in double on the device, the float map
// of each pass made from it there.  Failures leave the reason in e->msg.
static int resident_done(struct sammon_engine *e, struct gpu_engine *k, int rc)
{
    if (rc)
        snprintf(e->msg, sizeof e->msg, "%s", k->c.msg);
    return rc;
}

static int blocks_for(long long len)
{
    return (int)cdiv(len, SAMMON_TILED_THREADS);
}

// The pass's float map from the resident one, yd[cur].
static int map_to_float(struct sammon_engine *e, struct gpu_engine *k)
{
    const int ny = e->N * e->m;
    GPU_LAUNCH(sammon_map_to_float, blocks_for(ny), SAMMON_TILED_THREADS, k->stream, ny,
               k->yd[k->cur], 1.0 / k->scale, k->y);
    GPU_CHECK_LAUNCH(&k->c);
    return 0;
}

// The stress of slot s's pass over the resident map, waited for; run again
// with the test where retest says (a step queued ahead read its sums and
// overwrote the float map: it is dropped, for the next step to queue it).
static int stress_back(struct sammon_engine *e, struct gpu_engine *k, int s, double *stress)
{
    GPU_CHECK(&k->c, gpuEventSynchronize(k->back[s]));
    *stress = stress_of(k, s);
    if (!retest(k, s, *stress))
        return 0;
    int rc = drop_ahead(k);
    if (rc == 0 && (rc = map_to_float(e, k)) == 0)
        rc = pass(e, k, 1, s);
    return rc ? rc : stress_back(e, k, s, stress);
}

static int load_on(struct sammon_engine *e, struct gpu_engine *k, const double *y,
                   double *stress)
{
    const int ny = e->N * e->m;
    int rc = drop_ahead(k);
    if (rc)
        return rc;
    k->cur = k->slot = 0;
    GPU_CHECK(&k->c, gpuMemcpyAsync(k->yd[0], y, (size_t)ny * sizeof(double),
                                    gpuMemcpyHostToDevice, k->stream));
    if ((rc = map_to_float(e, k)) == 0 && (rc = pass(e, k, 1, 0)) == 0)
        rc = stress_back(e, k, 0, stress);
    return rc;
}

// A step queued from map yd[from], whose pass's results are in slot s,
// into yd[from ^ 1] and slot s ^ 1 (the EMBED pass with sums, else the
// stress alone).
static int queue_step(struct sammon_engine *e, struct gpu_engine *k, int from, int s,
                      int newton, double mf, double alpha, int sums)
{
    GPU_LAUNCH(sammon_fixed_step, blocks_for(e->N), SAMMON_TILED_THREADS, k->stream, e->N, e->m,
               k->sums[s], k->ran_untested[s] ? k->rsum : NULL, -2.0 / e->c,
               e->c * k->scale, newton, mf, alpha, 1.0 / k->scale, k->yd[from], k->yd[from ^ 1],
               k->y);
    GPU_CHECK_LAUNCH(&k->c);
    return pass(e, k, sums, s ^ 1);
}

// This step (queued by the last call where it foresaw it), then the next
// one queued where the driver means to take it, then this one's stress.
// The next step overwrites the map and slot this one leaves, which the
// driver no longer needs: a driver that stops fetches this one's map.
static int step_on(struct sammon_engine *e, struct gpu_engine *k, int newton, double mf,
                   double alpha, int left, double *stress)
{
    int rc = 0;
    if (k->ahead && (k->next.newton != newton || k->next.mf != mf || k->next.alpha != alpha
                     || k->next.left != left))
        rc = drop_ahead(k);
    if (rc == 0 && !k->ahead)
        rc = queue_step(e, k, k->cur, k->slot, newton, mf, alpha, left > 0);
    if (rc)
        return rc;
    k->ahead = 0;
    k->cur ^= 1;
    k->slot ^= 1;
    if (left > 0) {
        if ((rc = queue_step(e, k, k->cur, k->slot, newton, mf, alpha, left > 1)) != 0)
            return rc;
        k->ahead = 1;
        k->next.newton = newton;
        k->next.left = left - 1;
        k->next.mf = mf;
        k->next.alpha = alpha;
    }
    return stress_back(e, k, k->slot, stress);
}

static int fetch_on(struct sammon_engine *e, struct gpu_engine *k, double *y)
{
    int rc = drop_ahead(k);
    if (rc)
        return rc;
    GPU_CHECK(&k->c, gpuMemcpyAsync(y, k->yd[k->cur], (size_t)e->N * e->m * sizeof(double),
                                    gpuMemcpyDeviceToHost, k->stream));
    GPU_CHECK(&k->c, gpuStreamSynchronize(k->stream));
    return 0;
}

static int resident_load(void *arg, const double *y, double *stress)
{
    struct sammon_engine *e = (struct sammon_engine *)arg;
    struct gpu_engine *k = (struct gpu_engine *)e->impl;
    return resident_done(e, k, load_on(e, k, y, stress));
}

static int resident_step(void *arg, int newton, double mf, double alpha, int left,
                         double *stress)
{
    struct sammon_engine *e = (struct sammon_engine *)arg;
    struct gpu_engine *k = (struct gpu_engine *)e->impl;
    return resident_done(e, k, step_on(e, k, newton, mf, alpha, left, stress));
}

static int resident_fetch(void *arg, double *y)
{
    struct sammon_engine *e = (struct sammon_engine *)arg;
    struct gpu_engine *k = (struct gpu_engine *)e->impl;
    return resident_done(e, k, fetch_on(e, k, y));
}

static const struct sammon_resident resident = { resident_load, resident_step,
                                                 resident_fetch };

int engine_open(struct sammon_engine *e, const double *x)
{
    struct gpu_engine *k = (struct gpu_engine *)calloc(1, sizeof *k);
    float *xf = (float *)malloc((size_t)e->N * e->n * sizeof *xf);
    int rc = k && xf ? 0 : RB_ENOMEM;
    e->impl = k;
    if (rc == 0)
        rc = sammon_engine_floats(e, x, k ? &k->scale : NULL, xf);
    if (rc) {
        free(xf);
        return rc;
    }
    k->c.ctx = e->ctx;
    k->R = e->tile / 16;
    k->tiles = (int)cdiv(e->N, 16 * k->R);
    k->blocks = (long long)k->tiles * (k->tiles + 1) / 2;
    const size_t rest = (size_t)e->N * (e->n + e->m + 2 * SAMMON_ENGINE_SUMS(e->m) + 1)
                            * sizeof(float)
                        + (size_t)e->N * e->m * 2 * sizeof(double)
                        + (size_t)k->blocks * sizeof(double);
    if ((rc = gpu_select(&k->c)) == 0 && (rc = choose_form(e, k, rest)) == 0) {
        snprintf(e->device, sizeof e->device, "%s", k->c.device);
        if (kernels_for(k, e->m))
            rc = rb_fail(&k->c, RB_EINVAL, "tile %d, outdim %d: the engine is built for "
                         "tiles of 64 and 128 and 2 or 3 dimensions", 16 * k->R, e->m);
    }
    if (rc == 0 && (rc = plan(e, k)) == 0 && (rc = alloc(e, k)) == 0)
        rc = fill(e, k, xf);
    free(xf);
    e->resident = rc == 0 ? &resident : NULL;
    if (rc)
        snprintf(e->msg, sizeof e->msg, "%s", k->c.msg);
    return rc;
}

static int eval_on(struct sammon_engine *e, struct gpu_engine *k, const double *y,
                   double *stress, double *g, double *h)
{
    const size_t ny = (size_t)e->N * e->m, K = (size_t)SAMMON_ENGINE_SUMS(e->m);
    sammon_engine_to_float(ny, y, k->scale, k->yh);
    double st;
    int rc = drop_ahead(k);
    if (rc)
        return rc;
    GPU_CHECK(&k->c, gpuMemcpyAsync(k->y, k->yh, ny * sizeof(float), gpuMemcpyHostToDevice,
                                    k->stream));
    do {
        if ((rc = pass(e, k, g != NULL, 0)) != 0)
            return rc;
        if (g)
            GPU_CHECK(&k->c, gpuMemcpyAsync(k->sums_h, k->sums[0], e->N * K * sizeof(float),
                                            gpuMemcpyDeviceToHost, k->stream));
        GPU_CHECK(&k->c, gpuStreamSynchronize(k->stream));
        st = stress_of(k, 0);
    } while (retest(k, 0, st));
    if (stress)
        *stress = st;
    if (g)
        sammon_engine_derivatives(e->N, e->m, k->sums_h, k->ran_untested[0] ? k->rsum_h : NULL,
                                  e->c, k->scale, g, h);
    return 0;
}

int engine_eval(struct sammon_engine *e, const double *y, double *stress, double *g, double *h)
{
    struct gpu_engine *k = (struct gpu_engine *)e->impl;
    int rc = eval_on(e, k, y, stress, g, h);
    if (rc)
        snprintf(e->msg, sizeof e->msg, "%s", k->c.msg);
    return rc;
}

void engine_close(struct sammon_engine *e)
{
    struct gpu_engine *k = (struct gpu_engine *)e->impl;
    if (!k)
        return;
    // The device open chose, for a caller's thread that may not be open's;
    // none before the stream, which alloc makes first (an open that
    // failed sooner left nothing on the device, maybe not even c.ctx).
    if (k->stream) {
        (void)gpu_select(&k->c);
        (void)gpuStreamSynchronize(k->stream);
    }
    void *dev[] = { k->x,     k->y,    k->yd[0], k->yd[1],  k->sums[0], k->sums[1],
                    k->store, k->lost, k->rsum,  k->c_part, k->st_part };
    for (size_t i = 0; i < sizeof dev / sizeof *dev; i++)
        if (dev[i])
            (void)gpuFree(dev[i]);
    void *host[] = { k->yh, k->sums_h, k->st_h[0], k->st_h[1], k->c_h, k->rsum_h };
    for (size_t i = 0; i < sizeof host / sizeof *host; i++)
        if (host[i])
            (void)gpuFreeHost(host[i]);
    for (int s = 0; s < 2; s++)
        if (k->back[s])
            (void)gpuEventDestroy(k->back[s]);
    if (k->stream)
        (void)gpuStreamDestroy(k->stream);
    (void)gpuGetLastError();
    free(k);
    e->impl = NULL;
}

} // namespace RB_GPU_NS
} // namespace sammon_engine_gpu

// The ops C sees, spelled out per backend; its entry points are this
// backend's namespace's.  A function, not an object: the device compiler
// leaves host functions alone.
#ifdef RB_GPU_HIP
extern "C" const struct sammon_engine_ops *sammon_engine_hip_ops(void)
#else
extern "C" const struct sammon_engine_ops *sammon_engine_cuda_ops(void)
#endif
{
    using namespace sammon_engine_gpu;
#ifdef RB_GPU_HIP
    static const struct sammon_engine_ops ops = { "hip", 1, engine_available, engine_open,
                                                  engine_eval, engine_close, engine_start,
                                                  engine_stop };
#else
    static const struct sammon_engine_ops ops = { "cuda", 1, engine_available, engine_open,
                                                  engine_eval, engine_close, engine_start,
                                                  engine_stop };
#endif
    return &ops;
}
