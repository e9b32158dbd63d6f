/* SPDX-License-Identifier: MIT */
/* sbo-learn's parts: the run it shares between loading, training and
 * writing, the trainers by backend (one table row each), the patch loader
 * and the output writers.  Not a library interface: only
 * reprobench learn (and sbo-learn) uses it. */
#ifndef SBO_LEARN_H
#define SBO_LEARN_H

#include <stddef.h>
#include <stdint.h>
#include "harness/ctx.h"
#include "harness/variant.h"
#include "impl/sbo/sbo.h"

/* Patches are SBO_LEARN_SIDE x SBO_LEARN_SIDE pixels, p = SIDE^2 = 64. */
#define SBO_LEARN_SIDE 8
#define SBO_LEARN_P (SBO_LEARN_SIDE * SBO_LEARN_SIDE)

/* One trace row: the RMSE after a representation pass. */
struct sbo_learn_row {
    int blocks, round;
    double rmse, seconds;       /* seconds since training started */
};

struct sbo_learn_run {
    /* input */
    int m;                      /* patches */
    double *Y;                  /* p x m, mean-removed, 0..255 scale; a trainer's
                                   prepare may free it (and set it NULL) */
    struct sbo_opts opts;
    int threads;                /* <= 0: the OpenMP default */
    struct rb_device_pick device[RB_BACKEND_COUNT];    /* --device; -1: the default */
    int jacobi;                 /* GPU backends: the paper's Jacobi SVD instead of polar */
    int cl_clblast;             /* opencl: the GEMMs through CLBlast */
    int cublas;                 /* cuda: the GEMMs through cuBLAS */
    int profile;                /* device backends: the time of each kernel */
    /* output */
    double *D;                  /* L p^2: the learned blocks, in double */
    int nb;                     /* blocks learned */
    int *assign;                /* m */
    double rmse, code_rmse;     /* after training; of the timed coding pass */
    double train_s, code_s;
    struct sbo_learn_row *rows;
    int nrows, cap;
    uint64_t t0;                /* rb_now_ns at the start of training */
    int printed;                /* rows already printed as progress */
    void *priv;                 /* the trainer's own state */
    char note[2048];            /* prepare and train: the trainer's summary.txt lines,
                                   "key\tvalue\n" */
    char msg[512];              /* a trainer's failure, one line; "" for rb_strerror's */
};

/* A trainer: prepare moves Y into the backend's form, train runs sbo_train's
 * loop filling D, nb, assign and rmse (opts.trace set by the caller), code
 * times one representation pass of all patches with the final D into
 * code_rmse.  Each returns 0 or a negative RB_E*; release is safe after a
 * partial prepare. */
struct sbo_learner {
    const char *name, *about;
    int (*prepare)(struct sbo_learn_run *r);
    int (*train)(struct sbo_learn_run *r);
    int (*code)(struct sbo_learn_run *r);
    void (*release)(struct sbo_learn_run *r);
};

/* The trainers, closed by NULL: the host ones below and each device one
 * this build has (harness/cli/learn_backends.c). */
extern const struct sbo_learner *const sbo_learners[];
extern const struct sbo_learner sbo_learner_serial, sbo_learner_omp;

/* The name errors begin with: "reprobench learn" or the old "sbo-learn". */
extern const char *sbo_learn_prog;
/* The whole program: options, patches, training, files; the exit status. */
int sbo_learn_main(const char *prog, int argc, char **argv);

/* The OpenCL trainer (sbo_learn_opencl.c, built with OpenCL only): float,
 * on the device device[RB_BACKEND_OPENCL] picks.  Its prepare returns
 * RB_EINVAL (msg set) for a device index or a switch this build or device
 * cannot honour. */
int sbo_learn_cl_prepare(struct sbo_learn_run *r);
int sbo_learn_cl_train(struct sbo_learn_run *r);
int sbo_learn_cl_code(struct sbo_learn_run *r);
void sbo_learn_cl_release(struct sbo_learn_run *r);

/* The CUDA and HIP trainers (sbo_learn_gpu.c; sbo_learn_cuda.c and
 * sbo_learn_hip.c, built with their backend): float, the training of the CUDA and HIP "train" variants on the
 * device device[] picks for their backend.  A backend as data: its name, its
 * engine (sbo_gpu.h) and the release of its context's state.  Prepare
 * returns RB_EINVAL (msg set) when there is no such device, or for a switch
 * this build cannot honour; train, code and release are the same for
 * both. */
struct rb_ctx;
struct sbo_gpu_engine;
struct sbo_learn_gpu {
    const char *name;                   /* "cuda", "hip": options and messages */
    enum rb_backend backend;
    const struct sbo_gpu_engine *(*engine)(void);
    void (*release)(struct rb_ctx *ctx);
};
int sbo_learn_gpu_prepare(const struct sbo_learn_gpu *g, struct sbo_learn_run *r);
int sbo_learn_gpu_train(struct sbo_learn_run *r);
int sbo_learn_gpu_code(struct sbo_learn_run *r);
void sbo_learn_gpu_release(struct sbo_learn_run *r);
int sbo_learn_cuda_prepare(struct sbo_learn_run *r);
int sbo_learn_hip_prepare(struct sbo_learn_run *r);

struct rb_case;
/* Append the metrics of c (a device trainer's case: ms_device, launches,
 * host_syncs, with a profile ms_<kernel>, ms_gaps, ms_wall) to r->note, one
 * line each; what does not fit is left out. */
void sbo_learn_note_metrics(struct sbo_learn_run *r, const struct rb_case *c);

/* The size of the atoms image of nb blocks. */
void sbo_learn_atoms_size(int nb, int *width, int *height);
/* dir/rmse.tsv, dir/atoms.pgm and dir/summary.txt (each through a .tmp
 * file).  0 or RB_EIO / RB_ENOMEM with one line in err. */
int sbo_learn_write(const char *dir, const struct sbo_learn_run *r, const char *summary,
                    char *err, size_t errlen);

#endif
