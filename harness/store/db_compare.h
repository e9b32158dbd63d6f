/* SPDX-License-Identifier: MIT */
/* compare --db: a comparison of two selections from the results store. */
#ifndef RB_DB_COMPARE_H
#define RB_DB_COMPARE_H

#include <stddef.h>

#include "harness/report/compare.h"

/* Select the records of query_a and query_b (rb_db_query_parse's terms)
 * from the store, keep the newest record of each case on each side, and
 * compare them as rb_compare_runs compares two runs; a_dir and b_dir name
 * the store and the queries.  0, or RB_EINVAL (a bad query, a side that
 * selects nothing, not a store), RB_EIO, RB_ENOMEM, RB_ENODEV (no store in
 * this binary), with one line in err. */
int rb_compare_store(const char *store, const char *query_a, const char *query_b,
                     const struct rb_ratio_opts *o, struct rb_comparison *cmp,
                     char *err, size_t errlen);

#endif
