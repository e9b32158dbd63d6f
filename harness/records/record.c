/* SPDX-License-Identifier: MIT */
/* The record of one case as a JSON object (schema 2), appended one line at a
 * time to records.jsonl and read back strictly for resume, plot and compare. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "harness/error.h"
#include "harness/run/fault.h"
#include "harness/records/json_build.h"
#include "harness/records/record.h"
#include "harness/run/sweep.h"

/* jansson refuses NaN and infinities; a missing number is null. */
static json_t *real_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* Times and sizes the variant did not fill are negative. */
static json_t *nonneg_or_null(double x)
{
    return isfinite(x) && x >= 0 ? json_real(x) : json_null();
}

static json_t *int_or_null(long long x)
{
    return x >= 0 ? json_integer(x) : json_null();
}

/* Length of the valid UTF-8 sequence starting at s, or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2
               : s[0] >= 0xe0 && s[0] < 0xf0 ? 3 : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;

    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Messages come from drivers and compiler logs, and may be cut mid-character:
 * jansson accepts only UTF-8, so stray bytes become '?' rather than losing
 * the record. */
static json_t *text_json(const char *s)
{
    json_t *j = json_string(s ? s : "");
    char *copy;

    if (j || !s)
        return j;
    if (!(copy = strdup(s)))
        return NULL;
    for (unsigned char *p = (unsigned char *)copy; *p; ) {
        size_t n = utf8_len(p);
        if (n == 0) {
            *p++ = '?';
        } else {
            p += n;
        }
    }
    if (!(j = json_string(copy))) {
        /* What jansson still refuses: overlong forms, surrogates. */
        for (char *p = copy; *p; p++)
            if ((unsigned char)*p >= 0x80)
                *p = '?';
        j = json_string(copy);
    }
    free(copy);
    return j;
}

static json_t *str_or_null(const char *s)
{
    return s && *s ? text_json(s) : json_null();
}

/* JSON integers are signed 64-bit in jansson: a larger seed is kept exactly
 * as a decimal string. */
static const struct rb_param *find_param(const struct rb_case *c, const char *name)
{
    for (int i = 0; i < c->nparams; i++)
        if (c->params[i].name && strcmp(c->params[i].name, name) == 0)
            return &c->params[i];
    return NULL;
}

static json_t *axes_json(const struct rb_case *c, const struct rb_axis *axes)
{
    json_t *o = json_object();
    int bad = 0;

    if (!o)
        return NULL;
    for (const struct rb_axis *a = axes; a && a->name; a++) {
        const struct rb_param *p = find_param(c, a->name);
        rb_json_put(o, a->name, p ? json_integer(p->value) : json_null(), &bad);
    }
    return rb_json_finish(o, bad);
}

/* The samples' statistics, and how many of them were taken throttled. */
static json_t *stats_json(const struct rb_measurement *m)
{
    const struct rb_stats *s = &m->stats;
    json_t *o = json_object();
    int bad = 0;

    if (!o)
        return NULL;
    rb_json_put(o, "n", json_integer((json_int_t)s->n), &bad);
    rb_json_put(o, "min", real_or_null(s->min), &bad);
    rb_json_put(o, "median", real_or_null(s->median), &bad);
    rb_json_put(o, "mean", real_or_null(s->mean), &bad);
    rb_json_put(o, "stddev", real_or_null(s->stddev), &bad);
    rb_json_put(o, "p10", real_or_null(s->p10), &bad);
    rb_json_put(o, "p90", real_or_null(s->p90), &bad);
    rb_json_put(o, "throttled", json_integer((json_int_t)m->obs.nthrottled), &bad);
    return rb_json_finish(o, bad);
}

