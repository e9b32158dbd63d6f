/* SPDX-License-Identifier: MIT */
/* libFuzzer target: records.jsonl as --resume and plot read it.  Each input
 * is a whole records.jsonl: loaded, keyed, written as TSV, and resumed. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/fuzz_input.h"
#include "harness/error.h"
#include "harness/records/record.h"
#include "harness/records/results.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

static char run_dir[PATH_MAX];
static char records_path[PATH_MAX + 16];

static void remove_run_dir(void)
{
    char path[PATH_MAX + 16];

    unlink(records_path);
    snprintf(path, sizeof path, "%s/records.tsv", run_dir);
    unlink(path);
    rmdir(run_dir);
}

/* One run directory for the whole session, in memory where there is one. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *tmp = getenv("TMPDIR");

    (void)argc;
    (void)argv;
    if (access("/dev/shm", W_OK) == 0)
        tmp = "/dev/shm";
    snprintf(run_dir, sizeof run_dir, "%s/rb-fuzz-records-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(run_dir)) {
        perror(run_dir);
        exit(1);
    }
    snprintf(records_path, sizeof records_path, "%s/records.jsonl", run_dir);
    atexit(remove_run_dir);
    /* The reader notes an interrupted last line on stderr, for most inputs:
     * through stdio only, so the sanitizers' reports, written to the
     * descriptor, still show. */
    FILE *null = fopen("/dev/null", "w");
    if (null)
        stderr = null;
    return 0;
}

static void write_records(const uint8_t *data, size_t size)
{
    int fd = open(records_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

    if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0)
        abort();
}

/* What the loader accepted holds objects of a schema it reads, with a key,
 * each of which rb_record_key gives back; the TSV writer takes any of them. */
static void check_loaded(const json_t *records)
{
    char key[1024], tiny[4], *text = NULL;
    size_t i, len = 0;
    const json_t *rec;
    FILE *mem;

    if (!json_is_array(records))
        abort();
    json_array_foreach(records, i, rec) {
        const char *k = json_string_value(json_object_get(rec, "key"));
        if (!json_is_object(rec) || !k
            || json_integer_value(json_object_get(rec, "schema")) < RB_RECORD_SCHEMA_MIN
            || json_integer_value(json_object_get(rec, "schema")) > RB_RECORD_SCHEMA)
            abort();
        if (rb_record_key(rec, key, sizeof key) == 0 ? strcmp(key, k) != 0
                                                     : strlen(k) < sizeof key)
            abort();
        if (rb_record_key(rec, tiny, sizeof tiny) == 0 && strcmp(tiny, k) != 0)
            abort();
    }
    if (!(mem = open_memstream(&text, &len)))
        abort();
    if (rb_records_write_tsv(records, mem) != 0)
        abort();
    fclose(mem);
    /* A header and one row per record: fields never hold a newline. */
    size_t lines = 0;
    for (size_t j = 0; j < len; j++)
        lines += text[j] == '\n';
    if (lines != json_array_size(records) + 1)
        abort();
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512] = "";
    json_t *records = NULL;
    struct rb_run run;
    int loaded, resumed;

    write_records(data, size);
    loaded = rb_records_load(records_path, &records, err, sizeof err);
    if (loaded == 0)
        check_loaded(records);
    else if ((loaded != RB_EINVAL && loaded != RB_ENOMEM) || records || !err[0])
        abort();

    /* --resume reads the same file, and takes the same records or none. */
    resumed = rb_run_resume(&run, run_dir, err, sizeof err);
    if ((resumed == 0) != (loaded == 0))
        abort();
    if (resumed == 0) {
        size_t i;
        const json_t *rec;
        json_array_foreach(records, i, rec)
            if (!rb_run_has(&run, json_string_value(json_object_get(rec, "key"))))
                abort();
        rb_run_close(&run);
    }
    json_decref(records);
    return 0;
}
