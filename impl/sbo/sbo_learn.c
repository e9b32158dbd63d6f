/* SPDX-License-Identifier: MIT */
/* reprobench learn (and its alias sbo-learn): SBO dictionary learning on
 * 8 x 8 patches of grey images (the shipped ones by default), with the RMSE
 * by block count, the learned atoms as an image and a summary written to a
 * folder. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "datasets/image_patches.h"
#include "harness/backend/backend.h"
#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/error.h"
#include "harness/cli/prog.h"
#include "harness/run/timer.h"
#include "impl/sbo/sbo_learn.h"

#define MAX_IMAGES 64

struct options {
    const char *images[MAX_IMAGES], *out;
    int nimg, distinct, blocks, s, rounds, iters, worst, threads;
    int jacobi, cl_clblast, cublas, profile;
    struct rb_device_pick device[RB_BACKEND_COUNT];
    /* The first option given that only the device trainers, opencl or cuda
     * read; checked against --backend once every option is parsed. */
    const char *gpu_opt, *cl_opt, *cuda_opt, *device_opt;
    long patches;
    unsigned long long seed;
    const struct sbo_learner *learner;
};

const char *sbo_learn_prog = "sbo-learn";

#define complain(...) rb_prog_complain(sbo_learn_prog, __VA_ARGS__)

static int pick_learner(const char *val, const struct sbo_learner **out)
{
    static const char *const devices[][2] = {
        { "opencl", "OpenCL" }, { "cuda", "CUDA" }, { "hip", "HIP" },
    };
    for (const struct sbo_learner *const *l = sbo_learners; *l; l++)
        if (strcmp(val, (*l)->name) == 0) {
            *out = *l;
            return 0;
        }
    for (size_t k = 0; k < sizeof devices / sizeof devices[0]; k++)
        if (strcmp(val, devices[k][0]) == 0)
            return complain(2, "--backend %s: this %s was built without %s", val,
                            sbo_learn_prog, devices[k][1]);
    return complain(2, "--backend: '%s' is not one of the trainers (see --help)", val);
}

/* An option for some trainers only, given with another --backend. */
static int check_backend_options(const struct options *o)
{
    const char *b = o->learner->name;
    const int gpu = strcmp(b, "opencl") == 0 || strcmp(b, "cuda") == 0 || strcmp(b, "hip") == 0;
    if (o->gpu_opt && !gpu)
        return complain(2, "%s is for --backend opencl, cuda or hip", o->gpu_opt);
    enum rb_backend be;
    if (o->device_opt && (rb_backend_parse(b, &be) || (o->device[be].index < 0
                                                       && o->device[be].platform < 0)))
        return complain(2, "--device %s: not a device of --backend %s", o->device_opt, b);
    const struct { const char *opt, *backend; } only[] = {
        { o->cl_opt, "opencl" }, { o->cuda_opt, "cuda" },
    };
    for (size_t k = 0; k < sizeof only / sizeof only[0]; k++)
        if (only[k].opt && strcmp(b, only[k].backend) != 0)
            return complain(2, "%s is for --backend %s", only[k].opt, only[k].backend);
    return 0;
}

/* The options in groups by the trainers that read them: all, the device
 * ones, opencl, cuda (check_backend_options). */
enum learn_opt { LO_IMAGE, LO_PATCHES, LO_DISTINCT, LO_BLOCKS, LO_S, LO_ROUNDS, LO_ITERS,
                 LO_WORST, LO_BACKEND, LO_THREADS, LO_SEED, LO_OUT,
                 LO_SVD, LO_PROFILE, LO_DEVICE,
                 LO_CLBLAST,
                 LO_CUBLAS };

