/* SPDX-License-Identifier: MIT */
/* Table-driven command-line options: one row per option gives its name, the
 * type and range of its value and its help text.  The parser checks values
 * against the row, enforces the one rule for repeats (an option is given at
 * most once: a second one is an error, exit 2) and writes --help from the
 * same rows, so that the help and what is accepted cannot drift apart. */
#ifndef RB_CLI_OPTS_H
#define RB_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

enum rb_opt_type {
    RB_OPT_END,         /* closes a table */
    RB_OPT_HEADING,     /* a heading line of --help ("Select:"); no option */
    RB_OPT_TEXT,        /* lines of --help text, as written; no option */
    RB_OPT_FLAG,        /* takes no value */
    RB_OPT_STRING,      /* a non-empty text, checked by the command */
    RB_OPT_LIST,        /* a non-empty comma list, checked by the command */
    RB_OPT_INT,         /* a whole number in [min, max] */
    RB_OPT_SECONDS,     /* a duration in seconds, (0, 1e6] */
    RB_OPT_CHOICE       /* one of the comma-separated words of `choices` */
};

struct rb_opt {
    enum rb_opt_type type;
    const char *name;           /* "--warmup" */
    const char *arg;            /* the value in --help: "N", "DIR", "P[,P]" */
    long long min, max;         /* RB_OPT_INT */
    const char *choices;        /* RB_OPT_CHOICE: "quick,paper,default" */
    int id;                     /* the command's own name for the option */
    const char *help;           /* --help text; '\n' starts another line */
    int repeat;                 /* may be given more than once (--image) */
};

/* A parsed value: .i for RB_OPT_INT, the index into `choices` for
 * RB_OPT_CHOICE, .s for RB_OPT_SECONDS, .str (argv's text) for every type
 * that has a value. */
struct rb_opt_value {
    long long i;
    double s;
    const char *str;
};

#define RB_CLI_MAX_OPTS 96
#define RB_CLI_MAX_EXTRA 16

/* Which options a parse saw: by row of the table, and the names of the
 * options outside it (run's axes), in the order given. */
struct rb_cli_seen {
    unsigned char row[RB_CLI_MAX_OPTS];
    size_t nextra;
    char extra[RB_CLI_MAX_EXTRA][64];
};

struct rb_cli {
    const char *command;        /* "run": errors read "run: ..." */
    const char *synopsis;       /* --help's first lines */
    int last_wins;              /* every option may be given again, the last one
                                   counting (embed, learn: as their old programs) */
    const struct rb_opt *opts;  /* ended by a row of type RB_OPT_END */
    /* Store a value (o is its row).  0, or 2 after one line on stderr. */
    int (*set)(void *self, const struct rb_opt *o, const struct rb_opt_value *v);
    /* Options outside the table that take a value (may be NULL): 1 when
     * name is one, then set_extra stores it (0, or 2 after one line). */
    int (*is_extra)(void *self, const char *name);
    int (*set_extra)(void *self, const char *name, const char *val);
    /* An argument that is not an option (may be NULL: then an error). */
    int (*positional)(void *self, const char *arg);
};

/* Parse argv[1..argc): "--name value", "--name=value", flags, positional
 * arguments; "--help" or "-h" prints the help on stdout.  Returns 0; -1
 * after printing the help; 2 after one line on stderr (an unknown option,
 * a missing or bad value, an option given twice).  seen may be NULL. */
int rb_cli_parse(const struct rb_cli *cli, int argc, char **argv, void *self,
                 struct rb_cli_seen *seen);

/* The help: the synopsis, then one line per row of the table. */
void rb_cli_help(const struct rb_cli *cli, FILE *f);

/* The row of the table with this id, or NULL. */
const struct rb_opt *rb_cli_opt(const struct rb_cli *cli, int id);

#endif
