/* SPDX-License-Identifier: MIT */
/* Occupancy arithmetic: per-resource block limits and the binding one. */
#include <stdio.h>
#include <string.h>
#include "harness/backend/occ.h"

static long long round_up(long long v, long long unit)
{
    return unit > 0 ? (v + unit - 1) / unit * unit : v;
}

void rb_occ_bounds(const struct rb_occ_limits *d, int block, int regs, long long smem_block,
                   struct rb_occ_bounds *out)
{
    out->warps = out->regs = out->smem = out->blocks = -1;
    if (block <= 0 || d->warp_size <= 0)
        return;
    long long warps_block = (block + d->warp_size - 1) / d->warp_size;
    if (d->max_threads_block > 0 && block > d->max_threads_block) {
        out->warps = 0;         /* the launch itself is invalid */
        return;
    }
    if (d->max_threads_sm > 0)
        out->warps = (int)((d->max_threads_sm / d->warp_size) / warps_block);
    if (d->max_blocks_sm > 0)
        out->blocks = d->max_blocks_sm;
    if (regs > 0 && d->regs_sm > 0) {
        /* Registers are allocated per warp in units, from one register
         * file slice per scheduler: a warp cannot straddle two slices. */
        long long per_warp = round_up((long long)regs * d->warp_size, d->reg_unit);
        long long parts = d->reg_partitions > 0 ? d->reg_partitions : 1;
        long long warps_sm = (d->regs_sm / parts) / per_warp * parts;
        out->regs = (int)(warps_sm / warps_block);
    }
    if (smem_block >= 0 && d->smem_sm > 0) {
        long long need = round_up(smem_block + (d->smem_reserved > 0 ? d->smem_reserved : 0),
                                  d->smem_unit);
        if (need > 0)
            out->smem = (int)(d->smem_sm / need);
    }
}

int rb_occ_bounds_min(const struct rb_occ_bounds *b)
{
    const int v[] = { b->warps, b->regs, b->smem, b->blocks };
    int best = -1;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (v[i] >= 0 && (best < 0 || v[i] < best))
            best = v[i];
    return best;
}

const char *rb_occ_limiter(const struct rb_occ_bounds *b, int active)
{
    if (active < 0)
        return "";
    if (b->warps == active)
        return "warps";
    if (b->regs == active)
        return "registers";
    if (b->smem == active)
        return "shared-memory";
    if (b->blocks == active)
        return "blocks";
    return "";
}

double rb_occ_fraction(const struct rb_occ_limits *d, int block, int active)
{
    if (d->warp_size <= 0 || d->max_threads_sm < d->warp_size || block <= 0 || active < 0)
        return -1;
    double warps_block = (block + d->warp_size - 1) / d->warp_size;
    double slots = d->max_threads_sm / d->warp_size;
    double f = active * warps_block / slots;
    return f > 1 ? 1 : f;
}

void rb_occ_kernel_clear(struct rb_occ_kernel *k, const char *name, int block)
{
    memset(k, 0, sizeof *k);
    snprintf(k->kernel, sizeof k->kernel, "%s", name ? name : "");
    k->block = block;
    k->active_blocks = -1;
    k->occupancy = -1;
    k->regs = -1;
    k->smem_static = -1;
    k->smem_dynamic = -1;
    k->local_bytes = -1;
}
