/* SPDX-License-Identifier: MIT */
/* reprobench run: parse the sweep's options (harness/cli/run_opts.c), plan it
 * from them or, with --resume, from the run's stored plan, and hand each
 * case to rb_case_execute; the run directory is locked and written as it
 * goes, and at the end imported into the results store (harness/store/db.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "harness/run/ceiling.h"
#include "harness/cli/cli.h"
#include "harness/store/db.h"
#include "harness/cli/env.h"
#include "harness/error.h"
#include "harness/run/execute.h"
#include "harness/run/fault.h"
#include "harness/run/lock.h"
#include "harness/run/observe.h"
#include "harness/report/plot.h"
#include "harness/run/progress.h"
#include "harness/records/results.h"
#include "harness/cli/run_opts.h"
#include "harness/cli/run_plan.h"
#include "harness/slurm/shard.h"
#include "harness/run/sweep.h"
#include "harness/run/workers.h"

/* One invocation of run: its options, what it runs, and what it holds. */
struct session {
    struct rb_run_opts o;
    struct rb_plan_spec stored;         /* a resumed run's plan */
    const struct rb_plan_spec *spec;    /* the plan being run: o.plan or stored */
    struct rb_ctx ctx;
    struct rb_plan plan;
    struct rb_run run;
    int have_run;                       /* run is open */
    int lock;                           /* the run directory's lock, or -1 */
    char err[1024];
    char shard_dir[PATH_MAX];           /* --plan --shard: the shard's run directory */
    struct rb_worker_devs devs;         /* --devices; n 0: this process runs every case */
};

static volatile sig_atomic_t stop_signal;

/* The first signal stops the sweep after the current step (a case, or the
 * ceilings probe); a second one ends the process at once (a record cut
 * short by it is a last line without a newline, which readers skip and
 * --resume cuts off). */
static void on_signal(int sig)
{
    if (stop_signal) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    stop_signal = sig;
}

/* The backends the plan's cases run on, as bits 1 << b. */
static unsigned plan_backends(const struct rb_plan *plan)
{
    unsigned used = 0;

    for (size_t i = 0; i < plan->n; i++)
        used |= 1u << plan->cases[i].v->backend;
    return used;
}

/* With --resume: the run's lock, its stored plan (options given too must
 * agree with it), its build (this one) and its records.  Returns an exit
 * status. */
static int open_resumed(struct session *s)
{
    char path[PATH_MAX + 16];
    struct stat st;
    int rc;

    snprintf(path, sizeof path, "%s/records.jsonl", s->o.resume);
    if (stat(s->o.resume, &st) != 0 || !S_ISDIR(st.st_mode))
        return rb_cli_usage_error("--resume %s: not a directory", s->o.resume);
    if (stat(path, &st) != 0)
        return rb_cli_usage_error("--resume %s: no records.jsonl here, not a run directory",
                                  s->o.resume);
    if ((rc = rb_lock_take(s->o.resume, &s->lock, s->err, sizeof s->err)))
        return rc == RB_EINVAL ? rb_cli_usage_error("%s", s->err)
                               : (fprintf(stderr, "reprobench: %s\n", s->err), 1);
    if (rb_run_plan_load(s->o.resume, &s->stored, s->err, sizeof s->err))
        return rb_cli_usage_error("--resume %s: %s", s->o.resume, s->err);
    if ((rc = rb_run_opts_check_resume(&s->o, &s->stored)))
        return rc;
    if ((rc = rb_run_same_build(s->o.resume, s->err, sizeof s->err)))
        return rc == RB_EINVAL ? rb_cli_usage_error("--resume %s", s->err)
                               : (fprintf(stderr, "reprobench: %s\n", s->err), 1);
    if (rb_run_resume(&s->run, s->o.resume, s->err, sizeof s->err))
        return rb_cli_usage_error("%s", s->err);
    s->have_run = 1;
    s->spec = &s->stored;
    return 0;
}

/* Everything that can be refused before anything is written.  Returns an
 * exit status. */
