/* SPDX-License-Identifier: MIT */
/* reprobench run: parse the sweep's options, plan it, and hand each case to
 * rb_case_execute; the run directory is written as it goes. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "harness/ceiling.h"
#include "harness/cli.h"
#include "harness/error.h"
#include "harness/execute.h"
#include "harness/fault.h"
#include "harness/observe.h"
#include "harness/parse.h"
#include "harness/plot.h"
#include "harness/progress.h"
#include "harness/registry.h"
#include "harness/results.h"
#include "harness/sweep.h"

static const char usage[] =
    "usage: reprobench run [options]\n"
    "\n"
    "Select:\n"
    "  --paper P[,P]      givens, sammon, sbo\n"
    "  --algo A[,A]       e.g. forward, backward (see 'reprobench list')\n"
    "  --variant V[,V]    e.g. paper, fused\n"
    "  --backend B[,B]    serial, omp, opencl, cuda, hip\n"
    "  --prec f32[,f64]   precisions (default: every one the variant has)\n"
    "Sizes and tunables (any axis a variant has; see 'reprobench list'):\n"
    "  --n 256,512        a list, a range a:b or a:b:step, or a:b:pow2\n"
    "  --m 0 --threads 1,2,4 --block 64:1024:pow2 ...\n"
    "  --preset quick     small sizes, about a minute on 2 cores\n"
    "  --preset paper     the papers' sizes where the hardware allows\n"
    "Measurement:\n"
    "  --warmup N         untimed runs first (default 1)\n"
    "  --min-samples N    at least N timed runs (default 10; 50 with --preset paper)\n"
    "  --max-samples N    at most N (default 1000)\n"
    "  --min-time S       and at least S seconds of them (default 0.5)\n"
    "  --max-time S       but stop a case after S seconds (default 15)\n"
    "  --seed N           data seed (default: from the clock; recorded)\n"
    "Output:\n"
    "  --out DIR          create the run directory under DIR (default results)\n"
    "  --resume RUN_DIR   continue a run, skipping the cases it recorded\n"
    "  --no-plot          do not draw plots at the end\n"
    "  --no-ceilings      do not probe each backend's copy and FMA ceilings first\n"
    "  --dry-run          print the planned cases and exit\n"
    "  --quiet            no progress line\n"
    "Devices:\n"
    "  --cl-platform N --cl-device N   OpenCL device (default: first GPU, else first)\n"
    "  --cl-dir DIR       read OpenCL sources DIR/<name>.cl instead of the built-in ones\n"
    "  --cuda-device N --hip-device N\n";

struct run_opts {
    struct rb_sweep_opts sweep;
    struct rb_policy policy;
    const char *out, *resume;
    int no_plot, no_ceilings, dry_run, seed_given, min_samples_given;
};

static volatile sig_atomic_t stop_signal;

/* The first signal stops the sweep after the current case; a second one
 * abandons that case at once (a record cut short by it is a last line
 * without a newline, which readers skip and --resume cuts off). */
static void on_signal(int sig)
{
    if (stop_signal) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    stop_signal = sig;
}

static int parse_backends(const char *s, unsigned *out)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    *out = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        enum rb_backend b;
        if (rb_backend_parse(t, &b))
            return rb_cli_usage_error("unknown backend '%s' (serial, omp, opencl, cuda, hip)", t);
        if (!rb_registry_backend_built(b))
            return rb_cli_usage_error("backend '%s' was not built into this binary (see the "
                                      "configure summary)", t);
        *out |= 1u << b;
    }
    return *out ? 0 : rb_cli_usage_error("--backend: empty list");
}

static int parse_precs(const char *s, unsigned *out)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    *out = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "f32") == 0)
            *out |= RB_PREC_F32;
        else if (strcmp(t, "f64") == 0)
            *out |= RB_PREC_F64;
        else
            return rb_cli_usage_error("unknown precision '%s' (f32, f64)", t);
    }
    return *out ? 0 : rb_cli_usage_error("--prec: empty list");
}

static int parse_count(const char *opt, const char *s, long long min, long long max,
                       long long *out)
{
    char err[160];
    return rb_parse_ll(s, min, max, out, err, sizeof err)
        ? rb_cli_usage_error("%s: %s", opt, err) : 0;
}

