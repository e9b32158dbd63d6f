/* SPDX-License-Identifier: MIT */
/* The stored form's device side on OpenCL (sammon_opencl_stored.h): the
 * shape of a case, its programs and buffers, and the launches of
 * kernels/opencl/sammon_stored.cl. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/run/fault.h"
#include "impl/sammon/sammon_opencl_stored.h"

extern const char rb_cl_sammon_common[];
extern const char rb_cl_sammon_stored[];

/* Work-groups a pass aims at per compute unit: as the CUDA plan's four
 * waves of two resident blocks, so that the rows' different lengths even
 * out. */
#define GROUPS_PER_UNIT 8

static long long cdiv(long long a, long long b)
{
    return (a + b - 1) / b;
}

int sammon_cls_sums(int m, enum sammon_cls_mode mode)
{
    return mode == SAMMON_CLS_GD ? m : mode == SAMMON_CLS_EMBED ? 2 * m : 0;
}

/* The most splits of a row: one a tile. */
static long long splits_most(int N, int tile)
{
    return cdiv(N, tile);
}

size_t sammon_cls_bytes(int N, int n, int m, int tile, int stored, unsigned modes)
{
    const long long tiles = cdiv(N, tile), blocks = tiles * (tiles + 1) / 2;
    size_t bytes = ((size_t)N * n + (size_t)N * m) * sizeof(float);
    int k = 0;
    for (int mode = 0; mode < SAMMON_CLS_MODES; mode++)
        if (modes & (1u << mode) && sammon_cls_sums(m, (enum sammon_cls_mode)mode) > k)
            k = sammon_cls_sums(m, (enum sammon_cls_mode)mode);
    if (stored)
        bytes += (size_t)blocks * tile * tile * sizeof(float);
    /* part_j, part_i at the most splits, the sums, the group partials. */
    bytes += ((size_t)blocks + (size_t)tiles * splits_most(N, tile)) * k * tile * sizeof(float);
    bytes += (size_t)N * k * sizeof(float);
    bytes += ((size_t)blocks + (size_t)tiles * splits_most(N, tile)) * sizeof(float);
    return bytes;
}

static cl_ulong device_ulong(const struct rb_opencl *cl, cl_device_info what)
{
    cl_ulong v = 0;
    clGetDeviceInfo(cl->device, what, sizeof v, &v, NULL);
    return v;
}