static json_t *samples_json(const struct rb_measurement *m)
{
    json_t *a = json_array();

    if (!a)
        return NULL;
    for (size_t i = 0; m && i < m->n; i++) {
        if (json_array_append_new(a, real_or_null(m->samples_ms[i])) < 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

static json_t *kernel_json(const struct rb_occ_kernel *k)
{
    json_t *o = json_object();
    int bad = 0;

    if (!o)
        return NULL;
    rb_json_put(o, "kernel", str_or_null(k->kernel), &bad);
    rb_json_put(o, "block", int_or_null(k->block), &bad);
    rb_json_put(o, "active_blocks", int_or_null(k->active_blocks), &bad);
    rb_json_put(o, "occupancy", nonneg_or_null(k->occupancy), &bad);
    rb_json_put(o, "regs", int_or_null(k->regs), &bad);
    rb_json_put(o, "smem_static", int_or_null(k->smem_static), &bad);
    rb_json_put(o, "smem_dynamic", int_or_null(k->smem_dynamic), &bad);
    rb_json_put(o, "local_bytes", int_or_null(k->local_bytes), &bad);
    rb_json_put(o, "limiter", str_or_null(k->limiter), &bad);
    rb_json_put(o, "source", str_or_null(k->source), &bad);
    return rb_json_finish(o, bad);
}

static json_t *occupancy_json(const struct rb_occ *occ)
{
    json_t *o = json_object(), *ks;
    int bad = 0;

    if (!o)
        return NULL;
    if (!occ || !occ->available) {
        const char *why = occ && occ->why[0] ? occ->why
                          : "not available";
        rb_json_put(o, "available", json_false(), &bad);
        rb_json_put(o, "reason", text_json(why), &bad);
    } else {
        rb_json_put(o, "available", json_true(), &bad);
        rb_json_put(o, "kernels", ks = json_array(), &bad);
        for (int i = 0; ks && i < occ->count && i < RB_OCC_MAX_KERNELS; i++)
            if (json_array_append_new(ks, kernel_json(&occ->k[i])) < 0)
                bad = 1;
    }
    return rb_json_finish(o, bad);
}

static json_t *verify_json(const struct rb_check *chk)
{
    json_t *o;
    int bad = 0;

    if (!chk)
        return json_null();
    if (!(o = json_object()))
        return NULL;
    rb_json_put(o, "pass", json_boolean(chk->pass), &bad);
    rb_json_put(o, "error", real_or_null(chk->error), &bad);
    rb_json_put(o, "tolerance", real_or_null(chk->tolerance), &bad);
    rb_json_put(o, "method", text_json(chk->method), &bad);
    return rb_json_finish(o, bad);
}

/* The case's metrics as an object, or null when it has none. */
static json_t *metrics_json(const struct rb_case *c)
{
    json_t *o;
    int bad = 0;

    if (c->nmetrics == 0)
        return json_null();
    if (!(o = json_object()))
        return NULL;
    for (int i = 0; i < c->nmetrics; i++)
        rb_json_put(o, c->metrics[i].name, real_or_null(c->metrics[i].value), &bad);
    return rb_json_finish(o, bad);
}

/* The roofline's numbers: the variant's count and the rates it reached at
 * the median time; null when the variant does not count its work. */
static json_t *work_json(const struct rb_case *c, const struct rb_measurement *m)
{
    double flops = NAN, bytes = NAN, sec = NAN;
    json_t *o;
    int bad = 0;

    if (!c->v->work)
        return json_null();
    c->v->work(c, &flops, &bytes);
    if (m && m->n && m->stats.median > 0)
        sec = m->stats.median * 1e-3;
    if (!(o = json_object()))
        return NULL;
    rb_json_put(o, "flops", nonneg_or_null(flops), &bad);
    rb_json_put(o, "bytes", nonneg_or_null(bytes), &bad);
    rb_json_put(o, "gflops", nonneg_or_null(flops / sec * 1e-9), &bad);
    rb_json_put(o, "gbytes_per_s", nonneg_or_null(bytes / sec * 1e-9), &bad);
    rb_json_put(o, "intensity", nonneg_or_null(bytes > 0 ? flops / bytes : NAN), &bad);
    return rb_json_finish(o, bad);
}

json_t *rb_record_json(const struct rb_case *c, const struct rb_outcome *o)
{
    const struct rb_measurement *m = o->m;
    char key[1024];
    json_t *rec = json_object();
    int bad = 0;

    if (!rec)
        return NULL;
    rb_case_key(c, key, sizeof key);
    rb_json_put(rec, "schema", json_integer(RB_RECORD_SCHEMA), &bad);
    rb_json_put(rec, "key", json_string(key), &bad);
    rb_json_put(rec, "paper", json_string(c->v->paper), &bad);
    rb_json_put(rec, "algo", json_string(c->v->algo), &bad);
    rb_json_put(rec, "variant", json_string(c->v->name), &bad);
    rb_json_put(rec, "backend", json_string(rb_backend_name(c->v->backend)), &bad);
    rb_json_put(rec, "prec", json_string(rb_prec_name(c->prec)), &bad);
    rb_json_put(rec, "device", text_json(c->device), &bad);
    rb_json_put(rec, "baseline", json_boolean(c->v->baseline), &bad);
    rb_json_put(rec, "sizes", axes_json(c, c->v->sizes), &bad);
    rb_json_put(rec, "tunables", axes_json(c, c->v->tunables), &bad);
    rb_json_put(rec, "seed", rb_json_seed(c->seed), &bad);
    rb_json_put(rec, "status", json_string(o->status), &bad);
    rb_json_put(rec, "stage", str_or_null(o->stage), &bad);
    rb_json_put(rec, "message", text_json(o->message), &bad);
    rb_json_put(rec, "timer", m ? str_or_null(m->timer) : json_null(), &bad);
    rb_json_put(rec, "samples_ms", samples_json(m), &bad);
    rb_json_put(rec, "throttled_samples", rb_record_throttled_samples_json(m), &bad);
    rb_json_put(rec, "stats", m && m->n ? stats_json(m) : json_null(), &bad);
    rb_json_put(rec, "truncated", json_boolean(m && m->truncated), &bad);
    rb_json_put(rec, "transfer_ms", nonneg_or_null(c->transfer_ms), &bad);
    rb_json_put(rec, "build_ms", nonneg_or_null(c->build_ms), &bad);
    rb_json_put(rec, "occupancy", occupancy_json(o->occ), &bad);
    rb_json_put(rec, "verify", verify_json(o->check), &bad);
    rb_json_put(rec, "metrics", metrics_json(c), &bad);
    rb_json_put(rec, "work", work_json(c, m), &bad);
    rb_json_put(rec, "gpu", rb_record_gpu_json(m), &bad);
    rb_json_put(rec, "cpu", rb_record_cpu_json(m), &bad);
    rb_json_put(rec, "time", rb_json_now_utc(), &bad);
    return rb_json_finish(rec, bad);
}

/* The bytes of a len-byte line the disk takes: all, or half of it when
 * RB_FAULT=nospace@... names the record's variant (a disk filling up
 * mid-record). */
static size_t injected_room(const json_t *rec, size_t len)
{
    const char *paper = json_string_value(json_object_get(rec, "paper"));
    const char *algo = json_string_value(json_object_get(rec, "algo"));
    const char *name = json_string_value(json_object_get(rec, "variant"));
    return rb_fault_hit(paper, algo, name, RB_FAULT_NOSPACE) ? len / 2 : len;
}

/* The line goes out in write(2) calls on the descriptor, not through the
 * stream's buffer: after a failure no buffered half line can reach the file
 * later, and the file is cut back to its previous length. */
int rb_record_append(FILE *f, const json_t *rec)
{
    char *text = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    struct stat st;
    off_t before = -1;
    size_t len, done = 0, room;
    int fd = fileno(f), status = 0, why = 0;

    if (!text)
        return RB_EIO;
    if (fflush(f) != 0 || fd < 0) {
        free(text);
        return RB_EIO;
    }
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        before = st.st_size;
    len = strlen(text);
    text[len++] = '\n';         /* json_dumps' terminating NUL becomes the newline */
    room = injected_room(rec, len);
    while (done < len) {
        ssize_t w = done < room ? write(fd, text + done, room - done) : (errno = ENOSPC, -1);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            why = w < 0 ? errno : EIO;
            status = RB_EIO;
            break;
        }
        done += (size_t)w;
    }
    /* Pipes and terminals cannot be synced; that is not a lost record. */
    if (!status && fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        why = errno;
        status = RB_EIO;
    }
    if (status && before >= 0 && ftruncate(fd, before) != 0)
        fprintf(stderr, "reprobench: could not cut back a partial record: %s\n",
                strerror(errno));
    free(text);
    errno = why;                /* the caller names the cause */
    return status;
}

static int check_record(const json_t *rec, const char **why)
{
    json_t *schema = json_object_get(rec, "schema");

    if (!json_is_object(rec))
        *why = "not a JSON object";
    else if (!json_is_integer(schema))
        *why = "no \"schema\" number";
    else if (json_integer_value(schema) < RB_RECORD_SCHEMA_MIN
             || json_integer_value(schema) > RB_RECORD_SCHEMA)
        *why = "unsupported \"schema\" (this program reads schemas 1 and 2)";
    else if (!json_is_string(json_object_get(rec, "key")))
        *why = "no \"key\" string";
    else
        return 0;
    return RB_EINVAL;
}

int rb_records_load(const char *path, json_t **out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    json_t *all = NULL, *lines = NULL, *rec, *first;
    const char *key;
    json_error_t jerr;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    const char *why;
    int status = 0;

    *out = NULL;
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    if (!(all = json_array()) || !(lines = json_object())) {
        status = RB_ENOMEM;
        goto out_free_all;
    }
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[len - 1] != '\n') {
            fprintf(stderr, "reprobench: %s:%ld: last line has no newline "
                    "(an interrupted write); skipped\n", path, lineno);
            break;
        }
        if (len == 1) {
            snprintf(err, errlen, "%s:%ld: empty line", path, lineno);
            status = RB_EINVAL;
            goto out_free_all;
        }
        rec = json_loadb(line, (size_t)len - 1, JSON_REJECT_DUPLICATES, &jerr);
        if (!rec) {
            snprintf(err, errlen, "%s:%ld: %s", path, lineno, jerr.text);
            status = RB_EINVAL;
            goto out_free_all;
        }
        if (check_record(rec, &why) < 0) {
            snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
            json_decref(rec);
            status = RB_EINVAL;
            goto out_free_all;
        }
        /* One record per case: a second one means two writers shared the run. */
        key = json_string_value(json_object_get(rec, "key"));
        if ((first = json_object_get(lines, key))) {
            snprintf(err, errlen, "%s:%ld: case %s is recorded twice (first at line %lld)",
                     path, lineno, key, (long long)json_integer_value(first));
            json_decref(rec);
            status = RB_EINVAL;
            goto out_free_all;
        }
        if (json_object_set_new(lines, key, json_integer(lineno)) < 0
            || json_array_append_new(all, rec) < 0) {
            snprintf(err, errlen, "%s: out of memory", path);
            status = RB_ENOMEM;
            goto out_free_all;
        }
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        status = RB_EIO;
        goto out_free_all;
    }
    *out = all;
    json_decref(lines);
    goto out_close;
out_free_all:
    json_decref(all);
    json_decref(lines);
out_close:
    free(line);
    fclose(f);
    return status;
}

