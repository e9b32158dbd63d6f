/* SPDX-License-Identifier: MIT */
/* Each paper's headline speedup, as data, against the same ratio measured
 * in one run's records: the reference CPU record's median over the fastest
 * verified GPU record's median, at the largest size both have. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness/paper.h"
#include "harness/report/report.h"

#define PAPERS_MAX 16            /* more than the registry holds */

/* The paper registered as `paper`, or NULL. */
static const struct rb_paper *paper_named(const char *paper)
{
    const struct rb_paper *p;

    for (size_t i = 0; (p = rb_registry_paper(i)); i++)
        if (strcmp(p->name, paper) == 0)
            return p;
    return NULL;
}

const char *const *rb_report_claim_papers(void)
{
    static const char *papers[PAPERS_MAX + 1];

    if (!papers[0])
        for (size_t i = 0; i < PAPERS_MAX && rb_registry_paper(i); i++)
            papers[i] = rb_registry_paper(i)->name;
    return papers;
}

const char *rb_report_paper_title(const char *paper)
{
    const struct rb_paper *p = paper_named(paper);

    return p ? p->title : paper;
}

static int is_gpu_backend(const char *b)
{
    return strcmp(b, "cuda") == 0 || strcmp(b, "hip") == 0 || strcmp(b, "opencl") == 0;
}

static int same_case_group(const json_t *a, const json_t *b)
{
    return strcmp(rb_rec_str(a, "algo"), rb_rec_str(b, "algo")) == 0
           && strcmp(rb_rec_str(a, "prec"), rb_rec_str(b, "prec")) == 0
           && json_equal(json_object_get(a, "sizes"), json_object_get(b, "sizes"));
}

static long long threads_of(const json_t *rec)
{
    const json_t *t = json_object_get(json_object_get(rec, "tunables"), "threads");

    return json_is_integer(t) ? (long long)json_integer_value(t) : 0;
}

/* The reference record of the group of rec, or NULL. */
static const json_t *reference(const struct rb_claim *c, const json_t *records, const json_t *g)
{
    const json_t *rec, *best = NULL;
    size_t i;

    json_array_foreach(records, i, rec) {
        if (!rb_rec_ok(rec) || !same_case_group(rec, g))
            continue;
        if (c->ref == RB_CLAIM_BASELINE && !json_is_true(json_object_get(rec, "baseline")))
            continue;
        if (c->ref == RB_CLAIM_OMP_MOST_THREADS && strcmp(rb_rec_str(rec, "backend"), "omp"))
            continue;
        if (!best || (c->ref == RB_CLAIM_OMP_MOST_THREADS && threads_of(rec) > threads_of(best))
            || ((c->ref != RB_CLAIM_OMP_MOST_THREADS || threads_of(rec) == threads_of(best))
                && rb_rec_median(rec) < rb_rec_median(best)))
            best = rec;
    }
    return best;
}

