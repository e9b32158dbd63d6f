/* SPDX-License-Identifier: MIT */
/* reprobench submit: a sweep as a Slurm job array of shards, each running
 * `run --plan RUN --shard I/K`, and one job after them (afterany) that
 * merges the shards and imports the run; --resume submits again only the
 * shards with cases left.  Nothing is left behind when Slurm refuses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "harness/cli/cli.h"
#include "harness/error.h"
#include "harness/records/results.h"
#include "harness/cli/run_opts.h"
#include "harness/slurm/shard.h"
#include "harness/slurm/submit.h"
#include "harness/slurm/submit_plan.h"

#define MAX_SBATCH_ARGS 32

struct submit {
    struct rb_run_opts o;
    int shards;
    const char *partition, *gpus, *time, *resume;
    const char *extra[MAX_SBATCH_ARGS];
    int nextra, created;
    char run_dir[PATH_MAX], bin[PATH_MAX], err[1024];
};

static const char usage[] =
    "usage: reprobench submit [run's selection, size and measurement options]\n"
    "                         --shards K [--partition P] [--gpus-per-task G] [--time T]\n"
    "                         [--sbatch-arg ARG]... [--out DIR] [--db FILE | --no-db]\n"
    "       reprobench submit --resume RUN_DIR [--partition P] ...\n\n"
    "Writes the plan into a new run directory and submits it to Slurm as a job\n"
    "array of K shards (each 'reprobench run --plan RUN --shard I/K') and one job\n"
    "after them that merges the shards into the run and imports it into the store.\n"
    "--resume submits again only the shards with cases left.  Prints the run\n"
    "directory; 'reprobench status RUN' follows it.  See docs/slurm.md.\n";

/* Take submit's own options out of argv; the rest go to run's parser. */
static int split_args(int argc, char **argv, struct submit *s, char **rest, int *nrest)
{
    *nrest = 0;
    rest[(*nrest)++] = "run";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], **slot = NULL;
        static const char *const names[] = { "--shards", "--partition", "--gpus-per-task",
                                             "--time", "--resume", "--sbatch-arg" };
        const char *shards = NULL;
        int which = -1;

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        for (int n = 0; n < 6; n++)
            if (strcmp(a, names[n]) == 0)
                which = n;
        if (which < 0) {
            rest[(*nrest)++] = argv[i];
            continue;
        }
        if (i + 1 >= argc)
            return rb_cli_usage_error("submit: %s needs a value", a);
        switch (which) {
        case 0: slot = &shards; break;
        case 1: slot = &s->partition; break;
        case 2: slot = &s->gpus; break;
        case 3: slot = &s->time; break;
        case 4: slot = &s->resume; break;
        default:
            if (s->nextra == MAX_SBATCH_ARGS)
                return rb_cli_usage_error("submit: more than %d --sbatch-arg", MAX_SBATCH_ARGS);
            s->extra[s->nextra++] = argv[++i];
            continue;
        }
        if ((which == 0 && s->shards) || (which && *slot))
            return rb_cli_usage_error("submit: %s given twice", a);
        *slot = argv[++i];
        if (which == 0) {
            char *end;
            long k = strtol(shards, &end, 10);
            if (*end || end == shards || k < 1 || k > RB_SHARD_MAX)
                return rb_cli_usage_error("submit: --shards %s: give 1 to %d", shards,
                                          RB_SHARD_MAX);
            s->shards = (int)k;
        }
    }
    rest[*nrest] = NULL;
    return 0;
}

static int check_options(struct submit *s)
{
    const struct rb_run_opts *o = &s->o;

    if (o->resume || o->plan_dir || o->shard_k)
        return rb_cli_usage_error("submit: --plan and --shard are set per task by submit");
    if (s->gpus && (atoi(s->gpus) < 1 || strspn(s->gpus, "0123456789") != strlen(s->gpus)))
        return rb_cli_usage_error("submit: --gpus-per-task %s: give a count", s->gpus);
    if (!s->resume && !s->shards)
        return rb_cli_usage_error("submit: give --shards K (or --resume RUN_DIR)");
    if (s->resume) {
        if (s->shards || o->out)
            return rb_cli_usage_error("submit --resume: the run keeps its --shards and place");
        for (int id = 0; id < RUN_OPT_PLAN_END; id++)
            if (rb_run_opts_given(o, id))
                return rb_cli_usage_error("submit --resume: the plan is the run's; leave out "
                                          "%s", rb_run_opts_name(id));
        if (o->seen.nextra)
            return rb_cli_usage_error("submit --resume: the plan is the run's; leave out --%s",
                                      o->seen.extra[0]);
    }
    if (!rb_slurm_have("sbatch"))
        return rb_cli_usage_error("submit: sbatch not found on PATH (is Slurm installed here?)");
    return 0;
}

