// SPDX-License-Identifier: MIT
// The GPU Givens variants' cases, compiled once for CUDA and once for HIP
// (givens_gpu_state.h says how the two link side by side): admission,
// device footprint, setup (the CPU variants' data, uploaded), the checks
// against the CPU reference and teardown, for the paper's variants and the
// fused ones; and the backend's engine (givens_gpu.h).
#include <config.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "impl/common/rng.h"
#include "impl/common/roundrobin.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_case.h"
#include "impl/givens/givens_gpu_state.h"

namespace givens_gpu {
inline namespace RB_GPU_NS {

static int is_backward(const struct rb_case *c)
{
    return strcmp(c->v->algo, "backward") == 0;
}

static int is_fused(const struct rb_case *c)
{
    return c->v->kind == GIVENS_KIND_FUSED;
}

// Columns per column group of a fused case, and its groups.
static int fused_group_cols(const struct rb_case *c, int slots, int cols)
{
    return givens_gpu_fused_group_cols(rb_prec_size(c->prec), is_backward(c), slots, cols);
}

static int fused_groups(const struct rb_case *c, int slots, int cols)
{
    return cols / fused_group_cols(c, slots, cols);
}

static int case_m(const struct rb_case *c)
{
    long long m = rb_case_param(c, "m", 0);
    return m < 0 ? 0 : (int)m;
}

// Untimed: Gamma, and U with the fused forward where a slab configuration
// fits (the paper's kernels otherwise); dtheta poisoned.
static int prepare_backward(struct rb_case *c, state *s)
{
    int rc = form_gamma(c, s);
    if (rc || (rc = form_u(c, s, givens_gpu_fused_setup_slots(s->S))))
        return rc;
    if (s->fused
        && (rc = fused_backward_prepare(c, s->S, s->slots, s->cols)))
        return rc;
    GPU_CHECK(c, gpuMemsetAsync(s->dtheta, 0xff, s->count * rb_prec_size(c->prec), s->stream));
    GPU_CHECK(c, gpuStreamSynchronize(s->stream));
    GPU_CHECK(c, gpuFree(s->Gd));
    GPU_CHECK(c, gpuFree(s->Xd));
    s->Gd = s->Xd = NULL;
    return 0;
}

// The forward's output poisoned with NaN (all bits set), the fused kernel's
// shared memory opted in.
static int prepare(struct rb_case *c, state *s)
{
    if (s->backward)
        return prepare_backward(c, s);
    if (s->fused) {
        int rc = fused_prepare(c, s->S, s->slots, s->cols);
        if (rc)
            return rc;
    }
    GPU_CHECK(c, gpuMemsetAsync(s->U, 0xff, (size_t)s->n * s->n * rb_prec_size(c->prec),
                                s->stream));
    return 0;
}

// Sizes, host arrays and the draws: the same angles and cotangent as the CPU
// variants from the same seed.
static int host_init(struct rb_case *c, state *s)
{
    s->n = (int)rb_case_param(c, "n", 0);
    s->m = case_m(c);
    s->backward = is_backward(c);
    s->fused = is_fused(c);
    s->block = (int)rb_case_param(c, "block", 256);
    s->slots = (int)rb_case_param(c, "slots", 8);
    s->cols = (int)rb_case_param(c, "cols", 4);
    if (s->n < 2 || s->m > s->n)
        return rb_fail(c, RB_EINVAL, "n=%d m=%d do not combine", s->n, s->m);
    s->nt = rb_rr_padded(s->n);
    s->S = s->nt / 2;
    s->count = givens_theta_count(s->n, s->m);
    if (s->fused && (s->cols % fused_group_cols(c, s->slots, s->cols)
                     || !givens_gpu_fused_fits(s->S, s->slots, fused_groups(c, s->slots,
                                                                            s->cols))))
        return rb_fail(c, RB_EINVAL, "slots=%d cols=%d do not fit the %d slots of n=%d",
                       s->slots, s->cols, s->S, s->n);
    size_t sz = rb_prec_size(c->prec), lr = (size_t)s->n * GIVENS_COTANGENT_RANK;
    s->theta_d = (double *)malloc(s->count * sizeof *s->theta_d);
    s->theta_h = malloc(s->count * sz);
    s->out = malloc((s->backward ? s->count : (size_t)s->n * s->n) * sz);
    if (!s->theta_d || !s->theta_h || !s->out)
        return rb_fail(c, RB_ENOMEM, "host arrays for n=%d", s->n);
    givens_theta_draw(c->seed, c->prec, s->count, s->theta_d, s->theta_h);
    if (!s->backward)
        return 0;
    s->G = (double *)malloc(lr * sizeof *s->G);
    s->X = (double *)malloc(lr * sizeof *s->X);
    if (!s->G || !s->X)
        return rb_fail(c, RB_ENOMEM, "cotangent factors for n=%d", s->n);
    givens_cotangent_draw(c->seed, s->n, s->G, s->X);
    return 0;
}

static int device_alloc(struct rb_case *c, state *s)
{
    size_t sz = rb_prec_size(c->prec), nn = (size_t)s->n * s->n;
    size_t lr = (size_t)s->n * GIVENS_COTANGENT_RANK;
    GPU_CHECK(c, gpuStreamCreateWithFlags(&s->stream, gpuStreamNonBlocking));
    int rc = gpu_timer_create(c, &s->timer);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuMalloc(&s->theta, s->count * sz));
    GPU_CHECK(c, gpuMalloc(&s->U, nn * sz));
    if (s->fused && (rc = fused_tables(c, s)))
        return rc;
    if (!s->backward)
        return 0;
    GPU_CHECK(c, gpuMalloc(&s->gamma, nn * sz));
    if (s->fused) {
        GPU_CHECK(c, gpuMalloc(&s->dP, (size_t)(s->nt - 1) * s->S * sz));
    } else {
        GPU_CHECK(c, gpuMalloc(&s->M, nn * sz));
        GPU_CHECK(c, gpuMalloc(&s->V, nn * sz));
        GPU_CHECK(c, gpuMalloc(&s->A, (size_t)s->S * s->n * sz));
    }
    GPU_CHECK(c, gpuMalloc(&s->dtheta, s->count * sz));
    GPU_CHECK(c, gpuMalloc((void **)&s->Gd, lr * sizeof(double)));
    GPU_CHECK(c, gpuMalloc((void **)&s->Xd, lr * sizeof(double)));
    return 0;
}

// The inputs' host-to-device copies, timed apart from run().
static int upload(struct rb_case *c, state *s)
{
    size_t lr = (size_t)s->n * GIVENS_COTANGENT_RANK * sizeof(double);
    int rc = gpu_timer_start(c, &s->timer, s->stream);
    if (rc)
        return rc;
    GPU_CHECK(c, gpuMemcpyAsync(s->theta, s->theta_h, s->count * rb_prec_size(c->prec),
                                gpuMemcpyHostToDevice, s->stream));
    if (s->backward) {
        GPU_CHECK(c, gpuMemcpyAsync(s->Gd, s->G, lr, gpuMemcpyHostToDevice, s->stream));
        GPU_CHECK(c, gpuMemcpyAsync(s->Xd, s->X, lr, gpuMemcpyHostToDevice, s->stream));
    }
    if ((rc = gpu_timer_stop(c, &s->timer, s->stream, &c->transfer_ms)))
        return rc;
    free(s->theta_h);
    s->theta_h = NULL;
    return 0;
}

int setup(struct rb_case *c)
{
    state *s = (state *)calloc(1, sizeof *s);
    if (!s)
        return rb_fail(c, RB_ENOMEM, "GPU Givens state");
    c->state = s;
    c->device_ms = -1;
    int rc = gpu_select(c);
    if (rc || (rc = host_init(c, s)) || (rc = device_alloc(c, s)) || (rc = upload(c, s)))
        return rc;
    if ((rc = prepare(c, s)))
        return rc;
    GPU_CHECK(c, gpuStreamSynchronize(s->stream));
    return 0;
}

int fetch(struct rb_case *c, const void **out)
{
    state *s = (state *)c->state;
    size_t len = s->backward ? s->count : (size_t)s->n * s->n;
    GPU_CHECK(c, gpuMemcpyAsync(s->out, s->backward ? s->dtheta : s->U,
                                len * rb_prec_size(c->prec), gpuMemcpyDeviceToHost,
                                s->stream));
    GPU_CHECK(c, gpuStreamSynchronize(s->stream));
    *out = s->out;
    return 0;
}

int verify(struct rb_case *c, struct rb_check *out)
{
    state *s = (state *)c->state;
    const void *y;
    int rc = fetch(c, &y);
    if (rc)
        return rc;
    return givens_verify_output(c, s->backward, s->n, s->m, s->theta_d, y, s->G, s->X, out);
}

void teardown(struct rb_case *c)
{
    state *s = (state *)c->state;
    if (!s)
        return;
    if (s->stream)
        (void)gpuStreamSynchronize(s->stream);
    void *dev[] = { s->theta, s->U, s->cs, s->gamma, s->M, s->V, s->A, s->dtheta, s->dP,
                    s->Gd, s->Xd, s->lift, s->pbits, s->sign };
    for (size_t k = 0; k < sizeof dev / sizeof *dev; k++)
        if (dev[k])
            (void)gpuFree(dev[k]);
    gpu_timer_destroy(&s->timer);
    if (s->stream)
        (void)gpuStreamDestroy(s->stream);
    (void)gpuGetLastError();
    free(s->X);
    free(s->G);
    free(s->out);
    free(s->theta_h);
    free(s->theta_d);
    free(s);
    c->state = NULL;
}

// The fused kernels' builds (givens_gpu_fused_fits): slots per thread, and
// cols 1, 2 or 4 column groups of givens_gpu_fused_wt columns (one below
// slots 8), or the wide backward's one group.
static int admit_fused(struct rb_case *c, long long n)
{
    long long slots = rb_case_param(c, "slots", 8), cols = rb_case_param(c, "cols", 4);
    int S = rb_rr_slots((int)n), bwd = is_backward(c);
    if (slots != 1 && slots != 2 && slots != 4 && slots != 8 && slots != 16)
        return rb_fail(c, RB_ESKIP, "slots=%lld: the fused kernels are built for 1, 2, 4, 8, 16",
                       slots);
    size_t sz = rb_prec_size(c->prec);
    int has_wide = givens_gpu_fused_wide(sz, bwd, (int)slots, GIVENS_GPU_FUSED_WIDE);
    int wt = givens_gpu_fused_group_cols(sz, bwd, (int)slots, (int)cols);
    long long groups = cols / wt;
    if (cols % wt || (groups != 1 && groups != 2 && groups != 4) || (slots < 8 && groups != 1)) {
        char wide[32] = "";
        if (has_wide)
            snprintf(wide, sizeof wide, " or one group of %d", GIVENS_GPU_FUSED_WIDE);
        return rb_fail(c, RB_ESKIP, "cols=%lld: the fused %s at slots=%lld in %s is built for "
                       "%s%d columns%s%s", cols, bwd ? "backward" : "forward", slots,
                       rb_prec_name(c->prec), slots < 8 ? "" : "1, 2 or 4 groups of ", wt, wide,
                       bwd ? " of M and of U^T each" : "");
    }
    if (S % slots)
        return rb_fail(c, RB_ESKIP, "slots=%lld does not divide the %d slots of n=%lld",
                       slots, S, n);
    if (S / slots * (cols / wt) > GIVENS_GPU_FUSED_MAXT)
        return rb_fail(c, RB_ESKIP, "n=%lld slots=%lld cols=%lld: %lld threads per block > %d",
                       n, slots, cols, S / slots * (cols / wt), GIVENS_GPU_FUSED_MAXT);
    return 0;
}

int admit(struct rb_case *c)
{
    long long n = rb_case_param(c, "n", 0), m = case_m(c);
    if (n < 2)
        return rb_fail(c, RB_ESKIP, "n=%lld: Givens needs n >= 2", n);
    if (m > n)
        return rb_fail(c, RB_ESKIP, "m=%lld > n=%lld", m, n);
    if (is_fused(c))
        return admit_fused(c, n);
    return 0;
}

size_t footprint(const struct rb_case *c)
{
    int n = (int)rb_case_param(c, "n", 0), S = rb_rr_slots(n), nt = 2 * S;
    size_t sz = rb_prec_size(c->prec), nn = (size_t)n * n;
    size_t count = givens_theta_count(n, case_m(c));
    // The fused kernels' shear table, parity words and signs.
    size_t tables = (size_t)(nt - 1 + GIVENS_GPU_FUSED_PAD) * S * 2 * sz
                    + (size_t)(nt - 1 + 31) / 32 * nt * sizeof(unsigned) + (size_t)nt * sz;
    size_t bytes = count * sz + nn * sz;
    if (!is_backward(c))
        return bytes + (is_fused(c) ? tables : 0);
    // Gamma, dtheta, and M, V, A (paper) or dP (fused); during setup also
    // Gamma's factors and the tables of the fused forward forming U.
    bytes += nn * sz + count * sz;
    bytes += is_fused(c) ? (size_t)(nt - 1) * S * sz : 2 * nn * sz + (size_t)S * n * sz;
    bytes += 2 * (size_t)n * GIVENS_COTANGENT_RANK * sizeof(double);
    return bytes + (givens_gpu_fused_setup_slots(S) ? tables : 0);
}

} // namespace RB_GPU_NS
} // namespace givens_gpu

// The engine C sees, spelled out per backend; its entry points are this
// backend's namespace's.  A function, not an object: the device compiler
// leaves host functions alone.
#ifdef RB_GPU_HIP
extern "C" const struct givens_gpu_engine *givens_hip_engine(void)
#else
extern "C" const struct givens_gpu_engine *givens_cuda_engine(void)
#endif
{
    using namespace givens_gpu;
    static const struct givens_gpu_engine engine = {
        admit, footprint, setup, run_forward_paper, run_forward_fused, run_backward_paper,
        run_backward_fused, fetch, verify, occupancy, teardown,
        apply_admit, apply_footprint, apply_setup, apply_run_forward, apply_run_backward,
        apply_verify, apply_occupancy, apply_teardown,
    };
    return &engine;
}
