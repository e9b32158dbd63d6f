/* SPDX-License-Identifier: MIT */
/* OpenCL has no occupancy query: report the compiler's kernel info, and on
 * NVIDIA an upper bound from the CUDA model (notes/harness.md §5.3). */
#include <stdio.h>
#include <string.h>
#include "harness/backend/occ.h"
#include "harness/backend/opencl.h"

/* Per-SM limits by compute capability: warps and shared memory from the
 * CUDA C++ Programming Guide's table of technical specifications, blocks
 * from CUDA 13.0's cuda_occupancy.h.  Every listed CC has 64 K registers
 * per SM; the per-thread count is unknown to OpenCL, so it is not used. */
static const struct nv_sm {
    int major, minor, warps, blocks, smem_kib;
} nv_sms[] = {
    /* CC       warps  blocks  smem KiB */
    { 5, 0,     64,    32,     64 },
    { 5, 2,     64,    32,     96 },
    { 5, 3,     64,    32,     64 },
    { 6, 0,     64,    32,     64 },
    { 6, 1,     64,    32,     96 },
    { 6, 2,     64,    32,     64 },
    { 7, 0,     64,    32,     96 },
    { 7, 2,     64,    32,     96 },
    { 7, 5,     32,    16,     64 },
    { 8, 0,     64,    32,    164 },
    { 8, 6,     48,    16,    100 },
    { 8, 7,     48,    16,    164 },
    { 8, 9,     48,    24,    100 },
    { 9, 0,     64,    32,    228 },
    { 10, 0,    64,    32,    228 },
    { 12, 0,    48,    24,    100 },
};

int rb_opencl_kernel_info(const struct rb_opencl *cl, cl_kernel kernel,
                          struct rb_opencl_kernel_info *info)
{
    memset(info, 0, sizeof *info);
    cl_device_id d = cl->device;
    if (clGetKernelWorkGroupInfo(kernel, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof info->max_wg,
                                 &info->max_wg, NULL) != CL_SUCCESS
        || clGetKernelWorkGroupInfo(kernel, d, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                    sizeof info->preferred_multiple,
                                    &info->preferred_multiple, NULL) != CL_SUCCESS
        || clGetKernelWorkGroupInfo(kernel, d, CL_KERNEL_LOCAL_MEM_SIZE, sizeof info->local_mem,
                                    &info->local_mem, NULL) != CL_SUCCESS
        || clGetKernelWorkGroupInfo(kernel, d, CL_KERNEL_PRIVATE_MEM_SIZE,
                                    sizeof info->private_mem, &info->private_mem,
                                    NULL) != CL_SUCCESS)
        return RB_EDEVICE;
    return 0;
}

static const struct nv_sm *nv_lookup(int major, int minor)
{
    for (size_t i = 0; i < sizeof nv_sms / sizeof nv_sms[0]; i++)
        if (nv_sms[i].major == major && nv_sms[i].minor == minor)
            return &nv_sms[i];
    return NULL;
}

/* Registers unknown: warps, blocks and local memory give an upper bound. */
static void nv_estimate(const struct rb_opencl *cl, const struct nv_sm *sm, int block,
                        long long smem, struct rb_occ_kernel *k)
{
    struct rb_occ_limits lim = {
        .warp_size = cl->nv_warp_size > 0 ? cl->nv_warp_size : 32,
        .max_blocks_sm = sm->blocks,
        .max_threads_block = -1,
        .regs_sm = -1,
        .smem_sm = (long long)sm->smem_kib * 1024,
        .smem_unit = sm->major >= 8 ? 128 : 256,
        .smem_reserved = sm->major >= 8 ? 1024 : 0,
    };
    lim.max_threads_sm = sm->warps * lim.warp_size;
    struct rb_occ_bounds b;
    rb_occ_bounds(&lim, block, -1, smem, &b);
    k->active_blocks = rb_occ_bounds_min(&b);
    k->occupancy = rb_occ_fraction(&lim, block, k->active_blocks);
    snprintf(k->limiter, sizeof k->limiter, "%s; regs unknown",
             rb_occ_limiter(&b, k->active_blocks));
    snprintf(k->source, sizeof k->source, "opencl-nv-estimate");
}

int rb_opencl_occupancy(const struct rb_opencl *cl, cl_kernel kernel, size_t local_size,
                        struct rb_occ_kernel *k)
{
    char name[64] = "";
    clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, NULL);
    rb_occ_kernel_clear(k, name, (int)local_size);
    snprintf(k->source, sizeof k->source, "opencl-kernel-info");
    struct rb_opencl_kernel_info info;
    if (rb_opencl_kernel_info(cl, kernel, &info))
        return RB_EDEVICE;
    /* OpenCL reports static __local and local arguments as one figure. */
    k->smem_static = (long long)info.local_mem;
    k->local_bytes = (long long)info.private_mem;
    if (local_size > info.max_wg) {
        k->active_blocks = 0;
        k->occupancy = 0;
        snprintf(k->limiter, sizeof k->limiter, "wg > kernel max %u", (unsigned)info.max_wg);
        return 0;
    }
    const struct nv_sm *sm = nv_lookup(cl->nv_cc_major, cl->nv_cc_minor);
    if (sm)
        nv_estimate(cl, sm, (int)local_size, k->smem_static, k);
    return 0;
}
