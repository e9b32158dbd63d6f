/* SPDX-License-Identifier: MIT */
/* The AMD target table and its occupancy (harness/backend/hip_targets.c):
 * the lookup by gcnArchName, cases worked by hand for each limit (wave
 * slots, VGPRs with and without accumulation registers, SGPRs, LDS, the 16
 * blocks of a compute unit, a block past the limits), and the project's
 * own kernels as Debian's hipcc 5.2 compiled them for gfx900, gfx90a and
 * gfx940 (t/hip_targets_kernels.h): at the largest block each may be
 * launched with, the waves a SIMD's registers allow, bounded by LDS as the
 * compiler counts it, must be the compiler's "Occupancy [waves/SIMD]" for
 * the resources it reported (560 rows: the VGPR and SGPR files, their
 * allocation units and the wave slots of each target). */
#include <string.h>
#include "harness/backend/hip_targets.h"
#include "t/hip_targets_kernels.h"
#include "t/tap.h"

static void lookup(void)
{
    const struct rb_hip_target *a = rb_hip_target_find("gfx90a:sramecc+:xnack-");
    const struct rb_hip_target *b = rb_hip_target_find("gfx900");
    tap_ok(a && strcmp(a->arch, "gfx90a") == 0 && b && b->waves_simd == 10 &&
               !rb_hip_target_find("gfx9") && !rb_hip_target_find("gfx1030") &&
               !rb_hip_target_find(NULL),
           "gfx90a found by its full agent name, gfx900 by its own; gfx9, gfx1030 and none not");
    int ok = 1;
    for (const struct rb_hip_target *t = rb_hip_targets; t->arch; t++)
        ok = ok && t->wave == 64 && t->simds == 4 && t->lds == 65536 && t->cus > 0;
    tap_ok(ok && rb_hip_target_find("gfx942") && rb_hip_target_find("gfx940"),
           "every row a wave64 target of 4 SIMDs and 64 KiB LDS, gfx940 and gfx942 among them");
}

/* One configuration: blocks a CU, waves a SIMD, occupancy and limiter. */
static void expect(const char *arch, int block, int vgprs, int agprs, int sgprs, long long lds,
                   int blocks, int waves_simd, double occ, const char *limiter)
{
    struct rb_hip_occ o;
    const struct rb_hip_target *t = rb_hip_target_find(arch);
    int rc = t ? rb_hip_target_occupancy(t, block, vgprs, agprs, sgprs, lds, &o) : -1;
    if (!tap_ok(rc == 0 && o.blocks == blocks && o.waves_simd == waves_simd &&
                    o.occupancy == occ && strcmp(o.limiter, limiter) == 0,
                "%s block %d, %d+%d VGPRs, %d SGPRs, %lld B LDS: %d blocks, %d waves/SIMD, "
                "%.4g by %s", arch, block, vgprs, agprs, sgprs, lds, blocks, waves_simd, occ,
                limiter))
        tap_diag("got rc %d: %d blocks, %d waves/SIMD, %.4g by \"%s\" (waves %d vgprs %d "
                 "sgprs %d lds %d blocks %d)", rc, o.blocks, o.waves_simd, o.occupancy,
                 o.limiter, o.by_waves, o.by_vgprs, o.by_sgprs, o.by_lds, o.by_blocks);
}

