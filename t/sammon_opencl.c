/* SPDX-License-Identifier: MIT */
/* Every OpenCL Sammon variant on whatever device is there (PoCL in CI): for
 * each precision, work-group size and size (odd N, N below a work-group and
 * not a multiple of the tile, 1 and 3 iterations), a poisoned output fails
 * verify, runs from NaN-poisoned device buffers verify against the fp64
 * reference, the deterministic kinds repeat bit for bit, the occupancy is
 * known and teardown is safe twice.  And the OpenCL pair inversion equals
 * sammon_pair_of and inverts k = i (i - 1) / 2 + j near every row start
 * T(r) for r up to 2e6. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/opencl.h"
#include "harness/ctx.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "impl/common/rng.h"
#include "impl/sammon/sammon_case.h"
#include "impl/sammon/sammon_opencl.h"
#include "impl/sammon/sammon_pair.h"
#include "t/tap.h"
#include "t/opencl_test.h"

#define MAX_CASES 256
#define CHECKS_PER_CASE 4

/* points and iters: N below every group size but 16, odd, and no multiple
 * of any tile.  Each kind meets every size and group size at each
 * precision. */
static const int sizes[][2] = { { 33, 3 }, { 100, 1 }, { 257, 3 } };
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
static const long long wgs[] = { 16, 64, 256 };
#define NWGS ((int)(sizeof wgs / sizeof wgs[0]))
/* dim and outdim by precision, one program per variant and precision (PoCL
 * compiles each program and group size anew): with f32 n = 4, m = 2 the
 * tiled kernel takes 4 points per work-item and vector loads of x, with f64
 * n = 5, m = 3 one point and scalar loads. */
static const int dims[2][2] = { { 4, 2 }, { 5, 3 } };

static void make_case(struct rb_case *c, const struct cl_tcase *t, struct rb_ctx *ctx,
                      uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->v = t->v;
    c->ctx = ctx;
    c->prec = t->prec;
    c->seed = seed;
    c->device_ms = c->transfer_ms = c->build_ms = -1;
    const int *d = dims[t->prec == RB_PREC_F64];
    c->params[c->nparams++] = (struct rb_param){ "points", sizes[t->size][0] };
    c->params[c->nparams++] = (struct rb_param){ "dim", d[0] };
    c->params[c->nparams++] = (struct rb_param){ "outdim", d[1] };
    c->params[c->nparams++] = (struct rb_param){ "iters", sizes[t->size][1] };
    c->params[c->nparams++] = (struct rb_param){ "wg", t->wg };
}

static void label(const struct cl_tcase *t, char *buf, size_t len)
{
    const int *s = sizes[t->size], *d = dims[t->prec == RB_PREC_F64];
    snprintf(buf, len, "%s %s N=%d n=%d m=%d iters=%d wg=%lld", t->v->name,
             rb_prec_name(t->prec), s[0], d[0], d[1], s[1], t->wg);
}

/* Poison the device buffers and the host copy, run, read back and verify. */
static int poisoned_run(struct rb_case *c, struct rb_check *chk)
{
    struct sammon_state *st = c->state;
    size_t ny = (size_t)st->N * st->m;
    for (size_t k = 0; k < ny; k++) {
        if (c->prec == RB_PREC_F64)
            ((double *)st->y)[k] = NAN;
        else
            ((float *)st->y)[k] = NAN;
    }
    int rc = sammon_opencl_poison(c);
    if (rc == 0)
        rc = c->v->run(c);
    memset(chk, 0, sizeof *chk);
    return rc ? rc : c->v->verify(c, chk);
}