/* One option with its value; returns 0, 2 on bad input. */
static int parse_option(struct run_opts *o, struct rb_ctx *ctx, const char *opt, const char *val)
{
    char err[200];
    long long v;
    double s;
    struct rb_sweep_opts *w = &o->sweep;

#define COUNT(name, lo, hi, dst) \
    if (strcmp(opt, name) == 0) { \
        if (parse_count(name, val, lo, hi, &v)) return 2; \
        dst = v; return 0; }
#define SECONDS(name, dst) \
    if (strcmp(opt, name) == 0) { \
        if (rb_parse_seconds(val, &s, err, sizeof err)) \
            return rb_cli_usage_error("%s: %s", name, err); \
        dst = s; return 0; }

    if (strcmp(opt, "--paper") == 0) { w->paper = val; return 0; }
    if (strcmp(opt, "--algo") == 0) { w->algo = val; return 0; }
    if (strcmp(opt, "--variant") == 0) { w->variant = val; return 0; }
    if (strcmp(opt, "--backend") == 0) return parse_backends(val, &w->backends) ? 2 : 0;
    if (strcmp(opt, "--prec") == 0) return parse_precs(val, &w->precs) ? 2 : 0;
    if (strcmp(opt, "--out") == 0) { o->out = val; return 0; }
    if (strcmp(opt, "--resume") == 0) { o->resume = val; return 0; }
    if (strcmp(opt, "--cl-dir") == 0) { ctx->cl_dir = val; return 0; }
    if (strcmp(opt, "--preset") == 0) {
        if (strcmp(val, "quick") == 0) w->preset = RB_PRESET_QUICK;
        else if (strcmp(val, "paper") == 0) w->preset = RB_PRESET_PAPER;
        else if (strcmp(val, "default") == 0) w->preset = RB_PRESET_DEFAULT;
        else return rb_cli_usage_error("unknown preset '%s' (quick, paper, default)", val);
        return 0;
    }
    if (strcmp(opt, "--seed") == 0) {
        if (parse_count(opt, val, 0, 0x7fffffffffffffffLL, &v)) return 2;
        ctx->seed = (uint64_t)v;
        o->seed_given = 1;
        return 0;
    }
    COUNT("--warmup", 1, 1000, o->policy.warmup)
    if (strcmp(opt, "--min-samples") == 0)
        o->min_samples_given = 1;
    COUNT("--min-samples", 1, 1000000, o->policy.min_samples)
    COUNT("--max-samples", 1, 1000000, o->policy.max_samples)
    COUNT("--cl-platform", 0, 64, ctx->cl_platform)
    COUNT("--cl-device", 0, 64, ctx->cl_device)
    COUNT("--cuda-device", 0, 64, ctx->cuda_device)
    COUNT("--hip-device", 0, 64, ctx->hip_device)
    SECONDS("--min-time", o->policy.min_time_s)
    SECONDS("--max-time", o->policy.max_time_s)
#undef COUNT
#undef SECONDS

    /* Any other --NAME is an axis of some variant. */
    const struct rb_axis *a = rb_registry_axis(opt + 2);
    long long lo, hi;
    if (!a || rb_registry_axis_range(a->name, &lo, &hi))
        return rb_cli_usage_error("run: unknown option '%s' (see 'reprobench run --help')", opt);
    if (w->noverrides == RB_MAX_OVERRIDES)
        return rb_cli_usage_error("too many axis options");
    struct rb_axis_values *av = &w->overrides[w->noverrides];
    int n = rb_parse_list(val, lo, hi, av->v, RB_MAX_VALUES, err, sizeof err);
    if (n < 0)
        return rb_cli_usage_error("%s: %s", opt, err);
    av->name = a->name;
    av->n = (size_t)n;
    w->noverrides++;
    return 0;
}

static int parse_args(int argc, char **argv, struct run_opts *o, struct rb_ctx *ctx)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if (strcmp(a, "--quiet") == 0) { ctx->quiet = 1; continue; }
        if (strcmp(a, "--no-plot") == 0) { o->no_plot = 1; continue; }
        if (strcmp(a, "--no-ceilings") == 0) { o->no_ceilings = 1; continue; }
        if (strcmp(a, "--dry-run") == 0) { o->dry_run = 1; continue; }
        if (strncmp(a, "--", 2) != 0 || !a[2])
            return rb_cli_usage_error("run: unexpected argument '%s'", a);
        char name[64];
        const char *val = strchr(a, '=');
        if (val) {
            snprintf(name, sizeof name, "%.*s", (int)(val - a), a);
            val++;
        } else {
            snprintf(name, sizeof name, "%s", a);
            if (i + 1 >= argc)
                return rb_cli_usage_error("run: option '%s' needs a value", a);
            val = argv[++i];
        }
        if (parse_option(o, ctx, name, val))
            return 2;
    }
    /* The papers average their timings over 50 runs (Givens, section 6). */
    if (o->sweep.preset == RB_PRESET_PAPER && !o->min_samples_given)
        o->policy.min_samples = 50;
    if (o->policy.max_samples < o->policy.min_samples)
        return rb_cli_usage_error("--max-samples is below --min-samples");
    if (o->resume && o->out)
        return rb_cli_usage_error("--resume and --out exclude each other");
    return 0;
}

