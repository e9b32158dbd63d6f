/* SPDX-License-Identifier: MIT */
/* What a run was made with: meta.json (command, build, compilers, drivers,
 * environment) and the hardware files (hw.xml, hardware.json, hardware.txt). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "harness/backend/backend.h"
#include "harness/error.h"
#include "harness/gitdesc.h"
#include "harness/records/hw.h"
#include "harness/records/json_build.h"
#include "harness/records/results.h"
#include "harness/store/db.h"

/* Every CPU's scaling governor: one name, "mixed: a b", or "unknown" when
 * sysfs does not say (containers, virtual machines). */
static json_t *cpu_governor(void)
{
    char path[96], word[72], line[64], all[512] = " ";
    int count = 0;

    for (int cpu = 0; cpu < 4096; cpu++) {
        FILE *f;

        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
        if (!(f = fopen(path, "r")))
            break;
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
        line[strcspn(line, " \n")] = '\0';
        snprintf(word, sizeof word, " %s ", line);
        if (line[0] && !strstr(all, word) && strlen(all) + strlen(word) < sizeof all) {
            strcat(all, word + 1);
            count++;
        }
    }
    if (count == 0)
        return json_string("unknown");
    all[strlen(all) - 1] = '\0';
    if (count == 1)
        return json_string(all + 1);
    return json_sprintf("mixed:%s", all);
}

static json_t *environment(void)
{
    static const char *const names[] = {
        "OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES", "CUDA_VISIBLE_DEVICES",
        "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "RB_CL_DIR", "RB_INJECT_DELAY", "RB_FAULT",
        "RB_NVML_LIBRARY", "RB_NVML_BUS_ID", "RB_THROTTLE_THRESHOLD", "RB_SYSFS_ROOT",
    };
    json_t *env = json_object();
    int bad = 0;

    if (!env)
        return NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *v = getenv(names[i]);
        if (v)
            rb_json_put(env, names[i], json_string(v), &bad);
    }
    rb_json_put(env, "cpu_governor", cpu_governor(), &bad);
    return rb_json_finish(env, bad);
}

/* The flags configure chose, besides the fixed -std and warnings of
 * Makefile.am. */
static json_t *flags(void)
{
    return json_pack("{s:s, s:s, s:s}", "cc", RB_BUILD_CFLAGS, "nvcc", RB_BUILD_NVCCFLAGS,
                     "hip", RB_BUILD_HIPFLAGS);
}

static json_t *compilers(struct rb_ctx *ctx)
{
    json_t *c = json_object(), *backends = rb_backend_versions(ctx);
    int bad = 0;

    if (c)
        rb_json_put(c, "cc", json_string(RB_CC_VERSION), &bad);
    if (c && json_is_object(backends) && json_object_update(c, backends) < 0)
        bad = 1;
    json_decref(backends);
    return rb_json_finish(c, bad);
}

/* Write obj as indented JSON to <dir>/name. */
static int write_json(const char *dir, const char *name, const json_t *obj,
                      char *err, size_t errlen)
{
    char path[PATH_MAX + 32], *text, *grown;
    size_t len;
    int status;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(text = json_dumps(obj, JSON_INDENT(2) | JSON_PRESERVE_ORDER))) {
        snprintf(err, errlen, "%s: out of memory", path);
        return RB_ENOMEM;
    }
    len = strlen(text);
    if (!(grown = realloc(text, len + 2))) {
        free(text);
        snprintf(err, errlen, "%s: out of memory", path);
        return RB_ENOMEM;
    }
    text = grown;
    memcpy(text + len, "\n", 2);
    status = rb_write_file_atomic(path, text, err, errlen);
    free(text);
    return status;
}

/* 16 hex digits drawn for this run alone: the run's other marks of its
 * making (host, start to the second, folder, command, seed) are the same
 * for two runs of one command begun in the same second, and the store
 * would take them for one (harness/store/db_import.c). */
static json_t *nonce(void)
{
    uint64_t v = 0;
    char hex[17];

    if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);  /* no entropy to be had: time and pid */
        v = ((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec) ^ ((uint64_t)getpid() << 40);
    }
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)v);
    return json_string(hex);
}

