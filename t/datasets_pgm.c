/* SPDX-License-Identifier: MIT */
/* The PGM reader: good P2 and P5 (8- and 16-bit, comments) read exactly;
 * every malformed input rejected with one message naming the file and the
 * fault; the shipped ascent.pgm and the photographs beside it at their
 * documented sizes (datasets/README.md); patch extraction's shapes, order,
 * mean removal and scale. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "datasets/dataset.h"
#include "datasets/patches.h"
#include "datasets/pgm.h"
#include "harness/error.h"
#include "t/tap.h"

static int parse(const char *text, size_t len, struct rb_pgm *img, char *err)
{
    return rb_pgm_parse((const unsigned char *)text, len, "img.pgm", img, err, 256);
}

/* 1 result: `text` is rejected with a message holding `want`. */
static void bad(const char *what, const char *text, size_t len, const char *want)
{
    struct rb_pgm img;
    char err[256] = "";
    int rc = parse(text, len, &img, err);
    tap_ok(rc == RB_EINVAL && strncmp(err, "img.pgm: ", 9) == 0 && strstr(err, want)
           && !img.pix, "%s: rejected, '%s'", what, err);
}

static void good(void)
{
    struct rb_pgm img;
    char err[256] = "";
    static const char p2[] = "P2\n# a comment\n3 2 # trailing comment\n9\n0 1 2\n7 8 9\n\n";
    int rc = parse(p2, sizeof p2 - 1, &img, err);
    static const uint16_t want2[] = { 0, 1, 2, 7, 8, 9 };
    tap_ok(rc == 0 && img.width == 3 && img.height == 2 && img.maxval == 9
           && memcmp(img.pix, want2, sizeof want2) == 0, "P2 with comments read exactly (%s)",
           err);
    rb_pgm_free(&img);
    static const char p5[] = "P5 2 2 255\n\x00\xff\x10\x80";
    rc = parse(p5, sizeof p5 - 1, &img, err);
    static const uint16_t want5[] = { 0, 255, 16, 128 };
    tap_ok(rc == 0 && img.width == 2 && img.height == 2 && img.maxval == 255
           && memcmp(img.pix, want5, sizeof want5) == 0, "P5 8-bit read exactly (%s)", err);
    rb_pgm_free(&img);
    static const char p16[] = "P5\n#c\n2 1\n65535\n\x01\x02\xff\xff";
    rc = parse(p16, sizeof p16 - 1, &img, err);
    tap_ok(rc == 0 && img.maxval == 65535 && img.pix[0] == 0x0102 && img.pix[1] == 0xffff,
           "P5 16-bit big-endian read exactly (%s)", err);
    rb_pgm_free(&img);
}

static void malformed(void)
{
    static const char p5_short[] = "P5 4 4 255\n\x01\x02\x03";
    static const char p5_trail[] = "P5 1 1 255\n\x05junk";
    static const char p5_high[] = "P5 1 1 100\n\xc8";
    bad("empty file", "", 0, "bad magic");
    bad("P6 magic", "P6 1 1 255\n\x00\x00\x00", 13, "bad magic");
    bad("P55 magic", "P55 1 1 255\n\x00", 13, "bad magic");
    bad("no width", "P2\n", 3, "bad header: width missing");
    bad("width not a number", "P2 x 1 1\n0", 10, "bad header: width is not a decimal");
    bad("width 0", "P2 0 1 1\n", 9, "bad header: width out of range");
    bad("negative height", "P2 1 -1 1\n0", 11, "bad header: height is not a decimal");
    bad("height too large", "P2 1 99999999 1\n0", 17, "bad header: height out of range");
    bad("no maxval", "P2 1 1", 6, "bad header: maxval missing");
    bad("maxval 0", "P2 1 1 0\n0", 10, "maxval 0");
    bad("maxval 65536", "P2 1 1 65536\n0", 14, "maxval above 65535");
    bad("P5 truncated", p5_short, sizeof p5_short - 1, "truncated data: 3 of 16 samples");
    bad("P5 no data", "P5 1 1 255", 10, "truncated data: no whitespace after maxval");
    bad("P2 truncated", "P2 2 2 9\n1 2 3", 14, "truncated data: 3 of 4 samples");
    bad("P2 letter in data", "P2 2 1 9\n1 a", 12, "bad data: sample 1 is not a decimal");
    bad("P2 sample above maxval", "P2 2 1 9\n1 10", 13, "bad data: sample 1 exceeds maxval 9");
    bad("P5 sample above maxval", p5_high, sizeof p5_high - 1, "sample 0 exceeds maxval 100");
    bad("P5 trailing garbage", p5_trail, sizeof p5_trail - 1, "trailing data after the raster");
    bad("P2 trailing garbage", "P2 1 1 9\n1 2\n", 13, "trailing data after the raster");
    bad("P2 comment in data", "P2 1 1 9\n#x\n1\n", 14, "bad data: sample 0 is not a decimal");
}

