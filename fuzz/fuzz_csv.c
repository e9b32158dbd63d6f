/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the CSV dataset reader (datasets/csv.c) as sammon-embed
 * uses it.  The first byte picks the header mode and whether rows are
 * labelled; the rest is the file.  A table it accepts has the shape it
 * claims, finite values and, when labelled, a label per row; a refusal has
 * a message and nothing allocated. */
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "datasets/csv.h"
#include "fuzz/fuzz_input.h"
#include "harness/error.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

static char path[PATH_MAX];

static void remove_file(void)
{
    unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    int fd;

    (void)argc;
    (void)argv;
    snprintf(path, sizeof path, "%s/rb-fuzz-csv-XXXXXX", tmp);
    if ((fd = mkstemp(path)) < 0) {
        perror(path);
        exit(1);
    }
    close(fd);
    atexit(remove_file);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned mode = fuzz_take_byte(&data, &size);
    enum rb_csv_header header = (enum rb_csv_header)(mode % 3);
    int labelled = (mode / 3) % 2, fd, rc;
    struct rb_csv t = { 0 };
    char err[512] = "";

    if ((fd = open(path, O_WRONLY | O_TRUNC)) < 0
        || (size && write(fd, data, size) != (ssize_t)size) || close(fd) != 0)
        abort();
    rc = rb_csv_read(path, header, labelled, &t, err, sizeof err);
    if (rc != 0) {
        if ((rc != RB_EINVAL && rc != RB_ENOMEM) || !err[0] || t.x || t.label)
            abort();
        return 0;
    }
    if (t.rows < 1 || t.cols < 0 || !t.x || (labelled != (t.label != NULL)))
        abort();
    for (long long i = 0; i < (long long)t.rows * t.cols; i++)
        if (!isfinite(t.x[i]))
            abort();
    rb_csv_free(&t);
    return 0;
}