int rb_run_write_meta(struct rb_run *r, int argc, char **argv, struct rb_ctx *ctx,
                      char *err, size_t errlen)
{
    json_t *meta = json_object(), *cmd = json_array();
    char cwd[PATH_MAX], host[256];
    int bad = 0, status;

    if (!meta || !cmd) {
        json_decref(cmd);
        bad = 1;
        goto out_free_meta;
    }
    for (int i = 0; i < argc; i++)
        if (json_array_append_new(cmd, json_string(argv[i] ? argv[i] : "")) < 0)
            bad = 1;
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, "unknown");
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    rb_json_put(meta, "schema", json_integer(1), &bad);
    rb_json_put(meta, "command", cmd, &bad);
    rb_json_put(meta, "cwd", json_string(cwd), &bad);
    rb_json_put(meta, "start", rb_json_now_utc(), &bad);
    rb_json_put(meta, "nonce", nonce(), &bad);
    rb_json_put(meta, "host", json_string(host), &bad);
    rb_json_put(meta, "git", json_string(RB_GIT_DESCRIBE), &bad);
    rb_json_put(meta, "version", json_string(PACKAGE_VERSION), &bad);
    rb_json_put(meta, "configure", json_string(RB_CONFIGURE_ARGS), &bad);
    rb_json_put(meta, "flags", flags(), &bad);
    rb_json_put(meta, "compilers", compilers(ctx), &bad);
    rb_json_put(meta, "seed", rb_json_seed(ctx->seed), &bad);
    rb_json_put(meta, "environment", environment(), &bad);
out_free_meta:
    if (bad) {
        json_decref(meta);
        snprintf(err, errlen, "meta.json: out of memory");
        return RB_ENOMEM;
    }
    status = write_json(r->dir, "meta.json", meta, err, errlen);
    json_decref(meta);
    return status;
}

int rb_meta_set(const char *run_dir, const char *key, json_t *value, char *err,
                size_t errlen)
{
    char path[PATH_MAX + 32];
    json_error_t jerr;
    json_t *meta;
    int status;

    snprintf(path, sizeof path, "%s/meta.json", run_dir);
    if (!(meta = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr))) {
        json_decref(value);
        snprintf(err, errlen, "%s: %s", path, jerr.text);
        return RB_EIO;
    }
    if (json_object_set_new(meta, key, value) < 0) {
        json_decref(meta);
        snprintf(err, errlen, "meta.json: out of memory");
        return RB_ENOMEM;
    }
    status = write_json(run_dir, "meta.json", meta, err, errlen);
    json_decref(meta);
    return status;
}

int rb_run_meta_set(struct rb_run *r, const char *key, json_t *value, char *err,
                    size_t errlen)
{
    return rb_meta_set(r->dir, key, value, err, errlen);
}

/* One session of a run: when it started, its command and its seed. */
static json_t *session_json(int argc, char **argv, uint64_t seed)
{
    json_t *cmd = json_array(), *s;
    int bad = !cmd;

    for (int i = 0; cmd && i < argc; i++)
        if (json_array_append_new(cmd, json_string(argv[i] ? argv[i] : "")) < 0)
            bad = 1;
    if (bad) {
        json_decref(cmd);
        return NULL;
    }
    if (!(s = json_object())) {
        json_decref(cmd);
        return NULL;
    }
    rb_json_put(s, "start", rb_json_now_utc(), &bad);
    rb_json_put(s, "command", cmd, &bad);
    rb_json_put(s, "seed", rb_json_seed(seed), &bad);
    return rb_json_finish(s, bad);
}

int rb_meta_add_session(const char *run_dir, int argc, char **argv, uint64_t seed, char *err,
                        size_t errlen)
{
    char path[PATH_MAX + 32];
    json_error_t jerr;
    json_t *meta, *sessions, *seeds, *s = session_json(argc, argv, seed);
    int status;

    snprintf(path, sizeof path, "%s/meta.json", run_dir);
    if (!s || !(meta = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr))) {
        snprintf(err, errlen, "%s: %s", path, s ? jerr.text : "out of memory");
        json_decref(s);
        return s ? RB_EIO : RB_ENOMEM;
    }
    sessions = json_object_get(meta, "sessions");
    seeds = json_object_get(meta, "seeds");
    if (!json_is_array(sessions))
        json_object_set_new(meta, "sessions", sessions = json_array());
    if (!json_is_array(seeds))
        json_object_set_new(meta, "seeds", seeds = json_array());
    if (json_array_append_new(sessions, s) < 0
        || json_array_append_new(seeds, rb_json_seed(seed)) < 0) {
        json_decref(meta);
        snprintf(err, errlen, "meta.json: out of memory");
        return RB_ENOMEM;
    }
    status = write_json(run_dir, "meta.json", meta, err, errlen);
    json_decref(meta);
    return status;
}

