/* SPDX-License-Identifier: MIT */
/* The results store: one SQLite file holding many runs (tables runs, records
 * and machines), filled from run directories and read by history, compare
 * --db and report --db.  A run directory stays complete without it.  This
 * header names no SQLite type: without libsqlite3 the functions exist and
 * fail with RB_ENODEV ("the results store was not built"). */
#ifndef RB_DB_H
#define RB_DB_H

#include <stddef.h>
#include <jansson.h>

#include "harness/run/sweep.h"

#define RB_DB_DEFAULT "results/reprobench.db"
/* The schema this program writes (PRAGMA user_version); older files are
 * migrated in place, newer ones refused. */
#define RB_DB_SCHEMA 2
/* PRAGMA application_id of a store: "RBDB". */
#define RB_DB_APPLICATION_ID 0x52424442

struct rb_db;

enum rb_db_mode {
    RB_DB_READ,                 /* the store must exist */
    RB_DB_WRITE,                /* created when missing (its folder must exist) */
};

/* 1 when this binary has the store, else 0. */
int rb_db_built(void);

/* Open the store at path, creating or migrating it as needed (one
 * transaction); a wait for another process's lock lasts RB_DB_BUSY_MS
 * milliseconds (environment; default 5000).  0, or with one line in err:
 * RB_EINVAL (not a store, corrupt, a newer schema, missing in RB_DB_READ),
 * RB_EIO (cannot open or write, locked), RB_ENOMEM, RB_ENODEV (not built). */
int rb_db_open(const char *path, enum rb_db_mode mode, struct rb_db **out,
               char *err, size_t errlen);
void rb_db_close(struct rb_db *db);
/* The schema version of an open store (RB_DB_SCHEMA once opened). */
int rb_db_schema_version(struct rb_db *db);

/* What one import did. */
struct rb_db_import_stats {
    char run[256];              /* the run directory's name */
    int new_run;                /* 1: the run was not in the store */
    size_t added, replaced, unchanged;  /* records */
};

/* Flags of rb_db_import. */
#define RB_DB_IMPORT_LOCK_HELD 1u   /* the caller holds the run's lock (run's end) */

/* Import a run directory (meta.json, hardware.json, records.jsonl) in one
 * transaction: a run already there gains its new records, a record whose
 * key it has is replaced only when it differs, so importing twice adds
 * nothing.  The run is read under a share of its lock (harness/run/lock.h)
 * unless flags say the caller holds it; the run directory is never written.
 * On failure nothing of the run is written.  0, or RB_EINVAL (not a run
 * directory, a malformed or cut-short record, a case recorded twice: err
 * says which line; the run in use by a writer), RB_EIO (locked,
 * unwritable), RB_ENOMEM. */
int rb_db_import(struct rb_db *db, const char *run_dir, unsigned flags,
                 struct rb_db_import_stats *st, char *err, size_t errlen);

/* A query: terms "FIELD=V1,V2" (any of the values) or "FIELD~TEXT" (TEXT in
 * it, any case), all of which must hold. */
enum rb_db_field {
    RB_DBQ_RUN, RB_DBQ_GIT, RB_DBQ_HOST, RB_DBQ_MACHINE, RB_DBQ_SINCE, RB_DBQ_UNTIL,
    RB_DBQ_PAPER, RB_DBQ_ALGO, RB_DBQ_VARIANT, RB_DBQ_BACKEND, RB_DBQ_PREC,
    RB_DBQ_STATUS, RB_DBQ_AXIS,
    RB_DBQ_WORD,                /* a bare word: a git describe or a run */
};
enum rb_db_op { RB_DBQ_EQ, RB_DBQ_LIKE };

#define RB_DB_MAX_TERMS 32

struct rb_db_term {
    enum rb_db_field field;
    enum rb_db_op op;
    char name[32];              /* the field's name as given (an axis: its name) */
    char value[256];            /* since/until: normalised to YYYY-MM-DDTHH:MM:SSZ */
    long long v[RB_MAX_VALUES]; /* an axis's values */
    size_t nv;
};

struct rb_db_query {
    size_t n;
    struct rb_db_term t[RB_DB_MAX_TERMS];
};

/* The fields a query may name, for messages. */
#define RB_DB_QUERY_FIELDS "run, git, host, machine, since, until, paper, algo, variant, " \
    "backend, prec, status, or an axis such as n"

/* Add the term FIELD op VALUE.  An axis (a name 'reprobench list' shows)
 * takes a list as run's --NAME does; since and until a date
 * (YYYY-MM-DD[THH:MM[:SS]], UTC) or an age (12h, 3d, 2w).  0, or RB_EINVAL
 * with one line in err (an unknown field names the known ones). */
int rb_db_query_add(struct rb_db_query *q, const char *field, enum rb_db_op op,
                    const char *value, char *err, size_t errlen);
/* Parse "machine=1 backend=omp n=256,512" (terms split by spaces; a bare
 * word W reads as git=W or run=W) and add its terms to q. */
int rb_db_query_parse(const char *text, struct rb_db_query *q, char *err, size_t errlen);

/* The records the query selects as a new array, oldest run first and each
 * run's in file order; each record carries "store": {run, run_id, start, git,
 * host, machine (id, or null), machine_name}.  0, or as rb_db_open. */
int rb_db_select(struct rb_db *db, const struct rb_db_query *q, json_t **records,
                 char *err, size_t errlen);
/* Every machine as a new array of {id, fingerprint, name, hardware, runs,
 * hosts}, by id. */
int rb_db_machines(struct rb_db *db, json_t **machines, char *err, size_t errlen);
/* Every run as a new array of {id, name, dir, start, host, git, machine,
 * records}, by start. */
int rb_db_runs(struct rb_db *db, json_t **runs, char *err, size_t errlen);
/* Hold one read transaction over the queries that follow, so that they see
 * the store at one moment (an import committed meanwhile is not half
 * seen); rb_db_read_end ends it.  0, or as rb_db_open. */
int rb_db_read_begin(struct rb_db *db, char *err, size_t errlen);
void rb_db_read_end(struct rb_db *db);

/* The machine fingerprint of a hardware.json summary: a hex digest of its
 * hardware facts (CPU, caches, memory, devices), leaving out what changes
 * with software (drivers, versions, host name) and device indices; and a
 * short readable name ("Intel(R) Xeon(R) Processor, 2 cores + NVIDIA H200").
 * 0, or RB_ENOMEM. */
int rb_db_machine_of(const json_t *hw, char *fingerprint, size_t fplen, char *name,
                     size_t namelen);

/* run's end, under the run's lock that the caller holds: import run_dir
 * into store (NULL: <run_dir's parent>/reprobench.db).  A failure is one
 * warning line; nothing else changes. */
void rb_db_import_after_run(const char *store, const char *run_dir, int quiet);

#endif
