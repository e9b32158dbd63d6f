/* SPDX-License-Identifier: MIT */
/* report --db: a report across the machines of the results store. */
#ifndef RB_REPORT_STORE_H
#define RB_REPORT_STORE_H

#include <stddef.h>

/* Write <out>/index.html and <out>/README.md (out is created if missing):
 * the store's machines; per paper the best configuration of every variant
 * on every machine, the paper's claims on each machine and the history
 * figure <out>/<paper>-history.png.  Everything is read from the store in
 * one read transaction; out is written under its lock (harness/run/lock.h).
 * The path of index.html goes to index (may be NULL).  0, or RB_EINVAL
 * (not a store; out in use by another process), RB_EIO, RB_ENOMEM,
 * RB_ENODEV (no store in this binary), with one line in err. */
int rb_report_store_write(const char *store, const char *out, int quiet, char *index,
                          size_t indexlen, char *err, size_t errlen);

#endif
