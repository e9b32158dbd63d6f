/* SPDX-License-Identifier: MIT */
/* The PGM reader (rules in pgm.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/pgm.h"
#include "harness/error.h"

struct cursor {
    const unsigned char *b;
    size_t len, at;
};

static int fail(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s: ", name);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return RB_EINVAL;
}

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Skip whitespace and, when comments is set, '#' comments. */
static void skip(struct cursor *c, int comments)
{
    while (c->at < c->len) {
        if (is_space(c->b[c->at]))
            c->at++;
        else if (comments && c->b[c->at] == '#')
            while (c->at < c->len && c->b[c->at] != '\n')
                c->at++;
        else
            break;
    }
}

/* A decimal integer <= limit; 0 on success, -1 none, -2 too large. */
static int number(struct cursor *c, long limit, long *out)
{
    long v = 0;
    size_t from = c->at;
    while (c->at < c->len && c->b[c->at] >= '0' && c->b[c->at] <= '9') {
        v = v * 10 + (c->b[c->at++] - '0');
        if (v > limit)
            return -2;
    }
    if (c->at == from || (c->at < c->len && !is_space(c->b[c->at]) && c->b[c->at] != '#'))
        return -1;
    *out = v;
    return 0;
}

static int header_field(struct cursor *c, const char *what, long lo, long hi, long *out,
                        const char *name, char *err, size_t errlen)
{
    skip(c, 1);
    if (c->at >= c->len)
        return fail(err, errlen, name, "bad header: %s missing (file ends)", what);
    int rc = number(c, hi, out);
    if (rc == -1)
        return fail(err, errlen, name, "bad header: %s is not a decimal integer", what);
    if (rc == -2 || *out < lo)
        return fail(err, errlen, name, "bad header: %s out of range %ld..%ld", what, lo, hi);
    return 0;
}

int rb_pgm_parse(const unsigned char *buf, size_t len, const char *name, struct rb_pgm *img,
                 char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    struct cursor c = { buf, len, 0 };
    if (len < 2 || buf[0] != 'P' || (buf[1] != '5' && buf[1] != '2')
        || (len > 2 && !is_space(buf[2]) && buf[2] != '#'))
        return fail(err, errlen, name, "bad magic (want P5 or P2)");
    int binary = buf[1] == '5';
    c.at = 2;
    long w, h, maxval;
    int rc = header_field(&c, "width", 1, RB_PGM_MAX_SIDE, &w, name, err, errlen);
    if (rc == 0)
        rc = header_field(&c, "height", 1, RB_PGM_MAX_SIDE, &h, name, err, errlen);
    if (rc)
        return rc;
    skip(&c, 1);
    if (c.at >= c.len)
        return fail(err, errlen, name, "bad header: maxval missing (file ends)");
    rc = number(&c, 65535, &maxval);
    if (rc == -1)
        return fail(err, errlen, name, "bad header: maxval is not a decimal integer");
    if (rc == -2)
        return fail(err, errlen, name, "maxval above 65535 (want 1..65535)");
    if (maxval == 0)
        return fail(err, errlen, name, "maxval 0 (want 1..65535)");
    if (w * h > RB_PGM_MAX_PIXELS)
        return fail(err, errlen, name, "bad header: %ld x %ld pixels is too large", w, h);
    size_t n = (size_t)w * h, got = 0;
    img->pix = malloc(n * sizeof *img->pix);
    if (!img->pix)
        return RB_ENOMEM;
    img->width = (int)w;
    img->height = (int)h;
    img->maxval = (int)maxval;
    if (binary) {
        if (c.at >= c.len || !is_space(c.b[c.at])) {
            rb_pgm_free(img);
            return fail(err, errlen, name, "truncated data: no whitespace after maxval");
        }
        c.at++;
        size_t bytes = maxval < 256 ? 1 : 2;
        for (; got < n && c.at + bytes <= c.len; got++, c.at += bytes)
            img->pix[got] = bytes == 1 ? c.b[c.at]
                                       : (uint16_t)(c.b[c.at] << 8 | c.b[c.at + 1]);
    } else {
        for (; got < n; got++) {
            long v;
            skip(&c, 0);
            if (c.at >= c.len)
                break;
            int r = number(&c, 65535, &v);
            if (r == -1) {
                rb_pgm_free(img);
                return fail(err, errlen, name, "bad data: sample %zu is not a decimal integer",
                            got);
            }
            img->pix[got] = r == -2 ? 65535 : (uint16_t)v;
            if (r == -2)
                v = 65536;
            if (v > maxval) {
                rb_pgm_free(img);
                return fail(err, errlen, name, "bad data: sample %zu exceeds maxval %ld", got,
                            maxval);
            }
        }
    }
    if (got < n) {
        rb_pgm_free(img);
        return fail(err, errlen, name, "truncated data: %zu of %zu samples", got, n);
    }
    for (size_t k = 0; binary && k < n; k++)
        if (img->pix[k] > maxval) {
            rb_pgm_free(img);
            return fail(err, errlen, name, "bad data: sample %zu exceeds maxval %ld", k,
                        maxval);
        }
    skip(&c, 0);
    if (c.at < c.len) {
        rb_pgm_free(img);
        return fail(err, errlen, name, "trailing data after the raster at byte %zu", c.at);
    }
    return 0;
}

int rb_pgm_read(const char *path, struct rb_pgm *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        unsigned char *more = cap > (size_t)3 * RB_PGM_MAX_PIXELS ? NULL : realloc(buf, cap * 2);
        if (!more) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = more;
        cap *= 2;
    }
    if (!buf)
        rc = RB_ENOMEM;
    else if (ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        rc = RB_EIO;
    } else
        rc = rb_pgm_parse(buf, len, path, img, err, errlen);
    free(buf);
    fclose(f);
    return rc;
}

void rb_pgm_free(struct rb_pgm *img)
{
    free(img->pix);
    img->pix = NULL;
}
