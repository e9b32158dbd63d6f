/* SPDX-License-Identifier: MIT */
/* The AMD targets' rows and the occupancy they allow (hip_targets.h). */
#include <string.h>
#include "harness/backend/hip_targets.h"
#include "harness/error.h"

/* Sources: ROCm's "GPU hardware specifications" tables (CUs, wavefront,
 * LDS, VGPR file per CU: 256 KiB gfx900, 512 KiB gfx90a and gfx94x, SGPR
 * file 12.5 KiB = 4 x 800 SGPRs) and LLVM's AMDGPU subtarget data (10 wave
 * slots a SIMD on gfx9, 8 on gfx90a and gfx94x; VGPRs allocated by 4 on
 * gfx900 and by 8 from the 512 unified ones of gfx90a on; SGPRs by 16;
 * LDS by 512 bytes; at most 16 blocks of several waves a CU).  gfx940 is
 * the gfx94x target Debian's hipcc 5.2 compiles (it has no gfx942): the
 * same compute unit as gfx942's MI300. */
const struct rb_hip_target rb_hip_targets[] = {
    /* arch      family          boards (CUs)                                           cus
     *   wave simds slots vgprs unit max  sgprs unit  lds    unit blocks threads */
    { "gfx900", "GCN5 (Vega)", "Radeon RX Vega 56 (56), RX Vega 64, Instinct MI25 (64)", 56,
      64, 4, 10, 256, 4, 256, 800, 16, 65536, 512, 16, 1024 },
    { "gfx90a", "CDNA2", "Instinct MI250X (110 a die), MI250 (104 a die), MI210 (104)", 110,
      64, 4, 8, 512, 8, 512, 800, 16, 65536, 512, 16, 1024 },
    { "gfx940", "CDNA3", "Instinct MI300A (228), as ROCm before 6.0 named it", 228,
      64, 4, 8, 512, 8, 512, 800, 16, 65536, 512, 16, 1024 },
    { "gfx942", "CDNA3", "Instinct MI300X (304), MI300A (228), MI325X (304)", 304,
      64, 4, 8, 512, 8, 512, 800, 16, 65536, 512, 16, 1024 },
    { 0 }
};

const struct rb_hip_target *rb_hip_target_find(const char *gcn_arch_name)
{
    if (!gcn_arch_name)
        return NULL;
    size_t len = strcspn(gcn_arch_name, ":");
    for (const struct rb_hip_target *t = rb_hip_targets; t->arch; t++)
        if (strlen(t->arch) == len && strncmp(t->arch, gcn_arch_name, len) == 0)
            return t;
    return NULL;
}

static long long round_up(long long v, long long unit)
{
    return (v + unit - 1) / unit * unit;
}

/* Waves a SIMD holds for `per_wave` registers of a file of `file`. */
static int waves_by(const struct rb_hip_target *t, long long per_wave, int file, int unit)
{
    long long w = file / round_up(per_wave > 0 ? per_wave : 1, unit);
    return (int)(w < t->waves_simd ? w : t->waves_simd);
}

/* Blocks a compute unit holds when each SIMD takes simd_waves of them:
 * a block's waves go to the SIMDs in turn. */
static int blocks_of(const struct rb_hip_target *t, int simd_waves, int waves_block)
{
    return simd_waves * t->simds / waves_block;
}

int rb_hip_target_occupancy(const struct rb_hip_target *t, int block, int vgprs, int agprs,
                            int sgprs, long long lds, struct rb_hip_occ *out)
{
    memset(out, 0, sizeof *out);
    out->by_vgprs = out->by_sgprs = out->by_lds = out->by_blocks = -1;
    out->limiter = "";
    if (block <= 0)
        return RB_EINVAL;
    const int slots = t->simds * t->waves_simd;
    out->waves_block = (block + t->wave - 1) / t->wave;
    out->by_waves = slots / out->waves_block;
    if (out->waves_block > 1)
        out->by_blocks = t->blocks_cu;
    out->waves_simd_regs = t->waves_simd;
    if (vgprs >= 0) {
        /* Where the file is unified the accumulation registers follow the
         * architectural ones, which end on a multiple of 4. */
        long long v = agprs > 0 ? round_up(vgprs, 4) + agprs : vgprs;
        int w = v > t->vgpr_max ? 0 : waves_by(t, v, t->vgprs, t->vgpr_unit);
        out->by_vgprs = blocks_of(t, w, out->waves_block);
        out->waves_simd_regs = w;
    }
    if (sgprs >= 0) {
        int w = waves_by(t, sgprs, t->sgprs, t->sgpr_unit);
        out->by_sgprs = blocks_of(t, w, out->waves_block);
        if (w < out->waves_simd_regs)
            out->waves_simd_regs = w;
    }
    if (lds > 0)
        out->by_lds = lds > t->lds ? 0 : (int)(t->lds / round_up(lds, t->lds_unit));
    if (block > t->block_max)
        out->by_waves = 0;
    /* The first bound that binds names the limit. */
    const struct {
        int v;
        const char *name;
    } b[] = { { out->by_waves, "warps" },      { out->by_vgprs, "registers" },
              { out->by_sgprs, "scalar-registers" }, { out->by_lds, "shared-memory" },
              { out->by_blocks, "blocks" } };
    out->blocks = out->by_waves;
    out->limiter = b[0].name;
    for (size_t i = 1; i < sizeof b / sizeof b[0]; i++)
        if (b[i].v >= 0 && b[i].v < out->blocks) {
            out->blocks = b[i].v;
            out->limiter = b[i].name;
        }
    int w = out->blocks * out->waves_block / t->simds;
    out->waves_simd = w < t->waves_simd ? w : t->waves_simd;
    out->occupancy = (double)out->blocks * out->waves_block / slots;
    if (out->occupancy > 1)
        out->occupancy = 1;
    return 0;
}
