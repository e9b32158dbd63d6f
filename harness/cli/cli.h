/* SPDX-License-Identifier: MIT */
/* The subcommands.  Each returns the process exit status: 0 success, 1 a case
 * failed or did not verify, 2 bad input (one line on stderr says which). */
#ifndef RB_CLI_H
#define RB_CLI_H

int rb_cli_list(int argc, char **argv);
int rb_cli_info(int argc, char **argv);
int rb_cli_run(int argc, char **argv);
int rb_cli_plot(int argc, char **argv);
/* compare: 0, 1 when a case regressed beyond --fail-above, 2 bad input. */
int rb_cli_compare(int argc, char **argv);
int rb_cli_report(int argc, char **argv);
/* db import|info and history: the results store (harness/store/db.h). */
int rb_cli_db(int argc, char **argv);
int rb_cli_history(int argc, char **argv);
/* submit, merge and status: a sweep as Slurm jobs (docs/slurm.md). */
int rb_cli_submit(int argc, char **argv);
int rb_cli_merge(int argc, char **argv);
int rb_cli_status(int argc, char **argv);

/* embed and learn: the papers' tools (impl/sammon, impl/sbo). */
int rb_cli_embed(int argc, char **argv);
int rb_cli_learn(int argc, char **argv);

/* The name usage errors begin with: "reprobench", or the program an old
 * alias (sammon-embed) runs as. */
extern const char *rb_cli_prog;

/* Print "<rb_cli_prog>: <message>" on stderr and return 2. */
int rb_cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