static int prepare(struct session *s)
{
    const struct rb_plan_spec *p;
    int rc;

    if (rb_env_check(s->err, sizeof s->err) || rb_fault_init(s->err, sizeof s->err)
        || rb_observers_init(&s->ctx, s->err, sizeof s->err))
        return rb_cli_usage_error("%s", s->err);
    s->spec = &s->o.plan;
    if (s->o.plan_dir && (rc = rb_shard_begin(&s->o, s->shard_dir, sizeof s->shard_dir)))
        return rc;
    if (s->o.worker && rb_run_plan_load(s->o.worker, &s->stored, s->err, sizeof s->err))
        return rb_cli_usage_error("--worker %s: %s", s->o.worker, s->err);
    if (s->o.worker)
        s->spec = &s->stored;
    if (s->o.resume && (rc = open_resumed(s)))
        return rc;
    p = s->spec;
    if (p->devices && !s->o.worker && rb_workers_parse(p->devices, &s->devs, s->err,
                                                       sizeof s->err))
        return rb_cli_usage_error("%s", s->err);
    if (p->cl_dir && rb_env_check_dir("--cl-dir", p->cl_dir, s->err, sizeof s->err))
        return rb_cli_usage_error("%s", s->err);
    s->ctx.seed = p->seed;
    s->ctx.quiet = s->o.quiet;
    memcpy(s->ctx.device, p->device, sizeof s->ctx.device);
    if (p->cl_dir)
        s->ctx.cl_dir = p->cl_dir;
    if (s->o.worker) {
        /* A worker's device is its own, given by the parent. */
        s->ctx.run_dir = s->o.worker;
        memcpy(s->ctx.device, s->o.plan.device, sizeof s->ctx.device);
    }
    rb_ctx_set_mem_limit(&s->ctx);
    if (rb_sweep_plan(&p->sweep, &s->ctx, &s->plan, s->err, sizeof s->err))
        return rb_cli_usage_error("%s", s->err);
    if (s->o.shard_k && rb_shard_filter(&s->plan, &p->policy, s->o.shard_i, s->o.shard_k,
                                        s->o.plan_dir))
        return rb_cli_usage_error("out of memory");
    return 0;
}

/* The run directory made (or reopened) and described: meta.json with the
 * plan and this session, the hardware, the ceilings.  A resumed run (not a
 * shard, whose records name their node) must be on the machine that made
 * it.  Returns an exit status. */
static int start(struct session *s, int argc, char **argv)
{
    char *err = s->err;
    size_t len = sizeof s->err;
    int rc;

    if (!s->o.resume) {
        if (rb_run_create(&s->run, s->o.out ? s->o.out : "results", err, len))
            return rb_cli_usage_error("--out %s: %s", s->o.out ? s->o.out : "results", err);
        s->have_run = 1;
        if ((rc = rb_lock_take(s->run.dir, &s->lock, err, len)))
            return rc == RB_EINVAL ? rb_cli_usage_error("%s", err)
                                   : (fprintf(stderr, "reprobench: %s\n", err), 1);
    }
    s->ctx.run_dir = s->run.dir;
    if (!s->o.resume && (rb_run_write_meta(&s->run, argc, argv, &s->ctx, err, len)
                         || rb_plan_store(s->run.dir, s->spec, err, len))) {
        fprintf(stderr, "reprobench: %s\n", err);
        return 1;
    }
    if ((rc = rb_run_write_hw(&s->run, &s->ctx, s->o.resume && !s->o.shard_k, err, len)))
        return rc == RB_EINVAL ? rb_cli_usage_error("--resume %s", err)
                               : (fprintf(stderr, "reprobench: %s\n", err), 1);
    if (rb_meta_add_session(s->run.dir, argc, argv, s->ctx.seed, err, len)
        || (!stop_signal && !s->o.no_ceilings
            && rb_run_ceilings(&s->run, &s->ctx, plan_backends(&s->plan), err, len))) {
        fprintf(stderr, "reprobench: %s\n", err);
        return 1;
    }
    /* A shard's records say which node ran them (nodes may differ). */
    if (s->o.shard_k && !(s->run.stamp = rb_shard_stamp(s->run.dir))) {
        fprintf(stderr, "reprobench: %s/hardware.json: cannot read this node's description\n",
                s->run.dir);
        return 1;
    }
    return 0;
}