static const struct rb_opt learn_table[] = {
    { RB_OPT_STRING, "--image", "FILE", .id = LO_IMAGE, .repeat = 1,
      .help = "a PGM image (repeatable); default the shipped ascent, camera,\n"
              "astronaut, coffee and chelsea (RB_DATA_DIR overrides where)" },
    { RB_OPT_INT, "--patches", "N", 1, INT_MAX, .id = LO_PATCHES,
      .help = "a random subset of N patches (seeded); default all" },
    { RB_OPT_FLAG, "--distinct", NULL, .id = LO_DISTINCT,
      .help = "non-overlapping patches instead of every position" },
    { RB_OPT_INT, "--blocks", "L", 1, 1024, .id = LO_BLOCKS,
      .help = "learn up to L blocks (default 16)" },
    { RB_OPT_INT, "--s", "S", 1, SBO_LEARN_P, .id = LO_S,
      .help = "coefficients per patch, 1..64 (default 8)" },
    { RB_OPT_INT, "--rounds", "R", 0, 100000, .id = LO_ROUNDS,
      .help = "refinement rounds after each new block (default 5)" },
    { RB_OPT_INT, "--iters", "K", 0, 100000, .id = LO_ITERS,
      .help = "1ONB iterations of a new block (default 10)" },
    { RB_OPT_INT, "--worst", "W", 1, INT_MAX, .id = LO_WORST,
      .help = "worst-coded patches that train a new block (default N / 4)" },
    { RB_OPT_STRING, "--backend", "B", .id = LO_BACKEND,
      .help = "serial (fp64 reference), omp (float, OpenMP; default), or\n"
              "float on a device where built with its backend: opencl,\n"
              "cuda or hip" },
    { RB_OPT_INT, "--threads", "T", 1, 4096, .id = LO_THREADS,
      .help = "OpenMP threads of omp (default OMP_NUM_THREADS or all)" },
    { RB_OPT_CHOICE, "--svd", "M", .choices = "polar,jacobi", .id = LO_SVD,
      .help = "the device's block update: polar (Newton-Schulz; default)\n"
              "or jacobi (the paper's Jacobi SVD)" },
    { RB_OPT_FLAG, "--clblast", NULL, .id = LO_CLBLAST,
      .help = "opencl's GEMMs through CLBlast (where built with it)" },
    { RB_OPT_FLAG, "--cublas", NULL, .id = LO_CUBLAS,
      .help = "cuda's GEMMs through cuBLAS (where built with it)" },
    { RB_OPT_STRING, "--device", "B:N", .id = LO_DEVICE,
      .help = "the device of --backend, as 'reprobench info' names it:\n"
              "cuda:N, hip:N, opencl:P:D or opencl:D (default: OpenCL's first\n"
              "GPU, else its first device; device 0 of CUDA and HIP)" },
    { RB_OPT_FLAG, "--profile", NULL, .id = LO_PROFILE,
      .help = "the device's time of each kernel in summary.txt (the events\n"
              "around each launch add to train_seconds)" },
    { RB_OPT_INT, "--seed", "S", 0, LLONG_MAX, .id = LO_SEED,
      .help = "seed of the patch subset (default 1)" },
    { RB_OPT_STRING, "--out", "DIR", .id = LO_OUT,
      .help = "where the files go, created if missing and checked before\n"
              "the training (default .)" },
    { RB_OPT_TEXT, .help = "  --help             this text\n"
      "Progress (blocks, RMSE, elapsed seconds) goes to stderr.\n"
      "Exit status: 0 done, 1 failure, 2 bad input." },
    { RB_OPT_END }
};

/* Where the option names its group's first, for check_backend_options. */
static void note_group(struct options *o, const struct rb_opt *r)
{
    const char **first = r->id >= LO_CUBLAS ? &o->cuda_opt
                         : r->id >= LO_CLBLAST  ? &o->cl_opt
                         : r->id >= LO_SVD      ? &o->gpu_opt
                                                : NULL;
    if (first && !*first)
        *first = r->name;
}

static int learn_set(void *self, const struct rb_opt *r, const struct rb_opt_value *v)
{
    struct options *o = self;
    int *ints[] = { [LO_BLOCKS] = &o->blocks, [LO_S] = &o->s, [LO_ROUNDS] = &o->rounds,
                    [LO_ITERS] = &o->iters, [LO_WORST] = &o->worst,
                    [LO_THREADS] = &o->threads, [LO_DISTINCT] = &o->distinct,
                    [LO_CLBLAST] = &o->cl_clblast, [LO_CUBLAS] = &o->cublas,
                    [LO_PROFILE] = &o->profile, [LO_SVD] = &o->jacobi };
    note_group(o, r);
    switch ((enum learn_opt)r->id) {
    case LO_IMAGE:
        if (o->nimg == MAX_IMAGES)
            return complain(2, "--image: at most %d images", MAX_IMAGES);
        o->images[o->nimg++] = v->str;
        return 0;
    case LO_OUT: o->out = v->str; return 0;
    case LO_BACKEND: return pick_learner(v->str, &o->learner);
    case LO_PATCHES: o->patches = (long)v->i; return 0;
    case LO_SEED: o->seed = (unsigned long long)v->i; return 0;
    case LO_DEVICE: {
        char err[256];
        rb_device_picks_default(o->device);     /* given again: the last counts */
        o->device_opt = v->str;
        return rb_device_parse(v->str, o->device, err, sizeof err) ? complain(2, "%s", err) : 0;
    }
    default:
        /* a flag sets 1; an int or --svd's choice (jacobi = 1) its value */
        *ints[r->id] = r->type == RB_OPT_FLAG ? 1 : (int)v->i;
        return 0;
    }
}

