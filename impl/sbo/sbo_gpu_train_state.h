/* SPDX-License-Identifier: MIT */
/* The device side of a CUDA or HIP SBO training (struct sbo_state's
 * backend), shared by sbo_gpu_train_*.inc: the buffers of the OpenCL
 * training (sbo_opencl_train.h) as device pointers, the stream, the
 * deferred RMSEs, the GEMMs' offset uploads and the profile's events.
 * C++ for .cu and .hip files only; HIP when the includer defines
 * RB_GPU_HIP. */
#ifndef SBO_GPU_TRAIN_STATE_H
#define SBO_GPU_TRAIN_STATE_H

#include <stddef.h>
#include "impl/common/gpu_api.h"
#include "impl/sbo/sbo_gpu_train.h"

#if defined(RB_HAVE_CUBLAS) && !defined(RB_GPU_HIP)
#include <cublas_v2.h>
#define SBO_GPU_CUBLAS 1
#else
#define SBO_GPU_CUBLAS 0
#endif

/* What gpu_api.h does not spell: events, pinned host memory, the shared
 * memory a block may opt in to. */
#ifdef RB_GPU_HIP
#define gpuEvent_t hipEvent_t
#define gpuEventCreate hipEventCreate
#define gpuEventRecord hipEventRecord
#define gpuEventQuery hipEventQuery
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuEventDestroy hipEventDestroy
#define gpuErrorNotReady hipErrorNotReady
#define gpuMallocHost(ptr, bytes) hipHostMalloc((ptr), (bytes), 0)
#define gpuFreeHost hipHostFree
#define gpuDevAttrSharedOptin hipDeviceAttributeMaxSharedMemoryPerBlock
#else
#define gpuEvent_t cudaEvent_t
#define gpuEventCreate cudaEventCreate
#define gpuEventRecord cudaEventRecord
#define gpuEventQuery cudaEventQuery
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuEventDestroy cudaEventDestroy
#define gpuErrorNotReady cudaErrorNotReady
#define gpuMallocHost(ptr, bytes) cudaMallocHost((ptr), (bytes))
#define gpuFreeHost cudaFreeHost
#define gpuDevAttrSharedOptin cudaDevAttrMaxSharedMemoryPerBlockOptin
#endif

#define SBO_GPU_TRAIN(name) RB_GPU_ENTRY(sbo, train_##name)

/* The kernels, in the OpenCL training's order and names (sbo_tk), then
 * the fused representation of `polar`; a record gets the occupancy of every
 * one the variant runs. */
enum sbo_gk {
    SBO_GK_ENERGY, SBO_GK_ARGMAX, SBO_GK_THRESHOLD, SBO_GK_GEMM, SBO_GK_JACOBI,
    SBO_GK_PRODUCT, SBO_GK_UPDATE, SBO_GK_POLAR,
    SBO_GK_YNORM, SBO_GK_COUNT, SBO_GK_SCATTER, SBO_GK_GATHER,
    SBO_GK_GEMM_SUM, SBO_GK_FUSED,
    SBO_GK_N
};

/* Representation passes whose RMSE partial sums wait on the device. */
#define SBO_GPU_PASSES 32

/* Named per backend (sbo_cuda_train_dev, sbo_hip_train_dev): HIP for
 * NVIDIA links beside CUDA. */
#define sbo_gpu_train SBO_GPU_TRAIN(dev)
struct sbo_gpu_train {
    int p, s, L, m;
    int block;                  /* threads per block of the 1-D and per-matrix kernels */
    int cublas;                 /* 1: the GEMMs through cuBLAS */
    int polar;                  /* 1: Newton-Schulz for steps 6-7 (Jacobi fallback) */
    int f64;
    size_t sz;
    int ntiles, chunk;          /* the sort's chunks and positions per chunk */
    int npart;                  /* RMSE partial sums */
    size_t ns_smem;             /* Newton-Schulz's dynamic shared bytes; 0: global */
    gpuStream_t stream;
    void *Y, *D, *E, *energy, *ynorm, *r, *part, *Ysub, *C, *M, *U, *V, *W, *sig;
    int *best, *idx, *order, *seq, *tiles, *cnt, *flag;
    void *gpart;                /* the split GEMM's partial products, gpart_cap elements */
    size_t gpart_cap;
    unsigned long long *offs;   /* device, 6 L: two halves of 3 L offsets or pointers */
    unsigned long long *offs_h; /* pinned, 9 L: the halves as written, then scratch */
    int offs_n[2], offs_next;
    gpuEvent_t offs_ev[2];      /* each half's upload */
    int offs_pending[2];        /* 1: its event is recorded and not known done */
    int *cnt_h;                 /* pinned, 2 L: counts, then the polar flags */
    void *part_h;               /* pinned: the pending passes' sums */
    int npend;
    double rmse_h[SBO_GPU_PASSES];
    int defer_trace;
    /* The profile of the last run: a pair of events around each launch. */
    int prof;
    gpuEvent_t *ev;             /* 2 ev_cap, created as needed, kept across runs */
    unsigned char *ev_kind;
    size_t nev, ev_cap, ev_made;
    gpuEvent_t run_start, run_stop;
    long launches, syncs;
    double wall_ms;
#if SBO_GPU_CUBLAS
    cublasHandle_t blas;
#endif
};

#endif