int rb_record_key(const json_t *rec, char *buf, size_t len)
{
    const char *key = json_string_value(json_object_get(rec, "key"));

    if (!key || strlen(key) >= len)
        return RB_EINVAL;
    memcpy(buf, key, strlen(key) + 1);
    return 0;
}

/* Escapes are written whole or not at all, so a short buffer never ends in
 * half of one. */
size_t rb_json_escape(const char *s, char *buf, size_t len)
{
    size_t need = 0, used = 0;
    int full = 0;

    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        char esc[8];
        size_t n = 2;

        switch (ch) {
        case '"':  memcpy(esc, "\\\"", 2); break;
        case '\\': memcpy(esc, "\\\\", 2); break;
        case '\b': memcpy(esc, "\\b", 2); break;
        case '\f': memcpy(esc, "\\f", 2); break;
        case '\n': memcpy(esc, "\\n", 2); break;
        case '\r': memcpy(esc, "\\r", 2); break;
        case '\t': memcpy(esc, "\\t", 2); break;
        default:
            if (ch < 0x20 || ch == 0x7f) {
                snprintf(esc, sizeof esc, "\\u%04x", ch);
                n = 6;
            } else {
                esc[0] = (char)ch;
                n = 1;
            }
        }
        if (!full && used + n < len) {
            memcpy(buf + used, esc, n);
            used += n;
        } else {
            full = 1;
        }
        need += n;
    }
    if (len > 0)
        buf[used] = '\0';
    return need;
}