int sammon_cls_fits(struct rb_case *c, const struct rb_opencl *cl, int N, int n, int m,
                    int tile, int stored, unsigned modes)
{
    const double gib = 1024.0 * 1024.0 * 1024.0;
    const cl_ulong mem = device_ulong(cl, CL_DEVICE_GLOBAL_MEM_SIZE);
    const cl_ulong most = device_ulong(cl, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    const long long tiles = cdiv(N, tile), blocks = tiles * (tiles + 1) / 2;
    const size_t tri = (size_t)blocks * tile * tile * sizeof(float);
    const size_t all = sammon_cls_bytes(N, n, m, tile, stored, modes);
    const size_t wg = rb_opencl_device_wg(cl);
    if (wg && wg < SAMMON_CLS_THREADS)
        return rb_fail(c, RB_ESKIP, "%s takes at most %zu work-items a group; the stored "
                       "kernels need %d", cl->name, wg, SAMMON_CLS_THREADS);
    if (stored && most && tri > most)
        return rb_fail(c, RB_ESKIP, "the stored triangle of %d points is %.2f GiB, more than "
                       "the %.2f GiB one buffer may hold on %s", N, (double)tri / gib,
                       (double)most / gib, cl->name);
    if (mem && all > mem)
        return rb_fail(c, RB_ESKIP, "the stored form of %d points needs %.2f GiB of device "
                       "memory; %s has %.2f GiB", N, (double)all / gib, cl->name,
                       (double)mem / gib);
    return 0;
}

static const char *const finish_names[SAMMON_CLS_MODES] = { "sammon_stored_update",
                                                            "sammon_stored_gather", NULL };

static int build_mode(struct rb_case *c, struct sammon_cls *b, int mode)
{
    char opts[256];
    snprintf(opts, sizeof opts, "-D REAL=float -D SAMMON_FP64=0 -D SAMMON_DIM=%d "
             "-D SAMMON_OUTDIM=%d -D SAMMON_TRANSPOSED=0 -D SAMMON_R=%d -D SAMMON_MODE=%d "
             "-D SAMMON_STORED=%d", b->n, b->m, b->tile / 16, mode, b->stored);
    const char *names[2] = { "sammon_common", "sammon_stored" };
    const char *texts[2] = { rb_cl_sammon_common, rb_cl_sammon_stored };
    cl_program prog;
    cl_int err;
    int rc = rb_opencl_program_parts(c, 2, names, texts, opts, &prog);
    if (rc)
        return rc;
    b->pass[mode] = clCreateKernel(prog, "sammon_stored_pass", &err);
    RB_CL_CHECK(c, err);
    if (finish_names[mode]) {
        b->finish[mode] = clCreateKernel(prog, finish_names[mode], &err);
        RB_CL_CHECK(c, err);
    }
    if (!b->fill) {
        b->fill = clCreateKernel(prog, "sammon_stored_fill", &err);
        RB_CL_CHECK(c, err);
    }
    return 0;
}

/* RB_ESKIP when a kernel cannot take a full group. */
static int check_group(struct rb_case *c, struct sammon_cls *b, cl_kernel k, const char *name)
{
    struct rb_opencl_kernel_info info;
    if (!k)
        return 0;
    if (rb_opencl_kernel_info(b->cl, k, &info))
        return rb_fail(c, RB_EDEVICE, "kernel info of %s on %s", name, b->cl->name);
    if (info.max_wg < SAMMON_CLS_THREADS)
        return rb_fail(c, RB_ESKIP, "%s takes at most %zu work-items a group on %s; it needs "
                       "%d", name, info.max_wg, b->cl->name, SAMMON_CLS_THREADS);
    return 0;
}

int sammon_cls_prepare(struct rb_case *c, struct sammon_cls *b, unsigned modes)
{
    cl_uint units = 0;
    clGetDeviceInfo(b->cl->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    b->tiles = (int)cdiv(b->N, b->tile);
    b->blocks = (long long)b->tiles * (b->tiles + 1) / 2;
    long long want = cdiv((long long)(units ? units : 1) * GROUPS_PER_UNIT, b->tiles);
    long long most = splits_most(b->N, b->tile);
    b->splits = (int)(want < 1 ? 1 : want < most ? want : most);
    for (int mode = 0; mode < SAMMON_CLS_MODES; mode++) {
        if (!(modes & (1u << mode)))
            continue;
        int rc = build_mode(c, b, mode);
        if (!rc)
            rc = check_group(c, b, b->pass[mode], "sammon_stored_pass");
        if (rc)
            return rc;
    }
    return check_group(c, b, b->fill, "sammon_stored_fill");
}

/* Zero bytes (an unused array) still gets a buffer to bind. */
static int buffer(struct rb_case *c, struct sammon_cls *b, size_t bytes, cl_mem *out)
{
    return rb_opencl_buffer(c, b->cl, bytes ? bytes : sizeof(float), out);
}

/* NaN over `bytes` of float. */
static int poison(struct rb_case *c, struct sammon_cls *b, cl_mem m, size_t bytes)
{
    return rb_opencl_poison(c, b->cl, m, sizeof(float), bytes / sizeof(float));
}

int sammon_cls_alloc(struct rb_case *c, struct sammon_cls *b, const float *xf, unsigned modes)
{
    int k = 1;
    for (int mode = 0; mode < SAMMON_CLS_MODES; mode++)
        if (modes & (1u << mode) && sammon_cls_sums(b->m, (enum sammon_cls_mode)mode) > k)
            k = sammon_cls_sums(b->m, (enum sammon_cls_mode)mode);
    const size_t groups = (size_t)b->tiles * b->splits, tile = (size_t)b->tile;
    const size_t sz_j = (size_t)b->blocks * k * tile * sizeof(float);
    const size_t sz_i = groups * k * tile * sizeof(float);
    int rc = buffer(c, b, (size_t)b->N * b->n * sizeof(float), &b->x);
    if (!rc && b->stored)
        rc = buffer(c, b, (size_t)b->blocks * tile * tile * sizeof(float), &b->store);
    if (!rc)
        rc = buffer(c, b, sz_i, &b->part_i);
    if (!rc)
        rc = buffer(c, b, sz_j, &b->part_j);
    if (!rc)
        rc = buffer(c, b, groups * sizeof(float), &b->st_part);
    if (!rc)
        rc = buffer(c, b, sizeof(cl_uint), &b->lost);
    if (!rc)
        rc = buffer(c, b, (size_t)b->blocks * sizeof(float), &b->c_part);
    if (!rc)
        rc = buffer(c, b, (size_t)b->N * k * sizeof(float), &b->sums);
    if (rc)
        return rc;
    if ((rc = rb_opencl_upload(c, b->cl, b->x, 0, xf, (size_t)b->N * b->n * sizeof(float)))
        || (rc = poison(c, b, b->part_i, sz_i)) || (rc = poison(c, b, b->part_j, sz_j))
        || (rc = poison(c, b, b->st_part, groups * sizeof(float)))
        || (rc = poison(c, b, b->sums, (size_t)b->N * k * sizeof(float))))
        return rc;
    return 0;
}

int sammon_cls_fill(struct rb_case *c, struct sammon_cls *b, cl_event *ev)
{
    const cl_uint zero = 0;
    const cl_int write = b->stored;
    cl_mem store = b->store ? b->store : b->c_part;     /* any buffer: not written */
    int rc = rb_opencl_fill(c, b->cl, b->lost, &zero, sizeof zero, sizeof zero);
    if (rc)
        return rc;
    RB_CL_CHECK(c, clSetKernelArg(b->fill, 0, sizeof b->N, &b->N));
    RB_CL_CHECK(c, clSetKernelArg(b->fill, 1, sizeof b->x, &b->x));
    RB_CL_CHECK(c, clSetKernelArg(b->fill, 2, sizeof store, &store));
    RB_CL_CHECK(c, clSetKernelArg(b->fill, 3, sizeof write, &write));
    RB_CL_CHECK(c, clSetKernelArg(b->fill, 4, sizeof b->lost, &b->lost));
    RB_CL_CHECK(c, clSetKernelArg(b->fill, 5, sizeof b->c_part, &b->c_part));
    const size_t local = SAMMON_CLS_THREADS, global = (size_t)b->blocks * local;
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(b->cl->queue, b->fill, 1, NULL, &global,
                                          RB_FAULT_POINT(c, launch, &local), 0, NULL, ev));
    return 0;
}

int sammon_cls_fill_result(struct rb_case *c, struct sammon_cls *b, unsigned *lost,
                           double *dsum)
{
    cl_uint l = 0;
    float *part = malloc((size_t)b->blocks * sizeof *part);
    if (!part)
        return rb_fail(c, RB_ENOMEM, "%lld group sums", b->blocks);
    cl_int err = clEnqueueReadBuffer(b->cl->queue, b->lost, CL_TRUE, 0, sizeof l, &l, 0, NULL,
                                     NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(b->cl->queue, b->c_part, CL_TRUE, 0,
                                  (size_t)b->blocks * sizeof *part, part, 0, NULL, NULL);
    double s = 0.0;
    for (long long k = 0; err == CL_SUCCESS && k < b->blocks; k++)
        s += part[k];
    free(part);
    RB_CL_CHECK(c, err);
    *lost = l;
    *dsum = s;
    return 0;
}

int sammon_cls_pass(struct rb_case *c, struct sammon_cls *b, enum sammon_cls_mode mode,
                    cl_mem y, float scale, cl_event *ev)
{
    cl_kernel k = b->pass[mode], f = b->finish[mode];
    cl_mem store = b->store ? b->store : b->x;  /* the recomputing form reads x only */
    RB_CL_CHECK(c, clSetKernelArg(k, 0, sizeof b->N, &b->N));
    RB_CL_CHECK(c, clSetKernelArg(k, 1, sizeof b->x, &b->x));
    RB_CL_CHECK(c, clSetKernelArg(k, 2, sizeof store, &store));
    RB_CL_CHECK(c, clSetKernelArg(k, 3, sizeof y, &y));
    RB_CL_CHECK(c, clSetKernelArg(k, 4, sizeof b->part_i, &b->part_i));
    RB_CL_CHECK(c, clSetKernelArg(k, 5, sizeof b->part_j, &b->part_j));
    RB_CL_CHECK(c, clSetKernelArg(k, 6, sizeof b->st_part, &b->st_part));
    const size_t local[2] = { SAMMON_CLS_THREADS, 1 };
    const size_t global[2] = { (size_t)b->splits * SAMMON_CLS_THREADS, (size_t)b->tiles };
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(b->cl->queue, k, 2, NULL, global,
                                          RB_FAULT_POINT(c, launch, local), 0, NULL,
                                          f ? NULL : ev));
    if (!f)
        return 0;
    cl_mem out = mode == SAMMON_CLS_GD ? y : b->sums;
    RB_CL_CHECK(c, clSetKernelArg(f, 0, sizeof b->N, &b->N));
    RB_CL_CHECK(c, clSetKernelArg(f, 1, sizeof b->tiles, &b->tiles));
    RB_CL_CHECK(c, clSetKernelArg(f, 2, sizeof b->splits, &b->splits));
    RB_CL_CHECK(c, clSetKernelArg(f, 3, sizeof b->part_i, &b->part_i));
    RB_CL_CHECK(c, clSetKernelArg(f, 4, sizeof b->part_j, &b->part_j));
    RB_CL_CHECK(c, clSetKernelArg(f, 5, sizeof out, &out));
    if (mode == SAMMON_CLS_GD)
        RB_CL_CHECK(c, clSetKernelArg(f, 6, sizeof scale, &scale));
    const size_t flocal = 64, fglobal = (size_t)cdiv(b->N, 64) * 64;
    RB_CL_CHECK(c, clEnqueueNDRangeKernel(b->cl->queue, f, 1, NULL, &fglobal, &flocal, 0, NULL,
                                          ev));
    return 0;
}

void sammon_cls_release(struct sammon_cls *b)
{
    if (b->cl && b->cl->queue)
        clFinish(b->cl->queue);
    cl_kernel ks[1 + 2 * SAMMON_CLS_MODES] = { b->fill };
    for (int k = 0; k < SAMMON_CLS_MODES; k++) {
        ks[1 + k] = b->pass[k];
        ks[1 + SAMMON_CLS_MODES + k] = b->finish[k];
    }
    for (size_t k = 0; k < sizeof ks / sizeof *ks; k++)
        if (ks[k])
            clReleaseKernel(ks[k]);
    cl_mem *const ms[] = { &b->x, &b->store, &b->part_i, &b->part_j, &b->st_part, &b->lost,
                           &b->c_part, &b->sums };
    rb_opencl_mems_release(ms, sizeof ms / sizeof *ms);
    b->fill = NULL;
    memset(b->pass, 0, sizeof b->pass);
    memset(b->finish, 0, sizeof b->finish);
}

static void occ_add(const struct sammon_cls *b, cl_kernel k, size_t local, struct rb_occ *occ)
{
    if (!k || occ->count >= RB_OCC_MAX_KERNELS)
        return;
    if (rb_opencl_occupancy(b->cl, k, local, &occ->k[occ->count]) == 0)
        occ->count++;
    else if (occ->available) {
        occ->available = 0;
        snprintf(occ->why, sizeof occ->why, "kernel info failed on %s", b->cl->name);
    }
}

void sammon_cls_occupancy(const struct sammon_cls *b, enum sammon_cls_mode mode, int fill,
                          struct rb_occ *occ)
{
    if (fill)
        occ_add(b, b->fill, SAMMON_CLS_THREADS, occ);
    occ_add(b, b->pass[mode], SAMMON_CLS_THREADS, occ);
    occ_add(b, b->finish[mode], 64, occ);
}
