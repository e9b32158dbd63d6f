/* SPDX-License-Identifier: MIT */
/* Inside the results store: the open handle and the helpers its SQLite
 * files share.  Only harness/db_*.c and the store's tests include this. */
#ifndef RB_DB_PRIV_H
#define RB_DB_PRIV_H

#include <sqlite3.h>

#include "harness/store/db.h"
#include "harness/records/results.h"

struct rb_db {
    sqlite3 *h;
    char path[PATH_MAX];
    int version;                /* PRAGMA user_version once open */
};

/* One line in err for SQLite's result rc while doing `what`, and the
 * status it maps to: RB_EIO for a lock, a full disk or an unwritable file,
 * RB_EINVAL for a file that is not a store or is corrupt, RB_ENOMEM. */
int rb_db_fail(struct rb_db *db, int rc, const char *what, char *err, size_t errlen);
/* Run SQL with no result rows.  0, or as rb_db_fail. */
int rb_db_exec(struct rb_db *db, const char *sql, char *err, size_t errlen);
/* Prepare sql; 0, or as rb_db_fail. */
int rb_db_prepare(struct rb_db *db, const char *sql, sqlite3_stmt **st, char *err,
                  size_t errlen);

/* Create a new store at path with the schema of an earlier version (1 ..
 * RB_DB_SCHEMA), as that version's program would have: for the tests of
 * migration.  0, or as rb_db_open. */
int rb_db_create_version(const char *path, int version, char *err, size_t errlen);

/* A text column as a C string ("" for NULL). */
const char *rb_db_text(sqlite3_stmt *st, int col);
/* A JSON text column parsed (a new reference; json null for NULL or text
 * that does not parse). */
json_t *rb_db_json(sqlite3_stmt *st, int col);
/* Bind a JSON value as its compact text, NULL for json null or NULL.
 * SQLITE_OK or an SQLite error. */
int rb_db_bind_json(sqlite3_stmt *st, int col, const json_t *v);

#endif
