/* SPDX-License-Identifier: MIT */
/* reprobench embed (and its alias sammon-embed): the program's entry. */
#ifndef SAMMON_EMBED_H
#define SAMMON_EMBED_H

/* The whole program: options, data, map, outputs; the exit status.  prog
 * is the name errors begin with: "reprobench embed" or "sammon-embed". */
int sammon_embed_main(const char *prog, int argc, char **argv);

#endif
