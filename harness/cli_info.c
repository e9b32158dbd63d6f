/* SPDX-License-Identifier: MIT */
/* reprobench info: the hardware summary that tags every run. */
#include <stdio.h>
#include <string.h>
#include "harness/cli.h"
#include "harness/ctx.h"
#include "harness/hw.h"

static const char usage[] =
    "usage: reprobench info [--json]\n"
    "\n"
    "The hwloc topology summary (CPU model, packages, cores, PUs, caches, NUMA\n"
    "nodes, memory) and every OpenCL, CUDA and HIP device found, or why none.\n"
    "--json prints the same summary as hardware.json in a run directory.\n";

int rb_cli_info(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else {
            return rb_cli_usage_error("info: unknown option '%s'", argv[i]);
        }
    }
    struct rb_ctx ctx;
    char err[256];
    rb_ctx_init(&ctx);
    json_t *hw = rb_hw_summary(&ctx, err, sizeof err);
    if (!hw) {
        fprintf(stderr, "reprobench: %s\n", err);
        rb_ctx_release(&ctx);
        return 1;
    }
    if (json) {
        json_dumpf(hw, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        putchar('\n');
    } else {
        rb_hw_print(stdout, hw);
    }
    json_decref(hw);
    rb_ctx_release(&ctx);
    return 0;
}
