/* SPDX-License-Identifier: MIT */
/* run --devices: the device list checked, one worker process per device fed
 * one case at a time, and the records they send back appended by the parent. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include "harness/backend/backend.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "harness/run/workers.h"

/* The devices this host has, as rb_worker_dev. */
static size_t host_devices(struct rb_worker_dev *out, size_t max)
{
    json_t *devs = json_array(), *notes = json_array(), *o;
    struct rb_ctx ctx;
    size_t i, n = 0;

    rb_ctx_init(&ctx);
    if (devs && notes)
        rb_backend_devices(&ctx, devs, notes);
    json_array_foreach(devs, i, o) {
        const char *b = json_string_value(json_object_get(o, "backend"));
        struct rb_worker_dev *d = &out[n];

        if (!b || n == max || rb_backend_parse(b, &d->backend))
            continue;
        /* A backend with platforms lists each device's platform and device
         * there; the others its index (rb_backend_devices). */
        const struct rb_backend_ops *ops = rb_registry_backend(d->backend);
        if (ops && ops->platforms) {
            d->platform = (int)json_integer_value(json_object_get(o, "platform"));
            d->device = (int)json_integer_value(json_object_get(o, "device"));
            snprintf(d->name, sizeof d->name, "%s:%d:%d", b, d->platform, d->device);
        } else {
            d->platform = 0;
            d->device = (int)json_integer_value(json_object_get(o, "index"));
            snprintf(d->name, sizeof d->name, "%s:%d", b, d->device);
        }
        n++;
    }
    json_decref(devs);
    json_decref(notes);
    rb_ctx_release(&ctx);
    return n;
}

int rb_workers_parse(const char *list, struct rb_worker_devs *d, char *err, size_t errlen)
{
    struct rb_worker_dev host[RB_WORKERS_MAX];
    size_t nhost = host_devices(host, RB_WORKERS_MAX);
    char buf[512];

    memset(d, 0, sizeof *d);
    if (strcmp(list, "all") == 0) {
        memcpy(d->dev, host, nhost * sizeof host[0]);
        d->n = nhost;
        if (!nhost)
            snprintf(err, errlen, "--devices all: this host has no OpenCL, CUDA or HIP device");
        return nhost ? 0 : RB_EINVAL;
    }
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        size_t i;

        for (i = 0; i < nhost && strcmp(host[i].name, t) != 0; i++)
            ;
        if (i == nhost) {
            snprintf(err, errlen, "--devices: no device '%s' on this host (give opencl:P:D, "
                     "cuda:N or hip:N as 'reprobench info' lists them, or all)", t);
            return RB_EINVAL;
        }
        for (size_t j = 0; j < d->n; j++)
            if (strcmp(d->dev[j].name, t) == 0) {
                snprintf(err, errlen, "--devices: '%s' is named twice", t);
                return RB_EINVAL;
            }
        if (d->n == RB_WORKERS_MAX) {
            snprintf(err, errlen, "--devices: at most %d devices", RB_WORKERS_MAX);
            return RB_EINVAL;
        }
        d->dev[d->n++] = host[i];
    }
    if (!d->n)
        snprintf(err, errlen, "--devices: empty list");
    return d->n ? 0 : RB_EINVAL;
}

int rb_workers_serve(struct rb_plan *plan, const struct rb_policy *p)
{
    struct rb_tally t = { 0 };
    struct rb_run run;
    char line[600], key[512], err[512];

    memset(&run, 0, sizeof run);
    snprintf(run.dir, sizeof run.dir, "(worker's standard output)");
    run.records = stdout;
    while (fgets(line, sizeof line, stdin)) {
        size_t i;

        line[strcspn(line, "\n")] = '\0';
        for (i = 0; i < plan->n; i++) {
            rb_case_key(&plan->cases[i], key, sizeof key);
            if (strcmp(key, line) == 0)
                break;
        }
        if (i == plan->n) {
            fprintf(stderr, "reprobench: worker: no case '%s' in this device's plan\n", line);
            return 1;
        }
        if (rb_case_execute(&plan->cases[i], p, &run, &t, err, sizeof err)) {
            fprintf(stderr, "reprobench: worker: %s\n", err);
            return 1;
        }
    }
    return 0;
}

/* One worker as the parent sees it. */
struct worker {
    const struct rb_worker_dev *dev;
    pid_t pid;
    int cmd, res;               /* write end of its stdin, read end of its stdout; -1 closed */
    long busy;                  /* the case it runs, or -1 */
    char *buf;                  /* what it sent that is not yet a whole line */
    size_t len, cap;
};

