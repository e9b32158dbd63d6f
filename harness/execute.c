/* SPDX-License-Identifier: MIT */
/* One case from setup to record. */
#include <stdio.h>
#include <string.h>
#include "harness/error.h"
#include "harness/execute.h"
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

int rb_case_execute(struct rb_case *c, const struct rb_policy *p, struct rb_run *run,
                    struct rb_tally *t, char *err, size_t errlen)
{
    struct rb_measurement m = { 0 };
    struct rb_check check = { 0 };
    struct rb_occ occ = { 0 };
    struct rb_outcome o = { .status = "ok", .message = "" };
    int rc;

    c->msg[0] = '\0';
    c->state = NULL;
    if ((rc = c->v->setup(c))) {
        o.stage = "setup";
        goto record;
    }
    if ((rc = rb_measure(c, p, &m))) {
        o.stage = "run";
        goto record;
    }
    o.m = &m;
    if ((rc = c->v->verify(c, &check))) {
        o.stage = "verify";
        goto record;
    }
    o.check = &check;
    if (!check.pass) {
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
    if (rc == RB_ESKIP) {
        o.status = "skipped";
        t->skipped++;
    } else if (rc) {
        o.status = "failed";
        if (!c->msg[0])
            rb_fail(c, rc, "%s", rb_strerror(rc));
        note_failure(t, c, o.stage);
    } else {
        t->ok++;
    }
    o.message = c->msg;
    json_t *rec = rb_record_json(c, &o);
    rb_measurement_free(&m);
    if (!rec) {
        snprintf(err, errlen, "could not build the record (out of memory)");
        return RB_ENOMEM;
    }
    rc = rb_run_append(run, rec);
    json_decref(rec);
    if (rc)
        snprintf(err, errlen, "could not append to %s/records.jsonl: %s (the records "
                 "written so far are whole)", run->dir, rb_strerror(rc));
    return rc;
}

void rb_tally_print(const struct rb_tally *t, const char *run_dir)
{
    fprintf(stderr, "reprobench: %zu ok, %zu failed, %zu skipped", t->ok, t->failed, t->skipped);
    if (t->resumed)
        fprintf(stderr, ", %zu already recorded", t->resumed);
    fprintf(stderr, "; results in %s\n", run_dir);
    for (size_t i = 0; i < t->failed && i < RB_TALLY_NAMES; i++)
        fprintf(stderr, "  FAILED %s\n", t->failures[i]);
    if (t->failed > RB_TALLY_NAMES)
        fprintf(stderr, "  ... and %zu more failures\n", t->failed - RB_TALLY_NAMES);
}
