/* SPDX-License-Identifier: MIT */
/* What the store's C tests share: run directories made on the spot (meta.json,
 * hardware.json, records.jsonl with records of every field), and the bytes of
 * a file, to tell that a failed operation left a store as it was. */
#ifndef RB_DB_TEST_H
#define RB_DB_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>

/* A record as run writes it, every field filled: samples are 1..n ms
 * scaled by `scale`. */
static inline json_t *dbt_record(const char *variant, const char *backend, int n_size,
                                 double scale)
{
    char key[256];
    json_t *samples = json_array(), *rec;

    for (int i = 0; i < 11; i++)
        json_array_append_new(samples, json_real(scale * (1.0 + 0.01 * i)));
    snprintf(key, sizeof key, "givens/forward/%s/%s/f32/n=%d/m=0", variant, backend, n_size);
    rec = json_pack("{s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:{s:i, s:i}, s:{},"
                    " s:I, s:s, s:n, s:s, s:s, s:o, s:{s:i, s:f, s:f, s:f, s:f, s:f, s:f},"
                    " s:b, s:n, s:f, s:{s:b, s:s}, s:{s:b, s:f, s:f, s:s}, s:n,"
                    " s:{s:f, s:f}, s:s}",
                    "schema", 1, "key", key, "paper", "givens", "algo", "forward",
                    "variant", variant, "backend", backend, "prec", "f32",
                    "device", "a test CPU", "baseline", strcmp(variant, "sequential") == 0,
                    "sizes", "n", n_size, "m", 0, "tunables", "seed", (json_int_t)42,
                    "status", "ok", "stage", "message", "", "timer", "host-monotonic",
                    "samples_ms", samples, "stats", "n", 11, "min", scale,
                    "median", scale * 1.05, "mean", scale * 1.05, "stddev", scale * 0.03,
                    "p10", scale * 1.01, "p90", scale * 1.09, "truncated", 0,
                    "transfer_ms", "build_ms", 0.5, "occupancy", "available", 0, "reason",
                    "serial code", "verify", "pass", 1, "error", 1e-7, "tolerance", 1e-5,
                    "method", "test", "metrics", "work", "flops", 100.0, "bytes", 10.0,
                    "time", "2026-12-01T10:00:00Z");
    return rec;
}

static inline int dbt_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok = f && fputs(text, f) >= 0;

    if (f && fclose(f) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

/* A hardware summary: a CPU of `cores` cores and memory, and `gpus` GPUs
 * of one model. */
static inline json_t *dbt_hardware(const char *host, int cores, long long memory, int gpus)
{
    json_t *hw = json_pack("{s:s, s:{s:s, s:i, s:i, s:I}, s:[]}", "host", host, "cpu",
                           "model", "Test CPU 9000", "cores", cores, "pus", cores,
                           "memory_bytes", (json_int_t)memory, "devices");

    for (int i = 0; i < gpus; i++)
        json_array_append_new(json_object_get(hw, "devices"),
                              json_pack("{s:s, s:i, s:s, s:s, s:i, s:s}", "backend", "cuda",
                                        "index", i, "name", "NVIDIA H200", "type", "GPU",
                                        "compute_units", 132, "driver", gpus > 1 ? "2" : "1"));
    return hw;
}

/* Make dir/ as a run directory: meta.json (host, start), hardware.json and
 * records.jsonl with the records given (stolen).  0 or -1. */
static inline int dbt_run(const char *dir, const char *host, const char *start,
                          const char *git, json_t *hw, json_t *records)
{
    char path[4096];
    json_t *meta = json_pack("{s:i, s:[s], s:s, s:s, s:s, s:s, s:I}", "schema", 1,
                             "command", "run", "cwd", "/tmp", "start", start, "host", host,
                             "git", git, "seed", (json_int_t)7);
    json_t *rec;
    size_t i;
    FILE *f;
    int bad = !meta || !hw || !records;

    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/meta.json", dir);
    bad |= !bad && json_dump_file(meta, path, JSON_INDENT(2)) != 0;
    snprintf(path, sizeof path, "%s/hardware.json", dir);
    bad |= !bad && json_dump_file(hw, path, JSON_INDENT(2)) != 0;
    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    if (!bad && (f = fopen(path, "w"))) {
        json_array_foreach(records, i, rec) {
            json_dumpf(rec, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
            fputc('\n', f);
        }
        bad |= fclose(f) != 0;
    }
    json_decref(meta);
    json_decref(hw);
    json_decref(records);
    return bad ? -1 : 0;
}

/* Append text to dir/records.jsonl. */
static inline int dbt_append(const char *dir, const char *text)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof path, "%s/records.jsonl", dir);
    if (!(f = fopen(path, "a")))
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* The whole of a file (malloc'd) and its size; NULL when unreadable. */
static inline char *dbt_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    *len = 0;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0
        && (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n)
        *len = (size_t)n;
    fclose(f);
    return buf;
}

/* 1 when the file holds exactly len bytes of buf. */
static inline int dbt_same(const char *path, const char *buf, size_t len)
{
    size_t n;
    char *now = dbt_slurp(path, &n);
    int same = now && buf && n == len && memcmp(now, buf, len) == 0;

    free(now);
    return same;
}

#endif
