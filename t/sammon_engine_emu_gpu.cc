// SPDX-License-Identifier: MIT
// The CUDA and HIP embedding engine (impl/sammon/sammon_engine_gpu.cu)
// whole on the CPU: its host code as it is, its kernels on the emulator
// (t/gpu_emu.h) at the warp GPU_EMU_WAVE picks, its runtime calls on
// t/gpu_emu_api.h's memory.  Its ops are sammon_engine_emu_ops, beside the
// built engines; t/sammon_engine_emu.c runs the checks.
#include "t/gpu_emu.h"
#include "t/gpu_emu_api.h"

#define sammon_engine_cuda_ops sammon_engine_emu_ops
#define sammon_engine_hip_ops sammon_engine_emu_ops
#include "impl/sammon/sammon_engine_gpu.cu"

// The device's memory and what gpuMemGetInfo reports free (bytes).
extern "C" void sammon_engine_emu_memory(size_t total, size_t reported)
{
    gpu_emu_mem.total = total;
    gpu_emu_mem.reported = reported;
}

// What is held: device bytes, and streams, events and pinned buffers.
extern "C" void sammon_engine_emu_held(size_t *bytes, long *objects)
{
    *bytes = gpu_emu_mem.held;
    *objects = gpu_emu_mem.objects;
}
