/* SPDX-License-Identifier: MIT */
/* One writer per run directory: `run` (new or --resume), `report` and
 * `plot` hold an exclusive flock(2) on RUN/.lock while they write, and the
 * file holds the holder's pid for the message a second writer gets. */
#ifndef RB_LOCK_H
#define RB_LOCK_H

#include <stddef.h>

#define RB_LOCK_FILE ".lock"

/* Take the lock of run_dir without waiting; *fd holds it until
 * rb_lock_release.  0; RB_EINVAL with "RUN is in use by pid N" in err when
 * another process holds it; RB_EIO when the lock file cannot be opened. */
int rb_lock_take(const char *run_dir, int *fd, char *err, size_t errlen);
/* Release a lock taken (fd < 0: none). */
void rb_lock_release(int fd);

#endif
