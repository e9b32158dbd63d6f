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

#endif
