/* SPDX-License-Identifier: MIT */
/* A run directory: created under a fresh parent, records appended, closed,
 * resumed (also after an interrupted write); records.tsv with its header and
 * a speedup computed against the right baseline. */
#define _XOPEN_SOURCE 700     /* nftw */
#include <ftw.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/error.h"
#include "harness/records/record.h"
#include "harness/records/results.h"
#include "harness/run/sweep.h"
#include "t/tap.h"

static const long long vals[] = { 256, 0 };
static const struct rb_axis sizes[] = {
    { .name = "n", .min = 2, .max = 4096, .deflt = vals, .quick = vals, .paper = vals },
    { .name = "m", .min = -1, .max = 4096, .deflt = vals, .quick = vals, .paper = vals },
    { 0 }
};
static const struct rb_axis threads[] = {
    { .name = "threads", .min = 1, .max = 64, .deflt = vals, .quick = vals, .paper = vals },
    { 0 }
};
static const struct rb_variant base = {
    .paper = "givens", .algo = "forward", .name = "sequential", .backend = RB_BACKEND_SERIAL,
    .precs = RB_PREC_F32, .sizes = sizes, .baseline = 1,
};
static const struct rb_variant slow_base = {
    .paper = "givens", .algo = "forward", .name = "slow", .backend = RB_BACKEND_SERIAL,
    .precs = RB_PREC_F32, .sizes = sizes, .baseline = 1,
};
static const struct rb_variant fast = {
    .paper = "givens", .algo = "forward", .name = "roundrobin", .backend = RB_BACKEND_OMP,
    .precs = RB_PREC_F32, .sizes = sizes, .tunables = threads,
};

static const char header[] = "key\tpaper\talgo\tvariant\tbackend\tprec\tdevice\tbaseline\t"
    "status\tn\tm\tthreads\tmedian_ms\tmin_ms\tmean_ms\tstddev_ms\tp10_ms\tp90_ms\tsamples\t"
    "verify_pass\tverify_error\toccupancy\tspeedup\tgflops\tgbps\tintensity\t"
    "energy_j\tpower_w\tgflops_per_j\tthrottled\n";

/* Append one record of variant v at size n whose samples all equal ms
 * (ms < 0: a failed case, unmeasured). */
