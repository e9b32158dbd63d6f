/* SPDX-License-Identifier: MIT */
/* One device's ceilings as a value: cleared, failed with a reason, and as
 * the JSON object meta.json keeps. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "harness/run/ceiling.h"
#include "harness/records/json_build.h"

void rb_ceiling_clear(struct rb_ceiling *c)
{
    memset(c, 0, sizeof *c);
    c->copy_gbytes_per_s = c->fp32_gflops = c->fp64_gflops = NAN;
}

void rb_ceiling_fail(struct rb_ceiling *c, const char *fmt, ...)
{
    va_list ap;

    if (c->error[0])
        return;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
}

/* A rate the probe did not measure is null, never zero. */
static json_t *rate_json(double x)
{
    return isfinite(x) && x > 0 ? json_real(x) : json_null();
}

static json_t *text_or_null(const char *s)
{
    return s[0] ? json_string(s) : json_null();
}

json_t *rb_ceiling_json(const struct rb_ceiling *c)
{
    json_t *o = json_object();
    int bad = 0;

    if (!o)
        return NULL;
    rb_json_put(o, "device", text_or_null(c->device), &bad);
    rb_json_put(o, "copy_gbytes_per_s", rate_json(c->copy_gbytes_per_s), &bad);
    rb_json_put(o, "fp32_gflops", rate_json(c->fp32_gflops), &bad);
    rb_json_put(o, "fp64_gflops", rate_json(c->fp64_gflops), &bad);
    rb_json_put(o, "method", text_or_null(c->method), &bad);
    rb_json_put(o, "error", text_or_null(c->error), &bad);
    return rb_json_finish(o, bad);
}
