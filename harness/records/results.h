/* SPDX-License-Identifier: MIT */
/* The run directory results/<timestamp>-<host>/: meta.json, hw.xml,
 * hardware.json, records.jsonl, records.tsv, plots/. */
#ifndef RB_RESULTS_H
#define RB_RESULTS_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "harness/ctx.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct rb_run {
    char dir[PATH_MAX];
    FILE *records;              /* records.jsonl, opened for appending */
    json_t *done;               /* object: case key -> true, from a resumed run */
    json_t *stamp;              /* fields added to every record appended (a shard's
                                   host and machine), owned; NULL: none */
};

/* Create <parent>/<YYYYmmdd-HHMMSS>-<host>/ (parent created if missing).
 * 0, or RB_EIO with a message. */
int rb_run_create(struct rb_run *r, const char *parent, char *err, size_t errlen);
/* Reopen an existing run directory; records already there fill r->done. */
int rb_run_resume(struct rb_run *r, const char *dir, char *err, size_t errlen);
/* meta.json through a temporary file and rename. */
int rb_run_write_meta(struct rb_run *r, int argc, char **argv, struct rb_ctx *ctx,
                      char *err, size_t errlen);
/* Rewrite meta.json (temporary file and rename) with `key` set to `value`,
 * whose reference is taken.  0, or RB_EIO / RB_ENOMEM with a message. */
int rb_run_meta_set(struct rb_run *r, const char *key, json_t *value, char *err,
                    size_t errlen);
/* The same for the run directory run_dir. */
int rb_meta_set(const char *run_dir, const char *key, json_t *value, char *err,
                size_t errlen);
/* Add a session of the run to meta.json: {"start", "command", "seed"} to
 * "sessions" and its seed to "seeds" (one per session).  0, RB_EIO or
 * RB_ENOMEM with a message. */
int rb_meta_add_session(const char *run_dir, int argc, char **argv, uint64_t seed, char *err,
                        size_t errlen);
/* hw.xml (hwloc export) and hardware.json (summary with devices); with
 * same, a resumed run's check first: RB_EINVAL with the reason, nothing
 * written, when its hardware.json describes another machine (the store's
 * fingerprint, harness/store/db.h), so that one run's records are of one
 * machine.  0, or an RB_E* status with a message. */
int rb_run_write_hw(struct rb_run *r, struct rb_ctx *ctx, int same, char *err, size_t errlen);
/* 0 when meta.json's version, git describe and configure options (where it
 * has them) are this build's; else RB_EINVAL with the reason (RB_EIO: no
 * readable meta.json), so that one run's records are of one build. */
int rb_run_same_build(const char *run_dir, char *err, size_t errlen);
int rb_run_has(const struct rb_run *r, const char *key);
int rb_run_append(struct rb_run *r, const json_t *rec);
/* Regenerate records.tsv and best.tsv from records.jsonl (temporary files
 * and renames). */
int rb_run_write_tsv(const char *dir, char *err, size_t errlen);
void rb_run_close(struct rb_run *r);

/* Write text as the whole of path, through a temporary and a rename
 * (harness/records/atomic_file.h).  0 or RB_EIO with "path: reason". */
int rb_write_file_atomic(const char *path, const char *text, char *err, size_t errlen);

#endif
