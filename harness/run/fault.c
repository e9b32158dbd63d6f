/* SPDX-License-Identifier: MIT */
/* Test-only fault injection through RB_FAULT: which cases get which fault,
 * and the small changes each fault makes on its way in. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/backend.h"
#include "harness/error.h"
#include "harness/registry.h"
#include "harness/run/fault.h"

#define MAX_ENTRIES 8
#define PART_LEN 64

static const char *const kind_names[RB_FAULT_KINDS] = {
    [RB_FAULT_OOM] = "oom",
    [RB_FAULT_LAUNCH] = "launch",
    [RB_FAULT_VERIFY] = "verify",
    [RB_FAULT_NODEVICE] = "nodevice",
    [RB_FAULT_NOSPACE] = "nospace",
};

struct entry {
    enum rb_fault_kind kind;
    char part[3][PART_LEN];         /* paper, algo, variant; "*" matches any */
};

/* Set once per sweep by rb_fault_init, read only afterwards. */
static struct entry entries[MAX_ENTRIES];
static int nentries;

/* "KIND@paper/algo/variant" of len bytes into e; 0 or -1. */
static int parse_entry(const char *s, size_t len, struct entry *e)
{
    const char *at = memchr(s, '@', len);
    if (!at)
        return -1;
    size_t klen = (size_t)(at - s);
    int k;
    for (k = 0; k < RB_FAULT_KINDS; k++)
        if (strlen(kind_names[k]) == klen && memcmp(s, kind_names[k], klen) == 0)
            break;
    if (k == RB_FAULT_KINDS)
        return -1;
    e->kind = (enum rb_fault_kind)k;
    const char *p = at + 1, *end = s + len;
    for (int i = 0; i < 3; i++) {
        const char *slash = memchr(p, '/', (size_t)(end - p));
        const char *stop = i < 2 ? slash : end;
        if (!stop || stop == p || (i == 2 && slash) || (size_t)(stop - p) >= PART_LEN)
            return -1;
        snprintf(e->part[i], PART_LEN, "%.*s", (int)(stop - p), p);
        p = stop + 1;
    }
    return 0;
}

int rb_fault_init(char *err, size_t errlen)
{
    const char *spec = getenv("RB_FAULT");

    nentries = 0;
    for (const char *s = spec; s && *s; ) {
        size_t len = strcspn(s, ",");
        if (nentries == MAX_ENTRIES || parse_entry(s, len, &entries[nentries]) < 0) {
            nentries = 0;
            snprintf(err, errlen, "RB_FAULT: '%.*s' is not KIND@paper/algo/variant (KIND: "
                     "oom, launch, verify, nodevice, nospace; at most %d entries)", (int)len,
                     s, MAX_ENTRIES);
            return RB_EINVAL;
        }
        nentries++;
        s += len + (s[len] == ',');
    }
    return 0;
}

static int part_matches(const char *pat, const char *name)
{
    return strcmp(pat, "*") == 0 || strcmp(pat, name) == 0;
}

int rb_fault_hit(const char *paper, const char *algo, const char *name, enum rb_fault_kind kind)
{
    for (int i = 0; i < nentries; i++)
        if (entries[i].kind == kind && paper && algo && name
            && part_matches(entries[i].part[0], paper) && part_matches(entries[i].part[1], algo)
            && part_matches(entries[i].part[2], name))
            return 1;
    return 0;
}

int rb_fault_case(const struct rb_case *c, enum rb_fault_kind kind)
{
    return rb_fault_hit(c->v->paper, c->v->algo, c->v->name, kind);
}

/* Above CL_DEVICE_MAX_MEM_ALLOC_SIZE of any device: clCreateBuffer answers
 * CL_INVALID_BUFFER_SIZE at once instead of overcommitting. */
size_t rb_fault_point_oom(const struct rb_case *c, size_t bytes)
{
    return rb_fault_case(c, RB_FAULT_OOM) ? (size_t)1 << 62 : bytes;
}

