/* SPDX-License-Identifier: MIT */
/* The report as Markdown (CommonMark with GitHub tables): README.md beside
 * index.html, readable as text and rendered by forges. */
#include <stdio.h>
#include <string.h>

#include "harness/error.h"
#include "harness/report/report.h"

/* Backslash-escape the punctuation that would make markup (a '|' would
 * split a cell, a '<' open raw HTML); a newline would end the block. */
static void put_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r' || *s == '\t')
            fputc(' ', f);
        else if (strchr("\\`*_[]<>|", *s))
            fprintf(f, "\\%c", *s);
        else
            fputc(*s, f);
    }
}

static void put_table(FILE *f, const json_t *b)
{
    const json_t *head = json_object_get(b, "head"), *row, *cell;
    size_t i, j;

    fputc('|', f);
    json_array_foreach(head, i, cell) {
        fputc(' ', f);
        put_text(f, json_string_value(cell));
        fputs(" |", f);
    }
    fputs("\n|", f);
    for (i = 0; i < json_array_size(head); i++)
        fputs("---|", f);
    fputc('\n', f);
    json_array_foreach(json_object_get(b, "rows"), i, row) {
        fputc('|', f);
        json_array_foreach(row, j, cell) {
            fputc(' ', f);
            put_text(f, json_string_value(cell));
            fputs(" |", f);
        }
        fputc('\n', f);
    }
}

int rb_doc_write_md(const struct rb_doc *d, const char *title, FILE *f)
{
    const json_t *b, *item;
    size_t i, j;

    fputs("# ", f);
    put_text(f, title);
    fputs("\n", f);
    json_array_foreach(d->blocks, i, b) {
        const char *type = json_string_value(json_object_get(b, "type"));
        const char *s = json_string_value(json_object_get(b, "text"));

        fputc('\n', f);
        if (strcmp(type, "h") == 0) {
            int level = (int)json_integer_value(json_object_get(b, "level"));
            for (int k = 0; k < level && k < 6; k++)
                fputc('#', f);
            fputc(' ', f);
            put_text(f, s);
            fputc('\n', f);
        } else if (strcmp(type, "p") == 0) {
            put_text(f, s);
            fputc('\n', f);
        } else if (strcmp(type, "list") == 0) {
            json_array_foreach(json_object_get(b, "items"), j, item) {
                fputs("- ", f);
                put_text(f, json_string_value(item));
                fputc('\n', f);
            }
        } else if (strcmp(type, "table") == 0) {
            put_table(f, b);
        } else if (strcmp(type, "img") == 0) {
            /* Our own file names: letters, digits, '_', '-', '.'. */
            fputs("![", f);
            put_text(f, json_string_value(json_object_get(b, "caption")));
            fprintf(f, "](%s)\n\n*", json_string_value(json_object_get(b, "src")));
            put_text(f, json_string_value(json_object_get(b, "caption")));
            fputs("*\n", f);
        }
    }
    return fflush(f) == 0 && !ferror(f) ? 0 : RB_EIO;
}
