/* SPDX-License-Identifier: MIT */
/* The strict numeric CSV reader (csv.h): one pass, growing arrays, the
 * first row fixing the column count. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/csv.h"
#include "harness/error.h"

struct reader {
    const char *path;
    char *err;
    size_t errlen;
    long line;
    int fields;                 /* fields per row, label included; 0 until the first */
    int labelled;
    size_t cap;                 /* rows the arrays hold */
    struct rb_csv *t;
};

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(struct reader *r, int code, long col, const char *fmt, ...)
{
    va_list ap;
    int k = snprintf(r->err, r->errlen, "%s:%ld:%ld: ", r->path, r->line, col);
    if (k >= 0 && (size_t)k < r->errlen) {
        va_start(ap, fmt);
        vsnprintf(r->err + k, r->errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return code;
}

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* The field starting at s, up to a comma or the end: [*b, *e) without the
 * blanks around it. */
static const char *field_end(const char *s, const char **b, const char **e)
{
    const char *p = s;
    while (*p && *p != ',')
        p++;
    *b = s;
    *e = p;
    while (*b < *e && is_blank(**b))
        (*b)++;
    while (*e > *b && is_blank((*e)[-1]))
        (*e)--;
    return p;
}

/* The field [b, e) as a finite number; 0, or -1 when it is not a number,
 * -2 when it is not finite. */
static int parse_number(const char *b, const char *e, double *v)
{
    char buf[128], *end;
    size_t n = (size_t)(e - b);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, b, n);
    buf[n] = '\0';
    errno = 0;
    *v = strtod(buf, &end);
    if (*end != '\0')
        return -1;
    /* strtod reads "nan", "inf" and overflows to inf; underflow is fine. */
    if (!isfinite(*v))
        return -2;
    return 0;
}

static int count_fields(const char *s)
{
    int k = 1;
    for (; *s; s++)
        k += *s == ',';
    return k;
}

/* 1 when every field of the line is a number (a row), else 0 (a header). */
static int all_numbers(const char *s)
{
    const char *b, *e;
    double v;
    for (;;) {
        s = field_end(s, &b, &e);
        if (parse_number(b, e, &v) != 0)
            return 0;
        if (!*s)
            return 1;
        s++;
    }
}

static int grow(struct reader *r)
{
    struct rb_csv *t = r->t;
    size_t cap = r->cap ? 2 * r->cap : 256;
    double *x = realloc(t->x, cap * (size_t)t->cols * sizeof *x);
    if (!x)
        return fail(r, RB_ENOMEM, 1, "out of memory for %zu rows", cap);
    t->x = x;
    if (r->labelled) {
        int *l = realloc(t->label, cap * sizeof *l);
        if (!l)
            return fail(r, RB_ENOMEM, 1, "out of memory for %zu rows", cap);
        t->label = l;
    }
    r->cap = cap;
    return 0;
}

static int parse_row(struct reader *r, const char *line)
{
    struct rb_csv *t = r->t;
    int have = count_fields(line);
    if (r->fields == 0) {
        if (have - r->labelled < 1)
            return fail(r, RB_EINVAL, 1, "a row needs a number%s",
                        r->labelled ? " before the label" : "");
        if (have - r->labelled > RB_CSV_MAX_COLS)
            return fail(r, RB_EINVAL, 1, "too large: %d columns (at most %d)",
                        have - r->labelled, RB_CSV_MAX_COLS);
        r->fields = have;
        t->cols = have - r->labelled;
    }
    if (t->rows >= RB_CSV_MAX_ROWS
        || (long long)(t->rows + 1) * t->cols > RB_CSV_MAX_VALUES)
        return fail(r, RB_EINVAL, 1, "too large: more than %d rows of %d numbers",
                    t->rows, t->cols);
    if ((size_t)t->rows == r->cap && grow(r) != 0)
        return RB_ENOMEM;
    const char *s = line, *b, *e;
    for (int f = 0; f < r->fields; f++) {
        long col = (long)(s - line) + 1;
        if (f > 0 && !*s)
            return fail(r, RB_EINVAL, col, "row has %d fields, the first row has %d",
                        have, r->fields);
        if (f > 0)
            s++, col++;
        s = field_end(s, &b, &e);
        col = (long)(b - line) + 1;
        double v;
        int bad = parse_number(b, e, &v);
        if (bad == -1 && b == e)
            return fail(r, RB_EINVAL, col, "empty field");
        if (bad == -1)
            return fail(r, RB_EINVAL, col, "'%.*s' is not a number", (int)(e - b), b);
        if (bad == -2)
            return fail(r, RB_EINVAL, col, "'%.*s' is not a finite number", (int)(e - b), b);
        if (r->labelled && f == r->fields - 1) {
            if (v != floor(v) || v < INT_MIN || v > INT_MAX)
                return fail(r, RB_EINVAL, col, "label '%.*s' is not an integer",
                            (int)(e - b), b);
            t->label[t->rows] = (int)v;
        } else {
            t->x[(size_t)t->rows * t->cols + f] = v;
        }
    }
    if (*s)
        return fail(r, RB_EINVAL, (long)(s - line) + 2,
                    "row has %d fields, the first row has %d", have, r->fields);
    t->rows++;
    return 0;
}

int rb_csv_read(const char *path, enum rb_csv_header header, int labelled,
                struct rb_csv *out, char *err, size_t len)
{
    struct reader r = { .path = path, .err = err, .errlen = len, .labelled = labelled != 0,
                        .t = out };
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, len, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    long blank_at = 0;          /* the first blank line since the last row */
    int rc = 0;
    while ((got = getline(&line, &cap, f)) >= 0) {
        r.line++;
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = '\0';
        if ((size_t)got != strlen(line)) {
            rc = fail(&r, RB_EINVAL, (long)strlen(line) + 1, "NUL byte in a text file");
            break;
        }
        if (r.line == 1 && (header == RB_CSV_HEADER
                            || (header == RB_CSV_HEADER_AUTO && !all_numbers(line))))
            continue;
        const char *p = line;
        while (is_blank(*p))
            p++;
        if (!*p) {
            if (!blank_at)
                blank_at = r.line;
            continue;
        }
        if (blank_at) {
            r.line = blank_at;
            rc = fail(&r, RB_EINVAL, 1, "blank line between rows");
            break;
        }
        if ((rc = parse_row(&r, line)) != 0)
            break;
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, len, "%s:%ld: read error", path, r.line + 1);
        rc = RB_EIO;
    }
    if (rc == 0 && out->rows == 0) {
        int empty = r.line == 0;
        r.line = empty ? 1 : r.line;
        rc = fail(&r, RB_EINVAL, 1, "%s", empty ? "empty file" : "no rows of numbers");
    }
    free(line);
    fclose(f);
    if (rc)
        rb_csv_free(out);
    return rc;
}

void rb_csv_free(struct rb_csv *t)
{
    free(t->x);
    free(t->label);
    t->x = NULL;
    t->label = NULL;
    t->rows = t->cols = 0;
}