int rb_run_same_build(const char *run_dir, char *err, size_t errlen)
{
    static const char *const fields[] = { "version", "git", "configure" };
    const char *const here[] = { PACKAGE_VERSION, RB_GIT_DESCRIBE, RB_CONFIGURE_ARGS };
    char path[PATH_MAX + 32];
    json_error_t jerr;
    json_t *meta;
    int status = 0;

    snprintf(path, sizeof path, "%s/meta.json", run_dir);
    if (!(meta = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr))) {
        snprintf(err, errlen, "%s: %s", path, jerr.text);
        return RB_EIO;
    }
    for (size_t i = 0; i < sizeof fields / sizeof *fields && !status; i++) {
        const char *was = json_string_value(json_object_get(meta, fields[i]));
        if (was && strcmp(was, here[i]) != 0) {
            snprintf(err, errlen, "%s: made by another build (%s '%s', this one's '%s'); "
                     "resume it with the build that made it, or start a new run", run_dir,
                     fields[i], was, here[i]);
            status = RB_EINVAL;
        }
    }
    json_decref(meta);
    return status;
}

/* RB_EINVAL with the reason when the run's hardware.json (where it has a
 * readable one) describes another machine than `now`. */
static int same_machine(const char *run_dir, const json_t *now, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], fp_was[40], fp_now[40], was_name[256], now_name[256];
    json_t *was;
    int status = 0;

    snprintf(path, sizeof path, "%s/hardware.json", run_dir);
    if (!(was = json_load_file(path, JSON_REJECT_DUPLICATES, NULL)))
        return 0;                       /* none yet: the run stopped before writing it */
    if (rb_db_machine_of(was, fp_was, sizeof fp_was, was_name, sizeof was_name)
        || rb_db_machine_of(now, fp_now, sizeof fp_now, now_name, sizeof now_name)) {
        snprintf(err, errlen, "out of memory");
        status = RB_ENOMEM;
    } else if (strcmp(fp_was, fp_now) != 0) {
        snprintf(err, errlen, "%s: made on another machine (%s, machine %s; this is %s, "
                 "machine %s); resume it there, or start a new run", run_dir, was_name, fp_was,
                 now_name, fp_now);
        status = RB_EINVAL;
    }
    json_decref(was);
    return status;
}

int rb_run_write_hw(struct rb_run *r, struct rb_ctx *ctx, int same, char *err, size_t errlen)
{
    char path[PATH_MAX + 32], *text = NULL;
    size_t len = 0;
    json_t *summary;
    FILE *mem;
    int status;

    if (!(summary = rb_hw_summary(ctx, err, errlen)))
        return RB_EIO;
    if (same && (status = same_machine(r->dir, summary, err, errlen)) < 0)
        goto out_free_summary;
    snprintf(path, sizeof path, "%s/hw.xml", r->dir);
    if ((status = rb_hw_export_xml(path, err, errlen)) < 0
        || (status = write_json(r->dir, "hardware.json", summary, err, errlen)) < 0)
        goto out_free_summary;
    if (!(mem = open_memstream(&text, &len))) {
        snprintf(err, errlen, "hardware.txt: %s", strerror(errno));
        status = RB_ENOMEM;
        goto out_free_summary;
    }
    rb_hw_print(mem, summary);
    if (fclose(mem) != 0) {
        snprintf(err, errlen, "hardware.txt: out of memory");
        status = RB_ENOMEM;
        goto out_free_text;
    }
    snprintf(path, sizeof path, "%s/hardware.txt", r->dir);
    status = rb_write_file_atomic(path, text, err, errlen);
out_free_text:
    free(text);
out_free_summary:
    json_decref(summary);
    return status;
}
