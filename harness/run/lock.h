/* SPDX-License-Identifier: MIT */
/* One writer per run directory: `run` (new or --resume), `report` and
 * `plot` hold an exclusive flock(2) on RUN/.lock while they write, and the
 * file holds the holder's pid for the message a second writer gets.  A
 * reader that must see the run whole (`db import`) holds a shared one. */
#ifndef RB_LOCK_H
#define RB_LOCK_H

#include <stddef.h>

#define RB_LOCK_FILE ".lock"

/* Take the lock of run_dir without waiting; *fd holds it until
 * rb_lock_release.  0; RB_EINVAL with "RUN is in use by pid N" in err when
 * another process holds it; RB_EIO when the lock file cannot be opened. */
int rb_lock_take(const char *run_dir, int *fd, char *err, size_t errlen);
/* A reader's share of the lock of run_dir, without waiting and without
 * writing in run_dir (which may be read-only): *fd holds it until
 * rb_lock_release, or is -1 when the run has no lock file (no writer that
 * locks has opened it).  0; RB_EINVAL with "RUN is in use by pid N" while
 * a writer holds the lock; RB_EIO when the lock file cannot be read. */
int rb_lock_share(const char *run_dir, int *fd, char *err, size_t errlen);
/* Release a lock taken or shared (fd < 0: none). */
void rb_lock_release(int fd);

#endif