/* The sweep's scripts: one shard, and the merge. */
static int write_scripts(struct submit *s)
{
    char path[PATH_MAX + 32], text[3 * PATH_MAX + 512], db[PATH_MAX + 16] = "";
    const struct rb_run_opts *o = &s->o;

    if (strchr(s->run_dir, '\'') || strchr(s->bin, '\'') || (o->db && strchr(o->db, '\'')))
        return rb_cli_usage_error("submit: a path with a quote (') cannot go into a job script");
    if (o->db && o->db[0] != '/') {
        char cwd[PATH_MAX];
        snprintf(db, sizeof db, " --db '%s/%s'", getcwd(cwd, sizeof cwd) ? cwd : ".", o->db);
    } else if (o->db) {
        snprintf(db, sizeof db, " --db '%s'", o->db);
    }
    snprintf(path, sizeof path, "%s/slurm", s->run_dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST)      /* it exists on --resume */
        return rb_cli_usage_error("submit: %s: %s", path, strerror(errno));
    snprintf(path, sizeof path, "%s/slurm/shard.sh", s->run_dir);
    snprintf(text, sizeof text, "#!/bin/sh\n# One shard of the sweep in this run directory "
             "(reprobench submit).\nexec '%s' run --plan '%s' --shard "
             "\"$SLURM_ARRAY_TASK_ID/%d\" --quiet%s\n", s->bin, s->run_dir, s->shards,
             o->no_ceilings ? " --no-ceilings" : "");
    if (rb_write_file_atomic(path, text, s->err, sizeof s->err))
        return rb_cli_usage_error("submit: %s", s->err);
    snprintf(path, sizeof path, "%s/slurm/merge.sh", s->run_dir);
    snprintf(text, sizeof text, "#!/bin/sh\n# The shards merged into the run and imported "
             "(reprobench submit).\nexec '%s' merge '%s' --quiet%s%s%s\n", s->bin, s->run_dir,
             db, o->no_db ? " --no-db" : "", o->no_plot ? " --no-plot" : "");
    if (rb_write_file_atomic(path, text, s->err, sizeof s->err))
        return rb_cli_usage_error("submit: %s", s->err);
    return 0;
}

/* sbatch with the sweep's common options; the job id, or -1 after one
 * line with Slurm's message. */
static long sbatch(struct submit *s, const char *what, const char *const *own, int nown)
{
    char *argv[16 + MAX_SBATCH_ARGS], opt[4][PATH_MAX + 64], out[256], msg[1024];
    int n = 0;
    long id;

    argv[n++] = "sbatch";
    argv[n++] = "--parsable";
    for (int i = 0; i < nown; i++)
        argv[n++] = (char *)own[i];
    if (s->partition)
        snprintf(opt[0], sizeof opt[0], "--partition=%s", s->partition), argv[n++] = opt[0];
    if (s->time)
        snprintf(opt[1], sizeof opt[1], "--time=%s", s->time), argv[n++] = opt[1];
    if (s->gpus && strcmp(what, "the shards") == 0)
        snprintf(opt[2], sizeof opt[2], "--gpus-per-task=%s", s->gpus), argv[n++] = opt[2];
    for (int i = 0; i < s->nextra; i++)
        argv[n++] = (char *)s->extra[i];
    snprintf(opt[3], sizeof opt[3], "%s/slurm/%s.sh", s->run_dir,
             strcmp(what, "the shards") == 0 ? "shard" : "merge");
    argv[n++] = opt[3];
    argv[n] = NULL;
    if (rb_slurm_exec(argv, out, sizeof out, msg, sizeof msg) != 0
        || (id = rb_slurm_job_id(out)) < 0) {
        rb_cli_usage_error("submit: sbatch refused %s: %s", what, msg);
        return -1;
    }
    return id;
}

