/* SPDX-License-Identifier: MIT */
/* OpenCL programs: sources embedded or read from --cl-dir, built once per
 * device, source and options, with the build log kept on failure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/records/atomic_file.h"
#include "harness/backend/opencl.h"
#include "harness/error.h"
#include "harness/run/timer.h"

#define MAX_PARTS 8

struct source {
    char *text;                     /* owned when read from a file */
    const char *use;                /* what is built: text or the embedded string */
    char origin[1024];
};

static uint64_t fnv1a64(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* The whole file, NUL-terminated; NULL with errno set on failure. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (cap - len < 4096) {
            char *more = realloc(buf, cap = cap ? 2 * cap : 16384);
            if (!more) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = more;
        }
        got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
    } while (got > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

/* DIR/name.cl when the directory is set and holds it (a tuning copy may hold
 * only the files being changed), else the embedded text. */
static int load_source(struct rb_case *c, const char *name, const char *embedded,
                       struct source *s)
{
    const char *dir = c->ctx->cl_dir ? c->ctx->cl_dir : getenv("RB_CL_DIR");
    s->text = NULL;
    if (dir && *dir) {
        snprintf(s->origin, sizeof s->origin, "%s/%s.cl", dir, name);
        s->text = read_file(s->origin);
        if (s->text) {
            s->use = s->text;
            return 0;
        }
        if (errno != ENOENT || !embedded)
            return rb_fail(c, RB_EIO, "cannot read OpenCL source %s: %s", s->origin,
                           strerror(errno));
    }
    if (!embedded)
        return rb_fail(c, RB_EIO, "no source for OpenCL kernel file %s.cl", name);
    s->use = embedded;
    snprintf(s->origin, sizeof s->origin, "%s.cl (embedded)", name);
    return 0;
}

static struct rb_opencl_program *cache_find(struct rb_opencl *cl, const char *name,
                                            uint64_t sum, const char *options)
{
    for (int i = 0; i < cl->nprograms; i++) {
        struct rb_opencl_program *p = &cl->programs[i];
        if (p->checksum == sum && strcmp(p->name, name) == 0 && strcmp(p->options, options) == 0)
            return p;
    }
    return NULL;
}

static struct rb_opencl_program *cache_add(struct rb_opencl *cl)
{
    if (cl->nprograms == cl->cap) {
        int cap = cl->cap ? 2 * cl->cap : 16;
        struct rb_opencl_program *more = realloc(cl->programs, (size_t)cap * sizeof *more);
        if (!more)
            return NULL;
        cl->programs = more;
        cl->cap = cap;
    }
    struct rb_opencl_program *p = &cl->programs[cl->nprograms];
    memset(p, 0, sizeof *p);
    return p;
}

/* The log appended to what path holds, the whole file replaced atomically
 * (harness/records/atomic_file.h): a full disk never leaves half a log.  0 or
 * RB_EIO. */
static int append_log(const char *path, const char *name, const char *device,
                      const char *options, const char *log)
{
    char *before = read_file(path), *text = NULL, err[64];
    size_t len = 0;
    FILE *f;
    int rc;

    if (!before && errno != ENOENT)
        return RB_EIO;
    if (!(f = open_memstream(&text, &len))) {
        free(before);
        return RB_EIO;
    }
    fprintf(f, "%s# %s.cl on %s, options: %s\n%s\n", before ? before : "", name, device,
            options, log);
    rc = fclose(f) == 0 ? rb_atomic_write(path, text, len, err, sizeof err) : RB_EIO;
    free(text);
    free(before);
    return rc;
}

/* The file a part's messages should name: the user's file, or NAME.cl for
 * an embedded source (as line_directive writes it). */
static void part_file(char *buf, size_t len, const struct source *s, const char *name)
{
    if (s->text)
        snprintf(buf, len, "%s", s->origin);
    else
        snprintf(buf, len, "%s.cl", name);
}

/* Some compilers (NVIDIA's) ignore #line and report positions as
 * "<kernel>:LINE:" in the joined source.  The log with each such position
 * turned into the part's own "FILE:LINE:", or NULL when there is none (or no
 * memory: the log is then kept as it came).  The joined source is, per part,
 * the directive (two newlines) and then the part. */
static char *log_positions(const char *log, int nparts, const struct source s[],
                           const char *const names[])
{
    static const char tag[] = "<kernel>:";
    long start[MAX_PARTS];
    long line = 1;

    if (!strstr(log, tag))
        return NULL;
    for (int i = 0; i < nparts; i++) {
        line += 2;
        start[i] = line;
        for (const char *t = s[i].use; *t; t++)
            line += *t == '\n';
    }
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return NULL;
    for (const char *at = log, *hit; *at; at = hit) {
        char *end;
        hit = strstr(at, tag);
        if (!hit) {
            fputs(at, f);
            break;
        }
        fwrite(at, 1, (size_t)(hit - at), f);
        long n = strtol(hit + sizeof tag - 1, &end, 10);
        int part = nparts - 1;
        while (part > 0 && n < start[part])
            part--;
        if (end == hit + sizeof tag - 1 || *end != ':' || n < start[part]) {
            fputs(tag, f);
            hit += sizeof tag - 1;
            continue;
        }
        char file[1100];
        part_file(file, sizeof file, &s[part], names[part]);
        fprintf(f, "%s:%ld", file, n - start[part] + 1);
        hit = end;
    }
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* The log in full to RUN_DIR/build-NAME.log (appended: a sweep may fail
 * several option sets), and its head, on one line, into c->msg. */
static int build_failed(struct rb_case *c, struct rb_opencl *cl, cl_program prog,
                        int nparts, const struct source s[], const char *const names[],
                        const char *options, cl_int err)
{
    const char *name = names[nparts - 1];
    size_t size = 0;
    clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = calloc(1, size + 1);
    if (log && size)
        clGetProgramBuildInfo(prog, cl->device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    char *mapped = log ? log_positions(log, nparts, s, names) : NULL;
    if (mapped) {
        free(log);
        log = mapped;
    }
    char path[1024] = "";
    if (c->ctx->run_dir && log) {
        snprintf(path, sizeof path, "%s/build-%s.log", c->ctx->run_dir, name);
        if (append_log(path, name, cl->name, options, log) < 0)
            path[0] = '\0';
    }
    char head[320] = "";
    size_t n = 0;
    for (const char *t = log ? log : ""; *t && n < sizeof head - 1; t++) {
        char ch = (*t == '\n' || *t == '\r' || *t == '\t') ? ' ' : *t;
        if (ch == ' ' && (n == 0 || head[n - 1] == ' '))
            continue;
        head[n++] = ch;
    }
    head[n] = '\0';
    free(log);
    return rb_fail(c, RB_EBUILD, "build of %s.cl failed: %s (%d)%s%s%s: %s", name,
                   rb_cl_strerror(err), (int)err, path[0] ? " (log: " : "", path,
                   path[0] ? ")" : "", head[0] ? head : "(empty build log)");
}

/* "#line 1 "FILE"" before a part, so that the compiler's messages name the
 * part's own file and line rather than the place in the joined source (or
 * the implementation's temporary file).  A part's trailing text may lack a
 * newline: the directive starts with one. */
static void line_directive(char *buf, size_t len, const struct source *s, const char *name)
{
    const char *file = s->text ? s->origin : name;
    size_t at = (size_t)snprintf(buf, len, "\n#line 1 \"");

    for (; *file && at + 8 < len; file++) {
        if (*file == '"' || *file == '\\')
            buf[at++] = '\\';
        buf[at++] = *file == '\n' ? ' ' : *file;
    }
    snprintf(buf + at, len - at, "%s\"\n", s->text ? "" : ".cl");
}

/* The program of the parts s (each after its #line directive in text). */
static int build(struct rb_case *c, struct rb_opencl *cl, int nparts, const char *const text[],
                 const struct source s[], const char *const names[], const char *options,
                 cl_program *out)
{
    const char *name = names[nparts - 1];
    cl_int err;
    uint64_t t0 = rb_now_ns();
    cl_program prog = clCreateProgramWithSource(cl->context, (cl_uint)(2 * nparts),
                                                (const char **)text, NULL, &err);
    if (err != CL_SUCCESS)
        return rb_fail(c, RB_EDEVICE, "clCreateProgramWithSource(%s.cl): %s (%d)", name,
                       rb_cl_strerror(err), (int)err);
    err = clBuildProgram(prog, 1, &cl->device, options, NULL, NULL);
    if (c->build_ms < 0)
        c->build_ms = 0;
    c->build_ms += rb_ms_since(t0);
    if (err != CL_SUCCESS) {
        int rc = build_failed(c, cl, prog, nparts, s, names, options, err);
        clReleaseProgram(prog);
        return rc;
    }
    *out = prog;
    return 0;
}

int rb_opencl_program_parts(struct rb_case *c, int nparts, const char *const names[],
                            const char *const embedded[], const char *options,
                            cl_program *out)
{
    struct rb_opencl *cl;
    int rc = rb_opencl_get(c->ctx, &cl, c->msg, sizeof c->msg);
    if (rc)
        return rc;
    if (nparts < 1 || nparts > MAX_PARTS)
        return rb_fail(c, RB_EINVAL, "rb_opencl_program_parts: %d parts", nparts);
    if (!options)
        options = "";
    struct source s[MAX_PARTS];
    const char *text[2 * MAX_PARTS];
    char lines[MAX_PARTS][1100];
    int loaded = 0;
    uint64_t sum = 0xcbf29ce484222325ULL;
    for (; loaded < nparts; loaded++) {
        rc = load_source(c, names[loaded], embedded[loaded], &s[loaded]);
        if (rc)
            goto out_free_sources;
        line_directive(lines[loaded], sizeof lines[loaded], &s[loaded], names[loaded]);
        text[2 * loaded] = lines[loaded];
        text[2 * loaded + 1] = s[loaded].use;
        sum = fnv1a64(sum, s[loaded].use);
    }
    const char *name = names[nparts - 1];   /* the kernel file; the others are helpers */
    struct rb_opencl_program *p = cache_find(cl, name, sum, options);
    if (p) {
        *out = p->program;
        if (c->build_ms < 0)
            c->build_ms = 0;
        goto out_free_sources;
    }
    cl_program prog = NULL;
    rc = build(c, cl, nparts, text, s, names, options, &prog);
    if (rc)
        goto out_free_sources;
    p = cache_add(cl);
    char *opts = strdup(options);
    if (!p || !opts) {
        free(opts);
        clReleaseProgram(prog);
        rc = rb_fail(c, RB_ENOMEM, "out of host memory caching %s.cl", name);
        goto out_free_sources;
    }
    cl->nprograms++;
    snprintf(p->name, sizeof p->name, "%s", name);
    p->options = opts;
    p->checksum = sum;
    p->program = prog;
    size_t used = 0;
    for (int i = 0; i < nparts && used < sizeof p->source_id; i++)
        used += (size_t)snprintf(p->source_id + used, sizeof p->source_id - used, "%s%s",
                                 i ? " + " : "", s[i].origin);
    if (used < sizeof p->source_id)
        snprintf(p->source_id + used, sizeof p->source_id - used, " fnv1a64:%016llx",
                 (unsigned long long)sum);
    *out = prog;
out_free_sources:
    for (int i = 0; i < loaded; i++)
        free(s[i].text);
    return rc;
}

int rb_opencl_program(struct rb_case *c, const char *name, const char *embedded_src,
                      const char *options, cl_program *out)
{
    const char *names[1] = { name };
    const char *srcs[1] = { embedded_src };
    return rb_opencl_program_parts(c, 1, names, srcs, options, out);
}

const char *rb_opencl_source_id(const struct rb_ctx *ctx, cl_program p)
{
    const struct rb_opencl *cl = ctx->backend[RB_BACKEND_OPENCL];
    for (int i = 0; cl && i < cl->nprograms; i++)
        if (cl->programs[i].program == p)
            return cl->programs[i].source_id;
    return NULL;
}
