/* SPDX-License-Identifier: MIT */
/* Records written by rb_record_append read back by rb_records_load with every
 * field intact; the strict reader's rules; appends that hit a full disk. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/error.h"
#include "harness/records/record.h"
#include "harness/run/sweep.h"
#include "t/tap.h"

static const long long n_vals[] = { 256, 0 };
static const long long threads_vals[] = { 4, 0 };
static const struct rb_axis sizes[] = {
    { .name = "n", .min = 2, .max = 4096, .deflt = n_vals, .quick = n_vals, .paper = n_vals },
    { .name = "m", .min = -1, .max = 4096, .deflt = n_vals, .quick = n_vals, .paper = n_vals },
    { 0 }
};
static const struct rb_axis tunables[] = {
    { .name = "threads", .min = 1, .max = 64, .deflt = threads_vals, .quick = threads_vals,
      .paper = threads_vals },
    { 0 }
};
static const struct rb_variant variant = {
    .paper = "givens", .algo = "forward", .name = "fake", .backend = RB_BACKEND_OMP,
    .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sizes, .tunables = tunables,
};

/* The same variant with a work count: n Mflop over n kB. */
static void fake_work(const struct rb_case *c, double *flops, double *bytes)
{
    double n = (double)rb_case_param(c, "n", 0);
    *flops = 1e6 * n;
    *bytes = 1e3 * n;
}

static const struct rb_variant counted = {
    .paper = "givens", .algo = "forward", .name = "fake", .backend = RB_BACKEND_OMP,
    .precs = RB_PREC_F32 | RB_PREC_F64, .sizes = sizes, .tunables = tunables,
    .work = fake_work,
};

static const char *const key_order[] = {
    "schema", "key", "paper", "algo", "variant", "backend", "prec", "device", "baseline",
    "sizes", "tunables", "seed", "status", "stage", "message", "timer", "samples_ms",
    "throttled_samples", "stats", "truncated", "transfer_ms", "build_ms", "occupancy", "verify",
    "metrics", "work", "gpu", "cpu", "time",
};

static uint64_t rng;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void make_case(struct rb_case *c, long long n, long long threads)
{
    memset(c, 0, sizeof *c);
    c->v = &variant;
    c->prec = RB_PREC_F32;
    c->nparams = 3;
    c->params[0] = (struct rb_param){ "n", n };
    c->params[1] = (struct rb_param){ "m", 0 };
    c->params[2] = (struct rb_param){ "threads", threads };
    c->seed = 12345;
    c->device_ms = c->transfer_ms = -1;
    c->build_ms = 2.5;
    snprintf(c->device, sizeof c->device, "test cpu");
}

static int keys_in_order(const json_t *rec)
{
    const char *k;
    json_t *v;
    size_t i = 0;

    json_object_foreach((json_t *)rec, k, v) {
        if (i >= sizeof key_order / sizeof *key_order || strcmp(k, key_order[i]) != 0) {
            tap_diag("key %zu is \"%s\"", i, k);
            return 0;
        }
        i++;
    }
    return i == sizeof key_order / sizeof *key_order;
}

