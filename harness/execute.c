/* SPDX-License-Identifier: MIT */
/* One case from setup to record. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "harness/error.h"
#include "harness/execute.h"
#include "harness/fault.h"
#include "harness/record.h"
#include "harness/sweep.h"

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

/* The device may have gone since the sweep was planned (or RB_FAULT says
 * so): the case is skipped with the reason, and the sweep goes on. */
static int check_device(struct rb_case *c)
{
    char why[sizeof c->msg - 32];

    if (rb_fault_by_harness(c, RB_FAULT_NODEVICE))
        return rb_fail(c, RB_ESKIP, "fault injected: nodevice: no device for %s",
                       rb_backend_name(c->v->backend));
    why[0] = '\0';
    if (!c->v->available(c->ctx, why, sizeof why))
        return rb_fail(c, RB_ESKIP, "no device: %s", why[0] ? why : "not available");
    return 0;
}

/* The harness's stand-ins for faults a backend cannot be made to have. */
static int injected_setup_fault(struct rb_case *c)
{
    if (rb_fault_by_harness(c, RB_FAULT_OOM))
        return rb_fail(c, RB_ENOMEM, "fault injected: oom: %zu bytes of %s memory: %s",
                       c->v->footprint ? c->v->footprint(c) : 0,
                       rb_backend_name(c->v->backend), rb_strerror(RB_ENOMEM));
    return 0;
}

/* Verify ran on the real output; its result is kept in the record and only
 * the verdict is overturned. */
static int injected_verify_fault(struct rb_case *c, struct rb_check *check)
{
    if (!rb_fault_by_harness(c, RB_FAULT_VERIFY))
        return 0;
    int real = check->pass;
    check->pass = 0;
    return rb_fail(c, RB_EVERIFY, "fault injected: verify (the real check %s: %s error %.3g, "
                   "tolerance %.3g)", real ? "passed" : "failed", check->method, check->error,
                   check->tolerance);
}

int rb_case_execute(struct rb_case *c, const struct rb_policy *p, struct rb_run *run,
                    struct rb_tally *t, char *err, size_t errlen)
{
    struct rb_measurement m = { 0 };
    struct rb_check check = { 0 };
    struct rb_occ occ = { 0 };
    struct rb_outcome o = { .status = "ok", .message = "" };
    int rc, refused = 0;

    c->msg[0] = '\0';
    c->state = NULL;
    if ((rc = check_device(c))) {
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
    if ((rc = injected_setup_fault(c)) || (rc = c->v->setup(c))) {
        o.stage = "setup";
        goto record;
    }
    if (rb_fault_by_harness(c, RB_FAULT_LAUNCH))
        rc = rb_fail(c, RB_ELAUNCH, "fault injected: launch: %s",
                     rb_strerror(RB_ELAUNCH));
    if (rc || (rc = rb_measure(c, p, &m))) {
        o.stage = "run";
        goto record;
    }
    o.m = &m;
    if ((rc = c->v->verify(c, &check))) {
        o.stage = "verify";
        goto record;
    }
    o.check = &check;
    if ((rc = injected_verify_fault(c, &check))) {
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