/* The message of a signal, once the run directory exists. */
static int interrupted(const struct session *s)
{
    fprintf(stderr, "%sreprobench: interrupted; the records so far are complete. Continue "
            "with: reprobench run --resume %s\n", s->ctx.quiet ? "" : "\n", s->run.dir);
    return 128 + stop_signal;
}

/* Every case not yet recorded, until the end or a signal.  Returns an exit
 * status. */
static int sweep(struct session *s)
{
    struct rb_progress prog;
    struct rb_tally tally = { 0 };

    if (!s->ctx.quiet)
        fprintf(stderr, "reprobench: %zu cases, seed %llu, results in %s\n", s->plan.n,
                (unsigned long long)s->ctx.seed, s->run.dir);
    rb_progress_start(&prog, s->plan.n, s->ctx.quiet);
    if (s->devs.n && rb_workers_sweep(&s->devs, &s->plan, &s->spec->policy, &s->run, &tally,
                                      s->ctx.quiet, &stop_signal, s->err, sizeof s->err)) {
        fprintf(stderr, "reprobench: %s\n", s->err);
        return 1;
    }
    for (size_t i = 0; i < s->plan.n && !stop_signal && !s->devs.n; i++) {
        struct rb_case *c = &s->plan.cases[i];
        char key[512], label[256];

        rb_case_key(c, key, sizeof key);
        rb_case_label(c, label, sizeof label);
        rb_progress_case(&prog, i + 1, label);
        if (rb_run_has(&s->run, key)) {
            tally.resumed++;
            continue;
        }
        if (rb_case_execute(c, &s->spec->policy, &s->run, &tally, s->err, sizeof s->err)) {
            fprintf(stderr, "%sreprobench: %s\n", s->ctx.quiet ? "" : "\n", s->err);
            return 1;
        }
    }
    if (stop_signal)
        return interrupted(s);
    rb_progress_finish(&prog);
    if (rb_run_write_tsv(s->run.dir, s->err, sizeof s->err))
        fprintf(stderr, "reprobench: %s\n", s->err);
    if (!s->o.no_plot && rb_plot_run(s->run.dir, s->ctx.quiet, s->err, sizeof s->err))
        fprintf(stderr, "reprobench: plots not drawn: %s\n", s->err);
    /* Under the run's lock, so that no other writer changes the run while
     * it is read; the store is written, the run directory is not. */
    if (!s->o.no_db)
        rb_db_import_after_run(s->o.db, s->run.dir, s->ctx.quiet);
    rb_tally_print(&tally, s->run.dir);
    return tally.failed || tally.nodevice || tally.refused ? 1 : 0;
}

static void dry_run(const struct session *s)
{
    char label[512];

    for (size_t i = 0; i < s->plan.n; i++) {
        rb_case_label(&s->plan.cases[i], label, sizeof label);
        printf("%s\n", label);
    }
    printf("%zu cases\n", s->plan.n);
}

int rb_cli_run(int argc, char **argv)
{
    struct session s;
    int rc;

    /* Before anything is written, so that no signal finds the default
     * action (the ceilings probe runs for seconds before the first case). */
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    memset(&s, 0, sizeof s);
    s.lock = -1;
    rb_ctx_init(&s.ctx);
    rb_plan_spec_init(&s.stored);
    if ((rc = rb_run_opts_parse(argc, argv, &s.o))) {
        rc = rc < 0 ? 0 : rc;
        goto out;
    }
    if ((rc = prepare(&s)))
        goto out;
    if (s.o.worker) {
        rc = rb_workers_serve(&s.plan, &s.spec->policy);
        goto out;
    }
    if (s.o.dry_run) {
        dry_run(&s);
        goto out;
    }
    if (stop_signal) {
        fprintf(stderr, "reprobench: interrupted before the run started; nothing written\n");
        rc = 128 + stop_signal;
        goto out;
    }
    if ((rc = start(&s, argc, argv)))
        goto out;
    rc = stop_signal ? interrupted(&s) : sweep(&s);
out:
    if (s.have_run)
        rb_run_close(&s.run);
    rb_lock_release(s.lock);
    rb_plan_free(&s.plan);
    rb_plan_spec_free(&s.stored);
    rb_ctx_release(&s.ctx);
    return rc;
}
