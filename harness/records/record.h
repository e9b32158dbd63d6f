/* SPDX-License-Identifier: MIT */
/* One record per case: its JSON object (schema in README.md), appended as one
 * line to records.jsonl; records.tsv is derived from those lines. */
#ifndef RB_RECORD_H
#define RB_RECORD_H

#include <stdio.h>
#include <jansson.h>
#include "harness/run/measure.h"
#include "harness/variant.h"

#define RB_RECORD_SCHEMA 2
/* The oldest schema still read: 1 has no gpu, cpu and throttle fields. */
#define RB_RECORD_SCHEMA_MIN 1

/* What happened to a case. */
struct rb_outcome {
    const char *status;         /* "ok", "failed", "skipped" */
    const char *stage;          /* where it stopped: "setup", "run", "verify", ... or NULL */
    const char *message;        /* reason for failed / skipped, else "" */
    const struct rb_measurement *m;     /* NULL when nothing was measured */
    const struct rb_check *check;       /* NULL when not verified */
    const struct rb_occ *occ;           /* NULL: occupancy not available */
};

/* The record's "gpu", "cpu" and "throttled_samples" values from the
 * measurement's observation (harness/records/record_energy.c); null (an empty
 * array) when nothing was measured, NULL when out of memory. */
json_t *rb_record_gpu_json(const struct rb_measurement *m);
json_t *rb_record_cpu_json(const struct rb_measurement *m);
json_t *rb_record_throttled_samples_json(const struct rb_measurement *m);

/* A record's energy as compare, the report and records.tsv show it: the
 * GPU's (NVML) when one was watched, else for a CPU case the packages'
 * (RAPL). */
struct rb_rec_energy {
    double joules;              /* per timed sample (the window's over n); NaN */
    double watts;               /* mean power over the timed samples; NaN */
    const char *source;         /* "nvml", "rapl", or NULL */
    const char *method;         /* "energy-counter", "power-samples", "powercap" */
    double sm_start, sm_end;    /* MHz; NaN unknown */
    int throttled;              /* 1, 0, or -1 when no GPU was watched */
    const char *reason;         /* the first throttled sample's reason, or NULL */
    const char *why;            /* why joules is NaN, or NULL */
    int coarse;                 /* the counter moved too few times to trust joules */
};
void rb_record_energy(const json_t *rec, struct rb_rec_energy *e);

/* Build the record object of a case (a new reference). */
json_t *rb_record_json(const struct rb_case *c, const struct rb_outcome *o);

/* Append rec as one line and flush it to disk.  0, or RB_EIO with errno
 * saying why (the file is cut back to where it was). */
int rb_record_append(FILE *f, const json_t *rec);

/* Read every record of a records.jsonl file into a new JSON array.  A final
 * line without a newline is an interrupted write and is skipped with a note
 * on stderr; any other malformed line is an error, and so is a second record
 * of a case key (two writers shared the run: "file:line: case KEY is
 * recorded twice (first at line N)").  Returns 0, or RB_EIO /
 * RB_EINVAL with a message in err. */
int rb_records_load(const char *path, json_t **out, char *err, size_t errlen);

/* The case key of a record, as rb_case_key gives it for the case. */
int rb_record_key(const json_t *rec, char *buf, size_t len);

/* Write records (an array) as TSV for gnuplot: fixed columns, then one column
 * per axis name found, "NaN" where a record lacks it.  0 or RB_EIO. */
int rb_records_write_tsv(const json_t *records, FILE *f);
/* A TSV text field: tabs and newlines (which would split a row) become
 * spaces, and an empty or NULL string "-" (gnuplot would see a missing
 * field). */
void rb_tsv_put_text(FILE *f, const char *s);
/* The same columns, one row per series and size (paper, algo, variant,
 * backend, precision, sizes): its fastest successful tunable setting. */
int rb_records_write_best_tsv(const json_t *records, FILE *f);

/* Escape s for JSON into buf (quotes not added).  Returns the length needed. */
size_t rb_json_escape(const char *s, char *buf, size_t len);

#endif
