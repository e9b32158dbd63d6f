/* SPDX-License-Identifier: MIT */
/* The sweep planner: the Cartesian product of each selected variant's axes
 * and precisions, after the filters; cases that do not combine are counted
 * and reported, never silently dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/backend.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "harness/run/sweep.h"

/* Whether name is one of the comma-separated names of list. */
static int in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

static int selected(const struct rb_sweep_opts *o, const struct rb_variant *v)
{
    return (!o->paper || in_list(o->paper, v->paper))
        && (!o->algo || in_list(o->algo, v->algo))
        && (!o->variant || in_list(o->variant, v->name))
        && (!o->backends || (o->backends & (1u << v->backend)));
}

/* Every name of a --paper, --algo or --variant list must name something
 * registered, so that a misspelt one is an error, not a silent omission. */
static int names_known(const char *opt, const char *list, int field, char *err,
                       size_t errlen)
{
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        size_t len = strcspn(p, ",");
        int known = 0;
        const struct rb_variant *v;
        for (size_t k = 0; (v = rb_registry_get(k)) && !known; k++) {
            const char *have = field == 0 ? v->paper : field == 1 ? v->algo : v->name;
            known = strlen(have) == len && strncmp(have, p, len) == 0;
        }
        if (!known) {
            snprintf(err, errlen, "--%s: nothing is named '%.*s' (see 'reprobench list')", opt,
                     (int)len, p);
            return RB_EINVAL;
        }
    }
    return 0;
}

static const long long *preset_list(const struct rb_axis *a, enum rb_preset p)
{
    if (p == RB_PRESET_QUICK && a->quick)
        return a->quick;
    if (p == RB_PRESET_PAPER && a->paper)
        return a->paper;
    return a->deflt;
}

/* The values of one axis for this sweep: the override, else the preset. */
static size_t axis_values(const struct rb_sweep_opts *o, const struct rb_axis *a,
                          const long long **vals)
{
    for (size_t i = 0; i < o->noverrides; i++)
        if (strcmp(o->overrides[i].name, a->name) == 0) {
            *vals = o->overrides[i].v;
            return o->overrides[i].n;
        }
    const long long *l = preset_list(a, o->preset);
    size_t n = 0;
    while (l && l[n] != RB_AXIS_END)
        n++;
    *vals = l;
    return n;
}

