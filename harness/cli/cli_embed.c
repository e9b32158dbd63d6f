/* SPDX-License-Identifier: MIT */
/* reprobench embed: Sammon maps of data sets (impl/sammon/sammon_embed.c). */
#include "harness/cli/cli.h"
#include "impl/sammon/sammon_embed.h"

int rb_cli_embed(int argc, char **argv)
{
    return sammon_embed_main("reprobench embed", argc, argv);
}