static int add(struct rb_run *r, const struct rb_variant *v, long long n, double ms,
               char *key, size_t keylen)
{
    double samples[3] = { ms, ms, ms };
    struct rb_measurement m = { .n = 3, .samples_ms = samples, .timer = "host-monotonic" };
    struct rb_check chk = { .pass = 1, .error = 1e-7, .tolerance = 1e-5 };
    struct rb_outcome o = { .status = "ok", .message = "", .m = &m, .check = &chk };
    struct rb_case c = { .v = v, .prec = RB_PREC_F32, .nparams = 2, .seed = 7,
                         .transfer_ms = -1, .build_ms = -1 };
    json_t *rec;
    int rc;

    c.params[0] = (struct rb_param){ "n", n };
    c.params[1] = (struct rb_param){ "m", 0 };
    if (v->tunables)
        c.params[c.nparams++] = (struct rb_param){ "threads", 4 };
    if (ms < 0) {
        o = (struct rb_outcome){ .status = "failed", .stage = "run", .message = "boom" };
    } else {
        rb_stats_compute(samples, 3, &m.stats);
    }
    if (!(rec = rb_record_json(&c, &o)))
        return RB_ENOMEM;
    rb_case_key(&c, key, keylen);
    rc = rb_run_append(r, rec);
    json_decref(rec);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf;
    long len;

    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    rewind(f);
    if ((buf = calloc(1, (size_t)len + 1)) && fread(buf, 1, (size_t)len, f) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* The speedup column (the eighth from the end, before the roofline's three
 * and the energy's four) of the row whose first column is key. */
static double speedup_of(const char *tsv, const char *key)
{
    size_t klen = strlen(key);

    for (const char *line = tsv; line && *line; line = strchr(line, '\n') + 1) {
        if (strncmp(line, key, klen) == 0 && line[klen] == '\t') {
            const char *end = strchr(line, '\n'), *tab = end;
            for (int k = 0; k < 8; k++) {
                if (k)
                    tab--;
                while (tab > line && tab[-1] != '\t')
                    tab--;
            }
            return strtod(tab, NULL);
        }
        if (!strchr(line, '\n'))
            break;
    }
    return -1;
}

int main(void)
{
    char parent[] = "/tmp/rb-results-XXXXXX", path[PATH_MAX + 32], err[512];
    char k_base[256], k_slow[256], k_fast[256], k_big[256], k_fail[256], k_new[256];
    struct rb_run r, r2;
    const char *name;
    char *tsv;
    FILE *f;

    tap_plan(25);
    if (!mkdtemp(parent))
        tap_skip_all("cannot create a temporary directory");
    snprintf(path, sizeof path, "%s/deep/results", parent);
    tap_is(rb_run_create(&r, path, err, sizeof err), 0, "run created under a missing parent");
    name = strrchr(r.dir, '/') + 1;
    tap_ok(strlen(name) > 16 && name[8] == '-' && name[15] == '-',
           "named <YYYYmmdd-HHMMSS>-<host> (%s)", name);
    tap_is(rb_run_create(&r2, path, err, sizeof err), 0, "a second run in the same parent");
    tap_ok(strcmp(r.dir, r2.dir) != 0, "gets its own directory (%s)", strrchr(r2.dir, '/') + 1);
    if (strncmp(name, strrchr(r2.dir, '/') + 1, 15) == 0)
        tap_ok(strcmp(r2.dir + strlen(r2.dir) - 2, "-2") == 0, "same second: suffix -2");
    else
        tap_skip("the second run started in another second");
    rb_run_close(&r2);

    tap_ok(add(&r, &base, 256, 8.0, k_base, sizeof k_base) == 0
           && add(&r, &slow_base, 256, 10.0, k_slow, sizeof k_slow) == 0
           && add(&r, &fast, 256, 2.0, k_fast, sizeof k_fast) == 0
           && add(&r, &fast, 512, 3.0, k_big, sizeof k_big) == 0
           && add(&r, &fast, 1024, -1, k_fail, sizeof k_fail) == 0, "five records appended");
    tap_ok(rb_run_has(&r, k_fast) && !rb_run_has(&r, "givens/forward/none/serial/f32"),
           "appended keys are done, others not");
    rb_run_close(&r);
    tap_ok(r.records == NULL && r.done == NULL, "close releases the run");

    /* An interrupted write: half a line at the end. */
    snprintf(path, sizeof path, "%s/records.jsonl", r.dir);
    f = fopen(path, "a");
    fputs("{\"schema\":1,\"key\":\"giv", f);
    fclose(f);
    tap_is(rb_run_resume(&r2, r.dir, err, sizeof err), 0, "resume after an interrupted write");
    tap_ok(rb_run_has(&r2, k_base) && rb_run_has(&r2, k_fail) && rb_run_has(&r2, k_big),
           "resumed run knows the recorded cases");
    tap_ok(!rb_run_has(&r2, "givens/forward/roundrobin/omp/f32/n=2048/m=0/threads=4"),
           "and not the others");
    tap_is(add(&r2, &base, 512, 6.0, k_new, sizeof k_new), 0, "append after resume");
    rb_run_close(&r2);
    {
        json_t *all = NULL;
        tap_ok(rb_records_load(path, &all, err, sizeof err) == 0 && json_array_size(all) == 6,
               "the partial line is gone and six whole records remain");
        json_decref(all);
    }

    tap_is(rb_run_write_tsv(r.dir, err, sizeof err), 0, "records.tsv written");
    snprintf(path, sizeof path, "%s/records.tsv", r.dir);
    tsv = read_all(path);
    tap_ok(tsv && strncmp(tsv, header, strlen(header)) == 0, "header: fixed columns, axes, stats");
    if (tsv && strncmp(tsv, header, strlen(header)) != 0)
        tap_diag("got %.*s", (int)(strchr(tsv, '\n') - tsv), tsv);
    tap_near(speedup_of(tsv, k_fast), 4.0, 1e-12, "speedup over the fastest baseline: 8 / 2");
    tap_near(speedup_of(tsv, k_big), 2.0, 1e-12, "baseline added after resume: 6 / 3");
    tap_near(speedup_of(tsv, k_base), 1.0, 1e-12, "the baseline itself: 1");
    tap_near(speedup_of(tsv, k_slow), 0.8, 1e-12, "a slower baseline: 8 / 10");
    tap_ok(isnan(speedup_of(tsv, k_fail)), "a failed record has no speedup");
    tap_ok(tsv && strstr(tsv, "\tfailed\t1024\t0\t4\tNaN\t") != NULL,
           "failed row: axes kept, NaN statistics");
    free(tsv);
    snprintf(path, sizeof path, "%s/records.tsv.tmp", r.dir);
    tap_ok(access(path, F_OK) != 0, "no temporary file left");

    snprintf(path, sizeof path, "%s/none", parent);
    tap_is(rb_run_resume(&r2, path, err, sizeof err), RB_EIO, "resume of a missing directory");
    snprintf(path, sizeof path, "%s/deep", parent);
    tap_is(rb_run_resume(&r2, path, err, sizeof err), RB_EIO, "resume without records.jsonl");
    tap_diag("%s", err);
    snprintf(path, sizeof path, "%s/none/file", parent);
    tap_is(rb_write_file_atomic(path, "x", err, sizeof err), RB_EIO,
           "atomic write into a missing directory is RB_EIO");

    nftw(parent, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return tap_done();
}
