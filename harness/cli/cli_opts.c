/* SPDX-License-Identifier: MIT */
/* The table-driven option parser and the --help it writes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/cli/parse.h"

const char *rb_cli_prog = "reprobench";

int rb_cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", rb_cli_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

/* Where help text starts: options and their values fit before it. */
#define HELP_COLUMN 21

static int takes_value(const struct rb_opt *o)
{
    return o->type >= RB_OPT_STRING;
}

static const struct rb_opt *find(const struct rb_cli *cli, const char *name, int *row)
{
    for (int i = 0; cli->opts[i].type != RB_OPT_END; i++)
        if (cli->opts[i].name && strcmp(cli->opts[i].name, name) == 0) {
            *row = i;
            return &cli->opts[i];
        }
    return NULL;
}

const struct rb_opt *rb_cli_opt(const struct rb_cli *cli, int id)
{
    for (const struct rb_opt *o = cli->opts; o->type != RB_OPT_END; o++)
        if (o->name && o->id == id)
            return o;
    return NULL;
}

/* The index of val among the comma-separated words of choices, or -1. */
static int choice_index(const char *choices, const char *val)
{
    size_t len = strlen(val);
    const char *p = choices;

    for (int k = 0; p && len; k++) {
        if (strncmp(p, val, len) == 0 && (p[len] == ',' || p[len] == '\0'))
            return k;
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    return -1;
}

/* Check val against the row and hand it to the command. */
static int set_value(const struct rb_cli *cli, void *self, const struct rb_opt *o,
                     const char *val)
{
    struct rb_opt_value v = { .str = val };
    char err[200];

    switch (o->type) {
    case RB_OPT_STRING:
    case RB_OPT_LIST:
        if (!*val)
            return rb_cli_usage_error("%s: %s: empty value", cli->command, o->name);
        if (o->type == RB_OPT_LIST && (val[0] == ',' || val[strlen(val) - 1] == ','
                                       || strstr(val, ",,")))
            return rb_cli_usage_error("%s: '%s' has an empty item", o->name, val);
        break;
    case RB_OPT_INT:
        if (rb_parse_ll(val, o->min, o->max, &v.i, err, sizeof err))
            return rb_cli_usage_error("%s: %s", o->name, err);
        break;
    case RB_OPT_SECONDS:
        if (rb_parse_seconds(val, &v.s, err, sizeof err))
            return rb_cli_usage_error("%s: %s", o->name, err);
        break;
    case RB_OPT_CHOICE:
        if ((v.i = choice_index(o->choices, val)) < 0)
            return rb_cli_usage_error("%s: unknown value '%s' (%s)", o->name, val,
                                      o->choices);
        break;
    default:
        break;
    }
    return cli->set(self, o, &v);
}

static int seen_extra(struct rb_cli_seen *seen, const char *name)
{
    for (size_t i = 0; i < seen->nextra; i++)
        if (strcmp(seen->extra[i], name) == 0)
            return 1;
    if (seen->nextra < RB_CLI_MAX_EXTRA)
        snprintf(seen->extra[seen->nextra++], sizeof seen->extra[0], "%s", name);
    return 0;
}

static int given_twice(const struct rb_cli *cli, const char *name, int list)
{
    return rb_cli_usage_error("%s: %s is given twice (each option at most once%s%s%s)",
                              cli->command, name, list ? "; a list is one value: " : "",
                              list ? name : "", list ? " A,B" : "");
}

/* One argument that starts with "--"; *i moves past its value. */
static int parse_option(const struct rb_cli *cli, int argc, char **argv, int *i, void *self,
                        struct rb_cli_seen *seen)
{
    const char *a = argv[*i], *eq = strchr(a, '='), *val = NULL;
    char name[64];
    int row, extra = 0;
    const struct rb_opt *o;

    if ((size_t)snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a)
        >= sizeof name)
        return rb_cli_usage_error("%s: unknown option '%.40s...'", cli->command, a);
    o = find(cli, name, &row);
    if (!o && !(extra = cli->is_extra && cli->is_extra(self, name + 2)))
        return rb_cli_usage_error("%s: unknown option '%s' (see 'reprobench %s --help')",
                                  cli->command, name, cli->command);
    if (o && !takes_value(o)) {
        if (eq)
            return rb_cli_usage_error("%s: %s takes no value", cli->command, name);
    } else if (eq) {
        val = eq + 1;
    } else if (*i + 1 < argc) {
        val = argv[++*i];
    } else {
        return rb_cli_usage_error("%s: option '%s' needs a value", cli->command, name);
    }
    if (extra) {
        if (seen_extra(seen, name + 2))
            return given_twice(cli, name, 1);
        return cli->set_extra(self, name + 2, val);
    }
    if (row < RB_CLI_MAX_OPTS && seen->row[row]++ && !o->repeat && !cli->last_wins)
        return given_twice(cli, name, o->type == RB_OPT_LIST);
    return set_value(cli, self, o, val);
}

int rb_cli_parse(const struct rb_cli *cli, int argc, char **argv, void *self,
                 struct rb_cli_seen *seen)
{
    struct rb_cli_seen own;

    if (!seen)
        seen = &own;
    memset(seen, 0, sizeof *seen);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc;

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            rb_cli_help(cli, stdout);
            return -1;
        }
        if (strncmp(a, "--", 2) == 0 && a[2])
            rc = parse_option(cli, argc, argv, &i, self, seen);
        else if (cli->positional)
            rc = cli->positional(self, a);
        else
            rc = rb_cli_usage_error("%s: unexpected argument '%s'", cli->command, a);
        if (rc)
            return 2;
    }
    return 0;
}

/* Help text, its continuation lines indented to the help column. */
static void put_help(FILE *f, const char *help, int at)
{
    for (const char *line = help; line; ) {
        const char *nl = strchr(line, '\n');
        int len = nl ? (int)(nl - line) : (int)strlen(line);

        fprintf(f, "%*s%.*s\n", at < HELP_COLUMN ? HELP_COLUMN - at : 2, "", len, line);
        at = 0;
        line = nl ? nl + 1 : NULL;
    }
}

void rb_cli_help(const struct rb_cli *cli, FILE *f)
{
    fputs(cli->synopsis, f);
    for (const struct rb_opt *o = cli->opts; o->type != RB_OPT_END; o++) {
        int at;

        switch (o->type) {
        case RB_OPT_HEADING:
            fprintf(f, "%s\n", o->help);
            break;
        case RB_OPT_TEXT:
            fprintf(f, "%s\n", o->help);
            break;
        default:
            at = fprintf(f, "  %s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
            put_help(f, o->help ? o->help : "", at);
        }
    }
}
