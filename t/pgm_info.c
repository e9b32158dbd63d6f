/* SPDX-License-Identifier: MIT */
/* For the shell tests: read a PGM with the project's reader and print
 * "width height maxval", or its one-line error and exit 1. */
#include <stdio.h>
#include "datasets/pgm.h"

int main(int argc, char **argv)
{
    struct rb_pgm img;
    char err[512];
    if (argc != 2) {
        fprintf(stderr, "usage: pgm_info FILE.pgm\n");
        return 2;
    }
    if (rb_pgm_read(argv[1], &img, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("%d %d %d\n", img.width, img.height, img.maxval);
    rb_pgm_free(&img);
    return 0;
}
