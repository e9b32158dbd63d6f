/* SPDX-License-Identifier: MIT */
/* sbo-learn: SBO dictionary learning on 8 x 8 patches of grey images (the
 * shipped ones by default), with the RMSE by block count, the learned atoms
 * as an image and a summary written to a folder. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "datasets/image_patches.h"
#include "harness/error.h"
#include "harness/prog.h"
#include "harness/timer.h"
#include "impl/sbo/sbo_learn.h"

#define MAX_IMAGES 64

static const char usage[] =
    "usage: sbo-learn [options]\n"
    "Learn an SBO dictionary (a union of orthonormal 64 x 64 blocks, each patch coded\n"
    "in its best block with s coefficients) on mean-removed 8 x 8 patches of grey PGM\n"
    "images, pixel scale 0..255, and write DIR/rmse.tsv, DIR/atoms.pgm, DIR/summary.txt.\n"
    "  --image FILE    a PGM image (repeatable); default the shipped ascent, camera,\n"
    "                  astronaut, coffee and chelsea (RB_DATA_DIR overrides where)\n"
    "  --patches N     a random subset of N patches (seeded); default all\n"
    "  --distinct      non-overlapping patches instead of every position\n"
    "  --blocks L      learn up to L blocks (default 16)\n"
    "  --s S           coefficients per patch, 1..64 (default 8)\n"
    "  --rounds R      refinement rounds after each new block (default 5)\n"
    "  --iters K       1ONB iterations of a new block (default 10)\n"
    "  --worst W       worst-coded patches that train a new block (default N / 4)\n"
    "  --backend B     serial (fp64 reference), omp (float, OpenMP; default), or\n"
    "                  float on a device where built with its backend: opencl,\n"
    "                  cuda or hip\n"
    "  --threads T     OpenMP threads of omp (default OMP_NUM_THREADS or all)\n"
    "  --svd M         the device's block update: polar (Newton-Schulz; default)\n"
    "                  or jacobi (the paper's Jacobi SVD)\n"
    "  --clblast       opencl's GEMMs through CLBlast (where built with it)\n"
    "  --cl-platform N, --cl-device N  opencl's device by index (default the\n"
    "                  first GPU, else the first device; see reprobench info)\n"
    "  --cublas        cuda's GEMMs through cuBLAS (where built with it)\n"
    "  --cuda-device N, --hip-device N  cuda's or hip's device by index\n"
    "                  (default 0; see reprobench info)\n"
    "  --profile       the device's time of each kernel in summary.txt (the events\n"
    "                  around each launch add to train_seconds)\n"
    "  --seed S        seed of the patch subset (default 1)\n"
    "  --out DIR       where the files go, created if missing and checked before\n"
    "                  the training (default .)\n"
    "  --help          this text\n"
    "Progress (blocks, RMSE, elapsed seconds) goes to stderr.\n"
    "Exit status: 0 done, 1 failure, 2 bad input.\n";

struct options {
    const char *images[MAX_IMAGES], *out;
    int nimg, distinct, blocks, s, rounds, iters, worst, threads;
    int cl_platform, cl_device, cuda_device, hip_device, jacobi, cl_clblast, cublas, profile;
    /* The first option given that only the device trainers, opencl, cuda or
     * hip read; checked against --backend once every option is parsed. */
    const char *gpu_opt, *cl_opt, *cuda_opt, *hip_opt;
    long patches;
    unsigned long long seed;
    const struct sbo_learner *learner;
};

#define complain(...) rb_prog_complain("sbo-learn", __VA_ARGS__)

#define parse_int(...) rb_prog_parse_int("sbo-learn", __VA_ARGS__)

static int pick_learner(const char *val, const struct sbo_learner **out)
{
    static const char *const devices[][2] = {
        { "opencl", "OpenCL" }, { "cuda", "CUDA" }, { "hip", "HIP" },
    };
    for (const struct sbo_learner *l = sbo_learners; l->name; l++)
        if (strcmp(val, l->name) == 0) {
            *out = l;
            return 0;
        }
    for (size_t k = 0; k < sizeof devices / sizeof devices[0]; k++)
        if (strcmp(val, devices[k][0]) == 0)
            return complain(2, "--backend %s: this sbo-learn was built without %s", val,
                            devices[k][1]);
    return complain(2, "--backend: '%s' is not one of the trainers (see --help)", val);
}

/* An option for some trainers only, given with another --backend. */
static int check_backend_options(const struct options *o)
{
    const char *b = o->learner->name;
    const int gpu = strcmp(b, "opencl") == 0 || strcmp(b, "cuda") == 0 || strcmp(b, "hip") == 0;
    if (o->gpu_opt && !gpu)
        return complain(2, "%s is for --backend opencl, cuda or hip", o->gpu_opt);
    const struct { const char *opt, *backend; } only[] = {
        { o->cl_opt, "opencl" }, { o->cuda_opt, "cuda" }, { o->hip_opt, "hip" },
    };
    for (size_t k = 0; k < sizeof only / sizeof only[0]; k++)
        if (only[k].opt && strcmp(b, only[k].backend) != 0)
            return complain(2, "%s is for --backend %s", only[k].opt, only[k].backend);
    return 0;
}

