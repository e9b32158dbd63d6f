/* SPDX-License-Identifier: MIT */
/* reprobench run's option table and how each value is stored; --help is
 * written from the table (harness/cli/cli_opts.c). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness/backend/backend.h"
#include "harness/cli/cli.h"
#include "harness/store/db.h"
#include "harness/cli/parse.h"
#include "harness/registry.h"
#include "harness/cli/run_opts.h"
#include "harness/slurm/shard.h"

#define SEED_MAX 0x7fffffffffffffffLL

static const struct rb_opt run_table[] = {
    { RB_OPT_HEADING, .help = "Select:" },
    { RB_OPT_LIST, "--paper", "P[,P]", .id = RUN_OPT_PAPER, .help = "givens, sammon, sbo" },
    { RB_OPT_LIST, "--algo", "A[,A]", .id = RUN_OPT_ALGO,
      .help = "e.g. forward, backward (see 'reprobench list')" },
    { RB_OPT_LIST, "--variant", "V[,V]", .id = RUN_OPT_VARIANT, .help = "e.g. paper, fused" },
    { RB_OPT_LIST, "--backend", "B[,B]", .id = RUN_OPT_BACKEND,
      .help = "serial, omp, opencl, cuda, hip" },
    { RB_OPT_LIST, "--prec", "f32[,f64]", .id = RUN_OPT_PREC,
      .help = "precisions (default: every one the variant has)" },
    { RB_OPT_HEADING,
      .help = "Sizes and tunables (any axis a variant has; see 'reprobench list'):" },
    { RB_OPT_TEXT, .help = "  --n 256,512        a list, a range a:b or a:b:step, or a:b:pow2\n"
                           "  --m 0 --threads 1,2,4 --block 64:1024:pow2 ..." },
    { RB_OPT_CHOICE, "--preset", "P", .choices = "default,quick,paper", .id = RUN_OPT_PRESET,
      .help = "quick: small sizes, about a minute on 2 cores\n"
              "paper: the papers' sizes where the hardware allows" },
    { RB_OPT_HEADING, .help = "Measurement:" },
    { RB_OPT_INT, "--warmup", "N", 1, 1000, .id = RUN_OPT_WARMUP,
      .help = "untimed runs first (default 1)" },
    { RB_OPT_INT, "--min-samples", "N", 1, 1000000, .id = RUN_OPT_MIN_SAMPLES,
      .help = "at least N timed runs (default 10; 50 with --preset paper)" },
    { RB_OPT_INT, "--max-samples", "N", 1, 1000000, .id = RUN_OPT_MAX_SAMPLES,
      .help = "at most N (default 1000)" },
    { RB_OPT_SECONDS, "--min-time", "S", .id = RUN_OPT_MIN_TIME,
      .help = "and at least S seconds of them (default 0.5)" },
    { RB_OPT_SECONDS, "--max-time", "S", .id = RUN_OPT_MAX_TIME,
      .help = "but stop a case after S seconds (default 15)" },
    { RB_OPT_INT, "--seed", "N", 0, SEED_MAX, .id = RUN_OPT_SEED,
      .help = "data seed (default: from the clock; recorded)" },
    { RB_OPT_HEADING, .help = "Output:" },
    { RB_OPT_STRING, "--out", "DIR", .id = RUN_OPT_OUT,
      .help = "create the run directory under DIR (default results)" },
    { RB_OPT_STRING, "--resume", "RUN_DIR", .id = RUN_OPT_RESUME,
      .help = "continue a run with its stored plan, skipping the cases it recorded;\n"
              "a selection, size or measurement option given too must equal the run's" },
    { RB_OPT_FLAG, "--no-plot", .id = RUN_OPT_NO_PLOT, .help = "do not draw plots at the end" },
    { RB_OPT_FLAG, "--no-ceilings", .id = RUN_OPT_NO_CEILINGS,
      .help = "do not probe each backend's copy and FMA ceilings first" },
    { RB_OPT_FLAG, "--dry-run", .id = RUN_OPT_DRY_RUN, .help = "print the planned cases and exit" },
    { RB_OPT_FLAG, "--quiet", .id = RUN_OPT_QUIET, .help = "no progress line" },
    { RB_OPT_STRING, "--db", "FILE", .id = RUN_OPT_DB,
      .help = "import the run into this store at the end (default: reprobench.db\n"
              "beside the run directory)" },
    { RB_OPT_FLAG, "--no-db", .id = RUN_OPT_NO_DB, .help = "do not import the run into a store" },
    { RB_OPT_HEADING, .help = "Devices:" },
    { RB_OPT_STRING, "--device", "LIST", .id = RUN_OPT_DEVICE,
      .help = "the device of each backend, as 'reprobench info' names them:\n"
              "B:N, or B:P:D where devices sit on platforms (opencl), one\n"
              "per backend, comma-separated (default: OpenCL's first GPU,\n"
              "else its first device; device 0 of the others)" },
    { RB_OPT_STRING, "--cl-dir", "DIR", .id = RUN_OPT_CL_DIR,
      .help = "read OpenCL sources DIR/<name>.cl instead of the built-in ones" },
    { RB_OPT_HEADING, .help = "A shard of a sweep submitted to Slurm (docs/slurm.md):" },
    { RB_OPT_STRING, "--plan", "RUN_DIR", .id = RUN_OPT_PLAN_DIR,
      .help = "run the stored plan of RUN_DIR (from 'reprobench submit')" },
    { RB_OPT_STRING, "--shard", "I/K", .id = RUN_OPT_SHARD,
      .help = "only shard I of K (1 <= I <= K), recorded in RUN_DIR/shards/I" },
    { RB_OPT_HEADING, .help = "Several devices of this host at once (docs/devices.md):" },
    { RB_OPT_STRING, "--devices", "LIST", .id = RUN_OPT_DEVICES,
      .help = "all, or e.g. cuda:0,opencl:0:1,hip:0: one worker process per device,\n"
              "each device case on one of them; CPU cases run here, one at a time" },
    { RB_OPT_STRING, "--worker", "RUN_DIR", .id = RUN_OPT_WORKER,
      .help = "(used by --devices) run the cases named on stdin, records to stdout" },
    { RB_OPT_TEXT,
      .help = "\nEach option is given at most once (a list is one value: --n 64,128)." },
    { RB_OPT_END }
};

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

static int set_option(void *self, const struct rb_opt *opt, const struct rb_opt_value *v)
{
    static const enum rb_preset presets[] = { RB_PRESET_DEFAULT, RB_PRESET_QUICK,
                                              RB_PRESET_PAPER };
    struct rb_run_opts *o = self;
    struct rb_plan_spec *p = &o->plan;

    switch ((enum rb_run_opt)opt->id) {
    case RUN_OPT_PAPER: p->sweep.paper = v->str; break;
    case RUN_OPT_ALGO: p->sweep.algo = v->str; break;
    case RUN_OPT_VARIANT: p->sweep.variant = v->str; break;
    case RUN_OPT_BACKEND: return parse_backends(v->str, &p->sweep.backends) ? 2 : 0;
    case RUN_OPT_PREC: return parse_precs(v->str, &p->sweep.precs) ? 2 : 0;
    case RUN_OPT_PRESET: p->sweep.preset = presets[v->i]; break;
    case RUN_OPT_WARMUP: p->policy.warmup = (int)v->i; break;
    case RUN_OPT_MIN_SAMPLES: p->policy.min_samples = (size_t)v->i; break;
    case RUN_OPT_MAX_SAMPLES: p->policy.max_samples = (size_t)v->i; break;
    case RUN_OPT_MIN_TIME: p->policy.min_time_s = v->s; break;
    case RUN_OPT_MAX_TIME: p->policy.max_time_s = v->s; break;
    case RUN_OPT_SEED: p->seed = (uint64_t)v->i; o->seed_given = 1; break;
    case RUN_OPT_DEVICE: {
        char err[256];
        if (rb_device_parse(v->str, p->device, err, sizeof err))
            return rb_cli_usage_error("%s", err);
        break;
    }
    case RUN_OPT_CL_DIR: p->cl_dir = v->str; break;
    case RUN_OPT_OUT: o->out = v->str; break;
    case RUN_OPT_RESUME: o->resume = v->str; break;
    case RUN_OPT_NO_PLOT: o->no_plot = 1; break;
    case RUN_OPT_NO_CEILINGS: o->no_ceilings = 1; break;
    case RUN_OPT_DRY_RUN: o->dry_run = 1; break;
    case RUN_OPT_QUIET: o->quiet = 1; break;
    case RUN_OPT_DB:
        if (!rb_db_built())
            return rb_cli_usage_error("--db: the results store was not built into this "
                                      "binary (configure found no libsqlite3)");
        o->db = v->str;
        break;
    case RUN_OPT_NO_DB: o->no_db = 1; break;
    case RUN_OPT_PLAN_DIR: o->plan_dir = v->str; break;
    case RUN_OPT_DEVICES: p->devices = v->str; break;
    case RUN_OPT_WORKER: o->worker = v->str; break;
    case RUN_OPT_SHARD:
        if (rb_shard_parse(v->str, &o->shard_i, &o->shard_k))
            return rb_cli_usage_error("--shard %s: give I/K with 1 <= I <= K <= %d", v->str,
                                      RB_SHARD_MAX);
        break;
    }
    return 0;
}

/* Any other --NAME is an axis of some variant. */
static int is_axis(void *self, const char *name)
{
    long long lo, hi;
    (void)self;
    return rb_registry_axis(name) && rb_registry_axis_range(name, &lo, &hi) == 0;
}

