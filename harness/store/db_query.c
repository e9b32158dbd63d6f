/* SPDX-License-Identifier: MIT */
/* Store queries: "FIELD=V1,V2" and "FIELD~TEXT" terms, from the command line
 * of history and compare --db, checked here so that a field nobody knows is
 * one clear error before the store is opened. */
#define _GNU_SOURCE             /* strptime, timegm */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/store/db.h"
#include "harness/error.h"
#include "harness/cli/parse.h"
#include "harness/registry.h"

/* name       field */
static const struct {
    const char *name;
    enum rb_db_field field;
} fields[] = {
    { "run", RB_DBQ_RUN },         { "git", RB_DBQ_GIT },
    { "host", RB_DBQ_HOST },       { "machine", RB_DBQ_MACHINE },
    { "since", RB_DBQ_SINCE },     { "until", RB_DBQ_UNTIL },
    { "paper", RB_DBQ_PAPER },     { "algo", RB_DBQ_ALGO },
    { "variant", RB_DBQ_VARIANT }, { "backend", RB_DBQ_BACKEND },
    { "prec", RB_DBQ_PREC },       { "status", RB_DBQ_STATUS },
};

/* An age: "12h", "3d", "2w" before now. */
static int parse_age(const char *s, time_t *out)
{
    char *end;
    long long n = strtoll(s, &end, 10);
    long long unit = *end == 'h' ? 3600 : *end == 'd' ? 86400 : *end == 'w' ? 604800 : 0;

    if (end == s || !unit || end[1] || n < 0 || n > 100000)
        return RB_EINVAL;
    *out = time(NULL) - (time_t)(n * unit);
    return 0;
}

/* YYYY-MM-DD, optionally THH:MM or THH:MM:SS, optionally Z; UTC. */
static int parse_date(const char *s, time_t *out)
{
    struct tm tm;
    const char *end;
    char norm[32];

    memset(&tm, 0, sizeof tm);
    if (!(end = strptime(s, "%Y-%m-%d", &tm)))
        return RB_EINVAL;
    if (*end == 'T' || *end == ' ') {
        const char *t = strptime(end + 1, "%H:%M:%S", &tm);
        if (!t)
            t = strptime(end + 1, "%H:%M", &tm);
        if (!t)
            return RB_EINVAL;
        end = t;
    }
    if (*end == 'Z')
        end++;
    if (*end)
        return RB_EINVAL;
    *out = timegm(&tm);
    /* strptime takes 2026-02-31; what timegm makes of it must read back. */
    strftime(norm, sizeof norm, "%Y-%m-%d", gmtime_r(out, &tm));
    return strncmp(norm, s, 10) == 0 ? 0 : RB_EINVAL;
}

static int parse_time(const char *s, char *buf, size_t len)
{
    struct tm tm;
    time_t t;

    if (parse_age(s, &t) && parse_date(s, &t))
        return RB_EINVAL;
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    return 0;
}

static int axis_term(struct rb_db_term *t, const char *field, const char *value, char *err,
                     size_t errlen)
{
    long long lo, hi;
    char why[200];
    int n;

    if (rb_registry_axis_range(field, &lo, &hi)) {
        snprintf(err, errlen, "axis '%s' has no values to compare", field);
        return RB_EINVAL;
    }
    if ((n = rb_parse_list(value, lo, hi, t->v, RB_MAX_VALUES, why, sizeof why)) < 0) {
        snprintf(err, errlen, "%s: %s", field, why);
        return RB_EINVAL;
    }
    t->nv = (size_t)n;
    t->field = RB_DBQ_AXIS;
    return 0;
}

int rb_db_query_add(struct rb_db_query *q, const char *field, enum rb_db_op op,
                    const char *value, char *err, size_t errlen)
{
    struct rb_db_term *t;
    size_t i;

    if (q->n == RB_DB_MAX_TERMS) {
        snprintf(err, errlen, "a query of more than %d terms", RB_DB_MAX_TERMS);
        return RB_EINVAL;
    }
    t = &q->t[q->n];
    memset(t, 0, sizeof *t);
    t->op = op;
    if (!*value || strlen(value) >= sizeof t->value || strlen(field) >= sizeof t->name) {
        snprintf(err, errlen, "%s: %s value", field, *value ? "too long a" : "an empty");
        return RB_EINVAL;
    }
    snprintf(t->name, sizeof t->name, "%s", field);
    snprintf(t->value, sizeof t->value, "%s", value);
    for (i = 0; i < sizeof fields / sizeof *fields; i++)
        if (strcmp(fields[i].name, field) == 0)
            break;
    if (i < sizeof fields / sizeof *fields) {
        t->field = fields[i].field;
        if ((t->field == RB_DBQ_SINCE || t->field == RB_DBQ_UNTIL)
            && (op != RB_DBQ_EQ || parse_time(value, t->value, sizeof t->value))) {
            snprintf(err, errlen, "%s: '%s' is not a date (YYYY-MM-DD[THH:MM[:SS]], UTC) or "
                     "an age (12h, 3d, 2w)", field, value);
            return RB_EINVAL;
        }
    } else if (rb_registry_axis(field)) {
        if (op != RB_DBQ_EQ) {
            snprintf(err, errlen, "%s: an axis takes '=' and a list, not '~'", field);
            return RB_EINVAL;
        }
        if (axis_term(t, field, value, err, errlen))
            return RB_EINVAL;
    } else {
        snprintf(err, errlen, "unknown field '%s' (%s)", field, RB_DB_QUERY_FIELDS);
        return RB_EINVAL;
    }
    q->n++;
    return 0;
}

/* One term "FIELD=V", "FIELD~V", or a bare word. */
static int parse_term(struct rb_db_query *q, const char *word, char *err, size_t errlen)
{
    size_t n = strcspn(word, "=~");
    char field[64];

    if (!word[n]) {
        if (rb_db_query_add(q, "git", RB_DBQ_EQ, word, err, errlen))
            return RB_EINVAL;
        q->t[q->n - 1].field = RB_DBQ_WORD;
        return 0;
    }
    if (n == 0 || n >= sizeof field) {
        snprintf(err, errlen, "'%s' is not FIELD=VALUE or FIELD~TEXT", word);
        return RB_EINVAL;
    }
    memcpy(field, word, n);
    field[n] = '\0';
    return rb_db_query_add(q, field, word[n] == '~' ? RB_DBQ_LIKE : RB_DBQ_EQ, word + n + 1,
                           err, errlen);
}

int rb_db_query_parse(const char *text, struct rb_db_query *q, char *err, size_t errlen)
{
    char word[512];
    const char *p = text;

    while (*p) {
        size_t n;

        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        n = strcspn(p, " \t\n");
        if (n >= sizeof word) {
            snprintf(err, errlen, "query '%s': a term too long", text);
            return RB_EINVAL;
        }
        memcpy(word, p, n);
        word[n] = '\0';
        p += n;
        if (parse_term(q, word, err, errlen)) {
            char why[400];
            snprintf(why, sizeof why, "%s", err);
            snprintf(err, errlen, "query '%s': %s", text, why);
            return RB_EINVAL;
        }
    }
    return 0;
}
