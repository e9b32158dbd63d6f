/* SPDX-License-Identifier: MIT */
/* reprobench learn: SBO dictionaries of image patches (impl/sbo/sbo_learn.c). */
#include "harness/cli/cli.h"
#include "impl/sbo/sbo_learn.h"

int rb_cli_learn(int argc, char **argv)
{
    return sbo_learn_main("reprobench learn", argc, argv);
}
