/* SPDX-License-Identifier: MIT */
/* Slurm's commands as reprobench calls them: sbatch for a sweep's shards
 * and its merge, squeue and scontrol for their states; and RUN/slurm.json,
 * the jobs a sweep was submitted as. */
#ifndef RB_SUBMIT_H
#define RB_SUBMIT_H

#include <stddef.h>
#include <jansson.h>

/* Run argv (argv[0] looked up on PATH) and wait: its stdout into out, the
 * last non-empty line of its stderr into msg (or "exit status N").  The
 * exit status; -1 when it could not be started (msg says why). */
int rb_slurm_exec(char *const argv[], char *out, size_t outlen, char *msg, size_t msglen);

/* Whether prog is an executable file on PATH. */
int rb_slurm_have(const char *prog);

/* The job id that `sbatch --parsable` printed ("123" or "123;cluster"),
 * or -1. */
long rb_slurm_job_id(const char *out);

/* The state of each task of array job `array` (index 1..k into states,
 * each a buffer of 32; "" where Slurm no longer knows it), and of job
 * `merge` into merge_state: from squeue, else scontrol, else sacct.  0 when Slurm
 * answered, -1 when no Slurm could be asked. */
int rb_slurm_states(long array, int k, char (*states)[32], long merge, char *merge_state);

/* RUN/slurm.json: {"shards": K, "submissions": [{"array", "merge", "tasks",
 * "partition"}...]}.  A new reference, or NULL when there is none. */
json_t *rb_submit_load(const char *run_dir);
/* Write it whole (temporary and rename).  0, or RB_EIO with err. */
int rb_submit_store(const char *run_dir, const json_t *j, char *err, size_t errlen);

/* Remove dir and everything under it (a run directory submit made itself
 * and could not submit). */
void rb_submit_remove(const char *dir);

#endif
