/* SPDX-License-Identifier: MIT */
/* Plots: each plots/<paper>_*.gp reads records.tsv by column name. */
#ifndef RB_PLOT_H
#define RB_PLOT_H

#include <stddef.h>
#include <jansson.h>

/* The folder holding the gnuplot scripts: $RB_PLOTS_DIR, else the installed
 * one, else the source tree's. */
const char *rb_plot_scripts_dir(void);

/* Regenerate records.tsv and every plot for the papers present in the run's
 * records into <run_dir>/plots/.  Prints each file written unless quiet.
 * A figure the records cannot draw is listed, with the script's reason, in
 * <run_dir>/plots/not-drawn.tsv (columns figure, reason), which the report
 * reads; one line names them all unless quiet.  Returns 0, or RB_ENODEV
 * when gnuplot is missing, RB_EIO / RB_EINVAL. */
int rb_plot_run(const char *run_dir, int quiet, char *err, size_t errlen);

/* The file listing the figures not drawn, beside them. */
#define RB_PLOT_NOT_DRAWN "not-drawn.tsv"

/* The gnuplot program to run: $GNUPLOT, configure's, else one on PATH, as a
 * path in buf.  0, or RB_ENODEV when there is none. */
int rb_plot_find_gnuplot(char *buf, size_t len);

/* Append s to buf at *at as the inside of a gnuplot single-quoted string.
 * 0, or RB_EINVAL when it does not fit or holds a newline. */
int rb_plot_quote(char *buf, size_t len, size_t *at, const char *s);

/* Run `gnuplot -e expr script`; 0 when it exits with status 0, else RB_EIO. */
int rb_plot_run_script(const char *gnuplot, const char *expr, const char *script);

/* Run script with in=tsv and outdir set to a temporary directory inside
 * outdir (extra, if not NULL, appended to the -e expression); each figure
 * it draws is checked whole (rb_plot_figure_complete) and renamed into
 * outdir, printed "wrote PATH" after its rename unless quiet, and its name
 * appended to written (may be NULL).  Returns 0; RB_ESKIP when it drew
 * nothing, with its own reason in why; RB_EIO when gnuplot failed or a
 * figure could not be written (why names it), RB_EINVAL. */
int rb_plot_script_into(const char *gnuplot, const char *script, const char *tsv,
                        const char *outdir, const char *extra, int quiet, json_t *written,
                        char *why, size_t whylen);

/* 1 when the figure at path is whole: a PNG ends in its IEND chunk, a PDF
 * in %%EOF; any other non-empty file counts as whole. */
int rb_plot_figure_complete(const char *path);
/* Check the figure at from and move it over to (rb_atomic_move).  0, or
 * RB_EIO with "to: reason" in err. */
int rb_plot_figure_move(const char *from, const char *to, char *err, size_t errlen);

#endif
