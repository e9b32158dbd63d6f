/* SPDX-License-Identifier: MIT */
/* The CSV reader (datasets/csv.h): good files read exactly (header modes,
 * blanks, CRLF, a trailing blank line), malformed ones refused with one
 * message naming file:line:column; the shipped sets load by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "datasets/csv.h"
#include "datasets/dataset.h"
#include "harness/error.h"
#include "t/tap.h"

static char path[64];

static void put(const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        printf("Bail out! cannot write %s\n", path);
        exit(1);
    }
}

/* A malformed file: the code and the message after "path:". */
static void refused(const char *text, enum rb_csv_header h, const char *want, const char *what)
{
    struct rb_csv t;
    char err[256], full[256];
    put(text);
    int rc = rb_csv_read(path, h, 1, &t, err, sizeof err);
    snprintf(full, sizeof full, "%s:%s", path, want);
    if (!tap_ok(rc == RB_EINVAL && strcmp(err, full) == 0 && !t.x && !t.label, "%s", what))
        tap_diag("rc %d, message '%s', want '%s'", rc, err, full);
}

static void read_good(void)
{
    struct rb_csv t;
    char err[256];
    put("a,b,c\n 1.5 ,-2e3,7\r\n0x10,0.125,  -3\n\n");
    int rc = rb_csv_read(path, RB_CSV_HEADER_AUTO, 1, &t, err, sizeof err);
    tap_ok(rc == 0 && t.rows == 2 && t.cols == 2 && t.x[0] == 1.5 && t.x[1] == -2000.0
           && t.x[2] == 16.0 && t.x[3] == 0.125 && t.label[0] == 7 && t.label[1] == -3,
           "auto header, blanks, CRLF, hex, trailing blank line read exactly");
    rb_csv_free(&t);
    put("150,4,x\n1,2,3\n");
    rc = rb_csv_read(path, RB_CSV_HEADER, 1, &t, err, sizeof err);
    tap_ok(rc == 0 && t.rows == 1 && t.x[1] == 2.0 && t.label[0] == 3, "forced header skipped");
    rb_csv_free(&t);
    put("1,2\n3,4");
    rc = rb_csv_read(path, RB_CSV_NO_HEADER, 0, &t, err, sizeof err);
    tap_ok(rc == 0 && t.rows == 2 && t.cols == 2 && t.x[3] == 4.0 && !t.label,
           "unlabelled, no final newline");
    rb_csv_free(&t);
    rc = rb_csv_read("/nonexistent/x.csv", RB_CSV_NO_HEADER, 1, &t, err, sizeof err);
    tap_ok(rc == RB_EIO && strstr(err, "/nonexistent/x.csv: "), "missing file: %s", err);
}

static void read_shipped(void)
{
    struct rb_dataset d;
    char err[512];
    int rc = rb_dataset_load("digits", &d, err, sizeof err);
    tap_ok(rc == 0 && d.N == 1797 && d.n == 64 && d.label[0] == 0 && d.x[2] == 5.0,
           "digits: 1797 x 64 (%s)", rc ? err : d.path);
    rb_dataset_free(&d);
    setenv("RB_DATA_DIR", "/nonexistent", 1);
    rc = rb_dataset_load("iris", &d, err, sizeof err);
    tap_ok(rc == RB_EIO && strstr(err, "RB_DATA_DIR=/nonexistent"), "RB_DATA_DIR is obeyed: %s",
           err);
    unsetenv("RB_DATA_DIR");
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/rb-csv-%ld.csv", (long)getpid());
    tap_plan(4 + 11 + 2);
    tap_diag("writing %s (no random data in this test)", path);
    read_good();
    refused("1,2,3\n4,5\n", RB_CSV_NO_HEADER, "2:4: row has 2 fields, the first row has 3",
            "too few fields");
    refused("1,2,3\n4,5,6,7\n", RB_CSV_NO_HEADER, "2:7: row has 4 fields, the first row has 3",
            "too many fields");
    refused("1,2,3\n4,x5,6\n", RB_CSV_NO_HEADER, "2:3: 'x5' is not a number", "not a number");
    refused("h\n1,2,3\n4, nan,6\n", RB_CSV_HEADER, "3:4: 'nan' is not a finite number", "NaN");
    refused("1,1e999,3\n", RB_CSV_NO_HEADER, "1:3: '1e999' is not a finite number",
            "overflow to inf");
    refused("1,2,3.5\n", RB_CSV_NO_HEADER, "1:5: label '3.5' is not an integer",
            "fractional label");
    refused("1,,3\n", RB_CSV_NO_HEADER, "1:3: empty field", "empty field");
    refused("", RB_CSV_NO_HEADER, "1:1: empty file", "empty file");
    refused("a,b,c\n", RB_CSV_HEADER_AUTO, "1:1: no rows of numbers", "header only");
    refused("1,2,3\n\n4,5,6\n", RB_CSV_NO_HEADER, "2:1: blank line between rows",
            "blank line inside");
    refused("7\n", RB_CSV_NO_HEADER, "1:1: a row needs a number before the label",
            "label only");
    read_shipped();
    unlink(path);
    return tap_done();
}
