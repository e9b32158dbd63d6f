/* SPDX-License-Identifier: MIT */
/* Slurm's client commands run as child processes, their output read back;
 * the sweep's record of what it submitted. */
#define _GNU_SOURCE             /* nftw */
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness/error.h"
#include "harness/records/results.h"
#include "harness/slurm/submit.h"

int rb_slurm_have(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];

    for (const char *p = path ? path : "/usr/bin:/bin"; p && *p; ) {
        size_t len = strcspn(p, ":");

        snprintf(buf, sizeof buf, "%.*s/%s", (int)len, len ? p : ".", prog);
        if (access(buf, X_OK) == 0)
            return 1;
        p = p[len] ? p + len + 1 : NULL;
    }
    return 0;
}

/* The last non-empty line of text into msg. */
static void last_line(const char *text, char *msg, size_t msglen)
{
    const char *end = text + strlen(text), *start;

    while (end > text && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(msg, msglen, "%.*s", (int)(end - start), start);
}

/* Read both pipes to their ends (either may fill while we wait on the
 * other). */
static void read_both(int fo, int fe, char *out, size_t outlen, char *errbuf, size_t errlen)
{
    size_t no = 0, ne = 0;
    struct pollfd p[2] = { { fo, POLLIN, 0 }, { fe, POLLIN, 0 } };
    char sink[512];

    while (p[0].fd >= 0 || p[1].fd >= 0) {
        if (poll(p, 2, -1) < 0 && errno != EINTR)
            break;
        for (int j = 0; j < 2; j++) {
            char *buf = j ? errbuf : out;
            size_t *n = j ? &ne : &no, cap = j ? errlen : outlen;
            ssize_t r;

            if (p[j].fd < 0 || !p[j].revents)
                continue;
            r = *n + 1 < cap ? read(p[j].fd, buf + *n, cap - 1 - *n)
                             : read(p[j].fd, sink, sizeof sink);
            if (r <= 0) {
                close(p[j].fd);
                p[j].fd = -1;
            } else if (*n + 1 < cap) {
                *n += (size_t)r;
            }
        }
    }
    out[no] = '\0';
    errbuf[ne] = '\0';
}

int rb_slurm_exec(char *const argv[], char *out, size_t outlen, char *msg, size_t msglen)
{
    int po[2], pe[2], st;
    char errbuf[4096];
    pid_t pid;

    if (!rb_slurm_have(argv[0])) {
        snprintf(msg, msglen, "%s: not found on PATH (is Slurm installed here?)", argv[0]);
        return -1;
    }
    if (pipe(po) != 0)
        goto fail;
    if (pipe(pe) != 0) {
        close(po[0]);
        close(po[1]);
        goto fail;
    }
    if ((pid = fork()) < 0) {
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        goto fail;
    }
    if (pid == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    read_both(po[0], pe[0], out, outlen, errbuf, sizeof errbuf);
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            goto fail;
    st = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    last_line(errbuf, msg, msglen);
    if (!*msg)
        snprintf(msg, msglen, "%s: exit status %d", argv[0], st);
    return st;
fail:
    snprintf(msg, msglen, "%s: %s", argv[0], strerror(errno));
    return -1;
}

long rb_slurm_job_id(const char *out)
{
    char *end;
    long id = strtol(out, &end, 10);

    return end != out && id > 0 && (*end == '\0' || *end == '\n' || *end == ';') ? id : -1;
}

/* One line per job from `scontrol -o show job ID`: its ArrayTaskId and
 * JobState. */
static void states_from_scontrol(long id, int k, char (*states)[32], char *single)
{
    char arg[32], out[65536], msg[512];
    char *argv[] = { "scontrol", "-o", "show", "job", arg, NULL };

    snprintf(arg, sizeof arg, "%ld", id);
    if (rb_slurm_exec(argv, out, sizeof out, msg, sizeof msg) != 0)
        return;
    for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *t = strstr(l, " ArrayTaskId="), *s = strstr(l, " JobState=");
        char state[32];

        if (!s || sscanf(s, " JobState=%31s", state) != 1)
            continue;
        if (single)
            snprintf(single, 32, "%s", state);
        else if (t) {
            int i = atoi(t + 13);
            if (i >= 1 && i <= k && !states[i][0])
                snprintf(states[i], 32, "%s", state);
        }
    }
}

/* Jobs the controller forgot (after MinJobAge), where accounting keeps
 * them: `sacct -n -P -X -j ID -o JobID,State` lines "ID_I|STATE" or, for
 * one job, "ID|STATE" ("CANCELLED by 0": the first word).  Nothing where
 * accounting is off (sacct then fails). */
static void states_from_sacct(long id, int k, char (*states)[32], char *single)
{
    char arg[32], out[65536], msg[512];
    char *argv[] = { "sacct", "-n", "-P", "-X", "-j", arg, "-o", "JobID,State", NULL };

    snprintf(arg, sizeof arg, "%ld", id);
    if (!rb_slurm_have("sacct") || rb_slurm_exec(argv, out, sizeof out, msg, sizeof msg) != 0)
        return;
    for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *bar = strchr(l, '|'), *us = strchr(l, '_'), state[32];
        int i;

        if (!bar || sscanf(bar + 1, "%31s", state) != 1)
            continue;
        if (single && !single[0] && !us)
            snprintf(single, 32, "%s", state);
        else if (!single && us && us < bar && (i = atoi(us + 1)) >= 1 && i <= k && !states[i][0])
            snprintf(states[i], 32, "%s", state);
    }
}

int rb_slurm_states(long array, int k, char (*states)[32], long merge, char *merge_state)
{
    char arg[64], out[65536], msg[512];
    char *argv[] = { "squeue", "-h", "-r", "-j", arg, "-o", "%i %K %T", NULL };
    int rc;

    for (int i = 0; i <= k; i++)
        states[i][0] = '\0';
    merge_state[0] = '\0';
    snprintf(arg, sizeof arg, "%ld,%ld", array, merge);
    rc = rb_slurm_exec(argv, out, sizeof out, msg, sizeof msg);
    if (rc < 0)
        return -1;
    if (rc > 0)
        out[0] = '\0';         /* jobs squeue no longer knows */
    for (char *save = NULL, *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char jid[64], idx[32], state[32];

        if (sscanf(l, "%63s %31s %31s", jid, idx, state) != 3)
            continue;
        if (atol(jid) == merge && !strchr(jid, '_'))
            snprintf(merge_state, 32, "%s", state);
        else if (atoi(idx) >= 1 && atoi(idx) <= k)
            snprintf(states[atoi(idx)], 32, "%s", state);
    }
    /* Finished jobs leave squeue; scontrol keeps them a while longer. */
    states_from_scontrol(array, k, states, NULL);
    if (!merge_state[0])
        states_from_scontrol(merge, k, states, merge_state);
    states_from_sacct(array, k, states, NULL);
    if (!merge_state[0])
        states_from_sacct(merge, k, states, merge_state);
    return 0;
}

json_t *rb_submit_load(const char *run_dir)
{
    char path[PATH_MAX + 32];

    snprintf(path, sizeof path, "%s/slurm.json", run_dir);
    return json_load_file(path, 0, NULL);
}

int rb_submit_store(const char *run_dir, const json_t *j, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    int rc;

    if (!text) {
        snprintf(err, errlen, "slurm.json: out of memory");
        return RB_ENOMEM;
    }
    snprintf(path, sizeof path, "%s/slurm.json", run_dir);
    rc = rb_write_file_atomic(path, text, err, errlen);
    free(text);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    return remove(path);
}

void rb_submit_remove(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
