/* SPDX-License-Identifier: MIT */
/* The GPU SBO representation's units (sbo_gpu_case.cu, sbo_gpu_launch.cu),
 * each compiled once for CUDA and once for HIP: struct sbo_state's backend
 * part and the functions one unit calls in another, all in namespace
 * sbo_gpu::RB_GPU_NS (impl/common/gpu_api.h), so that the two compilations
 * link side by side.  C sees the engine (sbo_gpu.h, sbo_gpu_engine.cu).
 * C++ for the CUDA and HIP compilers only. */
#ifndef SBO_GPU_STATE_H
#define SBO_GPU_STATE_H

#include <stddef.h>
#include "impl/common/gpu_api.h"
#include "impl/sbo/sbo_gpu.h"

namespace sbo_gpu {
inline namespace RB_GPU_NS {

/* Which kernel a fused case runs (dev's fused). */
enum { SBO_GPU_FUSED = 1, SBO_GPU_FUSED_PAIR = 2 };

struct dev {
    int fused;                  /* SBO_GPU_FUSED, _FUSED_PAIR; 0: the paper's sbo_energy,
                                   sbo_argmax */
    int p, s, L, m;
    int block;                  /* the `block` tunable (the paper's m-tilde) */
    size_t sz;                  /* bytes of one value */
    void *D, *Y;                /* device, prec: the blocks and the signals */
    void *E;                    /* device, prec: the paper's L x m energies */
    void *energy;               /* device, prec: m best energies (output) */
    int *best;                  /* device: m best blocks (output) */
    gpuStream_t stream;
    struct gpu_timer timer;
};

/* sbo_gpu_launch.cu: RB_ESKIP where the device gives a kernel fewer threads
 * a block than the case's (registers, launch bounds), RB_EINVAL when s has
 * no kernel; and the engine's run and occupancy. */
int kernels_fit(struct rb_case *c, const dev *d);
int run(struct rb_case *c);
void occupancy(struct rb_case *c, struct rb_occ *occ);

/* sbo_gpu_case.cu: the engine's other representation entry points. */
int admit(struct rb_case *c);
size_t footprint(const struct rb_case *c);
int setup(struct rb_case *c);
int upload(struct rb_case *c);
int verify(struct rb_case *c, struct rb_check *out);
void teardown(struct rb_case *c);

} // namespace RB_GPU_NS
} // namespace sbo_gpu

#endif
