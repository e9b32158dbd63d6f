/* SPDX-License-Identifier: MIT */
/* The report as one HTML page: inline style, no external resource, every
 * text escaped; figures are the PNG files beside it. */
#include <stdio.h>
#include <string.h>

#include "harness/error.h"
#include "harness/report/report.h"

static const char style[] =
    "body{font-family:sans-serif;margin:2em auto;max-width:75em;padding:0 1em;"
    "color:#222;line-height:1.4}\n"
    "h1{font-size:1.6em}h2{font-size:1.35em;border-bottom:1px solid #ccc;"
    "margin-top:2em}h3{font-size:1.1em}\n"
    "table{border-collapse:collapse;margin:1em 0;font-size:0.9em}\n"
    "th,td{border:1px solid #ccc;padding:0.2em 0.5em;text-align:left;"
    "vertical-align:top}\n"
    "th{background:#f0f0f0}tr:nth-child(even) td{background:#fafafa}\n"
    "figure{margin:1em 0}img{max-width:100%;height:auto;border:1px solid #ddd}\n"
    "figcaption{font-size:0.9em;color:#555}\n";

/* On load, the body says whether every figure decoded and whether a script
 * error happened, so a headless browser's DOM dump can be checked. */
static const char check_script[] =
    "<script>\n"
    "window.addEventListener('error',function(){document.body.dataset.errors='yes';});\n"
    "window.addEventListener('load',function(){\n"
    "  var bad=0,imgs=document.images;\n"
    "  for(var i=0;i<imgs.length;i++)if(!imgs[i].complete||imgs[i].naturalWidth===0)bad++;\n"
    "  document.body.dataset.images=bad?'broken '+bad:'ok '+imgs.length;\n"
    "});\n"
    "</script>\n";

static void put_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

static const char *str(const json_t *b, const char *key)
{
    const char *s = json_string_value(json_object_get(b, key));

    return s ? s : "";
}

static void put_table(FILE *f, const json_t *b)
{
    const json_t *row, *cell;
    size_t i, j;

    fputs("<table>\n<thead><tr>", f);
    json_array_foreach(json_object_get(b, "head"), i, cell) {
        fputs("<th>", f);
        put_text(f, json_string_value(cell));
        fputs("</th>", f);
    }
    fputs("</tr></thead>\n<tbody>\n", f);
    json_array_foreach(json_object_get(b, "rows"), i, row) {
        fputs("<tr>", f);
        json_array_foreach(row, j, cell) {
            fputs("<td>", f);
            put_text(f, json_string_value(cell));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

static void put_block(FILE *f, const json_t *b)
{
    const char *type = str(b, "type");
    const json_t *item;
    size_t i;

    if (strcmp(type, "h") == 0) {
        int level = (int)json_integer_value(json_object_get(b, "level"));
        level = level < 2 ? 2 : level > 6 ? 6 : level;
        fprintf(f, "<h%d>", level);
        put_text(f, str(b, "text"));
        fprintf(f, "</h%d>\n", level);
    } else if (strcmp(type, "p") == 0) {
        fputs("<p>", f);
        put_text(f, str(b, "text"));
        fputs("</p>\n", f);
    } else if (strcmp(type, "list") == 0) {
        fputs("<ul>\n", f);
        json_array_foreach(json_object_get(b, "items"), i, item) {
            fputs("<li>", f);
            put_text(f, json_string_value(item));
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
    } else if (strcmp(type, "table") == 0) {
        put_table(f, b);
    } else if (strcmp(type, "img") == 0) {
        fputs("<figure><img src=\"", f);
        put_text(f, str(b, "src"));
        fputs("\" alt=\"", f);
        put_text(f, str(b, "caption"));
        fputs("\"><figcaption>", f);
        put_text(f, str(b, "caption"));
        fputs("</figcaption></figure>\n", f);
    }
}

int rb_doc_write_html(const struct rb_doc *d, const char *title, FILE *f)
{
    const json_t *b;
    size_t i;

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>", f);
    put_text(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n%s</head>\n<body>\n<h1>", style, check_script);
    put_text(f, title);
    fputs("</h1>\n", f);
    json_array_foreach(d->blocks, i, b)
        put_block(f, b);
    fputs("</body>\n</html>\n", f);
    return fflush(f) == 0 && !ferror(f) ? 0 : RB_EIO;
}
