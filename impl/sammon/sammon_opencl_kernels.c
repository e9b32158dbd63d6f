/* SPDX-License-Identifier: MIT */
/* The OpenCL Sammon variants' programs: the grid of the modified kernel and
 * the shape of the tiled one, the build of kernels/opencl/sammon_*.cl with
 * the case's defines, the kernels' fixed arguments, and their occupancy. */
#include <stdio.h>
#include <string.h>
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_opencl.h"

extern const char rb_cl_sammon_common[];
extern const char rb_cl_sammon_standard[];
extern const char rb_cl_sammon_modified[];
extern const char rb_cl_sammon_tiled[];

/* Per kind: the kernel file, its text and the kernels of its timed region. */
static const struct {
    const char *file;
    const char *text;
    const char *kernels[SAMMON_CL_NKERNELS];
} kinds[] = {
    [SAMMON_CL_STANDARD] = { "sammon_standard", rb_cl_sammon_standard,
                             { "sammon_standard", NULL } },
    [SAMMON_CL_MODIFIED] = { "sammon_modified", rb_cl_sammon_modified,
                             { "sammon_modified_pairs", "sammon_modified_update" } },
    [SAMMON_CL_TILED] = { "sammon_tiled", rb_cl_sammon_tiled,
                          { "sammon_tiled", "sammon_tiled_finish" } },
};

/* Work-items the modified kernel's grid-stride loop aims at per compute
 * unit: four times the 2048 resident threads of an NVIDIA SM, so that the
 * loop's tail is short; more only adds loop overhead. */
#define PAIR_ITEMS_PER_UNIT 8192
/* The tiled kernel's slices aim at this many work-items per compute unit
 * (two waves of 2048), and its tile at most this much local memory, well
 * under the 48 KiB every GPU gives a group, so that several groups fit. */
#define TILE_ITEMS_PER_UNIT 4096
#define TILE_BYTES_MAX (24 * 1024)
/* The registers, in 32-bit words, that a tiled work-item spends on its
 * points' coordinates and sums (ppi (n + 2 m) values): 4 points of n = 3,
 * m = 2 in float; 1 point from n = 13 on.  On H200 at N = 4096 and 16384,
 * 1, 2 or 4 points made no difference at n = 3, and at n = 64 2 points were
 * no faster than 1 and 4 points 1.5 times slower.  A build may set another. */
#ifndef SAMMON_CL_PPI_WORDS
#define SAMMON_CL_PPI_WORDS 32
#endif