/* Sizes compare axis by axis in the records' order: n, then m. */
static int sizes_cmp(const json_t *a, const json_t *b)
{
    const char *name;
    const json_t *va;

    json_object_foreach((json_t *)a, name, va) {
        double x = json_number_value(va);
        double y = json_number_value(json_object_get(b, name));
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

/* "tiled opencl wg=16: 0.05837 ms" */
static void describe(const json_t *rec, char *buf, size_t len)
{
    char tun[128], ms[32];

    rb_axes_label(json_object_get(rec, "tunables"), tun, sizeof tun);
    rb_ms_label(rb_rec_median(rec), ms, sizeof ms);
    snprintf(buf, len, "%s %s%s%s: %s ms", rb_rec_str(rec, "variant"),
             rb_rec_str(rec, "backend"), strcmp(tun, "-") ? " " : "",
             strcmp(tun, "-") ? tun : "", ms);
}

/* OpenCL also runs on CPUs (PoCL): the device's type where hardware.json
 * says it is not a GPU, else NULL. */
static const char *non_gpu_type(const json_t *hw, const json_t *rec)
{
    const json_t *dev;
    size_t i;

    json_array_foreach(json_object_get(hw, "devices"), i, dev) {
        const char *type = rb_rec_str(dev, "type");
        if (strcmp(rb_rec_str(dev, "name"), rb_rec_str(rec, "device")) == 0
            && strcmp(rb_rec_str(dev, "backend"), rb_rec_str(rec, "backend")) == 0
            && *type && strcmp(type, "GPU") != 0)
            return type;
    }
    return NULL;
}

struct pick {
    const json_t *gpu, *ref;
};

/* The largest group of (algo, prec) holding both a verified GPU record and
 * the reference; within it the fastest GPU record. */
static struct pick pick_pair(const struct rb_claim *c, const json_t *records,
                             const char *algo, const char *prec)
{
    struct pick p = { NULL, NULL };
    const json_t *rec, *ref;
    size_t i;

    json_array_foreach(records, i, rec) {
        int cmp;

        if (!rb_rec_ok(rec) || !is_gpu_backend(rb_rec_str(rec, "backend"))
            || strcmp(rb_rec_str(rec, "algo"), algo) || strcmp(rb_rec_str(rec, "prec"), prec))
            continue;
        if (!(ref = reference(c, records, rec)))
            continue;
        cmp = p.gpu ? sizes_cmp(json_object_get(rec, "sizes"),
                                json_object_get(p.gpu, "sizes")) : 1;
        if (cmp > 0 || (cmp == 0 && rb_rec_median(rec) < rb_rec_median(p.gpu))) {
            p.gpu = rec;
            p.ref = ref;
        }
    }
    return p;
}

/* Distinct values of a field, in order of first appearance. */
static json_t *distinct(const json_t *records, const char *key)
{
    json_t *out = json_array(), *rec, *v;
    size_t i, j;

    json_array_foreach(records, i, rec) {
        int seen = 0;
        json_array_foreach(out, j, v)
            seen |= strcmp(json_string_value(v), rb_rec_str(rec, key)) == 0;
        if (!seen && out)
            json_array_append_new(out, json_string(rb_rec_str(rec, key)));
    }
    return out;
}

static void claim_rows(struct rb_doc *d, json_t *table, json_t *used, const struct rb_claim *c,
                       const json_t *records, const json_t *hw)
{
    json_t *algos = distinct(records, "algo"), *precs = distinct(records, "prec"), *a, *p;
    char gpu[320], ref[320], size[128], ratio[32], note[512];
    size_t i, j;

    json_array_foreach(algos, i, a) {
        int found = 0;
        json_array_foreach(precs, j, p) {
            struct pick pk = pick_pair(c, records, json_string_value(a),
                                       json_string_value(p));
            const char *type;

            if (!pk.gpu)
                continue;
            found = 1;
            describe(pk.gpu, gpu, sizeof gpu);
            if ((type = non_gpu_type(hw, pk.gpu)))
                snprintf(gpu + strlen(gpu), sizeof gpu - strlen(gpu),
                         " (on %s, a %s device, not a GPU)", rb_rec_str(pk.gpu, "device"), type);
            describe(pk.ref, ref, sizeof ref);
            rb_axes_label(json_object_get(pk.gpu, "sizes"), size, sizeof size);
            snprintf(ratio, sizeof ratio, "%.3gx",
                     rb_rec_median(pk.ref) / rb_rec_median(pk.gpu));
            rb_doc_row(d, table, (const char *const[]){ c->words, c->figure,
                       json_string_value(a), json_string_value(p), size, gpu, ref, ratio });
            snprintf(note, sizeof note, "%s %s %s: GPU record %s, CPU record %s",
                     c->figure, json_string_value(a), json_string_value(p),
                     rb_rec_str(pk.gpu, "key"), rb_rec_str(pk.ref, "key"));
            json_array_append_new(used, json_string(note));
        }
        if (!found)
            rb_doc_row(d, table, (const char *const[]){ c->words, c->figure,
                       json_string_value(a), "-", "-", "no verified GPU (CUDA, HIP, OpenCL) "
                       "record with a reference at the same size", c->ref_name, "-" });
    }
    json_decref(algos);
    json_decref(precs);
}

void rb_report_claims(struct rb_doc *d, const char *paper, const json_t *records,
                      const json_t *hw)
{
    static const char *const head[] = {
        "the paper's claim", "paper", "algo", "prec", "largest common size",
        "fastest GPU record (median)", "CPU record (median)", "this machine",
    };
    json_t *mine = json_array(), *used = json_array(), *rec, *table, *list;
    size_t i;

    json_array_foreach(records, i, rec)
        if (strcmp(rb_rec_str(rec, "paper"), paper) == 0)
            json_array_append(mine, rec);
    const struct rb_paper *pp = paper_named(paper);
    if (!pp || !pp->claims[0].words || !mine || !used) {
        d->bad |= !mine || !used;
        goto out_free_arrays;
    }
    rb_doc_heading(d, 3, "Paper claim vs this machine");
    if (json_array_size(mine))
        rb_doc_para(d, "Each ratio is the CPU record's median over the GPU record's median, "
                    "both from this run's records.jsonl: same algorithm, precision and "
                    "sizes, at the largest size both were timed; the GPU record is the "
                    "fastest verified one (any variant, tunable setting and GPU backend) at "
                    "that size.");
    table = rb_doc_table(d, head, sizeof head / sizeof *head);
    for (const struct rb_claim *c = pp->claims; c->words; c++) {
        if (json_array_size(mine) == 0) {
            rb_doc_row(d, table, (const char *const[]){ c->words, c->figure, "-", "-", "-",
                       "not in this run", "not in this run", "-" });
            continue;
        }
        claim_rows(d, table, used, c, mine, hw);
    }
    if (json_array_size(used)) {
        rb_doc_para(d, "The records each ratio uses, by key:");
        list = rb_doc_list(d);
        json_array_foreach(used, i, rec)
            rb_doc_item(d, list, json_string_value(rec));
    }
out_free_arrays:
    json_decref(mine);
    json_decref(used);
}
