/* SPDX-License-Identifier: MIT */
/* The GPU Givens host code's units (givens_gpu_case.cu, _launch.cu,
 * _fused.cu, _apply.cu), each compiled once for CUDA and once for HIP: the
 * per-case state and the functions one unit calls in another, all in
 * namespace givens_gpu::RB_GPU_NS (impl/common/gpu_api.h), so that the two
 * compilations link side by side.  C sees the engine (givens_gpu.h).  C++
 * for the CUDA and HIP compilers only. */
#ifndef GIVENS_GPU_STATE_H
#define GIVENS_GPU_STATE_H

#include <stddef.h>
#include "impl/common/gpu_api.h"
#include "impl/givens/givens_gpu.h"

namespace givens_gpu {
inline namespace RB_GPU_NS {

struct state {
    int n, m, nt, S;                    /* nt: n padded to even; S = nt / 2 slots */
    int backward, fused;
    int block, slots, cols;             /* the case's tunables */
    size_t count;                       /* angles N */
    double *theta_d;                    /* host: exactly the angles the device uses */
    double *G, *X;                      /* host: n x GIVENS_COTANGENT_RANK factors of Gamma */
    void *theta_h, *out;                /* host: angles in prec (until uploaded), output */
    void *theta, *U, *cs;               /* device: angles, U, the (c, s') table */
    void *gamma, *M, *V, *A, *dtheta;   /* device: backward (M, V, A: the paper's) */
    void *dP;                           /* device: the fused backward's (step, slot) sums */
    void *lift, *pbits, *sign;          /* device: the fused kernels' shear table, its
                                         * sign parities and the rows' final signs */
    double *Gd, *Xd;                    /* device: Gamma's factors, setup only */
    gpuStream_t stream;
    struct gpu_timer timer;
};

/* Untimed setup work on the case's stream.  form_u: U from theta, by the
 * fused forward at `slots` (one column group; its tables are allocated and
 * freed here where the case has none) or, with slots 0, by the paper's
 * kernels.  form_gamma: Gamma = G X^T from s->Gd and s->Xd, left running. */
int form_u(struct rb_case *c, state *s, int slots);
int form_gamma(struct rb_case *c, state *s);

/* Largest block of the fused kernels: (S / slots) * column groups threads
 * at most (S = n/2 rounded up), their launch bound. */
#define GIVENS_GPU_FUSED_MAXT 256

/* Most steps the fused kernels' table pads to: nt - 1 up to a multiple of
 * the largest slots. */
#define GIVENS_GPU_FUSED_PAD 15

/* Columns per column group of a fused kernel (givens_slab.cuh): as many as
 * keep a thread's slab near 128 floats of registers.  The forward holds
 * 2 slots rows of WT columns; the backward two matrices of WT columns each. */
#define GIVENS_GPU_FUSED_WT(prec_size, backward, slots) \
    (((prec_size) == 8 ? 2 : 4) / ((backward) && (slots) >= 16 ? 2 : 1))

static inline int givens_gpu_fused_wt(size_t prec_size, int backward, int slots)
{
    return GIVENS_GPU_FUSED_WT(prec_size, backward, slots);
}

/* The wide fused backward: f32, slots 8, one column group of 6 columns of
 * M and of U^T each (a slab of 192 floats a thread).  Where a block of 256
 * threads fills a multiprocessor's registers anyway (n >= 4096), the wider
 * slab shares each step's table row, exchange and barrier among half as
 * many columns again; below, the narrower slabs' more blocks fill the
 * multiprocessors better (docs/givens-tuning.md). */
#define GIVENS_GPU_FUSED_WIDE 6

static inline int givens_gpu_fused_wide(size_t prec_size, int backward, int slots, int cols)
{
    return prec_size == 4 && backward && slots == 8 && cols == GIVENS_GPU_FUSED_WIDE;
}

/* Columns per column group of a fused case of `cols` columns per block. */
static inline int givens_gpu_fused_group_cols(size_t prec_size, int backward, int slots,
                                              int cols)
{
    return givens_gpu_fused_wide(prec_size, backward, slots, cols)
               ? cols
               : givens_gpu_fused_wt(prec_size, backward, slots);
}

/* 1 if the fused kernels are built for `slots` per thread and `groups`
 * column groups and fit S slots: slots 1, 2, 4 with one group, 8 and 16
 * with 1, 2 or 4; slots dividing S; (S / slots) * groups threads at most
 * GIVENS_GPU_FUSED_MAXT. */
static inline int givens_gpu_fused_fits(int S, int slots, int groups)
{
    int built = slots == 1 || slots == 2 || slots == 4
                    ? groups == 1
                    : (slots == 8 || slots == 16) && (groups == 1 || groups == 2 || groups == 4);
    return built && S % slots == 0 && S / slots * groups <= GIVENS_GPU_FUSED_MAXT;
}

/* Slots per thread for the fused forward that forms the backward's U (one
 * column group): the most that fit, or 0 when none does. */
static inline int givens_gpu_fused_setup_slots(int S)
{
    for (int b = 16; b >= 1; b /= 2)
        if (givens_gpu_fused_fits(S, b, 1))
            return b;
    return 0;
}

/* The fused kernels' tables (s->lift, s->pbits, s->sign) for the case's
 * precision.  0 or RB_EDEVICE. */
int fused_tables(struct rb_case *c, state *s);

/* Opt the fused kernel (slots, cols) of the case's precision in to the
 * dynamic shared memory it needs for S slots where that exceeds 48 KiB.
 * 0, RB_EINVAL (no such kernel) or RB_EDEVICE. */
int fused_prepare(struct rb_case *c, int S, int slots, int cols);
/* The same for the fused backward (cols of M and of U^T each). */
int fused_backward_prepare(struct rb_case *c, int S, int slots, int cols);

/* U by the fused forward at `slots` with one column group (the backward's
 * setup); the tables are allocated and freed here where the case has none. */
int fused_form_u(struct rb_case *c, state *s, int slots);
/* Append the occupancy of the fused variant's kernels (givens_gpu_fused.cu). */
void fused_occupancy(struct rb_case *c, const state *s, struct rb_occ *occ);

/* Threads of the table, identity-in-setup and Gamma kernels; the most
 * blocks a grid-stride kernel gets. */
enum { AUX_BLOCK = 256, GRID_CAP = 65535 };

static inline int cdiv(long long a, long long b)
{
    return (int)((a + b - 1) / b);
}

static inline int grid_stride_blocks(long long total, int block)
{
    return cdiv(total, block) < GRID_CAP ? cdiv(total, block) : GRID_CAP;
}

/* The timed region of run(): f32 or f64 per the case's precision, between
 * the case's timer marks on its stream (givens_gpu_launch.cu). */
typedef int (*region_fn)(struct rb_case *, state *);
int timed(struct rb_case *c, region_fn f32, region_fn f64);

/* The entry points of the engine (givens_gpu.h), by unit. */
int admit(struct rb_case *c);                                   /* givens_gpu_case.cu */
size_t footprint(const struct rb_case *c);
int setup(struct rb_case *c);
int fetch(struct rb_case *c, const void **out);
int verify(struct rb_case *c, struct rb_check *out);
void teardown(struct rb_case *c);
int run_forward_paper(struct rb_case *c);                       /* givens_gpu_launch.cu */
int run_backward_paper(struct rb_case *c);
void occupancy(struct rb_case *c, struct rb_occ *occ);
int run_forward_fused(struct rb_case *c);                       /* givens_gpu_fused.cu */
int run_backward_fused(struct rb_case *c);
int apply_admit(struct rb_case *c);                             /* givens_gpu_apply.cu */
size_t apply_footprint(const struct rb_case *c);
int apply_setup(struct rb_case *c);
int apply_run_forward(struct rb_case *c);
int apply_run_backward(struct rb_case *c);
int apply_verify(struct rb_case *c, struct rb_check *out);
void apply_occupancy(struct rb_case *c, struct rb_occ *occ);
void apply_teardown(struct rb_case *c);

} // namespace RB_GPU_NS
} // namespace givens_gpu

#endif
