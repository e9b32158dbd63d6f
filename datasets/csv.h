/* SPDX-License-Identifier: MIT */
/* A strict reader of numeric CSV tables: rows of numbers, the last column
 * optionally an integer label.  Every error is one line naming
 * file:line:column. */
#ifndef RB_CSV_H
#define RB_CSV_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits beyond which a file is refused as too large. */
#define RB_CSV_MAX_ROWS 2000000
#define RB_CSV_MAX_COLS 65536
#define RB_CSV_MAX_VALUES 100000000LL

/* What to do with the first line. */
enum rb_csv_header {
    RB_CSV_NO_HEADER,       /* every line is a row */
    RB_CSV_HEADER,          /* skip the first line */
    RB_CSV_HEADER_AUTO      /* skip it when one of its fields is not a number */
};

struct rb_csv {
    int rows, cols;         /* cols: the numeric columns, the label excluded */
    double *x;              /* rows x cols, row-major */
    int *label;             /* rows labels (labelled files), else NULL */
};

/* Read path.  With `labelled` the last column of each row is an integer
 * label.  Fields are numbers as strtod reads them, finite, with optional
 * blanks around them; CRLF line ends and blank lines at the end are
 * accepted.  0, or RB_EIO (cannot read), RB_EINVAL (malformed: ragged rows,
 * a field that is not a finite number, a label that is not an integer, no
 * rows, too large) or RB_ENOMEM, with one line "path:line:column: what" in
 * err.  The caller frees out with rb_csv_free. */
int rb_csv_read(const char *path, enum rb_csv_header header, int labelled,
                struct rb_csv *out, char *err, size_t len);
/* Free the arrays; safe on a zeroed or freed table. */
void rb_csv_free(struct rb_csv *t);

#ifdef __cplusplus
}
#endif

#endif