static void file_and_ascent(void)
{
    struct rb_pgm img;
    char err[512] = "";
    int rc = rb_pgm_read("/nonexistent/x.pgm", &img, err, sizeof err);
    tap_ok(rc == RB_EIO && strstr(err, "/nonexistent/x.pgm: "), "missing file: '%s'", err);
    err[0] = 0;
    char path[4096];
    rc = rb_dataset_path("ascent.pgm", path, sizeof path, err, sizeof err);
    if (rc == 0)
        rc = rb_pgm_read(path, &img, err, sizeof err);
    double sum = 0.0;
    for (int k = 0; rc == 0 && k < 512 * 512; k++)
        sum += img.pix[k];
    tap_ok(rc == 0 && img.width == 512 && img.height == 512 && img.maxval == 255
           && sum > 0.0, "ascent.pgm: 512 x 512, maxval 255, mean %.2f (%s)",
           sum / (512.0 * 512.0), err);
    if (rc == 0)
        rb_pgm_free(&img);
}

/* 5 results: each shipped photograph at its documented size, and the
 * sliding 8 x 8 patches of all five images (ascent included). */
static void photographs(void)
{
    static const struct { const char *file; int width, height; } shipped[] = {
        { "camera.pgm", 512, 512 }, { "astronaut.pgm", 512, 512 },
        { "coffee.pgm", 600, 400 }, { "chelsea.pgm", 451, 300 },
    };
    long patches = rb_patches_count(512, 512, 8, RB_PATCH_SLIDING);
    for (size_t k = 0; k < sizeof shipped / sizeof shipped[0]; k++) {
        struct rb_pgm img;
        char err[512] = "", path[4096];
        int rc = rb_dataset_path(shipped[k].file, path, sizeof path, err, sizeof err);
        if (rc == 0)
            rc = rb_pgm_read(path, &img, err, sizeof err);
        int lo = 255, hi = 0;
        for (long q = 0; rc == 0 && q < (long)img.width * img.height; q++) {
            lo = img.pix[q] < lo ? img.pix[q] : lo;
            hi = img.pix[q] > hi ? img.pix[q] : hi;
        }
        /* A photograph, not a flat or truncated raster: a wide grey range. */
        tap_ok(rc == 0 && img.width == shipped[k].width && img.height == shipped[k].height
               && img.maxval == 255 && hi - lo > 128, "%s: %d x %d, maxval 255, grey %d..%d "
               "(%s)", shipped[k].file, shipped[k].width, shipped[k].height, lo, hi, err);
        if (rc == 0) {
            patches += rb_patches_count(img.width, img.height, 8, RB_PATCH_SLIDING);
            rb_pgm_free(&img);
        }
    }
    tap_ok(patches == 1128216, "the five images hold %ld sliding 8 x 8 patches (about 2^20)",
           patches);
}

static void patches(void)
{
    /* 5 x 4 image, pix = 10 r + c. */
    uint16_t pix[20];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            pix[r * 5 + c] = (uint16_t)(10 * r + c);
    struct rb_pgm img = { .width = 5, .height = 4, .maxval = 255, .pix = pix };
    tap_ok(rb_patches_count(5, 4, 2, RB_PATCH_SLIDING) == 12
           && rb_patches_count(5, 4, 2, RB_PATCH_DISTINCT) == 4
           && rb_patches_count(5, 4, 5, RB_PATCH_SLIDING) == 0
           && rb_patches_count(512, 512, 8, RB_PATCH_DISTINCT) == 4096
           && rb_patches_count(512, 512, 8, RB_PATCH_SLIDING) == 505 * 505,
           "patch counts, sliding and distinct");
    double Y[12 * 4];
    long n = rb_patches_extract(&img, 2, RB_PATCH_SLIDING, 0, 0.5, Y);
    /* Patch 5 starts at row 1, column 1: 11 12 21 22, halved. */
    tap_ok(n == 12 && Y[5 * 4] == 5.5 && Y[5 * 4 + 1] == 6.0 && Y[5 * 4 + 2] == 10.5
           && Y[5 * 4 + 3] == 11.0, "sliding: order by row then column, row-major, scaled");
    n = rb_patches_extract(&img, 2, RB_PATCH_DISTINCT, 1, 1.0, Y);
    int zero_mean = n == 4;
    for (long k = 0; k < n; k++) {
        double m = 0.0;
        for (int q = 0; q < 4; q++)
            m += Y[k * 4 + q];
        zero_mean &= fabs(m) < 1e-12;
    }
    /* Patch 1: columns 2-3 of rows 0-1: 2 3 12 13, mean 7.5. */
    tap_ok(zero_mean && Y[4] == -5.5 && Y[7] == 5.5, "distinct: means removed, values right");
    tap_is(rb_patches_extract(&img, 0, RB_PATCH_SLIDING, 1, 1.0, Y), RB_EINVAL,
           "side 0 refused");
}

int main(void)
{
    tap_plan(3 + 20 + 2 + 5 + 4);
    good();
    malformed();
    file_and_ascent();
    photographs();
    patches();
    return tap_done();
}
