/* SPDX-License-Identifier: MIT */
/* Importing a run directory into the store: its meta.json and hardware.json
 * into runs and machines, every record of records.jsonl (read by the strict
 * reader) into records, all in one transaction. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/store/db_priv.h"
#include "harness/store/db_record.h"
#include "harness/error.h"
#include "harness/records/json_build.h"
#include "harness/run/lock.h"
#include "harness/records/record.h"

/* What the import reads of a run directory. */
struct run_files {
    char dir[PATH_MAX];         /* absolute, without a trailing '/' */
    const char *name;           /* its last component */
    json_t *meta, *hw, *records;
    char id[40];
};

static void run_files_free(struct run_files *f)
{
    json_decref(f->meta);
    json_decref(f->hw);
    json_decref(f->records);
}

/* The run's identity: what meta.json says of its making, which neither a
 * resume nor a copy to another folder changes.  The nonce, drawn for each
 * run, parts two runs of one command begun in the same second; runs made
 * before it was written have none, and keep the id they had. */
static void run_id(struct run_files *f)
{
    static const char *const fields[] = { "host", "start", "cwd", "command", "seed", "nonce" };
    uint64_t h = 0xcbf29ce484222325ULL;

    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        if (strcmp(fields[i], "nonce") == 0 && !json_object_get(f->meta, "nonce"))
            continue;
        char *text = json_dumps(json_object_get(f->meta, fields[i]),
                                JSON_COMPACT | JSON_ENCODE_ANY);
        for (const char *s = text ? text : "null"; ; s++) {
            h ^= (unsigned char)*s;
            h *= 0x100000001b3ULL;
            if (!*s)
                break;
        }
        free(text);
    }
    snprintf(f->id, sizeof f->id, "%016llx", (unsigned long long)h);
}

/* A final line without its newline is a record cut short: refused here
 * (the strict reader would skip it), so that a store never holds a run that
 * lost a record. */
static int check_complete(const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    long size;
    int last = '\n';

    if (!fp) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return RB_EIO;
    }
    if (fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) > 0 && fseek(fp, -1, SEEK_END) == 0)
        last = fgetc(fp);
    fclose(fp);
    if (last != '\n') {
        snprintf(err, errlen, "%s: the last record is cut short (an interrupted write); "
                 "finish the run with 'reprobench run --resume', then import it", path);
        return RB_EINVAL;
    }
    return 0;
}

/* The run's files, read whole while no writer holds the run (the caller
 * holds its lock, or a share of it is taken here): a run being written is
 * refused rather than read half-grown. */
static int read_run(const char *given, unsigned flags, struct run_files *f, char *err,
                    size_t errlen)
{
    char path[PATH_MAX + 32];
    json_error_t jerr;
    struct stat st;
    int status, lock = -1;

    memset(f, 0, sizeof *f);
    if (!realpath(given, f->dir)) {
        snprintf(err, errlen, "%s: not a run directory (%s)", given, strerror(errno));
        return RB_EINVAL;
    }
    if (stat(f->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: not a run directory (not a folder)", given);
        return RB_EINVAL;
    }
    f->name = strrchr(f->dir, '/') && f->dir[1] ? strrchr(f->dir, '/') + 1 : f->dir;
    if (!(flags & RB_DB_IMPORT_LOCK_HELD)
        && (status = rb_lock_share(f->dir, &lock, err, errlen)))
        return status;
    snprintf(path, sizeof path, "%s/meta.json", f->dir);
    if (!(f->meta = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr))
        || !json_is_object(f->meta)) {
        snprintf(err, errlen, "%s: not a run directory (meta.json: %s)", given,
                 f->meta ? "not an object" : jerr.text);
        status = RB_EINVAL;
        goto out_release;
    }
    snprintf(path, sizeof path, "%s/hardware.json", f->dir);
    f->hw = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!f->hw && access(path, F_OK) == 0) {
        snprintf(err, errlen, "%s: %s", path, jerr.text);
        status = RB_EINVAL;
        goto out_release;
    }
    snprintf(path, sizeof path, "%s/records.jsonl", f->dir);
    /* A case recorded twice is refused there, as report and compare refuse it. */
    if ((status = check_complete(path, err, errlen))
        || (status = rb_records_load(path, &f->records, err, errlen)))
        goto out_release;
    run_id(f);
out_release:
    rb_lock_release(lock);
    return status;
}

/* The machine of the run's hardware (added if new) into *id; 0 and *id = 0
 * when the run has no hardware.json. */
