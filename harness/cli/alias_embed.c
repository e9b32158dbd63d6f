/* SPDX-License-Identifier: MIT */
/* sammon-embed: the old name of reprobench embed, kept for one release. */
#include "harness/cli/cli.h"
#include "impl/sammon/sammon_embed.h"

int main(int argc, char **argv)
{
    rb_cli_prog = "sammon-embed";      /* the parser's errors too */
    return sammon_embed_main("sammon-embed", argc, argv);
}