static size_t ceil_div(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

static cl_uint device_units(const struct rb_opencl *cl)
{
    cl_uint units = 0;
    clGetDeviceInfo(cl->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    return units ? units : 1;
}

void sammon_opencl_pairing(struct sammon_opencl *b)
{
    const size_t wg = (size_t)b->wg;
    b->pairs = (long long)b->N * (b->N - 1) / 2;
    size_t need = ceil_div((size_t)b->pairs, wg) * wg;
    size_t fill = ceil_div((size_t)device_units(b->cl) * PAIR_ITEMS_PER_UNIT, wg) * wg;
    b->pair_items = need < fill ? need : fill;
}

void sammon_opencl_tiling(struct sammon_opencl *b)
{
    const size_t N = (size_t)b->N, wg = (size_t)b->wg, words = b->sz / 4;
    const size_t per_point = (size_t)(b->n + b->m) * b->sz;
    const cl_ulong local = rb_opencl_local_mem(b->cl);
    size_t room = local && local < TILE_BYTES_MAX ? (size_t)local : TILE_BYTES_MAX;
    size_t tj = room / per_point;
    b->tj = (int)(tj < 1 ? 1 : tj > wg ? wg : tj);
    const size_t point_words = (size_t)(b->n + 2 * b->m) * words;
    for (b->ppi = 4; b->ppi > 1 && (size_t)b->ppi * point_words > SAMMON_CL_PPI_WORDS;
         b->ppi /= 2)
        ;
    size_t rows = ceil_div(N, wg * (size_t)b->ppi);
    size_t want = ceil_div((size_t)device_units(b->cl) * TILE_ITEMS_PER_UNIT, wg);
    size_t slices = ceil_div(want, rows), most = ceil_div(N, (size_t)b->tj);
    if (slices > most)
        slices = most;
    if (slices > SAMMON_CL_MAX_SLICES)
        slices = SAMMON_CL_MAX_SLICES;
    if (slices < 1)
        slices = 1;
    /* Whole tiles per slice but the last, and no empty slice. */
    size_t span = ceil_div(ceil_div(N, slices), (size_t)b->tj) * (size_t)b->tj;
    b->span = (int)span;
    b->slices = (int)ceil_div(N, span);
}

/* Build the kind's program with the case's defines and create its kernels. */
static int build(struct rb_case *c, struct sammon_opencl *b)
{
    char opts[256];
    int f64 = c->prec == RB_PREC_F64;
    int len = snprintf(opts, sizeof opts, "-D REAL=%s -D SAMMON_FP64=%d -D SAMMON_DIM=%d "
                       "-D SAMMON_OUTDIM=%d -D SAMMON_TRANSPOSED=%d",
                       f64 ? "double" : "float", f64, b->n, b->m, b->transposed);
    if (b->kind == SAMMON_CL_TILED)
        snprintf(opts + len, sizeof opts - (size_t)len, " -D SAMMON_PPI=%d", b->ppi);
    const char *names[2] = { "sammon_common", kinds[b->kind].file };
    const char *texts[2] = { rb_cl_sammon_common, kinds[b->kind].text };
    cl_program prog;
    int rc = rb_opencl_program_parts(c, 2, names, texts, opts, &prog);
    if (rc)
        return rc;
    for (int k = 0; k < SAMMON_CL_NKERNELS; k++) {
        if (!kinds[b->kind].kernels[k])
            continue;
        cl_int err;
        b->k[k] = clCreateKernel(prog, kinds[b->kind].kernels[k], &err);
        RB_CL_CHECK(c, err);
        b->local[k] = (size_t)b->wg;
    }
    return 0;
}

/* RB_ESKIP when a kernel cannot take wg work-items per group, or the tile
 * does not fit the local memory (with the arguments set). */
static int check_fit(struct rb_case *c, struct sammon_opencl *b)
{
    const cl_ulong local = rb_opencl_local_mem(b->cl);
    for (int k = 0; k < SAMMON_CL_NKERNELS; k++) {
        struct rb_opencl_kernel_info info;
        if (!b->k[k])
            continue;
        if (rb_opencl_kernel_info(b->cl, b->k[k], &info))
            return rb_fail(c, RB_EDEVICE, "kernel info of %s on %s", kinds[b->kind].kernels[k],
                           b->cl->name);
        if (info.max_wg < (size_t)b->wg)
            return rb_fail(c, RB_ESKIP, "wg=%d > %s's %zu on %s", b->wg,
                           kinds[b->kind].kernels[k], info.max_wg, b->cl->name);
        if (local && info.local_mem > local)
            return rb_fail(c, RB_ESKIP, "%llu bytes of local memory > %llu on %s",
                           (unsigned long long)info.local_mem, (unsigned long long)local,
                           b->cl->name);
    }
    return 0;
}

static cl_int set_mem(cl_kernel k, cl_uint arg, cl_mem mem)
{
    return clSetKernelArg(k, arg, sizeof mem, &mem);
}

/* The scale in the case's precision. */
static cl_int set_scale(cl_kernel k, cl_uint arg, const struct sammon_opencl *b)
{
    if (b->sz == sizeof(double))
        return clSetKernelArg(k, arg, sizeof b->scale, &b->scale);
    const float scale = (float)b->scale;
    return clSetKernelArg(k, arg, sizeof scale, &scale);
}

/* The tiled kernel's tile, in whole vectors of 4 (its type). */
static size_t tile_bytes(const struct sammon_opencl *b)
{
    return ((size_t)b->tj * (size_t)(b->n + b->m) + 3) / 4 * 4 * b->sz;
}

/* The arguments every iteration keeps; the iterates are set per launch
 * (sammon_opencl_run.c). */
static int set_args(struct rb_case *c, struct sammon_opencl *b)
{
    cl_kernel k0 = b->k[SAMMON_CL_MAIN], k1 = b->k[SAMMON_CL_AFTER];
    const int count = b->N * b->m;
    const cl_long pairs = (cl_long)b->pairs;
    RB_CL_CHECK(c, clSetKernelArg(k0, 0, sizeof b->N, &b->N));
    switch (b->kind) {
    case SAMMON_CL_STANDARD:            /* N, x, y, y_out, scale */
        RB_CL_CHECK(c, set_mem(k0, 1, b->x));
        RB_CL_CHECK(c, set_scale(k0, 4, b));
        break;
    case SAMMON_CL_MODIFIED:            /* N, P, x, y, g; count, y, g, scale */
        RB_CL_CHECK(c, clSetKernelArg(k0, 1, sizeof pairs, &pairs));
        RB_CL_CHECK(c, set_mem(k0, 2, b->x));
        RB_CL_CHECK(c, set_mem(k0, 3, b->y[0]));
        RB_CL_CHECK(c, set_mem(k0, 4, b->g));
        RB_CL_CHECK(c, clSetKernelArg(k1, 0, sizeof count, &count));
        RB_CL_CHECK(c, set_mem(k1, 1, b->y[0]));
        RB_CL_CHECK(c, set_mem(k1, 2, b->g));
        RB_CL_CHECK(c, set_scale(k1, 3, b));
        break;
    case SAMMON_CL_TILED:   /* N, span, tj, x, y, part, tile; N, S, y, part, y_out, scale */
        RB_CL_CHECK(c, clSetKernelArg(k0, 1, sizeof b->span, &b->span));
        RB_CL_CHECK(c, clSetKernelArg(k0, 2, sizeof b->tj, &b->tj));
        RB_CL_CHECK(c, set_mem(k0, 3, b->x));
        RB_CL_CHECK(c, set_mem(k0, 5, b->g));
        RB_CL_CHECK(c, clSetKernelArg(k0, 6, tile_bytes(b), NULL));
        RB_CL_CHECK(c, clSetKernelArg(k1, 0, sizeof b->N, &b->N));
        RB_CL_CHECK(c, clSetKernelArg(k1, 1, sizeof b->slices, &b->slices));
        RB_CL_CHECK(c, set_mem(k1, 3, b->g));
        RB_CL_CHECK(c, set_scale(k1, 5, b));
        break;
    }
    return 0;
}

int sammon_opencl_prepare(struct rb_case *c, struct sammon_opencl *b)
{
    int rc = build(c, b);
    if (!rc)
        rc = set_args(c, b);
    return rc ? rc : check_fit(c, b);
}

void sammon_opencl_occupancy(struct rb_case *c, struct rb_occ *occ)
{
    struct sammon_state *st = c->state;
    struct sammon_opencl *b = st ? st->backend : NULL;
    memset(occ, 0, sizeof *occ);
    if (!b) {
        snprintf(occ->why, sizeof occ->why, "no OpenCL state (setup failed)");
        return;
    }
    for (int k = 0; k < SAMMON_CL_NKERNELS && occ->count < RB_OCC_MAX_KERNELS; k++) {
        if (!b->k[k])
            continue;
        if (rb_opencl_occupancy(b->cl, b->k[k], b->local[k], &occ->k[occ->count])) {
            snprintf(occ->why, sizeof occ->why, "kernel info of %s failed",
                     kinds[b->kind].kernels[k]);
            return;
        }
        occ->count++;
    }
    occ->available = 1;
}
