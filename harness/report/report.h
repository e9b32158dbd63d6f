/* SPDX-License-Identifier: MIT */
/* The report of a run directory: report/index.html and its Markdown twin
 * report/README.md, built from one document model so both say the same. */
#ifndef RB_REPORT_H
#define RB_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* Write <run_dir>/report/index.html and README.md from the run's
 * records.jsonl, meta.json and hardware.json, with every figure of
 * <run_dir>/plots/ copied beside them.  The path of index.html goes to
 * index (may be NULL).  Returns 0, or RB_EINVAL (not a run directory, a
 * malformed record), RB_EIO, RB_ENOMEM, with one line in err. */
int rb_report_write(const char *run_dir, char *index, size_t indexlen,
                    char *err, size_t errlen);

/* The document: a list of blocks, each a JSON object ("h", "p", "list",
 * "table", "img").  Every text is plain: the writers escape it.  Building
 * never fails midway: an allocation failure sets bad, checked once at the
 * end. */
struct rb_doc {
    json_t *blocks;
    int bad;
};

int rb_doc_init(struct rb_doc *d);
void rb_doc_free(struct rb_doc *d);
void rb_doc_heading(struct rb_doc *d, int level, const char *text);
/* A paragraph, printf-style. */
void rb_doc_para(struct rb_doc *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A bulleted list; items are appended with rb_doc_item. */
json_t *rb_doc_list(struct rb_doc *d);
void rb_doc_item(struct rb_doc *d, json_t *list, const char *text);
/* A table with ncol headers; rows are appended with rb_doc_row, whose cells
 * are ncol strings (NULL reads as empty). */
json_t *rb_doc_table(struct rb_doc *d, const char *const *head, size_t ncol);
void rb_doc_row(struct rb_doc *d, json_t *table, const char *const *cells);
/* A figure: src is a file name relative to the report. */
void rb_doc_image(struct rb_doc *d, const char *src, const char *caption);

/* Render the document.  0, or RB_EIO when writing fails. */
int rb_doc_write_html(const struct rb_doc *d, const char *title, FILE *f);
int rb_doc_write_md(const struct rb_doc *d, const char *title, FILE *f);

/* The sections, each appending to the document. */
void rb_report_hardware(struct rb_doc *d, const json_t *hw);
void rb_report_build(struct rb_doc *d, const json_t *meta);
/* A paper's records: its best configurations and its cases not ok.
 * files: its figures' names in the report folder, already copied; meta
 * (may be NULL) holds the run's ceilings. */
void rb_report_paper(struct rb_doc *d, const char *paper, const json_t *records,
                     const json_t *files, const json_t *meta);
/* One roofline figure per backend with ceilings and work counts, drawn
 * into the report folder. */
void rb_report_roofline(struct rb_doc *d, const char *run, const char *report,
                        const json_t *records, const json_t *meta);
/* The run's energy (harness/report/report_energy.c): the CPU's governor and RAPL,
 * the GPUs watched, joules and GFLOP per joule per case, throttled cases. */
void rb_report_energy(struct rb_doc *d, const json_t *records);
/* The paper's claims against ratios measured in records; hw (may be NULL)
 * tells a GPU from an OpenCL CPU device. */
void rb_report_claims(struct rb_doc *d, const char *paper, const json_t *records,
                      const json_t *hw);
/* The papers that have claims, in order, NULL-terminated; and a paper's
 * full title (its id when unknown). */
const char *const *rb_report_claim_papers(void);
const char *rb_report_paper_title(const char *paper);

/* Shared formatting of record fields. */
const char *rb_rec_str(const json_t *rec, const char *key);
double rb_rec_median(const json_t *rec);
int rb_rec_ok(const json_t *rec);
/* "n=32 m=0": the values of an object of axes, or "-" when empty. */
void rb_axes_label(const json_t *axes, char *buf, size_t len);
/* A time in ms with four significant digits, or "-". */
void rb_ms_label(double ms, char *buf, size_t len);

#endif