static int set_axis(void *self, const char *name, const char *val)
{
    struct rb_sweep_opts *w = &((struct rb_run_opts *)self)->plan.sweep;
    const struct rb_axis *a = rb_registry_axis(name);
    struct rb_axis_values *av;
    long long lo, hi;
    char err[200];
    int n;

    if (w->noverrides == RB_MAX_OVERRIDES)
        return rb_cli_usage_error("too many axis options");
    rb_registry_axis_range(a->name, &lo, &hi);
    av = &w->overrides[w->noverrides];
    if ((n = rb_parse_list(val, lo, hi, av->v, RB_MAX_VALUES, err, sizeof err)) < 0)
        return rb_cli_usage_error("--%s: %s", name, err);
    av->name = a->name;
    av->n = (size_t)n;
    w->noverrides++;
    return 0;
}

static const struct rb_cli run_cli = {
    .command = "run",
    .synopsis = "usage: reprobench run [options]\n\n",
    .opts = run_table,
    .set = set_option,
    .is_extra = is_axis,
    .set_extra = set_axis,
};

int rb_run_opts_parse(int argc, char **argv, struct rb_run_opts *o)
{
    int rc;

    memset(o, 0, sizeof *o);
    rb_plan_spec_init(&o->plan);
    o->plan.seed = (uint64_t)time(NULL);
    if ((rc = rb_cli_parse(&run_cli, argc, argv, o, &o->seen)))
        return rc;
    /* The papers average their timings over 50 runs (Givens, section 6). */
    if (o->plan.sweep.preset == RB_PRESET_PAPER && !rb_run_opts_given(o, RUN_OPT_MIN_SAMPLES))
        o->plan.policy.min_samples = 50;
    if (o->plan.policy.max_samples < o->plan.policy.min_samples)
        return rb_cli_usage_error("--max-samples is below --min-samples");
    if (o->resume && o->out)
        return rb_cli_usage_error("--resume and --out exclude each other");
    if (o->db && o->no_db)
        return rb_cli_usage_error("--db and --no-db exclude each other");
    if (!o->plan_dir != !o->shard_k)
        return rb_cli_usage_error("--plan and --shard go together");
    if (o->plan_dir && (o->resume || o->out))
        return rb_cli_usage_error("--plan excludes --resume and --out (a shard is recorded "
                                  "in its sweep's run directory)");
    return 0;
}

