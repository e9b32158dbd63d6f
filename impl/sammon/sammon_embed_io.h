/* SPDX-License-Identifier: MIT */
/* embed's parts (sammon_embed.c: options and the run; sammon_embed_io.c:
 * data, input checks, outputs and the error line;
 * harness/cli/embed_engines.c: the backends built in).  Private to the
 * program. */
#ifndef SAMMON_EMBED_IO_H
#define SAMMON_EMBED_IO_H

#include "datasets/dataset.h"
#include "harness/cli/prog.h"
#include "harness/ctx.h"

/* The name errors begin with: "reprobench embed" or the old "sammon-embed". */
extern const char *sammon_embed_prog;
#define complain(...) rb_prog_complain(sammon_embed_prog, __VA_ARGS__)

enum embed_rule { RULE_NEWTON, RULE_GD, RULE_MASS, RULE_CAWLEY };
enum embed_init { INIT_DEFAULT, INIT_PCA, INIT_CMDSCALE, INIT_RANDOM };

struct embed_options {
    const char *data, *out, *plot, *backend, *device;
    int dedup, iters, outdim, threads, tile;
    enum embed_rule rule;
    enum embed_init init;
    unsigned long long seed;
    struct rb_device_pick pick[RB_BACKEND_COUNT];      /* --device */
};

/* Each returns 0 or the exit status after one line on stderr. */

/* The data: a shipped set or CSV (rb_dataset_load), or "random:NxD",
 * N points uniform in [0, 255]^D drawn from seed (labels 0). */
int embed_load(const char *name, unsigned long long seed, struct rb_dataset *d);
/* Rows equal to an earlier one (2, naming both), or dropped with dedup
 * (keep[] the original rows kept, d->N updated). */
int embed_duplicates(struct rb_dataset *d, int dedup, int *keep);
/* Distances whose sums would overflow double precision (2). */
int embed_check_extent(const struct rb_dataset *d);
/* The pca start's X^T X overflowing (2). */
int embed_check_pca_scale(const struct rb_dataset *d);

/* The data with each column's mean taken off (cmdscale's start is their
 * PCA), or NULL out of memory. */
double *embed_centred(const struct rb_dataset *d);
/* A map whose stress or a coordinate is not finite (1): never written. */
int embed_check_finite(const struct rb_dataset *d, const double *y, int len, double e, int it,
                       const char *out);
/* --out and --plot before the work (2): a folder, a place no temporary
 * file can be created, no gnuplot or no script. */
int embed_probe_outputs(const struct embed_options *o);
/* The TSV, through OUT.tmp and a rename (stdout without --out). */
int embed_write_tsv(const struct embed_options *o, const struct rb_dataset *d, const double *y,
                    const int *keep, int N);
/* The PNG scatter of the map through plots/sammon-embedding.gp (x and y:
 * the first two coordinates), written to a temporary name and renamed. */
int embed_plot(const struct embed_options *o, const struct rb_dataset *d, const double *y,
               const int *keep, int N);

#endif
