/* SPDX-License-Identifier: MIT */
/* The results store's functions in a binary built without libsqlite3: each
 * says so, and run directories go on working without it. */
#include <stdio.h>

#include "harness/store/db.h"
#include "harness/error.h"

static int not_built(char *err, size_t errlen)
{
    snprintf(err, errlen, "the results store was not built into this binary (configure "
             "found no libsqlite3: install libsqlite3-dev and reconfigure)");
    return RB_ENODEV;
}

int rb_db_built(void)
{
    return 0;
}

int rb_db_open(const char *path, enum rb_db_mode mode, struct rb_db **out, char *err,
               size_t errlen)
{
    (void)path;
    (void)mode;
    *out = NULL;
    return not_built(err, errlen);
}

void rb_db_close(struct rb_db *db)
{
    (void)db;
}

int rb_db_schema_version(struct rb_db *db)
{
    (void)db;
    return 0;
}

int rb_db_import(struct rb_db *db, const char *run_dir, unsigned flags,
                 struct rb_db_import_stats *st, char *err, size_t errlen)
{
    (void)db;
    (void)run_dir;
    (void)flags;
    (void)st;
    return not_built(err, errlen);
}

int rb_db_select(struct rb_db *db, const struct rb_db_query *q, json_t **records,
                 char *err, size_t errlen)
{
    (void)db;
    (void)q;
    *records = NULL;
    return not_built(err, errlen);
}

int rb_db_machines(struct rb_db *db, json_t **machines, char *err, size_t errlen)
{
    (void)db;
    *machines = NULL;
    return not_built(err, errlen);
}

int rb_db_runs(struct rb_db *db, json_t **runs, char *err, size_t errlen)
{
    (void)db;
    *runs = NULL;
    return not_built(err, errlen);
}

int rb_db_read_begin(struct rb_db *db, char *err, size_t errlen)
{
    (void)db;
    return not_built(err, errlen);
}

void rb_db_read_end(struct rb_db *db)
{
    (void)db;
}
