/* SPDX-License-Identifier: MIT */
/* Helpers of the variant interface: parameters, failure messages, names. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "harness/variant.h"

static const char *const backend_names[RB_BACKEND_COUNT] = {
    [RB_BACKEND_SERIAL] = "serial",
    [RB_BACKEND_OMP] = "omp",
    [RB_BACKEND_OPENCL] = "opencl",
    [RB_BACKEND_CUDA] = "cuda",
    [RB_BACKEND_HIP] = "hip",
};

long long rb_case_param(const struct rb_case *c, const char *name, long long deflt)
{
    for (int i = 0; i < c->nparams; i++)
        if (strcmp(c->params[i].name, name) == 0)
            return c->params[i].value;
    return deflt;
}

void rb_case_metric(struct rb_case *c, const char *name, double value)
{
    int i = 0;

    while (i < c->nmetrics && strcmp(c->metrics[i].name, name) != 0)
        i++;
    if (i == RB_MAX_METRICS)
        return;
    if (i == c->nmetrics) {
        snprintf(c->metrics[i].name, sizeof c->metrics[i].name, "%s", name);
        c->nmetrics++;
    }
    c->metrics[i].value = value;
}

int rb_fail(struct rb_case *c, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return code;
}

const char *rb_backend_name(enum rb_backend b)
{
    return (unsigned)b < RB_BACKEND_COUNT ? backend_names[b] : "unknown";
}

int rb_backend_parse(const char *s, enum rb_backend *out)
{
    for (int b = 0; b < RB_BACKEND_COUNT; b++)
        if (strcmp(s, backend_names[b]) == 0) {
            *out = (enum rb_backend)b;
            return 0;
        }
    return -1;
}

const char *rb_prec_name(enum rb_prec p)
{
    return p == RB_PREC_F64 ? "f64" : "f32";
}

size_t rb_prec_size(enum rb_prec p)
{
    return p == RB_PREC_F64 ? sizeof(double) : sizeof(float);
}