/* The backends the plan's cases run on, as bits 1 << b. */
static unsigned plan_backends(const struct rb_plan *plan)
{
    unsigned used = 0;

    for (size_t i = 0; i < plan->n; i++)
        used |= 1u << plan->cases[i].v->backend;
    return used;
}

int rb_cli_run(int argc, char **argv)
{
    struct run_opts o;
    struct rb_ctx ctx;
    struct rb_plan plan;
    struct rb_run run;
    char err[512];
    int rc;

    memset(&o, 0, sizeof o);
    rb_policy_default(&o.policy);
    rb_ctx_init(&ctx);
    ctx.seed = (uint64_t)time(NULL);
    if ((rc = parse_args(argc, argv, &o, &ctx)))
        return rc < 0 ? 0 : rc;
    if (rb_fault_init(err, sizeof err)) {
        rb_ctx_release(&ctx);
        return rb_cli_usage_error("%s", err);
    }
    if (rb_observers_init(&ctx, err, sizeof err)) {
        rb_ctx_release(&ctx);
        return rb_cli_usage_error("%s", err);
    }

    /* A run to resume must exist before anything is planned; a new run
     * directory is made only once the plan is known to be good. */
    if (o.resume && rb_run_resume(&run, o.resume, err, sizeof err)) {
        rb_ctx_release(&ctx);
        return rb_cli_usage_error("%s", err);
    }
    if ((rc = rb_sweep_plan(&o.sweep, &ctx, &plan, err, sizeof err))) {
        if (o.resume)
            rb_run_close(&run);
        rb_ctx_release(&ctx);
        return rb_cli_usage_error("%s", err);
    }
    if (o.dry_run) {
        for (size_t i = 0; i < plan.n; i++) {
            rb_case_label(&plan.cases[i], err, sizeof err);
            printf("%s\n", err);
        }
        printf("%zu cases\n", plan.n);
        if (o.resume)
            rb_run_close(&run);
        rb_plan_free(&plan);
        rb_ctx_release(&ctx);
        return 0;
    }
    if (!o.resume && rb_run_create(&run, o.out ? o.out : "results", err, sizeof err)) {
        rb_plan_free(&plan);
        rb_ctx_release(&ctx);
        fprintf(stderr, "reprobench: %s\n", err);
        return 1;
    }
    ctx.run_dir = run.dir;
    if ((!o.resume && rb_run_write_meta(&run, argc, argv, &ctx, err, sizeof err))
        || rb_run_write_hw(&run, &ctx, err, sizeof err)) {
        fprintf(stderr, "reprobench: %s\n", err);
        rc = 1;
        goto out;
    }
    if (!o.no_ceilings && rb_run_ceilings(&run, &ctx, plan_backends(&plan), err, sizeof err)) {
        fprintf(stderr, "reprobench: %s\n", err);
        rc = 1;
        goto out;
    }
    if (!ctx.quiet)
        fprintf(stderr, "reprobench: %zu cases, seed %llu, results in %s\n", plan.n,
                (unsigned long long)ctx.seed, run.dir);

    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    struct rb_progress prog;
    struct rb_tally tally = { 0 };
    rb_progress_start(&prog, plan.n, ctx.quiet);
    for (size_t i = 0; i < plan.n && !stop_signal; i++) {
        struct rb_case *c = &plan.cases[i];
        char key[512], label[256];
        rb_case_key(c, key, sizeof key);
        rb_case_label(c, label, sizeof label);
        rb_progress_case(&prog, i + 1, label);
        if (rb_run_has(&run, key)) {
            tally.resumed++;
            continue;
        }
        if ((rc = rb_case_execute(c, &o.policy, &run, &tally, err, sizeof err))) {
            fprintf(stderr, "%sreprobench: %s\n", ctx.quiet ? "" : "\n", err);
            rc = 1;
            goto out;
        }
    }
    if (stop_signal) {
        fprintf(stderr, "%sreprobench: interrupted; the records so far are complete. "
                "Continue with: reprobench run --resume %s (same options)\n",
                ctx.quiet ? "" : "\n", run.dir);
        rc = 128 + stop_signal;
        goto out;
    }
    rb_progress_finish(&prog);
    if (rb_run_write_tsv(run.dir, err, sizeof err))
        fprintf(stderr, "reprobench: %s\n", err);
    if (!o.no_plot && (rc = rb_plot_run(run.dir, ctx.quiet, err, sizeof err)))
        fprintf(stderr, "reprobench: plots not drawn: %s\n", err);
    rb_tally_print(&tally, run.dir);
    rc = tally.failed || tally.nodevice ? 1 : 0;
out:
    rb_run_close(&run);
    rb_plan_free(&plan);
    rb_ctx_release(&ctx);
    return rc;
}
