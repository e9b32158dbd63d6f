/* SPDX-License-Identifier: MIT */
/* SBO training on an OpenCL device, the paper's design (Irofti; notes 5.1):
 * every per-signal and per-block step in kernels (kernels/opencl/
 * sbo_represent.cl and sbo_train_*.cl), the host driving sbo_train's loop
 * and reading back only the RMSE's partial sums (several passes at once
 * where nothing decides on them) and the block counts.
 * Private to impl/sbo; the tests use the steps directly. */
#ifndef SBO_OPENCL_TRAIN_H
#define SBO_OPENCL_TRAIN_H

#include <stddef.h>
#include "harness/backend/opencl.h"
#include "harness/variant.h"
#include "impl/sbo/sbo.h"

/* The kernels: those of a 1ONB round first, then the selection, grouping
 * and GEMM sum; a record gets the occupancy of every one the variant runs. */
enum sbo_tk {
    SBO_TK_ENERGY, SBO_TK_ARGMAX, SBO_TK_THRESHOLD, SBO_TK_GEMM, SBO_TK_JACOBI,
    SBO_TK_PRODUCT, SBO_TK_UPDATE, SBO_TK_POLAR,
    SBO_TK_YNORM, SBO_TK_COUNT, SBO_TK_SCATTER, SBO_TK_GATHER,
    SBO_TK_GEMM_SUM,
    SBO_TK_N
};
extern const char *const sbo_tk_names[SBO_TK_N];

/* Representation passes whose RMSE partial sums wait on the device, to be
 * read back together. */
#define SBO_CL_PASSES 32

/* The device side of a training, in struct sbo_state's backend. */
struct sbo_cl_train {
    int p, s, L, m;
    int wg;                     /* work-items per group of the 1-D kernels */
    int ns_wg;                  /* work-items per group of sbo_newton_schulz */
    size_t ns_wg_max, ns_local_max;     /* 0, or caps on its group and local memory */
    int clblast;                /* 1: the GEMMs through CLBlast */
    int polar;                  /* 1: Newton-Schulz for steps 6-7 (Jacobi fallback) */
    int f64;
    size_t sz;                  /* bytes of one element */
    int ntiles, chunk;          /* the sort's chunks and positions per chunk */
    int npart;                  /* RMSE partial sums */
    struct rb_opencl *cl;
    cl_kernel k[SBO_TK_N];
    cl_mem Y, D;                /* p x m signals; L p x p blocks */
    cl_mem E, best, energy;     /* representation: L x m, m, m */
    cl_mem ynorm, r, part;      /* m, m, npart */
    cl_mem idx, order, seq;     /* m each: the W worst, the grouping, the sort's scratch */
    cl_mem tiles;               /* 256 x ntiles: the sort's counts */
    cl_mem cnt, flag, offs;     /* L counts (the batch's need), L flags, 6 L offsets */
    cl_mem Ysub;                /* p x 2m: gathered signals, a zero tail for padding */
    cl_mem C;                   /* L x p x m codes */
    cl_mem M, U, V, W, sig;     /* L p x p each; L p singular values */
    cl_mem gpart;               /* the split GEMM's partial products, gpart_cap elements */
    size_t gpart_cap;
    cl_event first, last;       /* the run's first and last commands */
    int *cnt_h;                 /* 2 L: the counts, then the polar flags, read back */
    cl_ulong *offs_h;           /* 9 L: the two halves of offs as written, scratch */
    int offs_n[2], offs_next;   /* entries in each half; the half to write next */
    cl_event offs_ev[2];        /* each half's upload, until it is known done */
    /* Deferred RMSEs: part holds SBO_CL_PASSES slots of npart sums. */
    int npend;                  /* passes in part not read back yet */
    void *part_h;               /* their sums, read back */
    double rmse_h[SBO_CL_PASSES];
    int defer_trace;            /* 1: o->trace may run a few passes late */
    /* The profile of the last run (sbo_opencl_train_prof.c). */
    int prof;                   /* 1: an event per kernel launch, read after the run */
    cl_event *ev;               /* nev events, ev_kind[k] the sbo_tk of ev[k] */
    unsigned char *ev_kind;
    size_t nev, ev_cap;
    long launches, syncs;       /* kernel launches; blocking reads, writes, waits */
    double wall_ms;             /* host time of the run */
};

/* Allocate buffers (Y and D uploaded from the host arrays, in the case's
 * precision; Ysub's tail zeroed), build the program and create the kernels.
 * t's sizes and switches must be set, and t->cl.  0 or RB_E* (RB_ESKIP when
 * the device cannot take the groups). */
int sbo_cl_train_prepare(struct rb_case *c, struct sbo_cl_train *t, const void *Y,
                         const void *D);
/* Release what prepare made; safe on a partial prepare and twice. */
void sbo_cl_train_release(struct sbo_cl_train *t);

/* sbo_train on the device from the uploaded Y: D gets the blocks, best the
 * final assignment; *nb and *rmse as sbo_train's, o->trace called after
 * each representation pass.  0 or RB_E* (message in c). */
int sbo_cl_train_run(struct rb_case *c, struct sbo_cl_train *t, const struct sbo_opts *o,
                     int *nb, double *rmse);