static int parse_options(int argc, char **argv, struct options *o)
{
    char synopsis[400];
    snprintf(synopsis, sizeof synopsis,
             "usage: %s [options]\n"
             "Learn an SBO dictionary (a union of orthonormal 64 x 64 blocks, each patch coded\n"
             "in its best block with s coefficients) on mean-removed 8 x 8 patches of grey PGM\n"
             "images, pixel scale 0..255, and write DIR/rmse.tsv, DIR/atoms.pgm, "
             "DIR/summary.txt.\n", sbo_learn_prog);
    const struct rb_cli cli = { .command = "learn", .synopsis = synopsis, .opts = learn_table,
                                .set = learn_set, .last_wins = 1 };
    *o = (struct options){ .out = ".", .blocks = 16, .s = 8, .rounds = 5, .iters = 10,
                           .seed = 1, .learner = NULL };
    rb_device_picks_default(o->device);
    int rc = pick_learner("omp", &o->learner);
    if (rc == 0)
        rc = rb_cli_parse(&cli, argc, argv, o, NULL);
    return rc ? rc : check_backend_options(o);
}

/* The shipped images, by their paths. */
static int default_images(struct options *o, char paths[][4096])
{
    char err[512];
    if (rb_shipped_images(paths, err, sizeof err) != 0)
        return complain(2, "%s", err);
    for (int k = 0; k < RB_SHIPPED_IMAGES; k++)
        o->images[o->nimg++] = paths[k];
    return 0;
}

static void print_row(const struct sbo_learn_row *w)
{
    fprintf(stderr, "blocks %3d  rmse %9.4f  %8.2f s\n", w->blocks, w->rmse, w->seconds);
}

/* Keep every pass; print the last pass of each block count once the next
 * count starts (main prints the final one). */
static void trace(int blocks, int round, double rmse, void *arg)
{
    struct sbo_learn_run *r = arg;
    if (r->nrows == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        struct sbo_learn_row *rows = realloc(r->rows, (size_t)cap * sizeof *rows);
        if (!rows)
            return;                     /* the trace is thinned, training goes on */
        r->rows = rows;
        r->cap = cap;
    }
    if (r->nrows > 0 && r->rows[r->nrows - 1].blocks != blocks)
        print_row(&r->rows[r->nrows - 1]);
    r->rows[r->nrows++] = (struct sbo_learn_row){ blocks, round, rmse,
                                                  rb_ms_since(r->t0) / 1e3 };
}

static int summary_head(const struct options *o, const struct sbo_learn_run *r, long total,
                        char *buf, size_t len)
{
    size_t n = 0;
    char threads[16] = "default";
    if (o->threads > 0)
        snprintf(threads, sizeof threads, "%d", o->threads);
    for (int k = 0; k < o->nimg && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, "image\t%s\n", o->images[k]);
    if (n < len)
        n += (size_t)snprintf(buf + n, len - n,
                              "patch_mode\t%s\npatches_available\t%ld\npatches\t%d\n"
                              "backend\t%s\nthreads\t%s\nblocks\t%d\ns\t%d\nrounds\t%d\n"
                              "iters\t%d\nworst\t%d\nseed\t%llu\n",
                              o->distinct ? "distinct" : "sliding", total, r->m,
                              o->learner->name, threads, o->blocks, o->s, o->rounds,
                              o->iters, sbo_worst_count(&r->opts, r->m), o->seed);
    return n < len ? 0 : complain(2, "too many or too long --image paths");
}

