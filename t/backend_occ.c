/* SPDX-License-Identifier: MIT */
/* Occupancy arithmetic against the Hopper figures of notes/harness.md §5.1
 * (CC 9.0: 64 warps, 32 blocks, 64 K registers, 228 KiB per SM). */
#include <string.h>
#include "harness/backend/occ.h"
#include "t/tap.h"

static const struct rb_occ_limits hopper = {
    .warp_size = 32, .max_threads_sm = 2048, .max_blocks_sm = 32, .max_threads_block = 1024,
    .regs_sm = 65536, .reg_unit = 256, .reg_partitions = 4,
    .smem_sm = 228 * 1024, .smem_unit = 128, .smem_reserved = 1024,
};

/* Occupancy and limiter at one configuration, as the runtime would see it:
 * the active count is the smallest bound. */
static void expect(int block, int regs, long long smem, double occ, const char *limiter)
{
    struct rb_occ_bounds b;
    rb_occ_bounds(&hopper, block, regs, smem, &b);
    int active = rb_occ_bounds_min(&b);
    double f = rb_occ_fraction(&hopper, block, active);
    const char *lim = rb_occ_limiter(&b, active);
    if (!tap_ok(f == occ && strcmp(lim, limiter) == 0,
                "block %d, %d regs, %lld B smem: %.0f%% by %s", block, regs, smem, occ * 100,
                limiter))
        tap_diag("got %d blocks, %.4f, \"%s\" (bounds warps %d regs %d smem %d blocks %d)",
                 active, f, lim, b.warps, b.regs, b.smem, b.blocks);
}

int main(void)
{
    tap_plan(13);
    expect(32, 10, 0, 0.5, "blocks");
    expect(64, 10, 0, 1.0, "warps");
    expect(1024, 10, 0, 1.0, "warps");
    expect(64, 40, 0, 0.75, "registers");
    expect(256, 40, 0, 0.75, "registers");
    expect(512, 40, 0, 0.75, "registers");
    /* 48 KiB + 1 KiB reserved per block: 4 blocks of 8 warps fit in 228 KiB. */
    expect(256, 10, 48 * 1024, 0.5, "shared-memory");

    struct rb_occ_bounds b;
    rb_occ_bounds(&hopper, 256, -1, -1, &b);
    tap_ok(b.regs == -1 && b.smem == -1 && b.warps == 8 && b.blocks == 32,
           "unknown registers and shared memory bound nothing");
    rb_occ_bounds(&hopper, 2048, 10, 0, &b);
    tap_ok(b.warps == 0 && rb_occ_bounds_min(&b) == 0, "a block over the thread limit fits 0");
    tap_ok(strcmp(rb_occ_limiter(&b, 7), "") == 0, "no bound matches: no limiter named");

    struct rb_occ_limits unknown = { .warp_size = 32, .max_threads_sm = -1 };
    tap_ok(rb_occ_fraction(&unknown, 128, 4) == -1, "unknown SM size: occupancy unknown");
    tap_ok(rb_occ_fraction(&hopper, 96, 22) == 1.0, "occupancy never exceeds 1");

    struct rb_occ_kernel k;
    memset(&k, 0x55, sizeof k);
    rb_occ_kernel_clear(&k, "saxpy", 128);
    tap_ok(strcmp(k.kernel, "saxpy") == 0 && k.block == 128 && k.active_blocks == -1
           && k.occupancy == -1 && k.regs == -1 && k.smem_static == -1 && k.smem_dynamic == -1
           && k.local_bytes == -1 && k.limiter[0] == '\0' && k.source[0] == '\0',
           "a cleared record claims nothing");
    return tap_done();
}