/* The steps (sbo_opencl_train_steps.c), each enqueued; 0 or RB_EDEVICE. */
/* |y_i|^2 of every signal into ynorm. */
int sbo_cl_ynorm(struct rb_case *c, struct sbo_cl_train *t);
/* The representation with nb blocks (best, energy), the energy update (r)
 * and *rmse from the partial sums read back (with those of passes still
 * pending, t->rmse_h). */
int sbo_cl_represent(struct rb_case *c, struct sbo_cl_train *t, int nb, double *rmse);
/* The same without the read-back: keep 1 puts the partial sums in the next
 * free slot of part (t->npend counts them), keep 0 in a slot the next pass
 * reuses.  At most SBO_CL_PASSES kept passes before sbo_cl_rmse_read. */
int sbo_cl_represent_enqueue(struct rb_case *c, struct sbo_cl_train *t, int nb, int keep);
/* One blocking read of the pending passes' sums: t->rmse_h[k] the RMSE of
 * the k-th, oldest first; *n their number (npend, then reset to 0). */
int sbo_cl_rmse_read(struct rb_case *c, struct sbo_cl_train *t, int *n);
/* idx[0 .. W-1]: the W worst signals by r (sbo_worst's order). */
int sbo_cl_worst(struct rb_case *c, struct sbo_cl_train *t, int W);
/* Signals grouped by best block: order (stable), cnt on the device and in
 * t->cnt_h (nb entries). */
int sbo_cl_group(struct rb_case *c, struct sbo_cl_train *t, int nb);
/* Ysub[:, k] = Y[:, list[k]] for k < n, list being idx or order. */
int sbo_cl_gather(struct rb_case *c, struct sbo_cl_train *t, cl_mem list, int n);
/* The batched GEMM C_b = op(A_b) op(B_b) of nbatch entries at the given
 * element offsets; CLBlast when t->clblast, else sbo_gemm_batched. */
int sbo_cl_gemm(struct rb_case *c, struct sbo_cl_train *t, int ta, int tb, int M, int N,
                int K, cl_mem A, const size_t *aoff, cl_mem B, const size_t *boff,
                cl_mem Cm, const size_t *coff, int nbatch);
/* Codes of nbatch blocks thresholded (cnt on the device gives each block's
 * columns), columns ncols. */
int sbo_cl_threshold(struct rb_case *c, struct sbo_cl_train *t, int nbatch, int ncols);
/* SVD of M's first nbatch slots where need[g] (a device int array), then
 * D[first + g] = U V^T (mode 0) or U by descending singular value (1),
 * re-orthonormalised by a Newton-Schulz step; M is consumed. */
int sbo_cl_svd_product(struct rb_case *c, struct sbo_cl_train *t, int nbatch, int first,
                       cl_mem need, int mode);
/* D[first + g] = polar factor of M's slot g where cnt[g]: Newton-Schulz, the
 * Jacobi SVD for the blocks it flags.  *fallbacks, if not NULL, gets their
 * count (the flags read back); with NULL the SVD kernels are enqueued
 * without a read, their groups of unflagged blocks returning at once. */
int sbo_cl_polar(struct rb_case *c, struct sbo_cl_train *t, int nbatch, int first,
                 int *fallbacks);

/* The profile (sbo_opencl_train_prof.c).  Forget the last run's: release
 * its events, zero the counters. */
void sbo_cl_prof_reset(struct sbo_cl_train *t);
/* Keep the event of a launch of kernel `which` (owned from now).  0, or
 * RB_ENOMEM (the event released). */
int sbo_cl_prof_add(struct rb_case *c, struct sbo_cl_train *t, int which, cl_event ev);
/* After every launch (kernel or CLBlast call) of kernel kind `which`: count
 * it; ev, asked for when profiling or while the run has no first command
 * (NULL otherwise), becomes the run's first and/or joins the profile.  0 or
 * RB_ENOMEM. */
int sbo_cl_launched(struct rb_case *c, struct sbo_cl_train *t, int which, cl_event ev);
/* The case's metrics of the last run: ms_<kernel> (device time per kernel
 * that ran), launches, host_syncs, ms_gaps (the device span from the first
 * command to the last less the union of kernel intervals).  0 or RB_E*. */
int sbo_cl_prof_metrics(struct rb_case *c, struct sbo_cl_train *t);

/* sbo_opencl_train_clblast.c (or its stand-in without CLBlast): the same
 * batched GEMM through CLBlastSgemmBatched / CLBlastDgemmBatched.  0,
 * RB_EDEVICE with CLBlast's status, or RB_ESKIP when not built with it. */
int sbo_cl_gemm_clblast(struct rb_case *c, struct sbo_cl_train *t, int ta, int tb, int M,
                        int N, int K, cl_mem A, const size_t *aoff, cl_mem B,
                        const size_t *boff, cl_mem Cm, const size_t *coff, int nbatch);
/* 1 when built with CLBlast. */
int sbo_cl_have_clblast(void);

/* The variant entry points (sbo_opencl_train_case.c). */
int sbo_opencl_train_admit(struct rb_case *c);
size_t sbo_opencl_train_footprint(const struct rb_case *c);
int sbo_opencl_train_setup(struct rb_case *c);
int sbo_opencl_train_run(struct rb_case *c);
int sbo_opencl_train_verify(struct rb_case *c, struct rb_check *out);
void sbo_opencl_train_teardown(struct rb_case *c);
void sbo_opencl_train_occupancy(struct rb_case *c, struct rb_occ *occ);

#endif
