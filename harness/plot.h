/* SPDX-License-Identifier: MIT */
/* Plots: each plots/<paper>_*.gp reads records.tsv by column name. */
#ifndef RB_PLOT_H
#define RB_PLOT_H

#include <stddef.h>

/* The folder holding the gnuplot scripts: $RB_PLOTS_DIR, else the installed
 * one, else the source tree's. */
const char *rb_plot_scripts_dir(void);

/* Regenerate records.tsv and every plot for the papers present in the run's
 * records into <run_dir>/plots/.  Prints each file written unless quiet.
 * Returns 0, or RB_ENODEV when gnuplot is missing, RB_EIO / RB_EINVAL. */
int rb_plot_run(const char *run_dir, int quiet, char *err, size_t errlen);

/* The gnuplot program to run: $GNUPLOT, configure's, else one on PATH, as a
 * path in buf.  0, or RB_ENODEV when there is none. */
int rb_plot_find_gnuplot(char *buf, size_t len);

/* Append s to buf at *at as the inside of a gnuplot single-quoted string.
 * 0, or RB_EINVAL when it does not fit or holds a newline. */
int rb_plot_quote(char *buf, size_t len, size_t *at, const char *s);

/* Run `gnuplot -e expr script`; 0 when it exits with status 0, else RB_EIO. */
int rb_plot_run_script(const char *gnuplot, const char *expr, const char *script);

#endif
