/* SPDX-License-Identifier: MIT */
/* sbo-learn's files: the RMSE trace (rmse.tsv), the learned atoms as one
 * grey image (atoms.pgm) and the run's summary (summary.txt, with the
 * device trainers' metrics). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "harness/variant.h"
#include "impl/sbo/sbo_learn.h"

/* The atoms image: each block an 8 x 8 grid of 8 x 8 tiles (one atom each,
 * column k of Q_j at tile row k / 8, column k % 8) with 1-pixel gaps and a
 * 1-pixel border, blocks side by side, four to a row, 3 pixels apart, on
 * white. */
#define TILE_GAP 1
#define BLOCK_GAP 3
#define BLOCKS_PER_ROW 4
#define BLOCK_PX (TILE_GAP + SBO_LEARN_SIDE * (SBO_LEARN_SIDE + TILE_GAP))

void sbo_learn_note_metrics(struct sbo_learn_run *r, const struct rb_case *c)
{
    size_t n = strlen(r->note);
    for (int k = 0; k < c->nmetrics; k++) {
        int w = snprintf(r->note + n, sizeof r->note - n, "%s\t%.6g\n", c->metrics[k].name,
                         c->metrics[k].value);
        if (w < 0 || (size_t)w >= sizeof r->note - n) {
            r->note[n] = '\0';
            return;
        }
        n += (size_t)w;
    }
}

void sbo_learn_atoms_size(int nb, int *width, int *height)
{
    int cols = nb < BLOCKS_PER_ROW ? nb : BLOCKS_PER_ROW;
    int rows = (nb + BLOCKS_PER_ROW - 1) / BLOCKS_PER_ROW;
    *width = cols * BLOCK_PX + (cols - 1) * BLOCK_GAP;
    *height = rows * BLOCK_PX + (rows - 1) * BLOCK_GAP;
}

/* Atom a (p values, a row-major patch) into the tile at (x0, y0), its
 * range stretched to 0..255; a flat atom is mid-grey. */
static void draw_atom(const double *a, unsigned char *img, int width, int x0, int y0)
{
    double lo = a[0], hi = a[0];
    for (int q = 1; q < SBO_LEARN_P; q++) {
        lo = fmin(lo, a[q]);
        hi = fmax(hi, a[q]);
    }
    for (int q = 0; q < SBO_LEARN_P; q++) {
        double v = hi > lo ? 255.0 * (a[q] - lo) / (hi - lo) : 128.0;
        img[(size_t)(y0 + q / SBO_LEARN_SIDE) * width + x0 + q % SBO_LEARN_SIDE] =
            (unsigned char)lrint(v);
    }
}

static unsigned char *atoms_image(const struct sbo_learn_run *r, int *width, int *height)
{
    sbo_learn_atoms_size(r->nb, width, height);
    unsigned char *img = malloc((size_t)*width * *height);
    if (!img)
        return NULL;
    memset(img, 255, (size_t)*width * *height);
    for (int j = 0; j < r->nb; j++) {
        int bx = (j % BLOCKS_PER_ROW) * (BLOCK_PX + BLOCK_GAP);
        int by = (j / BLOCKS_PER_ROW) * (BLOCK_PX + BLOCK_GAP);
        const double *Q = r->D + (size_t)j * SBO_LEARN_P * SBO_LEARN_P;
        for (int k = 0; k < SBO_LEARN_P; k++)
            draw_atom(Q + (size_t)k * SBO_LEARN_P, img, *width,
                      bx + TILE_GAP + (k % SBO_LEARN_SIDE) * (SBO_LEARN_SIDE + TILE_GAP),
                      by + TILE_GAP + (k / SBO_LEARN_SIDE) * (SBO_LEARN_SIDE + TILE_GAP));
    }
    return img;
}

static FILE *open_tmp(const char *dir, const char *name, char *tmp, size_t len, char *err,
                      size_t errlen)
{
    if (snprintf(tmp, len, "%s/%s.tmp", dir, name) >= (int)len) {
        snprintf(err, errlen, "%s: path too long", dir);
        return NULL;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f)
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
    return f;
}

/* Close f and move tmp over dir/name; `bad` says whether a write failed. */
static int commit(FILE *f, int bad, const char *tmp, const char *dir, const char *name,
                  char *err, size_t errlen)
{
    char path[4200];
    bad |= ferror(f) != 0;
    bad |= fclose(f) != 0;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (bad || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
        remove(tmp);
        return RB_EIO;
    }
    return 0;
}

static int write_rmse(const char *dir, const struct sbo_learn_run *r, char *err,
                      size_t errlen)
{
    char tmp[4200];
    FILE *f = open_tmp(dir, "rmse.tsv", tmp, sizeof tmp, err, errlen);
    if (!f)
        return RB_EIO;
    fprintf(f, "blocks\tround\trmse\tseconds\n");
    for (int k = 0; k < r->nrows; k++)
        fprintf(f, "%d\t%d\t%.9g\t%.6f\n", r->rows[k].blocks, r->rows[k].round,
                r->rows[k].rmse, r->rows[k].seconds);
    return commit(f, 0, tmp, dir, "rmse.tsv", err, errlen);
}

static int write_atoms(const char *dir, const struct sbo_learn_run *r, char *err,
                       size_t errlen)
{
    int w, h;
    unsigned char *img = atoms_image(r, &w, &h);
    if (!img) {
        snprintf(err, errlen, "out of memory for the atoms image");
        return RB_ENOMEM;
    }
    char tmp[4200];
    FILE *f = open_tmp(dir, "atoms.pgm", tmp, sizeof tmp, err, errlen);
    int rc = RB_EIO;
    if (f) {
        /* No comment in the header: plots/sbo-atoms.gp computes its length. */
        fprintf(f, "P5\n%d %d\n255\n", w, h);
        int bad = fwrite(img, 1, (size_t)w * h, f) != (size_t)w * h;
        rc = commit(f, bad, tmp, dir, "atoms.pgm", err, errlen);
    }
    free(img);
    return rc;
}

static int write_summary(const char *dir, const struct sbo_learn_run *r, const char *head,
                         char *err, size_t errlen)
{
    char tmp[4200];
    FILE *f = open_tmp(dir, "summary.txt", tmp, sizeof tmp, err, errlen);
    if (!f)
        return RB_EIO;
    int w, h;
    sbo_learn_atoms_size(r->nb, &w, &h);
    fputs(head, f);
    fprintf(f, "blocks_learned\t%d\nfinal_rmse\t%.9g\ncode_rmse\t%.9g\n"
            "train_seconds\t%.6f\ncode_seconds\t%.6f\natoms_image\t%d x %d\n", r->nb,
            r->rmse, r->code_rmse, r->train_s, r->code_s, w, h);
    return commit(f, 0, tmp, dir, "summary.txt", err, errlen);
}

int sbo_learn_write(const char *dir, const struct sbo_learn_run *r, const char *summary,
                    char *err, size_t errlen)
{
    int rc = write_rmse(dir, r, err, errlen);
    if (rc == 0)
        rc = write_atoms(dir, r, err, errlen);
    if (rc == 0)
        rc = write_summary(dir, r, summary, err, errlen);
    return rc;
}
