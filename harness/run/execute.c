/* SPDX-License-Identifier: MIT */
/* One case from setup to record. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "harness/error.h"
#include "harness/run/execute.h"
#include "harness/run/fault.h"
#include "harness/records/record.h"
#include "harness/run/sweep.h"

static void note_failure(struct rb_tally *t, const struct rb_case *c, const char *stage)
{
    if (t->failed < RB_TALLY_NAMES) {
        char label[160];
        rb_case_label(c, label, sizeof label);
        snprintf(t->failures[t->failed], sizeof t->failures[0], "%.100s (%s): %.80s", label, stage,
                 c->msg);
    }
    t->failed++;
}

/* The device may have gone since the sweep was planned: the case is
 * skipped with the reason, and the sweep goes on. */
static int check_device(struct rb_case *c)
{
    char why[sizeof c->msg - 32];

    why[0] = '\0';
    if (!c->v->available(c->ctx, why, sizeof why))
        return rb_fail(c, RB_ESKIP, "no device: %s", why[0] ? why : "not available");
    return 0;
}

struct stage_io {
    const struct rb_policy *p;
    struct rb_measurement *m;
    struct rb_check *check;
    int checked;                /* verify ran to the end: check holds its result */
};

/* Every stage of a case passes here, so that fault injection wraps them in
 * one place: the harness's stand-ins before the stage, the verify fault
 * after it. */
static int stage_run(struct rb_case *c, enum rb_fault_stage stage, struct stage_io *io)
{
    int rc = rb_fault_enter(c, stage);

    if (rc)
        return rc;
    switch (stage) {
    case RB_FAULT_AT_AVAILABLE:
        rc = check_device(c);
        break;
    case RB_FAULT_AT_SETUP:
        rc = c->v->setup(c);
        break;
    case RB_FAULT_AT_RUN:
        rc = rb_measure(c, io->p, io->m);
        break;
    case RB_FAULT_AT_VERIFY:
        rc = c->v->verify(c, io->check);
        io->checked = !rc;
        break;
    }
    return rc ? rc : rb_fault_leave(c, stage, io->check);
}

int rb_case_execute(struct rb_case *c, const struct rb_policy *p, struct rb_run *run,
                    struct rb_tally *t, char *err, size_t errlen)
{
    struct rb_measurement m = { 0 };
    struct rb_check check = { 0 };
    struct rb_occ occ = { 0 };
    struct rb_outcome o = { .status = "ok", .message = "" };
    struct stage_io io = { .p = p, .m = &m, .check = NULL };
    int rc, refused = 0;

    c->msg[0] = '\0';
    c->state = NULL;
    if ((rc = stage_run(c, RB_FAULT_AT_AVAILABLE, &io))) {
        o.stage = "available";
        goto record;
    }
    /* Refused before anything is allocated; the sweep goes on. */
    if (!rb_case_fits(c, c->msg, sizeof c->msg)) {
        rc = RB_ESKIP;
        refused = 1;
        o.stage = "setup";
        goto record;
    }
    if ((rc = stage_run(c, RB_FAULT_AT_SETUP, &io))) {
        o.stage = "setup";
        goto record;
    }
    if ((rc = stage_run(c, RB_FAULT_AT_RUN, &io))) {
        o.stage = "run";
        goto record;
    }
    o.m = &m;
    io.check = &check;
    rc = stage_run(c, RB_FAULT_AT_VERIFY, &io);
    if (rc && !io.checked) {
        o.stage = "verify";
        goto record;
    }
    o.check = &check;           /* kept too when a verify fault overturned it */
    if (rc) {
        o.stage = "verify";
    } else if (!check.pass) {
        rc = rb_fail(c, RB_EVERIFY, "verification failed: %s error %.3g > tolerance %.3g",
                     check.method, check.error, check.tolerance);
        o.stage = "verify";
    }
    if (c->v->occupancy) {
        c->v->occupancy(c, &occ);
    } else {
        snprintf(occ.why, sizeof occ.why, "%s code has no occupancy (not a GPU kernel)",
                 rb_backend_name(c->v->backend));
    }
    o.occ = &occ;
record:
    if (c->v->teardown)
        c->v->teardown(c);
    c->state = NULL;
    /* A device gone after planning: skipped, but counted as a fault. */
    int nodevice = o.stage && ((rc == RB_ESKIP && !strcmp(o.stage, "available"))
                               || (rc == RB_ENODEV && !strcmp(o.stage, "setup")));
    if (nodevice)
        rc = RB_ESKIP;
    if (rc == RB_ESKIP) {
        o.status = "skipped";
        t->skipped++;
        t->nodevice += (size_t)nodevice;
        t->refused += (size_t)refused;
    } else if (rc) {
        o.status = "failed";
        if (!c->msg[0])
            rb_fail(c, rc, "%s", rb_strerror(rc));
        rb_fault_label(c);
        note_failure(t, c, o.stage);
    } else {
        t->ok++;
    }
    rb_fault_label(c);          /* no-op when already labelled above */
    o.message = c->msg;
    json_t *rec = rb_record_json(c, &o);
    rb_measurement_free(&m);
    if (!rec) {
        snprintf(err, errlen, "could not build the record (out of memory)");
        return RB_ENOMEM;
    }
    errno = 0;
    rc = rb_run_append(run, rec);
    int why = errno;
    json_decref(rec);
    if (rc)
        snprintf(err, errlen, "could not append to %s/records.jsonl: %s (the records "
                 "written so far are whole)", run->dir, why ? strerror(why) : rb_strerror(rc));
    return rc;
}

void rb_tally_print(const struct rb_tally *t, const char *run_dir)
{
    fprintf(stderr, "reprobench: %zu ok, %zu failed, %zu skipped", t->ok, t->failed, t->skipped);
    if (t->nodevice && t->refused)
        fprintf(stderr, " (%zu found no device, %zu too large for memory)", t->nodevice,
                t->refused);
    else if (t->nodevice)
        fprintf(stderr, " (%zu found no device)", t->nodevice);
    else if (t->refused)
        fprintf(stderr, " (%zu too large for memory)", t->refused);
    if (t->resumed)
        fprintf(stderr, ", %zu already recorded", t->resumed);
    fprintf(stderr, "; results in %s\n", run_dir);
    for (size_t i = 0; i < t->failed && i < RB_TALLY_NAMES; i++)
        fprintf(stderr, "  FAILED %s\n", t->failures[i]);
    if (t->failed > RB_TALLY_NAMES)
        fprintf(stderr, "  ... and %zu more failures\n", t->failed - RB_TALLY_NAMES);
}