static double num(const json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

/* The observation's fields in a record, and rb_record_energy's reading of
 * them: the GPU's when watched, else the packages' for a CPU case. */
static void check_energy(const struct rb_case *c, const struct rb_measurement *m0)
{
    unsigned char marks[7] = { 0, 1, 0, 0, 1, 0, 0 };
    struct rb_measurement m = *m0;
    struct rb_gpu_watch *g = &m.obs.gpu;
    struct rb_rec_energy e;

    m.obs.window_s = 2.0;
    m.obs.throttled = marks;
    m.obs.cap = 7;
    m.obs.nthrottled = 2;
    g->available = 1;
    snprintf(g->source, sizeof g->source, "nvml");
    snprintf(g->pci_bus_id, sizeof g->pci_bus_id, "0000:19:00.0");
    g->sm_start = 1980;
    g->sm_end = g->sm_min = 1500;
    g->mem_start = g->mem_end = 2619;
    g->temp_start = 40;
    g->temp_end = -1;
    g->energy_j = 800;
    g->energy_method = "energy-counter";
    g->threshold = 0.9;
    g->reasons = 0x4;
    snprintf(g->throttle_reason, sizeof g->throttle_reason, "sample 1: SM clock low");
    m.obs.cpu.energy_available = 1;
    m.obs.cpu.energy_j = 100;
    snprintf(m.obs.cpu.zones, sizeof m.obs.cpu.zones, "package-0");
    snprintf(m.obs.cpu.governor, sizeof m.obs.cpu.governor, "performance");
    json_t *r = rb_record_json(c, &(struct rb_outcome){ .status = "ok", .message = "", .m = &m });
    json_t *gj = json_object_get(r, "gpu"), *cj = json_object_get(r, "cpu");
    json_t *ts = json_object_get(r, "throttled_samples");
    tap_ok(num(gj, "power_w") == 400 && num(gj, "energy_j") == 800
           && num(gj, "energy_per_run_j") == 800.0 / 7
           && num(json_object_get(gj, "sm_mhz"), "min") == 1500
           && json_is_null(json_object_get(json_object_get(gj, "temp_c"), "end"))
           && !strcmp(json_string_value(json_object_get(gj, "energy_method")),
                      "energy-counter"),
           "gpu: power over the window, energy per sample, clocks, unknowns null");
    tap_ok(json_is_true(json_object_get(gj, "throttled"))
           && !strcmp(json_string_value(json_array_get(json_object_get(gj, "throttle_reasons"),
                                                       0)), "sw_power_cap")
           && json_array_size(ts) == 2 && json_integer_value(json_array_get(ts, 0)) == 1
           && json_integer_value(json_array_get(ts, 1)) == 4
           && json_integer_value(json_object_get(json_object_get(r, "stats"), "throttled")) == 2,
           "throttled: the flag, the reasons, the samples marked and counted");
    tap_ok(!strcmp(json_string_value(json_object_get(cj, "governor")), "performance")
           && num(json_object_get(cj, "energy"), "power_w") == 50
           && json_is_null(json_object_get(cj, "governor_reason")),
           "cpu: governor and package power");
    rb_record_energy(r, &e);
    tap_ok(e.joules == 800.0 / 7 && e.watts == 400
           && e.throttled == 1 && !strcmp(e.source, "nvml") && e.sm_end == 1500,
           "rb_record_energy: the GPU's when one was watched");
    json_decref(r);
    g->available = 0;
    r = rb_record_json(c, &(struct rb_outcome){ .status = "ok", .message = "", .m = &m });
    rb_record_energy(r, &e);
    tap_ok(e.watts == 50 && !strcmp(e.source, "rapl") && e.throttled == -1,
           "else the packages' for a CPU case");
    json_object_del(r, "gpu");
    json_object_del(r, "cpu");
    json_object_set_new(r, "schema", json_integer(1));
    rb_record_energy(r, &e);
    tap_ok(isnan(e.joules) && e.why && strstr(e.why, "schema 1"),
           "a schema 1 record: no energy, and why (%s)", e.why ? e.why : "");
    json_decref(r);
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;

    return f && fclose(f) == 0 && ok;
}

static off_t file_size(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 ? st.st_size : -1;
}

/* Write a record that would cross the file size limit: a short write. */
static void check_short_write(const char *path, const json_t *rec)
{
    struct rlimit old, lim;
    off_t before = file_size(path);
    FILE *f = fopen(path, "a");
    int rc;

    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = (rlim_t)before + 20;
    signal(SIGXFSZ, SIG_IGN);
    if (!f || setrlimit(RLIMIT_FSIZE, &lim) != 0) {
        tap_skip("cannot limit the file size here");
        tap_skip("cannot limit the file size here");
        if (f)
            fclose(f);
        return;
    }
    rc = rb_record_append(f, rec);
    setrlimit(RLIMIT_FSIZE, &old);
    fclose(f);
    tap_is(rc, RB_EIO, "a write cut short by the size limit is RB_EIO");
    tap_is((long long)file_size(path), (long long)before,
           "and the file is cut back to its previous length");
}

int main(void)
{
    char dir[] = "/tmp/rb-record-XXXXXX", path[256], bad[256], key[512], got[512], err[512];
    struct rb_case c1, c2, c3;
    struct rb_measurement m = { 0 };
    struct rb_check chk = { .pass = 1, .error = 3.5e-7, .tolerance = 1e-5 };
    struct rb_occ occ = { .available = 1, .count = 1 };
    json_t *r1, *r2, *r3, *all = NULL, *a, *b, *c;
    FILE *f;
    double samples[7];

    rng = (uint64_t)time(NULL) | 1;
    tap_plan(55);
    tap_diag("seed %llu", (unsigned long long)rng);
    if (!mkdtemp(dir))
        tap_skip_all("cannot create a temporary directory");
    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    snprintf(bad, sizeof bad, "%s/bad.jsonl", dir);

    /* 1: measured, verified, with occupancy. */
    make_case(&c1, 256, 4);
    for (size_t i = 0; i < 7; i++)
        samples[i] = 0.1 + uniform();
    m.n = 7;
    m.samples_ms = samples;
    m.timer = "host-monotonic";
    rb_stats_compute(samples, 7, &m.stats);
    snprintf(chk.method, sizeof chk.method, "rel-frobenius");
    snprintf(occ.k[0].kernel, sizeof occ.k[0].kernel, "givens_forward");
    occ.k[0].block = 256;
    occ.k[0].active_blocks = 8;
    occ.k[0].occupancy = 0.75;
    occ.k[0].regs = -1;
    occ.k[0].smem_static = 1024;
    occ.k[0].smem_dynamic = 0;
    occ.k[0].local_bytes = -1;
    snprintf(occ.k[0].source, sizeof occ.k[0].source, "cuda-runtime");
    r1 = rb_record_json(&c1, &(struct rb_outcome){ .status = "ok", .message = "", .m = &m,
                                                  .check = &chk, .occ = &occ });
    /* 2: failed in setup, a message full of characters JSON must escape. */
    make_case(&c2, 512, 2);
    c2.prec = RB_PREC_F64;
    r2 = rb_record_json(&c2, &(struct rb_outcome){ .status = "failed", .stage = "setup",
                                                  .message = "bad \"x\"\tline\nnext" });
    /* 3: skipped; a seed beyond int64; a message cut inside a UTF-8 character. */
    make_case(&c3, 1024, 1);
    c3.seed = UINT64_MAX;
    r3 = rb_record_json(&c3, &(struct rb_outcome){ .status = "skipped", .stage = "setup",
                                                  .message = "too big \xc3" });
    tap_ok(r1 && r2 && r3, "three records built");
    if (!r1 || !r2 || !r3)
        return tap_done();
    tap_ok(keys_in_order(r1), "record keys in schema order");

    f = fopen(path, "a");
    tap_ok(f && rb_record_append(f, r1) == 0 && rb_record_append(f, r2) == 0
           && rb_record_append(f, r3) == 0, "three appends");
    if (f)
        fclose(f);
    tap_is(rb_records_load(path, &all, err, sizeof err), 0, "records load back");
    tap_is((long long)json_array_size(all), 3, "three records read");
    a = json_array_get(all, 0);
    b = json_array_get(all, 1);
    c = json_array_get(all, 2);
    tap_ok(json_equal(a, r1) && json_equal(b, r2) && json_equal(c, r3),
           "every record equal to the one written");
    tap_ok(keys_in_order(a), "key order survives the file");
    rb_case_key(&c1, key, sizeof key);
    tap_ok(rb_record_key(a, got, sizeof got) == 0 && strcmp(got, key) == 0,
           "rb_record_key gives rb_case_key (%s)", got);
    tap_ok(strcmp(got, "givens/forward/fake/omp/f32/n=256/m=0/threads=4") == 0,
           "the key names sizes then tunables");
    tap_is(rb_record_key(a, got, 8), RB_EINVAL, "a short buffer is RB_EINVAL");
    tap_is(json_integer_value(json_object_get(a, "schema")), 2, "schema 2");
    tap_is(json_integer_value(json_object_get(json_object_get(a, "sizes"), "n")), 256, "sizes.n");
    tap_is(json_integer_value(json_object_get(json_object_get(a, "tunables"), "threads")), 4,
           "tunables.threads");
    tap_ok(json_object_size(json_object_get(a, "sizes")) == 2
           && !json_object_get(json_object_get(a, "sizes"), "threads"), "sizes hold sizes only");
    tap_ok(json_is_false(json_object_get(a, "baseline")), "baseline false");
    tap_ok(strcmp(json_string_value(json_object_get(a, "backend")), "omp") == 0
           && strcmp(json_string_value(json_object_get(b, "prec")), "f64") == 0,
           "backend and precision names");
    {
        json_t *s = json_object_get(a, "samples_ms");
        int same = json_array_size(s) == 7;
        for (size_t i = 0; same && i < 7; i++)
            same = json_real_value(json_array_get(s, i)) == samples[i];
        tap_ok(same, "every raw sample exact");
    }
    tap_ok(json_real_value(json_object_get(json_object_get(a, "stats"), "median"))
           == m.stats.median
           && json_integer_value(json_object_get(json_object_get(a, "stats"), "n")) == 7,
           "stats median and n");
    tap_ok(json_is_null(json_object_get(a, "transfer_ms"))
           && json_real_value(json_object_get(a, "build_ms")) == 2.5,
           "negative transfer time is null, build time kept");
    {
        json_t *v = json_object_get(a, "verify");
        tap_ok(json_is_true(json_object_get(v, "pass"))
               && json_real_value(json_object_get(v, "error")) == 3.5e-7
               && strcmp(json_string_value(json_object_get(v, "method")), "rel-frobenius") == 0,
               "verify pass, error and method");
    }
    {
        json_t *k = json_array_get(json_object_get(json_object_get(a, "occupancy"), "kernels"), 0);
        tap_ok(json_is_true(json_object_get(json_object_get(a, "occupancy"), "available"))
               && json_real_value(json_object_get(k, "occupancy")) == 0.75
               && json_integer_value(json_object_get(k, "smem_static")) == 1024
               && json_is_null(json_object_get(k, "regs"))
               && json_is_null(json_object_get(k, "limiter")),
               "occupancy kernel fields, unknowns null");
    }
    tap_ok(strcmp(json_string_value(json_object_get(a, "timer")), "host-monotonic") == 0
           && json_is_null(json_object_get(a, "stage")), "timer, and no stage when ok");
    tap_ok(strlen(json_string_value(json_object_get(a, "time"))) == 20,
           "ISO-8601 UTC time (%s)", json_string_value(json_object_get(a, "time")));
    /* The roofline's numbers: null without a count, rates at the median. */
    tap_ok(json_is_null(json_object_get(a, "work")), "no work count: work null");
    {
        struct rb_case c4 = c1;
        c4.v = &counted;
        json_t *r4 = rb_record_json(&c4, &(struct rb_outcome){ .status = "ok", .message = "",
                                                              .m = &m });
        json_t *w = json_object_get(r4, "work");
        double sec = m.stats.median * 1e-3;
        tap_ok(json_real_value(json_object_get(w, "flops")) == 256e6
               && json_real_value(json_object_get(w, "bytes")) == 256e3
               && fabs(json_real_value(json_object_get(w, "gflops")) - 256e6 / sec * 1e-9)
                  <= 1e-12 * (256e6 / sec * 1e-9)
               && fabs(json_real_value(json_object_get(w, "gbytes_per_s")) - 256e3 / sec * 1e-9)
                  <= 1e-12 * (256e3 / sec * 1e-9)
               && json_real_value(json_object_get(w, "intensity")) == 1000.0,
               "work: flops, bytes, rates at the median time, intensity");
        json_decref(r4);
    }
    check_energy(&c1, &m);
    tap_ok(json_is_null(json_object_get(b, "gpu")) && json_is_null(json_object_get(b, "cpu"))
           && json_array_size(json_object_get(b, "throttled_samples")) == 0,
           "unmeasured: gpu and cpu null, no throttled samples");
    tap_ok(json_is_null(json_object_get(b, "stats")) && json_is_null(json_object_get(b, "verify"))
           && json_array_size(json_object_get(b, "samples_ms")) == 0
           && json_is_null(json_object_get(b, "timer")), "unmeasured: stats, verify, timer null");
    tap_ok(json_is_false(json_object_get(json_object_get(b, "occupancy"), "available"))
           && json_is_string(json_object_get(json_object_get(b, "occupancy"), "reason")),
           "no occupancy: available false with a reason");
    tap_ok(strcmp(json_string_value(json_object_get(b, "message")), "bad \"x\"\tline\nnext") == 0
           && strcmp(json_string_value(json_object_get(b, "stage")), "setup") == 0,
           "message with quotes, tab and newline intact");
    tap_ok(strcmp(json_string_value(json_object_get(c, "seed")), "18446744073709551615") == 0,
           "a seed beyond int64 kept exactly as a string");
    tap_ok(json_integer_value(json_object_get(a, "seed")) == 12345, "a small seed is a number");
    tap_ok(strcmp(json_string_value(json_object_get(c, "message")), "too big ?") == 0,
           "a broken UTF-8 byte becomes '?'");
    json_decref(all);

    /* The reader's rules. */
    {
        char *l1 = json_dumps(r1, JSON_COMPACT), *l2 = json_dumps(r2, JSON_COMPACT), text[16384];

        snprintf(text, sizeof text, "%s\n%s\n%.40s", l1, l2, l1);
        write_text(bad, text);
        tap_is(rb_records_load(bad, &all, err, sizeof err), 0, "a cut final line is no error");
        tap_is((long long)json_array_size(all), 2, "and is skipped");
        json_decref(all);
        snprintf(text, sizeof text, "%s\n{\"schema\": 1, garbage\n%s\n", l1, l2);
        write_text(bad, text);
        tap_is(rb_records_load(bad, &all, err, sizeof err), RB_EINVAL,
               "a garbage line is an error");
        tap_ok(strstr(err, "bad.jsonl:2:") != NULL, "naming its line (%s)", err);
        tap_ok(all == NULL, "and returns no records");
        snprintf(text, sizeof text, "%s\n{\"schema\":1,\"key\":\"old\"}\n", l1);
        write_text(bad, text);
        tap_ok(rb_records_load(bad, &all, err, sizeof err) == 0 && json_array_size(all) == 2,
               "a schema 1 record is still read");
        json_decref(all);
        snprintf(text, sizeof text, "%s\n{\"schema\":0,\"key\":\"x\"}\n", l1);
        write_text(bad, text);
        tap_is(rb_records_load(bad, &all, err, sizeof err), RB_EINVAL, "schema 0 is refused");
        snprintf(text, sizeof text, "%s\n{\"schema\":3,\"key\":\"x\"}\n", l1);
        write_text(bad, text);
        tap_is(rb_records_load(bad, &all, err, sizeof err), RB_EINVAL, "schema 3 is refused");
        tap_ok(strstr(err, ":2:") != NULL, "at its line (%s)", err);
        snprintf(text, sizeof text, "%s\n\n%s\n", l1, l2);
        write_text(bad, text);
        tap_is(rb_records_load(bad, &all, err, sizeof err), RB_EINVAL, "an empty line is refused");
        write_text(bad, "[1,2]\n");
        tap_is(rb_records_load(bad, &all, err, sizeof err), RB_EINVAL, "an array is refused");
        write_text(bad, "");
        tap_ok(rb_records_load(bad, &all, err, sizeof err) == 0 && json_array_size(all) == 0,
               "an empty file is an empty array");
        json_decref(all);
        snprintf(text, sizeof text, "%s/none.jsonl", dir);
        tap_is(rb_records_load(text, &all, err, sizeof err), RB_EIO, "a missing file is RB_EIO");
        free(l1);
        free(l2);
    }

    f = fopen("/dev/full", "a");
    if (f) {
        tap_is(rb_record_append(f, r1), RB_EIO, "appending on a full device is RB_EIO");
        fclose(f);
    } else {
        tap_skip("no /dev/full here");
    }
    check_short_write(path, r1);
    tap_ok(rb_records_load(path, &all, err, sizeof err) == 0 && json_array_size(all) == 3,
           "the file still loads whole after the failed append");
    json_decref(all);

    json_decref(r1);
    json_decref(r2);
    json_decref(r3);
    unlink(path);
    unlink(bad);
    rmdir(dir);
    return tap_done();
}