static int put_machine(struct rb_db *db, const struct run_files *f, sqlite3_int64 *id,
                       char *err, size_t errlen)
{
    char fp[40], name[512];
    sqlite3_stmt *st;
    int rc, status;

    *id = 0;
    if (!json_is_object(f->hw))
        return 0;
    if (rb_db_machine_of(f->hw, fp, sizeof fp, name, sizeof name)) {
        snprintf(err, errlen, "out of memory");
        return RB_ENOMEM;
    }
    if ((status = rb_db_prepare(db, "INSERT INTO machines(fingerprint, name, hardware)"
                                " VALUES(?1, ?2, ?3) ON CONFLICT(fingerprint) DO NOTHING",
                                &st, err, errlen)))
        return status;
    sqlite3_bind_text(st, 1, fp, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    rc = rb_db_bind_json(st, 3, f->hw);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return rb_db_fail(db, rc, "adding its machine", err, errlen);
    if ((status = rb_db_prepare(db, "SELECT id FROM machines WHERE fingerprint = ?1", &st,
                                err, errlen)))
        return status;
    sqlite3_bind_text(st, 1, fp, -1, SQLITE_TRANSIENT);
    if ((rc = sqlite3_step(st)) == SQLITE_ROW)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : rb_db_fail(db, rc, "adding its machine", err, errlen);
}

static const char run_sql[] =
    "INSERT INTO runs(id, name, dir, start, host, git, version, configure, seed, command,"
    " meta, hardware, ceilings, imported, machine)"
    " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, nullif(?15, 0))"
    " ON CONFLICT(id) DO UPDATE SET name = excluded.name, dir = excluded.dir,"
    " meta = excluded.meta, hardware = excluded.hardware, ceilings = excluded.ceilings,"
    " machine = excluded.machine"
    " WHERE runs.name IS NOT excluded.name OR runs.dir IS NOT excluded.dir"
    " OR runs.meta IS NOT excluded.meta OR runs.hardware IS NOT excluded.hardware"
    " OR runs.machine IS NOT excluded.machine";

static int put_run(struct rb_db *db, const struct run_files *f, sqlite3_int64 machine,
                   int *is_new, char *err, size_t errlen)
{
    static const char *const text_fields[] = { "start", "host", "git", "version", "configure" };
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    sqlite3_stmt *st;
    int rc, status;

    if ((status = rb_db_prepare(db, "SELECT 1 FROM runs WHERE id = ?1", &st, err, errlen)))
        return status;
    sqlite3_bind_text(st, 1, f->id, -1, SQLITE_TRANSIENT);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return rb_db_fail(db, rc, "reading its runs", err, errlen);
    *is_new = rc == SQLITE_DONE;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if ((status = rb_db_prepare(db, run_sql, &st, err, errlen)))
        return status;
    sqlite3_bind_text(st, 1, f->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, f->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, f->dir, -1, SQLITE_TRANSIENT);
    for (int i = 0; i < 5; i++) {
        const char *s = json_string_value(json_object_get(f->meta, text_fields[i]));
        if (s)
            sqlite3_bind_text(st, 4 + i, s, -1, SQLITE_TRANSIENT);
    }
    rc = rb_db_bind_json(st, 9, json_object_get(f->meta, "seed"));
    if (rc == SQLITE_OK)
        rc = rb_db_bind_json(st, 10, json_object_get(f->meta, "command"));
    if (rc == SQLITE_OK)
        rc = rb_db_bind_json(st, 11, f->meta);
    if (rc == SQLITE_OK)
        rc = rb_db_bind_json(st, 12, f->hw);
    if (rc == SQLITE_OK)
        rc = rb_db_bind_json(st, 13, json_object_get(f->meta, "ceilings"));
    sqlite3_bind_text(st, 14, now, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 15, machine);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : rb_db_fail(db, rc, "adding the run", err, errlen);
}

/* The records of the run (each key once: the reader refuses a second),
 * added, replaced when different, or left. */
static int put_records(struct rb_db *db, const struct run_files *f,
                       struct rb_db_import_stats *stats, char *err, size_t errlen)
{
    sqlite3_stmt *find = NULL, *put = NULL;
    json_t *rec;
    size_t i;
    int rc = SQLITE_OK, status;

    if ((status = rb_db_prepare(db, rb_db_record_compare_sql, &find, err, errlen))
        || (status = rb_db_prepare(db, rb_db_record_insert_sql, &put, err, errlen)))
        goto out_finalize;
    json_array_foreach(f->records, i, rec) {
        char why[160];
        int same;

        if ((status = rb_db_record_check(rec, why, sizeof why))) {
            snprintf(err, errlen, "%s/records.jsonl:%zu: %s", f->dir, i + 1, why);
            goto out_finalize;
        }
        if ((rc = rb_db_record_bind(find, f->id, rec)) != SQLITE_OK
            || ((rc = sqlite3_step(find)) != SQLITE_ROW && rc != SQLITE_DONE))
            break;
        same = rc == SQLITE_ROW ? sqlite3_column_int(find, 0) : -1;
        sqlite3_reset(find);
        if (same == 1) {
            stats->unchanged++;
            continue;
        }
        if ((rc = rb_db_record_bind(put, f->id, rec)) != SQLITE_OK
            || (rc = sqlite3_step(put)) != SQLITE_DONE)
            break;
        sqlite3_reset(put);
        if (same == 0)
            stats->replaced++;
        else
            stats->added++;
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        status = rb_db_fail(db, rc, "adding its records", err, errlen);
out_finalize:
    sqlite3_finalize(find);
    sqlite3_finalize(put);
    return status;
}

int rb_db_import(struct rb_db *db, const char *run_dir, unsigned flags,
                 struct rb_db_import_stats *stats, char *err, size_t errlen)
{
    struct run_files f;
    sqlite3_int64 machine;
    int status;

    memset(stats, 0, sizeof *stats);
    if ((status = read_run(run_dir, flags, &f, err, errlen)))
        goto out_free;
    snprintf(stats->run, sizeof stats->run, "%s", f.name);
    if ((status = rb_db_exec(db, "BEGIN IMMEDIATE", err, errlen)))
        goto out_free;
    if ((status = put_machine(db, &f, &machine, err, errlen))
        || (status = put_run(db, &f, machine, &stats->new_run, err, errlen))
        || (status = put_records(db, &f, stats, err, errlen))
        || (status = rb_db_exec(db, "COMMIT", err, errlen))) {
        sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
        stats->added = stats->replaced = stats->unchanged = 0;
    }
out_free:
    run_files_free(&f);
    return status;
}
