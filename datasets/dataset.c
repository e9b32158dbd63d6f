/* SPDX-License-Identifier: MIT */
/* Shipped data sets by name, found through RB_DATA_DIR, the installed
 * pkgdatadir or the source tree, and CSV files by path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "datasets/csv.h"
#include "datasets/dataset.h"
#include "harness/error.h"

#ifndef RB_PKGDATADIR
#define RB_PKGDATADIR "/usr/local/share/reprobench"
#endif
#ifndef RB_SRCDIR
#define RB_SRCDIR "."
#endif

struct shipped {
    const char *name, *file;
    enum rb_csv_header header;
};

static const struct shipped shipped_sets[] = {
    { "iris",   "iris.csv",   RB_CSV_HEADER },      /* "150,4,setosa,versicolor,virginica" */
    { "digits", "digits.csv", RB_CSV_NO_HEADER },
};

static int join(char *out, size_t len, const char *dir, const char *file)
{
    int k = snprintf(out, len, "%s/%s", dir, file);
    return k >= 0 && (size_t)k < len;
}

int rb_dataset_path(const char *file, char *out, size_t len, char *err, size_t errlen)
{
    const char *env = getenv("RB_DATA_DIR");
    if (env && *env) {
        if (join(out, len, env, file) && access(out, R_OK) == 0)
            return 0;
        snprintf(err, errlen, "%s: not found in RB_DATA_DIR=%s", file, env);
        return RB_EIO;
    }
    const char *dirs[] = { RB_PKGDATADIR, RB_SRCDIR "/datasets" };
    for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++)
        if (join(out, len, dirs[k], file) && access(out, R_OK) == 0)
            return 0;
    snprintf(err, errlen, "%s: not found in %s nor %s (set RB_DATA_DIR)", file, dirs[0],
             dirs[1]);
    return RB_EIO;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int rb_dataset_load(const char *name, struct rb_dataset *d, char *err, size_t errlen)
{
    const struct shipped *s = NULL;
    enum rb_csv_header header = RB_CSV_HEADER_AUTO;
    struct rb_csv t;
    int rc;

    memset(d, 0, sizeof *d);
    for (size_t k = 0; k < sizeof shipped_sets / sizeof *shipped_sets; k++)
        if (strcmp(name, shipped_sets[k].name) == 0)
            s = &shipped_sets[k];
    if (s) {
        if ((rc = rb_dataset_path(s->file, d->path, sizeof d->path, err, errlen)) != 0)
            return rc;
        header = s->header;
        snprintf(d->name, sizeof d->name, "%s", s->name);
    } else {
        if (snprintf(d->path, sizeof d->path, "%s", name) >= (int)sizeof d->path) {
            snprintf(err, errlen, "%.60s...: path too long", name);
            return RB_EINVAL;
        }
        snprintf(d->name, sizeof d->name, "%s", base_name(name));
    }
    if ((rc = rb_csv_read(d->path, header, 1, &t, err, errlen)) != 0)
        return rc;
    d->N = t.rows;
    d->n = t.cols;
    d->x = t.x;
    d->label = t.label;
    return 0;
}

void rb_dataset_free(struct rb_dataset *d)
{
    free(d->x);
    free(d->label);
    d->x = NULL;
    d->label = NULL;
    d->N = d->n = 0;
}