static int learn(const struct options *o, struct sbo_learn_run *r, long total)
{
    const struct sbo_learner *l = o->learner;
    /* The options' lines, then room for the trainer's whole note. */
    char head[16384 + sizeof r->note], err[4400];
    int rc = summary_head(o, r, total, head, sizeof head - sizeof r->note);
    if (rc)
        return rc;
    r->D = malloc((size_t)o->blocks * SBO_LEARN_P * SBO_LEARN_P * sizeof *r->D);
    r->assign = malloc((size_t)r->m * sizeof *r->assign);
    if (!r->D || !r->assign)
        return complain(1, "out of memory for %d blocks and %d patches", o->blocks, r->m);
    if ((rc = l->prepare(r)) != 0)
        goto out_release;
    /* After prepare, so that a bad device is the only line printed. */
    fprintf(stderr, "%d patches of %d image%s, %s, up to %d blocks, s %d\n", r->m, o->nimg,
            o->nimg > 1 ? "s" : "", l->name, o->blocks, o->s);
    r->t0 = rb_now_ns();
    rc = l->train(r);
    r->train_s = rb_ms_since(r->t0) / 1e3;
    if (rc)
        goto out_release;
    if (r->nrows > 0)
        print_row(&r->rows[r->nrows - 1]);
    if ((rc = l->code(r)) != 0)
        goto out_release;
    fprintf(stderr, "final rmse %.4f with %d blocks; training %.2f s, coding %.3f s\n",
            r->rmse, r->nb, r->train_s, r->code_s);
    strcat(head, r->note);              /* prepare's and train's lines: room is kept */
    if (sbo_learn_write(o->out, r, head, err, sizeof err) != 0)
        rc = complain(1, "%s", err);
out_release:
    l->release(r);
    if (rc == RB_EINVAL && r->msg[0])
        rc = complain(2, "%s", r->msg);
    else if (rc < 0)
        rc = complain(1, "%s training failed: %s", l->name, r->msg[0] ? r->msg
                                                                      : rb_strerror(rc));
    return rc;
}

/* --out made if missing and shown writable by a file created and removed in
 * it, before any work: a file of that name, a read-only or full file
 * system are bad input found at once, not after the training.  *made: 1
 * when the folder was created here. */
static int out_ready(const char *dir, int *made)
{
    char probe[4200];
    struct stat st;
    *made = mkdir(dir, 0777) == 0;
    if (!*made && errno != EEXIST)
        return complain(2, "--out %s: %s", dir, strerror(errno));
    if (stat(dir, &st) != 0)
        return complain(2, "--out %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return complain(2, "--out %s: %s", dir, strerror(ENOTDIR));
    if (snprintf(probe, sizeof probe, "%s/.sbo-learn-XXXXXX", dir) >= (int)sizeof probe)
        return complain(2, "--out %s: path too long", dir);
    int fd = mkstemp(probe);
    if (fd < 0) {
        int e = errno;
        if (*made)
            rmdir(dir);
        return complain(2, "--out %s: %s", dir, strerror(e));
    }
    close(fd);
    remove(probe);
    return 0;
}

/* The run's options from the command line's. */
static void run_options(const struct options *o, struct sbo_learn_run *r)
{
    sbo_opts_default(&r->opts);
    r->opts.s = o->s;
    r->opts.L = o->blocks;
    r->opts.R = o->rounds;
    r->opts.K = o->iters;
    r->opts.W = o->worst;
    r->opts.seed = o->seed;
    r->opts.trace = trace;
    r->opts.trace_arg = r;
    r->threads = o->threads;
    memcpy(r->device, o->device, sizeof r->device);
    r->jacobi = o->jacobi;
    r->cl_clblast = o->cl_clblast;
    r->cublas = o->cublas;
    r->profile = o->profile;
}

int sbo_learn_main(const char *prog, int argc, char **argv)
{
    static char paths[8][4096];
    struct options o;
    struct sbo_learn_run r = { 0 };
    char err[4400];
    long total = 0;
    sbo_learn_prog = prog;
    int made = 0, rc = parse_options(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (o.nimg == 0 && (rc = default_images(&o, paths)) != 0)
        return rc;
    if ((rc = out_ready(o.out, &made)) != 0)
        return rc;
    rc = rb_image_patches(o.images, o.nimg, SBO_LEARN_SIDE, o.distinct, o.patches, o.seed,
                          "sbo-learn/patches", &r.Y, &r.m, &total, err, sizeof err);
    if (rc) {
        rc = complain(rc == RB_ENOMEM ? 1 : 2, "%s", err);
    } else {
        run_options(&o, &r);
        rc = learn(&o, &r, total);
    }
    /* A folder made for a run that failed goes again (rmdir leaves it if a
     * file was written). */
    if (rc && made)
        rmdir(o.out);
    free(r.rows);
    free(r.assign);
    free(r.D);
    free(r.Y);
    return rc;
}
