/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the PGM image reader (datasets/pgm.c).  An image it
 * accepts has sides and maxval in range and no sample above maxval; a
 * refusal has a message and no pixels. */
#include "datasets/pgm.h"
#include "fuzz/fuzz_input.h"
#include "harness/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rb_pgm img = { 0 };
    char err[512] = "";
    int rc = rb_pgm_parse(data, size, "fuzz.pgm", &img, err, sizeof err);

    if (rc != 0) {
        if ((rc != RB_EINVAL && rc != RB_ENOMEM) || !err[0] || img.pix)
            abort();
        return 0;
    }
    if (img.width < 1 || img.height < 1 || img.width > RB_PGM_MAX_SIDE
        || img.height > RB_PGM_MAX_SIDE || img.maxval < 1 || img.maxval > 65535 || !img.pix)
        abort();
    for (size_t i = 0; i < (size_t)img.width * (size_t)img.height; i++)
        if (img.pix[i] > img.maxval)
            abort();
    rb_pgm_free(&img);
    return 0;
}
