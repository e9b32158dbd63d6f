/* SPDX-License-Identifier: MIT */
/* sbo-learn: the old name of reprobench learn, kept for one release. */
#include "harness/cli/cli.h"
#include "impl/sbo/sbo_learn.h"

int main(int argc, char **argv)
{
    rb_cli_prog = "sbo-learn";         /* the parser's errors too */
    return sbo_learn_main("sbo-learn", argc, argv);
}