/* Start `self run --worker RUN_DIR --quiet` on device d.  0, or -1. */
static int worker_start(struct worker *w, const struct rb_worker_dev *d, const char *run_dir)
{
    int in[2], out[2];
    char pick[64];

    w->dev = d;
    w->busy = -1;
    w->buf = NULL;
    w->len = w->cap = 0;
    w->cmd = w->res = -1;
    if (pipe(in) != 0)
        return -1;
    if (pipe(out) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    fflush(NULL);
    if ((w->pid = fork()) == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]); close(in[1]); close(out[0]); close(out[1]);
        /* The device by the name `info` gives it, which --device takes. */
        snprintf(pick, sizeof pick, "%s", d->name);
        execl("/proc/self/exe", "reprobench", "run", "--worker", run_dir, "--quiet", "--device",
              pick, (char *)NULL);
        fprintf(stderr, "reprobench: cannot start a worker: %s\n", strerror(errno));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    if (w->pid < 0) {
        close(in[1]);
        close(out[0]);
        return -1;
    }
    w->cmd = in[1];
    w->res = out[0];
    return 0;
}

static void tally_record(struct rb_tally *t, const json_t *rec)
{
    const char *st = json_string_value(json_object_get(rec, "status"));

    if (st && strcmp(st, "ok") == 0) {
        t->ok++;
    } else if (st && strcmp(st, "skipped") == 0) {
        t->skipped++;
    } else {
        if (t->failed < RB_TALLY_NAMES)
            snprintf(t->failures[t->failed], sizeof t->failures[0], "%.100s: %.90s",
                     json_string_value(json_object_get(rec, "key")),
                     json_string_value(json_object_get(rec, "message")));
        t->failed++;
    }
}

/* Append each whole line w has sent, with its device.  0, or non-zero. */
static int worker_records(struct worker *w, struct rb_run *run, struct rb_tally *t,
                          char *err, size_t errlen)
{
    char *nl;

    while (w->len && (nl = memchr(w->buf, '\n', w->len))) {
        json_t *rec = json_loadb(w->buf, (size_t)(nl - w->buf), 0, NULL);
        int rc = 0;

        if (rec && json_object_set_new(rec, "device_id", json_string(w->dev->name)) == 0) {
            tally_record(t, rec);
            if ((rc = rb_run_append(run, rec)))
                snprintf(err, errlen, "could not append to %s/records.jsonl", run->dir);
        } else {
            fprintf(stderr, "reprobench: worker on %s sent a line that is not a record\n",
                    w->dev->name);
        }
        json_decref(rec);
        w->len -= (size_t)(nl + 1 - w->buf);
        memmove(w->buf, nl + 1, w->len);
        w->busy = -1;
        if (rc)
            return rc;
    }
    return 0;
}

/* The worker ended: what it had not finished is said, for --resume. */
static void worker_reap(struct worker *w, struct rb_plan *plan, struct rb_tally *t)
{
    int status = 0;
    char key[512];

    close(w->res);
    w->res = -1;
    if (w->cmd >= 0)
        close(w->cmd);
    w->cmd = -1;
    waitpid(w->pid, &status, 0);
    if (w->busy >= 0) {
        rb_case_key(&plan->cases[w->busy], key, sizeof key);
        char how[48];

        if (WIFSIGNALED(status))
            snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(status));
        else
            snprintf(how, sizeof how, "exit %d", WEXITSTATUS(status));
        fprintf(stderr, "reprobench: the worker on %s ended (%s) before finishing %s; "
                "--resume runs it again\n", w->dev->name, how, key);
        if (t->failed < RB_TALLY_NAMES)
            snprintf(t->failures[t->failed], sizeof t->failures[0], "%.100s: unfinished, "
                     "the worker on %s ended", key, w->dev->name);
        t->failed++;
    }
    w->busy = -1;
}

/* Read what w has sent; at its end, reap it.  0, or non-zero with err. */
static int worker_read(struct worker *w, struct rb_plan *plan, struct rb_run *run,
                       struct rb_tally *t, size_t *alive, char *err, size_t errlen)
{
    ssize_t n;

    if (w->cap - w->len < 4096) {
        char *grown = realloc(w->buf, w->cap * 2 + 8192);
        if (!grown) {
            snprintf(err, errlen, "out of memory");
            return RB_ENOMEM;
        }
        w->buf = grown;
        w->cap = w->cap * 2 + 8192;
    }
    n = read(w->res, w->buf + w->len, w->cap - w->len);
    if (n < 0 && errno == EINTR)
        return 0;
    if (n > 0) {
        w->len += (size_t)n;
        return worker_records(w, run, t, err, errlen);
    }
    worker_reap(w, plan, t);
    (*alive)--;
    return 0;
}

