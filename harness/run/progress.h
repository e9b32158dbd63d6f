/* SPDX-License-Identifier: MIT */
/* A one-line progress display on stderr for sweeps. */
#ifndef RB_PROGRESS_H
#define RB_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

struct rb_progress {
    int quiet;
    int tty;                    /* redraw in place on a terminal, else one line per case */
    size_t total;
    size_t done;
    uint64_t t0_ns;
};

void rb_progress_start(struct rb_progress *p, size_t total, int quiet);
/* Case i (1-based) begins: "[i/N] label  elapsed 0:12  ETA 0:40". */
void rb_progress_case(struct rb_progress *p, size_t i, const char *label);
void rb_progress_finish(struct rb_progress *p);

#endif