/* Submit tasks (an sbatch --array list) and the merge after them; record
 * both in slurm.json.  Returns an exit status. */
static int submit_jobs(struct submit *s, const char *tasks, json_t *record)
{
    char array_opt[64 + 8192], out_opt[PATH_MAX + 64], dep[64], mout[PATH_MAX + 64];
    const char *own[] = { "--job-name=rb-shard", array_opt, out_opt };
    const char *mown[] = { "--job-name=rb-merge", mout, dep };
    long array = -1, merge;

    snprintf(out_opt, sizeof out_opt, "--output=%s/slurm/shard-%%a-%%A.out", s->run_dir);
    snprintf(mout, sizeof mout, "--output=%s/slurm/merge-%%j.out", s->run_dir);
    if (*tasks) {
        snprintf(array_opt, sizeof array_opt, "--array=%s", tasks);
        if ((array = sbatch(s, "the shards", own, 3)) < 0)
            return 2;
        snprintf(dep, sizeof dep, "--dependency=afterany:%ld", array);
    }
    if ((merge = sbatch(s, "the merge", mown, *tasks ? 3 : 2)) < 0) {
        if (array > 0) {
            char id[32], out[64], msg[256];
            char *argv[] = { "scancel", id, NULL };
            snprintf(id, sizeof id, "%ld", array);
            rb_slurm_exec(argv, out, sizeof out, msg, sizeof msg);
        }
        return 2;
    }
    json_array_append_new(json_object_get(record, "submissions"),
                          json_pack("{s:I, s:I, s:s, s:s?}", "array", (json_int_t)array,
                                    "merge", (json_int_t)merge, "tasks", tasks,
                                    "partition", s->partition));
    if (rb_submit_store(s->run_dir, record, s->err, sizeof s->err)) {
        fprintf(stderr, "reprobench: submit: %s (jobs %ld and %ld are submitted)\n", s->err,
                array, merge);
        return 1;
    }
    if (!s->o.quiet)
        fprintf(stderr, "reprobench: %s: %d shards, tasks %s as job %ld, merge as job %ld; "
                "follow with: reprobench status %s\n", s->run_dir, s->shards,
                *tasks ? tasks : "(none left)", array, merge, s->run_dir);
    printf("%s\n", s->run_dir);
    return 0;
}

int rb_cli_submit(int argc, char **argv)
{
    struct submit s;
    char **rest = calloc((size_t)argc + 2, sizeof *rest), tasks[8192];
    json_t *record = NULL;
    ssize_t len;
    int nrest, rc;

    memset(&s, 0, sizeof s);
    if (!rest)
        return rb_cli_usage_error("out of memory");
    if ((rc = split_args(argc, argv, &s, rest, &nrest))
        || (rc = rb_run_opts_parse(nrest, rest, &s.o)) || (rc = check_options(&s))) {
        rc = rc < 0 ? 0 : rc;
        goto out_free_args;
    }
    if (s.o.dry_run) {
        rc = s.resume ? rb_cli_usage_error("submit: --dry-run goes with a new sweep")
                      : rb_submit_dry_run(&s.o, s.shards);
        goto out_free_args;
    }
    if ((len = readlink("/proc/self/exe", s.bin, sizeof s.bin - 1)) < 0) {
        rc = rb_cli_usage_error("submit: cannot find this program's path");
        goto out_free_args;
    }
    s.bin[len] = '\0';
    rc = s.resume ? rb_submit_plan_resume(s.resume, &s.shards, s.run_dir, tasks, sizeof tasks,
                                          &record)
                  : rb_submit_plan_new(&s.o, argc, argv, s.shards, s.run_dir, tasks,
                                       sizeof tasks, &record);
    if (rc)
        goto out_free_args;
    s.created = !s.resume;
    if ((rc = write_scripts(&s)) == 0)
        rc = submit_jobs(&s, tasks, record);
    if (rc == 2 && s.created)
        rb_submit_remove(s.run_dir);
    json_decref(record);
out_free_args:
    free(rest);
    return rc;
}
