/* SPDX-License-Identifier: MIT */
/* One case from setup to record: setup, measure, verify, occupancy,
 * teardown, and the record appended whatever happened. */
#ifndef RB_EXECUTE_H
#define RB_EXECUTE_H

#include <stddef.h>
#include "harness/run/measure.h"
#include "harness/records/results.h"

#define RB_TALLY_NAMES 8

struct rb_tally {
    size_t ok, failed, skipped, resumed;
    size_t nodevice;                        /* of the skipped: no device when run */
    size_t refused;                         /* of the skipped: too large for memory */
    char failures[RB_TALLY_NAMES][200];     /* the first failures, for the summary */
};

/* Run case c and append its record to run.  A failure of the case itself is
 * recorded and counted, not returned: the return is non-zero only when the
 * record could not be written (message in err). */
int rb_case_execute(struct rb_case *c, const struct rb_policy *p, struct rb_run *run,
                    struct rb_tally *t, char *err, size_t errlen);

/* "12 ok, 1 failed, 0 skipped" and the failures, on stderr. */
void rb_tally_print(const struct rb_tally *t, const char *run_dir);

#endif