static void life_cycle(const struct cl_tcase *t, struct rb_ctx *ctx, uint64_t seed)
{
    struct rb_case c;
    struct rb_check chk;
    char name[160];
    label(t, name, sizeof name);
    make_case(&c, t, ctx, seed);
    memset(&chk, 0, sizeof chk);
    int rc = t->v->setup(&c);
    if (rc == 0)
        rc = t->v->verify(&c, &chk);
    if (!tap_ok(rc == 0 && !chk.pass && c.build_ms >= 0 && c.transfer_ms >= 0,
                "%s: poisoned output fails verify", name))
        tap_diag("rc %d msg '%s'", rc, c.msg);
    struct sammon_state *st = c.state;
    const struct sammon_opencl *b = st ? st->backend : NULL;
    if (rc == 0 && b->kind == SAMMON_CL_TILED)
        tap_diag("%s: %d points per work-item, tiles of %d, %d slices", name, b->ppi, b->tj,
                 b->slices);
    if (rc == 0)
        rc = poisoned_run(&c, &chk);
    if (!tap_ok(rc == 0 && chk.pass && c.device_ms >= 0,
                "%s: run verifies (%.3g <= %.3g), %.3f ms", name, chk.error, chk.tolerance,
                c.device_ms))
        tap_diag("rc %d msg '%s' method '%s'", rc, c.msg, chk.method);
    /* A second run starts over from y0: the same iterate, bit for bit unless
     * atomics order the sums (modified). */
    size_t bytes = st ? (size_t)st->N * st->m * rb_prec_size(t->prec) : 0;
    void *first = rc == 0 ? malloc(bytes) : NULL;
    if (first)
        memcpy(first, st->y, bytes);
    if (rc == 0)
        rc = poisoned_run(&c, &chk);
    int same = first && memcmp(first, st->y, bytes) == 0;
    int exact = strncmp(t->v->name, "modified", 8) != 0;
    if (!tap_ok(rc == 0 && chk.pass && (same || !exact), "%s: second run verifies%s", name,
                exact ? ", same bits" : ""))
        tap_diag("rc %d msg '%s' error %.3g same %d", rc, c.msg, chk.error, same);
    free(first);
    struct rb_occ occ;
    memset(&occ, 0, sizeof occ);
    if (rc == 0)
        t->v->occupancy(&c, &occ);
    t->v->teardown(&c);
    t->v->teardown(&c);
    tap_ok(c.state == NULL && (rc || (occ.available && occ.count >= 1)),
           "%s: occupancy of %d kernels, teardown twice", name, occ.count);
}

/* The OpenCL inversion on a list of k, writing i and j. */
static const char pair_test_src[] =
    "__kernel void sammon_pair_test(__global const long *k, __global long *ij)\n"
    "{\n"
    "    const size_t e = get_global_id(0);\n"
    "    long i, j;\n"
    "    sammon_pair_of(k[e], &i, &j);\n"
    "    ij[2 * e] = i;\n"
    "    ij[2 * e + 1] = j;\n"
    "}\n";
extern const char rb_cl_sammon_common[];

/* The rows r whose first pair T(r) = r (r - 1) / 2 the test visits: 2 ..
 * 5000 all (N around 5000, past float32's 4609), the float-sensitive and
 * 32-bit boundaries, every 997th from 65537 to 2e6, and random rows. */
static size_t pair_rows(int64_t *rows, size_t room, struct rb_rng *rng)
{
    static const int64_t edges[] = { 4608, 4609, 5793, 5794, 23170, 23171, 46340, 46341,
                                     65535, 65536, 65537, 92682, 92683, 2000000 };
    size_t n = 0;
    for (int64_t r = 2; r <= 5000 && n < room; r++)
        rows[n++] = r;
    for (size_t e = 0; e < sizeof edges / sizeof edges[0] && n < room; e++)
        rows[n++] = edges[e];
    for (int64_t r = 65537; r <= 2000000 && n < room; r += 997)
        rows[n++] = r;
    while (n < room)
        rows[n++] = 2 + (int64_t)(rb_rng_uniform(rng) * 1999998.0);
    return n;
}

/* k = T(r) - 2 .. T(r) + 1 for each row: the last pairs of row r - 1 and the
 * first of row r. */
static size_t pair_ks(int64_t *ks, size_t room, struct rb_rng *rng)
{
    static int64_t rows[8000];
    size_t nrows = pair_rows(rows, sizeof rows / sizeof rows[0], rng), n = 0;
    for (size_t e = 0; e < nrows; e++)
        for (int64_t d = -2; d <= 1 && n < room; d++) {
            int64_t k = sammon_pair_index(rows[e], 0) + d;
            if (k >= 0)
                ks[n++] = k;
        }
    return n;
}