int rb_run_opts_given(const struct rb_run_opts *o, int id)
{
    for (int row = 0; run_table[row].type != RB_OPT_END && row < RB_CLI_MAX_OPTS; row++)
        if (run_table[row].name && run_table[row].id == id)
            return o->seen.row[row] != 0;
    return 0;
}

const char *rb_run_opts_name(int id)
{
    const struct rb_opt *opt = rb_cli_opt(&run_cli, id);
    return opt ? opt->name : "?";
}

static const char *next_item(const char *p)
{
    p = strchr(p, ',');
    return p ? p + 1 : NULL;
}

/* Every name of the comma list x is in the comma list y. */
static int names_within(const char *x, const char *y)
{
    for (const char *p = x; p; p = next_item(p)) {
        size_t len = strcspn(p, ",");
        int found = 0;

        for (const char *q = y; q && !found; q = next_item(q))
            found = strcspn(q, ",") == len && strncmp(p, q, len) == 0;
        if (!found)
            return 0;
    }
    return 1;
}

static int same_names(const char *a, const char *b)
{
    if (!a || !b)
        return !a && !b;
    return names_within(a, b) && names_within(b, a);
}

static const struct rb_axis_values *axis_of(const struct rb_sweep_opts *w, const char *name)
{
    for (size_t i = 0; i < w->noverrides; i++)
        if (strcmp(w->overrides[i].name, name) == 0)
            return &w->overrides[i];
    return NULL;
}