/* Above CL_DEVICE_MAX_WORK_GROUP_SIZE and every CL_DEVICE_MAX_WORK_ITEM_SIZES
 * entry: the enqueue answers CL_INVALID_WORK_GROUP_SIZE (or _ITEM_SIZE). */
const size_t *rb_fault_point_launch(const struct rb_case *c, const size_t *local)
{
    static const size_t huge[3] = { (size_t)1 << 30, 1, 1 };
    return rb_fault_case(c, RB_FAULT_LAUNCH) ? huge : local;
}

/* 1 when the harness itself stands in for `kind` in case c: the backends
 * without a real fault point (those whose descriptor has none for oom and
 * launch; every backend for verify and nodevice). */
static int backend_has_fault_points(enum rb_backend b)
{
    const struct rb_backend_ops *ops = rb_registry_backend(b);
    return ops && ops->fault_points;
}

static int fault_by_harness(const struct rb_case *c, enum rb_fault_kind kind)
{
    if (!rb_fault_case(c, kind))
        return 0;
    if (kind == RB_FAULT_OOM || kind == RB_FAULT_LAUNCH)
        return !backend_has_fault_points(c->v->backend);
    return kind != RB_FAULT_NOSPACE;
}

int rb_fault_enter(struct rb_case *c, enum rb_fault_stage stage)
{
    const char *backend = rb_backend_name(c->v->backend);

    if (stage == RB_FAULT_AT_AVAILABLE && fault_by_harness(c, RB_FAULT_NODEVICE))
        return rb_fail(c, RB_ESKIP, "fault injected: nodevice: no device for %s", backend);
    if (stage == RB_FAULT_AT_SETUP && fault_by_harness(c, RB_FAULT_OOM))
        return rb_fail(c, RB_ENOMEM, "fault injected: oom: %zu bytes of %s memory: %s",
                       c->v->footprint ? c->v->footprint(c) : 0, backend,
                       rb_strerror(RB_ENOMEM));
    if (stage == RB_FAULT_AT_RUN && fault_by_harness(c, RB_FAULT_LAUNCH))
        return rb_fail(c, RB_ELAUNCH, "fault injected: launch: %s", rb_strerror(RB_ELAUNCH));
    return 0;
}

/* Verify ran on the real output; its result is kept in the record and only
 * the verdict is overturned. */
int rb_fault_leave(struct rb_case *c, enum rb_fault_stage stage, struct rb_check *check)
{
    if (stage != RB_FAULT_AT_VERIFY || !check || !fault_by_harness(c, RB_FAULT_VERIFY))
        return 0;
    int real = check->pass;
    check->pass = 0;
    return rb_fail(c, RB_EVERIFY, "fault injected: verify (the real check %s: %s error %.3g, "
                   "tolerance %.3g)", real ? "passed" : "failed", check->method, check->error,
                   check->tolerance);
}

void rb_fault_label(struct rb_case *c)
{
    static const char tag[] = "fault injected";
    char kinds[64] = "", head[96];
    size_t used = 0;

    if (strncmp(c->msg, tag, sizeof tag - 1) == 0)
        return;
    for (int k = 0; k < RB_FAULT_NOSPACE; k++)     /* nospace changes no record */
        if (rb_fault_case(c, (enum rb_fault_kind)k) && used < sizeof kinds)
            used += (size_t)snprintf(kinds + used, sizeof kinds - used, "%s%s",
                                     used ? "," : "", kind_names[k]);
    if (!used)
        return;
    /* In front, where a long message (a build log) cannot push it out. */
    snprintf(head, sizeof head, "%s: %s%s", tag, kinds, c->msg[0] ? ": " : "");
    size_t hlen = strlen(head), len = strlen(c->msg);
    if (len > sizeof c->msg - 1 - hlen)
        len = sizeof c->msg - 1 - hlen;
    memmove(c->msg + hlen, c->msg, len);
    memcpy(c->msg, head, hlen);
    c->msg[hlen + len] = '\0';
}