static void pair_inversion(struct rb_ctx *ctx, uint64_t seed)
{
    static int64_t ks[32768], ij[2 * 32768];
    struct rb_rng rng;
    rb_rng_seed(&rng, seed);
    size_t n = pair_ks(ks, sizeof ks / sizeof ks[0], &rng);
    struct rb_case c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    c.build_ms = -1;
    struct rb_opencl *cl;
    const char *names[2] = { "sammon_common", "sammon_pair_test" };
    const char *texts[2] = { rb_cl_sammon_common, pair_test_src };
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem kb = NULL, ijb = NULL;
    cl_int err = CL_SUCCESS;
    int rc = rb_opencl_get(ctx, &cl, c.msg, sizeof c.msg);
    if (rc == 0)
        rc = rb_opencl_program_parts(&c, 2, names, texts, "", &prog);
    if (rc == 0)
        k = clCreateKernel(prog, "sammon_pair_test", &err);
    if (k)
        kb = clCreateBuffer(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            n * sizeof *ks, ks, &err);
    if (kb)
        ijb = clCreateBuffer(cl->context, CL_MEM_WRITE_ONLY, 2 * n * sizeof *ij, NULL, &err);
    if (ijb && (err = clSetKernelArg(k, 0, sizeof kb, &kb)) == CL_SUCCESS
        && (err = clSetKernelArg(k, 1, sizeof ijb, &ijb)) == CL_SUCCESS
        && (err = clEnqueueNDRangeKernel(cl->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL))
           == CL_SUCCESS)
        err = clEnqueueReadBuffer(cl->queue, ijb, CL_TRUE, 0, 2 * n * sizeof *ij, ij, 0, NULL,
                                  NULL);
    if (!tap_ok(rc == 0 && err == CL_SUCCESS, "pair test kernel ran on %zu k", n))
        tap_diag("rc %d msg '%s' %s", rc, c.msg, rb_cl_strerror(err));
    size_t host_bad = 0, def_bad = 0, first = n;
    int64_t top = 0;
    for (size_t e = 0; rc == 0 && err == CL_SUCCESS && e < n; e++) {
        int64_t i, j, di = ij[2 * e], dj = ij[2 * e + 1];
        sammon_pair_of(ks[e], &i, &j);
        host_bad += di != i || dj != j;
        int ok = dj >= 0 && dj < di && sammon_pair_index(di, dj) == ks[e];
        def_bad += !ok;
        top = di > top ? di : top;
        if ((!ok || di != i || dj != j) && first == n)
            first = e;
    }
    tap_ok(rc == 0 && err == CL_SUCCESS && host_bad == 0,
           "OpenCL sammon_pair_of equals the host's on every k (%zu differ)", host_bad);
    if (!tap_ok(rc == 0 && err == CL_SUCCESS && def_bad == 0,
                "OpenCL (i, j) has 0 <= j < i and i (i - 1) / 2 + j = k (%zu wrong), rows "
                "up to %lld", def_bad, (long long)top) && first < n)
        tap_diag("k %lld -> (%lld, %lld)", (long long)ks[first], (long long)ij[2 * first],
                 (long long)ij[2 * first + 1]);
    if (ijb)
        clReleaseMemObject(ijb);
    if (kb)
        clReleaseMemObject(kb);
    if (k)
        clReleaseKernel(k);
}

/* The variants swept over `wg` (the stored form's tiles have a test of
 * their own, t/sammon_opencl_stored.c): keep their cases; *nvariants gets
 * how many there are. */
static int keep_wg(struct cl_tcase *list, int count, int *nvariants)
{
    int kept = 0;
    const struct rb_variant *last = NULL;
    *nvariants = 0;
    for (int i = 0; i < count; i++) {
        const struct rb_axis *t = list[i].v->tunables;
        if (!t || !t->name || strcmp(t->name, "wg") != 0)
            continue;
        *nvariants += list[i].v != last;
        last = list[i].v;
        list[kept++] = list[i];
    }
    return kept;
}

int main(void)
{
    struct rb_ctx ctx;
    struct rb_opencl *cl = cl_test_open(&ctx);
    static struct cl_tcase list[MAX_CASES];
    int nvariants, fp64 = cl_test_fp64(cl);
    int count = cl_test_plan("sammon", list, MAX_CASES, wgs, NWGS, NSIZES, fp64, &nvariants);
    count = keep_wg(list, count, &nvariants);
    uint64_t seed = tap_seed();
    int admitted = 0;
    for (int i = 0; i < count; i++) {
        struct rb_case c;
        make_case(&c, &list[i], &ctx, seed);
        admitted += list[i].v->admit(&c) == 0;
    }
    tap_plan(1 + admitted * CHECKS_PER_CASE + (count - admitted) + 3);
    tap_diag("seed %llu (RB_TEST_SEED=%llu repeats it); device %s", (unsigned long long)seed,
             (unsigned long long)seed, cl->name);
    tap_ok(nvariants == 5 && count == nvariants * NWGS * (fp64 ? 2 : 1),
           "%d variants, %d cases (%d admitted)%s", nvariants, count, admitted,
           fp64 ? "" : "; no fp64 here, f32 only");
    for (int i = 0; i < count; i++) {
        struct rb_case c;
        char name[160];
        make_case(&c, &list[i], &ctx, seed + (uint64_t)i);
        if (list[i].v->admit(&c) != 0) {
            label(&list[i], name, sizeof name);
            tap_skip("%s: %s", name, c.msg);
            continue;
        }
        life_cycle(&list[i], &ctx, seed + (uint64_t)i);
    }
    pair_inversion(&ctx, seed);
    rb_ctx_release(&ctx);
    return tap_done();
}
