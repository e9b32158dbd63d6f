/* SPDX-License-Identifier: MIT */
/* The report's document model: headings, paragraphs, lists, tables and
 * figures as JSON blocks, and the record fields every section formats. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness/error.h"
#include "harness/report/report.h"

int rb_doc_init(struct rb_doc *d)
{
    d->bad = 0;
    d->blocks = json_array();
    return d->blocks ? 0 : RB_ENOMEM;
}

void rb_doc_free(struct rb_doc *d)
{
    json_decref(d->blocks);
    d->blocks = NULL;
}

/* Append block (a new reference) to the document; returns it, borrowed. */
static json_t *add(struct rb_doc *d, json_t *block)
{
    if (!block || json_array_append_new(d->blocks, block) < 0) {
        d->bad = 1;
        return NULL;
    }
    return block;
}

/* Records come through jansson and are UTF-8; this guards our own text. */
static json_t *text(struct rb_doc *d, const char *s)
{
    json_t *j = json_string(s ? s : "");

    if (!j) {
        j = json_string("?");
        d->bad |= !j;
    }
    return j;
}

void rb_doc_heading(struct rb_doc *d, int level, const char *s)
{
    add(d, json_pack("{s:s, s:i, s:o}", "type", "h", "level", level, "text", text(d, s)));
}

void rb_doc_para(struct rb_doc *d, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    add(d, json_pack("{s:s, s:o}", "type", "p", "text", text(d, buf)));
}

json_t *rb_doc_list(struct rb_doc *d)
{
    json_t *b = add(d, json_pack("{s:s, s:[]}", "type", "list", "items"));

    return b ? json_object_get(b, "items") : NULL;
}

void rb_doc_item(struct rb_doc *d, json_t *list, const char *s)
{
    if (!list || json_array_append_new(list, text(d, s)) < 0)
        d->bad = 1;
}

json_t *rb_doc_table(struct rb_doc *d, const char *const *head, size_t ncol)
{
    json_t *b = add(d, json_pack("{s:s, s:[], s:[]}", "type", "table", "head", "rows"));
    json_t *h = json_object_get(b, "head");

    for (size_t i = 0; h && i < ncol; i++)
        if (json_array_append_new(h, text(d, head[i])) < 0)
            d->bad = 1;
    return b;
}

void rb_doc_row(struct rb_doc *d, json_t *table, const char *const *cells)
{
    size_t ncol = json_array_size(json_object_get(table, "head"));
    json_t *row = json_array();

    if (!table || !row) {
        json_decref(row);
        d->bad = 1;
        return;
    }
    for (size_t i = 0; i < ncol; i++)
        if (json_array_append_new(row, text(d, cells[i])) < 0)
            d->bad = 1;
    if (json_array_append_new(json_object_get(table, "rows"), row) < 0)
        d->bad = 1;
}

void rb_doc_image(struct rb_doc *d, const char *src, const char *caption)
{
    add(d, json_pack("{s:s, s:o, s:o}", "type", "img", "src", text(d, src),
                     "caption", text(d, caption)));
}

const char *rb_rec_str(const json_t *rec, const char *key)
{
    const char *s = json_string_value(json_object_get(rec, key));

    return s ? s : "";
}

double rb_rec_median(const json_t *rec)
{
    const json_t *m = json_object_get(json_object_get(rec, "stats"), "median");

    return json_is_number(m) ? json_number_value(m) : NAN;
}

/* Verified or not checked: a result that failed its check is not counted,
 * whatever its status says. */
int rb_rec_ok(const json_t *rec)
{
    const json_t *v = json_object_get(rec, "verify");
    double med = rb_rec_median(rec);

    return strcmp(rb_rec_str(rec, "status"), "ok") == 0 && isfinite(med) && med > 0
           && !(json_is_object(v) && !json_is_true(json_object_get(v, "pass")));
}

void rb_axes_label(const json_t *axes, char *buf, size_t len)
{
    const char *name;
    const json_t *v;
    size_t at = 0;

    buf[0] = '\0';
    json_object_foreach((json_t *)axes, name, v) {
        int n;

        if (json_is_integer(v))
            n = snprintf(buf + at, len - at, "%s%s=%lld", at ? " " : "", name,
                         (long long)json_integer_value(v));
        else if (json_is_number(v))
            n = snprintf(buf + at, len - at, "%s%s=%g", at ? " " : "", name,
                         json_number_value(v));
        else
            n = snprintf(buf + at, len - at, "%s%s=-", at ? " " : "", name);
        if (n < 0 || (size_t)n >= len - at)
            break;
        at += (size_t)n;
    }
    if (at == 0)
        snprintf(buf, len, "-");
}

void rb_ms_label(double ms, char *buf, size_t len)
{
    if (isfinite(ms))
        snprintf(buf, len, "%.4g", ms);
    else
        snprintf(buf, len, "-");
}
