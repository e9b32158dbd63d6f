/* SPDX-License-Identifier: MIT */
/* A record (schema 1, README "Results") as a row of the store's records
 * table and back: one column per field, the statistics flattened, fields
 * the table does not know kept in "extra". */
#ifndef RB_DB_RECORD_H
#define RB_DB_RECORD_H

#include "harness/store/db_priv.h"

/* The statements on records, parameter ?1 the run's id and ?2.. the
 * columns in table order (?2 is the key). */
extern const char rb_db_record_insert_sql[];    /* add, or replace the row of its key */
extern const char rb_db_record_compare_sql[];   /* one row: 1 when stored as given, 0 if not;
                                                   none when the key is not there */
/* The columns, in table order, for a SELECT list: r.key, r.schema, ... */
extern const char rb_db_record_select_cols[];
/* How many columns rb_db_record_select_cols has. */
int rb_db_record_ncols(void);

/* 0 when every known field of rec has its type (a string, a number...),
 * else RB_EINVAL with the field named in why. */
int rb_db_record_check(const json_t *rec, char *why, size_t len);
/* Bind run and rec's columns to a statement above.  SQLITE_OK or an error. */
int rb_db_record_bind(sqlite3_stmt *st, const char *run, const json_t *rec);
/* The record of a row whose columns from `first` on are
 * rb_db_record_select_cols (a new reference, NULL when out of memory). */
json_t *rb_db_record_of_row(sqlite3_stmt *st, int first);

#endif