static int has_axis(const struct rb_variant *v, const char *name)
{
    for (const struct rb_axis *a = v->sizes; a && a->name; a++)
        if (strcmp(a->name, name) == 0)
            return 1;
    for (const struct rb_axis *a = v->tunables; a && a->name; a++)
        if (strcmp(a->name, name) == 0)
            return 1;
    return 0;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t splitmix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The data seed depends on the paper and the sizes only, so every variant and
 * precision of one size sees the same inputs. */
static uint64_t case_seed(const struct rb_case *c, int nsizes)
{
    char buf[32];
    uint64_t h = fnv1a(0xcbf29ce484222325ull, c->v->paper);
    for (int i = 0; i < nsizes; i++) {
        snprintf(buf, sizeof buf, "/%lld", c->params[i].value);
        h = fnv1a(fnv1a(h, c->params[i].name), buf);
    }
    return splitmix(c->ctx->seed ^ h);
}

int rb_case_fits(const struct rb_case *c, char *why, size_t len)
{
    const struct rb_ctx *ctx = c->ctx;
    unsigned long long need;

    if (!c->v->footprint || !ctx->mem_limit
        || (c->v->backend != RB_BACKEND_SERIAL && c->v->backend != RB_BACKEND_OMP)
        || (need = c->v->footprint(c)) <= ctx->mem_limit)
        return 1;
    if (ctx->mem_limit_mb)
        snprintf(why, len, "needs %.2f GiB of host memory, more than the %.2f GiB "
                 "RB_MEM_LIMIT_MB=%llu allows", (double)need / (1 << 30),
                 (double)ctx->mem_limit / (1 << 30), ctx->mem_limit_mb);
    else
        snprintf(why, len, "needs %.2f GiB of host memory, more than the %.2f GiB this host "
                 "allows (90%% of its memory)", (double)need / (1 << 30),
                 (double)ctx->mem_limit / (1 << 30));
    return 0;
}

struct planner {
    struct rb_plan *plan;
    size_t cap;
    size_t skipped;
    char first_skip[256];
    size_t refused;                         /* planned, but too large for memory */
    char first_refused[320];
    int unused[RB_BACKEND_COUNT];           /* variants left out per backend */
    char unused_why[RB_BACKEND_COUNT][256];
};

/* A variant of backend b left out of the sweep, and why (the first reason). */
static void note_skip(struct planner *pl, enum rb_backend b, const char *why)
{
    if (pl->unused[b]++ == 0)
        snprintf(pl->unused_why[b], sizeof pl->unused_why[b], "%s", why);
}

static int push(struct planner *pl, const struct rb_case *c)
{
    if (pl->plan->n == pl->cap) {
        size_t cap = pl->cap ? 2 * pl->cap : 64;
        struct rb_case *p = realloc(pl->plan->cases, cap * sizeof *p);
        if (!p)
            return RB_ENOMEM;
        pl->plan->cases = p;
        pl->cap = cap;
    }
    pl->plan->cases[pl->plan->n++] = *c;
    return 0;
}

/* Axes of one name may have different ranges in different variants (the
 * command line checks the union): a value outside this variant's range
 * skips the case, with the reason in c->msg. */
static int out_of_range(struct rb_case *c, const struct rb_axis *const *axes)
{
    for (int i = 0; i < c->nparams; i++) {
        long long x = c->params[i].value;
        if (x < axes[i]->min || x > axes[i]->max) {
            rb_fail(c, RB_ESKIP, "%s %lld is outside this variant's range %lld..%lld",
                    axes[i]->name, x, axes[i]->min, axes[i]->max);
            return 1;
        }
    }
    return 0;
}

/* Expand one variant at one precision over all its axes. */
static int expand(struct planner *pl, const struct rb_sweep_opts *o, struct rb_ctx *ctx,
                  const struct rb_variant *v, enum rb_prec prec, char *err, size_t errlen)
{
    const struct rb_axis *axes[RB_MAX_PARAMS];
    const long long *vals[RB_MAX_PARAMS];
    size_t nvals[RB_MAX_PARAMS], idx[RB_MAX_PARAMS] = { 0 };
    int na = 0, nsizes = 0;
    for (const struct rb_axis *a = v->sizes; a && a->name; a++, nsizes++)
        axes[na++] = a;
    for (const struct rb_axis *a = v->tunables; a && a->name; a++)
        axes[na++] = a;
    for (int i = 0; i < na; i++) {
        nvals[i] = axis_values(o, axes[i], &vals[i]);
        if (nvals[i] == 0) {
            snprintf(err, errlen, "%s/%s/%s has no values for axis '%s': give --%s",
                     v->paper, v->algo, v->name, axes[i]->name, axes[i]->name);
            return RB_EINVAL;
        }
    }
    for (;;) {
        struct rb_case c;
        memset(&c, 0, sizeof c);
        c.v = v;
        c.ctx = ctx;
        c.prec = prec;
        c.nparams = na;
        c.device_ms = -1;
        c.transfer_ms = -1;
        c.build_ms = -1;
        for (int i = 0; i < na; i++) {
            c.params[i].name = axes[i]->name;
            c.params[i].value = vals[i][idx[i]];
        }
        c.seed = case_seed(&c, nsizes);
        int rc = out_of_range(&c, axes) ? RB_ESKIP : v->admit ? v->admit(&c) : 0;
        if (rc == RB_ESKIP) {
            if (pl->skipped++ == 0) {
                char label[160];
                rb_case_label(&c, label, sizeof label);
                snprintf(pl->first_skip, sizeof pl->first_skip, "%.120s: %.120s", label, c.msg);
            }
        } else if (rc) {
            rb_case_label(&c, err, errlen);
            size_t l = strlen(err);
            snprintf(err + l, errlen - l, ": %s", c.msg);
            return RB_EINVAL;
        } else {
            char why[200];
            /* Kept in the plan: it is recorded as refused when its turn comes. */
            if (!rb_case_fits(&c, why, sizeof why) && pl->refused++ == 0) {
                char label[160];
                rb_case_label(&c, label, sizeof label);
                snprintf(pl->first_refused, sizeof pl->first_refused, "%.120s %.190s", label,
                         why);
            }
            if (push(pl, &c))
                return RB_ENOMEM;
        }
        int i = na - 1;                 /* odometer: last axis fastest */
        while (i >= 0 && ++idx[i] == nvals[i])
            idx[i--] = 0;
        if (i < 0)
            return 0;
    }
}

int rb_sweep_plan(const struct rb_sweep_opts *o, struct rb_ctx *ctx, struct rb_plan *out,
                  char *err, size_t errlen)
{
    struct planner pl = { .plan = out };
    const struct rb_variant *v;
    int matched = 0, rc = 0;
    char why[256];
    memset(out, 0, sizeof *out);

    if ((o->paper && (rc = names_known("paper", o->paper, 0, err, errlen)))
        || (o->algo && (rc = names_known("algo", o->algo, 1, err, errlen)))
        || (o->variant && (rc = names_known("variant", o->variant, 2, err, errlen))))
        return rc;
    for (size_t i = 0; i < o->noverrides; i++) {
        int used = 0;
        for (size_t k = 0; (v = rb_registry_get(k)); k++)
            used |= selected(o, v) && has_axis(v, o->overrides[i].name);
        if (!used) {
            snprintf(err, errlen, "--%s: no selected variant has an axis '%s'",
                     o->overrides[i].name, o->overrides[i].name);
            return RB_EINVAL;
        }
    }
    for (size_t k = 0; (v = rb_registry_get(k)) && !rc; k++) {
        if (!selected(o, v))
            continue;
        matched++;
        why[0] = '\0';
        if (!v->available(ctx, why, sizeof why)) {
            /* Asked for by name: an error.  Merely part of "everything": noted. */
            if (o->variant || o->backends) {
                snprintf(err, errlen, "%s/%s/%s on %s is not available here: %s", v->paper,
                         v->algo, v->name, rb_backend_name(v->backend), why);
                rc = RB_ENODEV;
                break;
            }
            note_skip(&pl, v->backend, why);
            continue;
        }
        if (!o->backends && !o->variant
            && !rb_backend_in_default_sweep(ctx, v->backend, why, sizeof why)) {
            note_skip(&pl, v->backend, why);
            continue;
        }
        unsigned precs = v->precs & (o->precs ? o->precs : ~0u);
        for (unsigned p = RB_PREC_F32; p <= RB_PREC_F64 && !rc; p <<= 1)
            if (precs & p)
                rc = expand(&pl, o, ctx, v, (enum rb_prec)p, err, errlen);
    }
    if (!rc && !matched) {
        snprintf(err, errlen, "no variant matches the filters (see 'reprobench list')");
        rc = RB_EINVAL;
    } else if (!rc && out->n == 0 && pl.skipped) {
        snprintf(err, errlen, "no case left to run: %s", pl.first_skip);
        rc = RB_EINVAL;
    } else if (!rc && out->n > 0 && pl.refused == out->n) {
        snprintf(err, errlen, "no case fits in memory: %s", pl.first_refused);
        rc = RB_ENOMEM;
    }
    for (int b = 0; b < RB_BACKEND_COUNT && !rc && !ctx->quiet; b++)
        if (pl.unused[b])
            fprintf(stderr, "reprobench: leaving out %d %s variant%s: %s\n", pl.unused[b],
                    rb_backend_name((enum rb_backend)b), pl.unused[b] == 1 ? "" : "s",
                    pl.unused_why[b]);
    if (!rc && pl.refused && !ctx->quiet)
        fprintf(stderr, "reprobench: %zu case%s will be recorded as skipped, too large for "
                "memory, e.g. %s\n", pl.refused, pl.refused == 1 ? "" : "s", pl.first_refused);
    if (!rc && pl.skipped && !ctx->quiet)
        fprintf(stderr, "reprobench: %zu case%s left out because the parameters do not "
                "combine, e.g. %s\n", pl.skipped, pl.skipped == 1 ? "" : "s", pl.first_skip);
    if (rc)
        rb_plan_free(out);
    return rc;
}

void rb_plan_free(struct rb_plan *p)
{
    free(p->cases);
    p->cases = NULL;
    p->n = 0;
}

/* "paper<sep1>algo<sep1>variant<sep2>backend<sep2>prec" then each parameter as
 * "<sep2>name=value": the key and the label differ only in separators. */
static void case_text(const struct rb_case *c, char sep1, char sep2, char *buf, size_t len)
{
    size_t l = (size_t)snprintf(buf, len, "%s%c%s%c%s%c%s%c%s", c->v->paper, sep1, c->v->algo,
                                sep1, c->v->name, sep2, rb_backend_name(c->v->backend), sep2,
                                rb_prec_name(c->prec));
    for (int i = 0; i < c->nparams && l < len; i++)
        l += (size_t)snprintf(buf + l, len - l, "%c%s=%lld", sep2, c->params[i].name,
                              c->params[i].value);
}

void rb_case_key(const struct rb_case *c, char *buf, size_t len)
{
    case_text(c, '/', '/', buf, len);
}

void rb_case_label(const struct rb_case *c, char *buf, size_t len)
{
    case_text(c, '/', ' ', buf, len);
}
