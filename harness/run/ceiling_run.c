/* SPDX-License-Identifier: MIT */
/* The run's ceilings: each backend the sweep uses probed once, kept in
 * meta.json under "ceilings" and in ceilings.tsv for the roofline plot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/backend.h"
#include "harness/run/ceiling.h"
#include "harness/error.h"
#include "harness/records/record.h"
#include "harness/run/timer.h"

static void put_rate(FILE *f, const json_t *v)
{
    if (json_is_number(v))
        fprintf(f, "\t%.6g", json_number_value(v));
    else
        fputs("\tNaN", f);
}

/* ceilings.tsv: one row per backend, columns by name as records.tsv. */
static int write_tsv(const char *dir, const json_t *ceilings, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], *text = NULL;
    size_t len = 0;
    const char *backend;
    json_t *c;
    FILE *f = open_memstream(&text, &len);
    int status;

    if (!f) {
        snprintf(err, errlen, "ceilings.tsv: out of memory");
        return RB_ENOMEM;
    }
    fputs("backend\tdevice\tcopy_gbps\tfp32_gflops\tfp64_gflops\n", f);
    json_object_foreach((json_t *)ceilings, backend, c) {
        rb_tsv_put_text(f, backend);
        fputc('\t', f);
        rb_tsv_put_text(f, json_string_value(json_object_get(c, "device")));
        put_rate(f, json_object_get(c, "copy_gbytes_per_s"));
        put_rate(f, json_object_get(c, "fp32_gflops"));
        put_rate(f, json_object_get(c, "fp64_gflops"));
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        free(text);
        snprintf(err, errlen, "ceilings.tsv: out of memory");
        return RB_ENOMEM;
    }
    snprintf(path, sizeof path, "%s/ceilings.tsv", dir);
    status = rb_write_file_atomic(path, text, err, errlen);
    free(text);
    return status;
}

/* The end of the progress line the probe started. */
static void report(const struct rb_ceiling *c, double ms)
{
    fprintf(stderr, "copy %.4g GB/s, fp32 %.4g GFLOP/s, fp64 %.4g GFLOP/s in %.2f s (%s)%s%s\n",
            c->copy_gbytes_per_s, c->fp32_gflops, c->fp64_gflops, ms * 1e-3,
            c->device[0] ? c->device : "no device", c->error[0] ? "; " : "", c->error);
}

/* The "ceilings" meta.json holds already (a copy), or an empty object. */
static json_t *ceilings_so_far(const char *dir)
{
    char path[PATH_MAX + 32];
    json_t *meta, *have, *copy;

    snprintf(path, sizeof path, "%s/meta.json", dir);
    meta = json_load_file(path, 0, NULL);
    have = json_object_get(meta, "ceilings");
    copy = json_is_object(have) ? json_deep_copy(have) : json_object();
    json_decref(meta);
    return copy;
}

int rb_run_ceilings(struct rb_run *r, struct rb_ctx *ctx, unsigned backends,
                    char *err, size_t errlen)
{
    json_t *all = ceilings_so_far(r->dir);
    int status;

    if (!all) {
        snprintf(err, errlen, "ceilings: out of memory");
        return RB_ENOMEM;
    }
    for (int b = 0; b < RB_BACKEND_COUNT; b++) {
        const char *name = rb_backend_name((enum rb_backend)b);
        struct rb_ceiling c;
        uint64_t t0;

        if (!(backends & (1u << b)) || json_object_get(all, name))
            continue;
        if (!ctx->quiet) {
            fprintf(stderr, "reprobench: ceilings of %s: ", name);
            fflush(stderr);
        }
        t0 = rb_now_ns();
        rb_backend_ceiling(ctx, (enum rb_backend)b, &c);
        if (!ctx->quiet)
            report(&c, rb_ms_since(t0));
        if (json_object_set_new(all, name, rb_ceiling_json(&c)) < 0) {
            json_decref(all);
            snprintf(err, errlen, "ceilings: out of memory");
            return RB_ENOMEM;
        }
    }
    if ((status = write_tsv(r->dir, all, err, errlen)) < 0) {
        json_decref(all);
        return status;
    }
    return rb_run_meta_set(r, "ceilings", all, err, errlen);
}