static int same_axis(const struct rb_axis_values *a, const struct rb_axis_values *b)
{
    if (!a || !b)
        return !a && !b;
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i] != b->v[i])
            return 0;
    return 1;
}

/* Whether the plans agree on option id. */
static int same_option(const struct rb_plan_spec *a, const struct rb_plan_spec *b, int id)
{
    switch ((enum rb_run_opt)id) {
    case RUN_OPT_PAPER: return same_names(a->sweep.paper, b->sweep.paper);
    case RUN_OPT_ALGO: return same_names(a->sweep.algo, b->sweep.algo);
    case RUN_OPT_VARIANT: return same_names(a->sweep.variant, b->sweep.variant);
    case RUN_OPT_BACKEND: return a->sweep.backends == b->sweep.backends;
    case RUN_OPT_PREC: return a->sweep.precs == b->sweep.precs;
    case RUN_OPT_PRESET: return a->sweep.preset == b->sweep.preset;
    case RUN_OPT_WARMUP: return a->policy.warmup == b->policy.warmup;
    case RUN_OPT_MIN_SAMPLES: return a->policy.min_samples == b->policy.min_samples;
    case RUN_OPT_MAX_SAMPLES: return a->policy.max_samples == b->policy.max_samples;
    case RUN_OPT_MIN_TIME: return a->policy.min_time_s == b->policy.min_time_s;
    case RUN_OPT_MAX_TIME: return a->policy.max_time_s == b->policy.max_time_s;
    case RUN_OPT_SEED: return a->seed == b->seed;
    case RUN_OPT_DEVICE: return memcmp(a->device, b->device, sizeof a->device) == 0;
    case RUN_OPT_DEVICES:
        if (a->devices && b->devices)
            return strcmp(a->devices, b->devices) == 0;
        return !a->devices && !b->devices;
    case RUN_OPT_CL_DIR:
        if (a->cl_dir && b->cl_dir)
            return strcmp(a->cl_dir, b->cl_dir) == 0;
        return !a->cl_dir && !b->cl_dir;
    default: return 1;
    }
}

int rb_run_opts_check_resume(const struct rb_run_opts *o, const struct rb_plan_spec *stored)
{
    const char *hint = "leave it out to continue the run as planned";

    for (int id = 0; id < RUN_OPT_PLAN_END; id++)
        if (rb_run_opts_given(o, id) && !same_option(stored, &o->plan, id))
            return rb_cli_usage_error("--resume %s: %s differs from the run's stored plan; %s",
                                      o->resume, rb_run_opts_name(id), hint);
    for (size_t i = 0; i < o->seen.nextra; i++) {
        const char *name = o->seen.extra[i];
        const struct rb_axis_values *given = axis_of(&o->plan.sweep, name);

        if (!same_axis(given, axis_of(&stored->sweep, name)))
            return rb_cli_usage_error("--resume %s: --%s differs from the run's stored plan%s; "
                                      "%s", o->resume, name,
                                      axis_of(&stored->sweep, name) ? ""
                                      : " (which took the preset's values)", hint);
    }
    if (rb_run_opts_given(o, RUN_OPT_DEVICES) && !same_option(stored, &o->plan, RUN_OPT_DEVICES))
        return rb_cli_usage_error("--resume %s: --devices differs from the run's stored plan; "
                                  "%s", o->resume, hint);
    return 0;
}