static void by_hand(void)
{
    /* 47 VGPRs take 48: 5 waves a SIMD of 256; 4-wave blocks, 5 of them. */
    expect("gfx900", 256, 47, 0, 8, 8192, 5, 5, 0.5, "registers");
    /* 65 take 72 of 512: 7 waves; 8 KiB of LDS would allow 8 blocks. */
    expect("gfx90a", 256, 65, 0, 17, 8192, 7, 7, 0.875, "registers");
    /* One-wave blocks fill the 40 slots; no block limit of their own. */
    expect("gfx900", 64, 24, 0, 16, 0, 40, 10, 1.0, "warps");
    /* Two-wave blocks: 20 would fit the slots, the CU holds 16. */
    expect("gfx900", 128, 16, 0, 16, 0, 16, 8, 0.8, "blocks");
    /* 16 waves of 128 VGPRs: 4 a SIMD, one block. */
    expect("gfx942", 1024, 128, 0, 32, 0, 1, 4, 0.5, "registers");
    /* 40000 B of LDS are 40448 allocated: one block of 64 KiB. */
    expect("gfx90a", 256, 32, 0, 16, 40000, 1, 1, 0.125, "shared-memory");
    /* Accumulation registers after the architectural ones: 60 + 10 take 72. */
    expect("gfx90a", 256, 60, 10, 16, 0, 7, 7, 0.875, "registers");
    expect("gfx90a", 256, 60, 0, 16, 0, 8, 8, 1.0, "warps");
    /* 102 SGPRs take 112 of 800: 7 waves a SIMD. */
    expect("gfx900", 64, 16, 0, 102, 0, 28, 7, 0.7, "scalar-registers");
    /* Unknown registers bound nothing; past the limits nothing runs. */
    expect("gfx942", 512, -1, 0, -1, 0, 4, 8, 1.0, "warps");
    expect("gfx900", 2048, 16, 0, 16, 0, 0, 0, 0.0, "warps");
    expect("gfx90a", 64, 520, 0, 16, 0, 0, 0, 0.0, "registers");
    expect("gfx900", 64, 16, 0, 16, 70000, 0, 0, 0.0, "shared-memory");
    struct rb_hip_occ o;
    tap_ok(rb_hip_target_occupancy(rb_hip_target_find("gfx900"), 0, 1, 0, 1, 0, &o) < 0,
           "a block of no threads is refused");
}

/* The waves a SIMD runs by LDS as the compiler counts them (LLVM 15's
 * AMDGPUSubtarget::getOccupancyWithLocalMemSize): the blocks the CU's LDS
 * holds, at most those of its block limit, times the waves of a block,
 * clamped to a SIMD's slots, not divided among the SIMDs: an upper bound
 * for its scheduling, above the hardware's (rb_hip_target_occupancy's
 * waves_simd), which is why only the register part is compared alone. */
static int compiler_lds_waves(const struct rb_hip_target *t, int block, int lds)
{
    const int wb = (block + t->wave - 1) / t->wave, slots = t->simds * t->waves_simd;
    const int groups_cu = wb == 1 ? slots : slots / wb < t->blocks_cu ? slots / wb : t->blocks_cu;
    if (lds == 0)
        return t->waves_simd;
    int g = t->lds / lds;
    if (g == 0)
        return 1;
    g = g < groups_cu ? g : groups_cu;
    return g * wb < t->waves_simd ? g * wb : t->waves_simd;
}

/* The compiler's figures for the project's kernels, target by target. */
static void compiled(const char *arch)
{
    const struct rb_hip_target *t = rb_hip_target_find(arch);
    int rows = 0, bad = 0;
    for (size_t i = 0; t && i < sizeof hip_kernels / sizeof hip_kernels[0]; i++) {
        const struct hip_kernel *k = &hip_kernels[i];
        struct rb_hip_occ o;
        if (strcmp(k->arch, arch) != 0)
            continue;
        rows++;
        if (rb_hip_target_occupancy(t, k->block, k->vgprs, k->agprs, k->sgprs, k->lds, &o)) {
            bad++;
            continue;
        }
        const int lw = compiler_lds_waves(t, k->block, k->lds);
        const int want = o.waves_simd_regs < lw ? o.waves_simd_regs : lw;
        if (want != k->waves_simd && bad++ < 5)
            tap_diag("%s %s: block %d, %d VGPRs, %d AGPRs, %d SGPRs, %d B LDS: compiler %d "
                     "waves/SIMD, registers %d, LDS %d", arch, k->name, k->block, k->vgprs,
                     k->agprs, k->sgprs, k->lds, k->waves_simd, o.waves_simd_regs, lw);
    }
    tap_ok(t && rows > 0 && bad == 0, "%s: the waves/SIMD of all %d compiled kernels' figures "
           "as hipcc's (%d differ)", arch, rows, bad);
}

int main(void)
{
    tap_plan(2 + 14 + 3);
    lookup();
    by_hand();
    compiled("gfx900");
    compiled("gfx90a");
    compiled("gfx940");
    return tap_done();
}
