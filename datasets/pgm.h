/* SPDX-License-Identifier: MIT */
/* A strict reader of PGM images (netpbm's P5 binary and P2 ASCII), one
 * image per file.  Accepted: the magic, then width, height and maxval as
 * decimal integers separated by whitespace, with '#' comments to the end of
 * a line anywhere in the header; maxval 1..65535; P5 samples of one byte
 * (maxval < 256) or two big-endian bytes after exactly one whitespace
 * character; P2 samples as decimal integers separated by whitespace.
 * Trailing whitespace after the raster is accepted; anything else after it
 * (a second image, garbage) is rejected, as are samples above maxval.
 * Every error is one line naming the file and what is wrong. */
#ifndef RB_PGM_H
#define RB_PGM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits beyond which an image is refused as too large. */
#define RB_PGM_MAX_SIDE 65536
#define RB_PGM_MAX_PIXELS (1L << 28)

struct rb_pgm {
    int width, height, maxval;
    uint16_t *pix;              /* height x width, row-major */
};

/* Parse len bytes named `name` (for messages).  0, RB_EINVAL (the message
 * in err) or RB_ENOMEM. */
int rb_pgm_parse(const unsigned char *buf, size_t len, const char *name, struct rb_pgm *img,
                 char *err, size_t errlen);
/* Read and parse the file at path.  0, RB_EIO, RB_EINVAL or RB_ENOMEM. */
int rb_pgm_read(const char *path, struct rb_pgm *img, char *err, size_t errlen);
void rb_pgm_free(struct rb_pgm *img);

#ifdef __cplusplus
}
#endif

#endif
