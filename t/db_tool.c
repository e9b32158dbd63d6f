/* SPDX-License-Identifier: MIT */
/* A helper of t/cli_db.sh, which needs another process on a store:
 *   t/db_tool lock FILE SECONDS     hold the store's write lock that long,
 *                                   printing "locked" once it has it
 *   t/db_tool version FILE N        set its schema version to N */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>

int main(int argc, char **argv)
{
    sqlite3 *h;
    char sql[64];

    if (argc != 4 || sqlite3_open(argv[2], &h) != SQLITE_OK) {
        fprintf(stderr, "usage: db_tool lock FILE SECONDS | version FILE N\n");
        return 2;
    }
    if (strcmp(argv[1], "lock") == 0) {
        if (sqlite3_exec(h, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK) {
            fprintf(stderr, "db_tool: %s\n", sqlite3_errmsg(h));
            return 1;
        }
        printf("locked\n");
        fflush(stdout);
        sleep((unsigned)atoi(argv[3]));
    } else {
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", atoi(argv[3]));
        if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK) {
            fprintf(stderr, "db_tool: %s\n", sqlite3_errmsg(h));
            return 1;
        }
    }
    sqlite3_close(h);
    return 0;
}
