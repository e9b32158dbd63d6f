/* SPDX-License-Identifier: MIT */
/* Whole-file output that never leaves a half-written file behind: the bytes
 * go to a uniquely named temporary beside the target, every write and the
 * close are checked, and only a complete, synced file is renamed over it. */
#ifndef RB_ATOMIC_FILE_H
#define RB_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

/* len bytes of data as the whole of path.  0, or RB_EIO / RB_EINVAL with
 * "path: reason" in err (the system's reason, e.g. "File too large"); on
 * failure path is as it was and no temporary is left. */
int rb_atomic_write(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* What render writes to its stream (a memory stream) as the whole of path.
 * render returns 0 or a negative RB_E*.  As rb_atomic_write; RB_ENOMEM when
 * the text cannot be held in memory. */
int rb_atomic_print(const char *path, int (*render)(void *arg, FILE *f), void *arg,
                    char *err, size_t errlen);

/* A copy of the file from as the whole of to.  As rb_atomic_write. */
int rb_atomic_copy(const char *from, const char *to, char *err, size_t errlen);

/* Move a complete file (one a child process wrote) over path: synced, then
 * renamed, the directory synced.  0 or RB_EIO with "path: reason". */
int rb_atomic_move(const char *from, const char *path, char *err, size_t errlen);

/* Create a directory of a unique name "<parent>/.<stem>-<suffix>" for
 * files that are moved out once complete; its name in buf.  0 or RB_EIO. */
int rb_atomic_tmpdir(const char *parent, const char *stem, char *buf, size_t len,
                     char *err, size_t errlen);

#endif
