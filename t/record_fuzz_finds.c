/* SPDX-License-Identifier: MIT */
/* records.jsonl files that fuzz/fuzz_records crashed on, kept as
 * t/fuzz-corpus/fuzz_records/crash-*.jsonl: each loads, and its records.tsv
 * must then be written whole, one line per record under one header. */
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "harness/records/record.h"
#include "t/tap.h"

static size_t count(const char *s, size_t len, char c)
{
    size_t n = 0;

    for (size_t i = 0; i < len; i++)
        n += s[i] == c;
    return n;
}

/* Loads the file, writes its TSV; every line must have the header's fields. */
static void check_file(const char *dir, const char *name, const char *what)
{
    char path[4096], err[512] = "", *text = NULL;
    size_t len = 0, lines, fields = 0, at = 0;
    json_t *records = NULL;
    int rc, even = 1;
    FILE *mem;

    snprintf(path, sizeof path, "%s/t/fuzz-corpus/fuzz_records/%s", dir, name);
    rc = rb_records_load(path, &records, err, sizeof err);
    if (!tap_ok(rc == 0, "%s: loads", what)) {
        tap_diag("%s", err);
        return;
    }
    mem = open_memstream(&text, &len);
    rc = mem ? rb_records_write_tsv(records, mem) : RB_ENOMEM;
    if (mem)
        fclose(mem);
    tap_is(rc, 0, what);
    lines = text ? count(text, len, '\n') : 0;
    tap_is((long long)lines, (long long)json_array_size(records) + 1,
           "one header and one row per record");
    for (size_t i = 0; text && i < len; i++) {
        if (text[i] != '\n')
            continue;
        size_t tabs = count(text + at, i - at, '\t');
        if (at == 0)
            fields = tabs;
        else if (tabs != fields)
            even = 0;
        at = i + 1;
    }
    tap_ok(text && even, "every row has the header's %zu columns", fields + 1);
    free(text);
    json_decref(records);
}

int main(void)
{
    const char *dir = getenv("RB_TOP_SRCDIR");

    if (!dir || !*dir)
        dir = RB_SRCDIR;
    tap_plan(8);
    /* A baseline record with no "sizes": its group key was taken for an
     * allocation failure, and records.tsv was refused as out of memory. */
    check_file(dir, "crash-baseline-without-sizes.jsonl",
               "a baseline without sizes: records.tsv written");
    /* A size named with a newline in it split the header line. */
    check_file(dir, "crash-axis-name-newline.jsonl",
               "an axis name with a newline: records.tsv written");
    return tap_done();
}
