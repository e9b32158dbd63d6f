/* SPDX-License-Identifier: MIT */
/* Progress on stderr: redrawn in place on a terminal, one line per case
 * otherwise (logs stay readable). */
#include <stdio.h>
#include <unistd.h>
#include "harness/run/progress.h"
#include "harness/run/timer.h"

static void fmt_duration(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

void rb_progress_start(struct rb_progress *p, size_t total, int quiet)
{
    p->quiet = quiet;
    p->tty = isatty(STDERR_FILENO);
    p->total = total;
    p->done = 0;
    p->t0_ns = rb_now_ns();
}

void rb_progress_case(struct rb_progress *p, size_t i, const char *label)
{
    if (p->quiet)
        return;
    double el = rb_ms_since(p->t0_ns) / 1e3;
    char e[48], eta[48] = "?";
    fmt_duration(e, sizeof e, el);
    if (i > 1)
        fmt_duration(eta, sizeof eta, el / (double)(i - 1) * (double)(p->total - i + 1));
    fprintf(stderr, p->tty ? "\r\033[K[%zu/%zu] %s  elapsed %s  ETA %s" :
            "[%zu/%zu] %s  elapsed %s  ETA %s\n", i, p->total, label, e, eta);
    fflush(stderr);
    p->done = i;
}

void rb_progress_finish(struct rb_progress *p)
{
    if (p->quiet)
        return;
    char e[48];
    fmt_duration(e, sizeof e, rb_ms_since(p->t0_ns) / 1e3);
    fprintf(stderr, "%s%zu case%s in %s\n", p->tty ? "\r\033[K" : "", p->total,
            p->total == 1 ? "" : "s", e);
}