/* Hand w the next case of its backend, or close its input when none is
 * left (or the sweep is stopping). */
static void worker_feed(struct worker *w, struct rb_plan *plan, char *given, int quiet,
                        int stopping)
{
    char key[512], label[256];
    size_t i;

    for (i = 0; i < plan->n; i++)
        if (!given[i] && plan->cases[i].v->backend == w->dev->backend)
            break;
    if (i < plan->n && !stopping) {
        size_t len;

        rb_case_key(&plan->cases[i], key, sizeof key);
        len = strlen(key);
        key[len++] = '\n';
        if (write(w->cmd, key, len) == (ssize_t)len) {
            given[i] = 1;
            w->busy = (long)i;
            if (!quiet) {
                rb_case_label(&plan->cases[i], label, sizeof label);
                fprintf(stderr, "reprobench: [%s] %s\n", w->dev->name, label);
            }
            return;
        }
    }
    close(w->cmd);
    w->cmd = -1;
}

static int has_worker(const struct rb_worker_devs *d, enum rb_backend b)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->dev[i].backend == b)
            return 1;
    return 0;
}

/* The cases no worker takes, here, one after another; device cases whose
 * workers all ended are left for --resume. */
static int run_rest(const struct rb_worker_devs *d, struct rb_plan *plan, const char *given,
                    const struct rb_policy *p, struct rb_run *run, struct rb_tally *t,
                    int quiet, volatile sig_atomic_t *stop, char *err, size_t errlen)
{
    size_t left = 0;
    char label[256];

    for (size_t i = 0; i < plan->n && !*stop; i++) {
        if (given[i])
            continue;
        if (has_worker(d, plan->cases[i].v->backend)) {
            left++;
            continue;
        }
        if (!quiet) {
            rb_case_label(&plan->cases[i], label, sizeof label);
            fprintf(stderr, "reprobench: [here] %s\n", label);
        }
        if (rb_case_execute(&plan->cases[i], p, run, t, err, errlen))
            return 1;
    }
    if (left)
        fprintf(stderr, "reprobench: %zu device cases not run (their workers ended); "
                "--resume runs them\n", left);
    t->failed += left;
    return 0;
}

int rb_workers_sweep(const struct rb_worker_devs *d, struct rb_plan *plan,
                     const struct rb_policy *p, struct rb_run *run, struct rb_tally *t,
                     int quiet, volatile sig_atomic_t *stop, char *err, size_t errlen)
{
    struct worker *w = calloc(d->n, sizeof *w);
    char *given = calloc(plan->n + 1, 1), key[512];
    struct pollfd fds[RB_WORKERS_MAX];
    size_t alive = 0;
    int rc = 0;

    if (!w || !given) {
        free(w);
        free(given);
        snprintf(err, errlen, "out of memory");
        return RB_ENOMEM;
    }
    signal(SIGPIPE, SIG_IGN);   /* a worker gone shows as a failed write, not a death */
    for (size_t i = 0; i < plan->n; i++) {
        rb_case_key(&plan->cases[i], key, sizeof key);
        if (rb_run_has(run, key)) {
            given[i] = 1;
            t->resumed++;
        }
    }
    for (size_t k = 0; k < d->n; k++) {
        if (worker_start(&w[k], &d->dev[k], run->dir) == 0) {
            alive++;
        } else {
            w[k].res = -1;
            fprintf(stderr, "reprobench: cannot start a worker on %s: %s\n", d->dev[k].name,
                    strerror(errno));
        }
    }
    while (alive && !rc) {
        size_t nf = 0, idx[RB_WORKERS_MAX];

        for (size_t k = 0; k < d->n; k++) {
            if (w[k].res < 0)
                continue;
            if (w[k].busy < 0 && w[k].cmd >= 0)
                worker_feed(&w[k], plan, given, quiet, *stop != 0);
            fds[nf] = (struct pollfd){ .fd = w[k].res, .events = POLLIN };
            idx[nf++] = k;
        }
        if (poll(fds, nf, -1) < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errlen, "poll: %s", strerror(errno));
            rc = RB_EIO;
            break;
        }
        for (size_t f = 0; f < nf && !rc; f++)
            if (fds[f].revents)
                rc = worker_read(&w[idx[f]], plan, run, t, &alive, err, errlen);
    }
    for (size_t k = 0; k < d->n; k++) {
        if (w[k].res >= 0)
            worker_reap(&w[k], plan, t);
        free(w[k].buf);
    }
    if (!rc && !*stop)
        rc = run_rest(d, plan, given, p, run, t, quiet, stop, err, errlen);
    free(w);
    free(given);
    return rc;
}