/* One valued option; 0 or the exit status. */
static int set_option(struct options *o, const char *opt, const char *val)
{
    long long v = 0;
    int rc = 0;
    if (strcmp(opt, "--image") == 0) {
        if (o->nimg == MAX_IMAGES)
            return complain(2, "--image: at most %d images", MAX_IMAGES);
        o->images[o->nimg++] = val;
    } else if (strcmp(opt, "--out") == 0) {
        o->out = val;
    } else if (strcmp(opt, "--backend") == 0) {
        rc = pick_learner(val, &o->learner);
    } else if (strcmp(opt, "--svd") == 0) {
        o->gpu_opt = o->gpu_opt ? o->gpu_opt : opt;
        if (strcmp(val, "polar") == 0 || strcmp(val, "jacobi") == 0)
            o->jacobi = strcmp(val, "jacobi") == 0;
        else
            rc = complain(2, "--svd: '%s' is not polar or jacobi", val);
    } else if (strcmp(opt, "--patches") == 0) {
        if (!(rc = parse_int(opt, val, 1, INT_MAX, &v)))
            o->patches = (long)v;
    } else if (strcmp(opt, "--seed") == 0) {
        if (!(rc = parse_int(opt, val, 0, LLONG_MAX, &v)))
            o->seed = (unsigned long long)v;
    } else {
        static const struct { const char *name; long long lo, hi; } ints[] = {
            { "--blocks", 1, 1024 }, { "--s", 1, SBO_LEARN_P }, { "--rounds", 0, 100000 },
            { "--iters", 0, 100000 }, { "--worst", 1, INT_MAX }, { "--threads", 1, 4096 },
            { "--cl-platform", 0, 63 }, { "--cl-device", 0, 63 }, { "--cuda-device", 0, 63 },
            { "--hip-device", 0, 63 },
        };
        int *dst[] = { &o->blocks, &o->s, &o->rounds, &o->iters, &o->worst, &o->threads,
                       &o->cl_platform, &o->cl_device, &o->cuda_device, &o->hip_device };
        const char **only = strncmp(opt, "--cl-", 5) == 0     ? &o->cl_opt
                            : strncmp(opt, "--cuda-", 7) == 0 ? &o->cuda_opt
                            : strncmp(opt, "--hip-", 6) == 0  ? &o->hip_opt
                                                              : NULL;
        if (only && !*only)
            *only = opt;
        for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++)
            if (strcmp(opt, ints[k].name) == 0) {
                if (!(rc = parse_int(opt, val, ints[k].lo, ints[k].hi, &v)))
                    *dst[k] = (int)v;
                return rc;
            }
        return complain(2, "unknown option '%s' (see --help)", opt);
    }
    return rc;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    *o = (struct options){ .out = ".", .blocks = 16, .s = 8, .rounds = 5, .iters = 10,
                           .seed = 1, .learner = NULL, .cl_platform = -1, .cl_device = -1,
                           .cuda_device = -1, .hip_device = -1 };
    int rc = pick_learner("omp", &o->learner);
    for (int a = 1; rc == 0 && a < argc; a++) {
        const char *opt = argv[a];
        if (strcmp(opt, "--help") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        static const char *const valued[] = { "--image", "--patches", "--blocks", "--s",
                                              "--rounds", "--iters", "--worst", "--backend",
                                              "--threads", "--seed", "--out", "--svd",
                                              "--cl-platform", "--cl-device",
                                              "--cuda-device", "--hip-device", NULL };
        int known = 0;
        for (int k = 0; valued[k]; k++)
            known |= strcmp(opt, valued[k]) == 0;
        if (strcmp(opt, "--distinct") == 0) {
            o->distinct = 1;
        } else if (strcmp(opt, "--clblast") == 0) {
            o->cl_clblast = 1;
            o->cl_opt = o->cl_opt ? o->cl_opt : opt;
        } else if (strcmp(opt, "--cublas") == 0) {
            o->cublas = 1;
            o->cuda_opt = o->cuda_opt ? o->cuda_opt : opt;
        } else if (strcmp(opt, "--profile") == 0) {
            o->profile = 1;
            o->gpu_opt = o->gpu_opt ? o->gpu_opt : opt;
        } else if (!known) {
            rc = complain(2, "unknown option '%s' (see --help)", opt);
        } else if (a + 1 >= argc) {
            rc = complain(2, "%s needs a value", opt);
        } else {
            rc = set_option(o, opt, argv[++a]);
        }
    }
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
    r->cl_platform = o->cl_platform;
    r->cl_device = o->cl_device;
    r->cuda_device = o->cuda_device;
    r->hip_device = o->hip_device;
    r->jacobi = o->jacobi;
    r->cl_clblast = o->cl_clblast;
    r->cublas = o->cublas;
    r->profile = o->profile;
}

int main(int argc, char **argv)
{
    static char paths[8][4096];
    struct options o;
    struct sbo_learn_run r = { 0 };
    char err[4400];
    long total = 0;
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
