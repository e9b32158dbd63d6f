/* SPDX-License-Identifier: MIT */
/* reprobench info: the hardware summary that tags every run. */
#include <stdio.h>
#include <string.h>
#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/cli/env.h"
#include "harness/ctx.h"
#include "harness/records/hw.h"

static const struct rb_opt info_table[] = {
    { RB_OPT_FLAG, "--json", .help = "the same summary as hardware.json in a run directory" },
    { RB_OPT_END }
};

static int set_json(void *self, const struct rb_opt *o, const struct rb_opt_value *v)
{
    (void)o;
    (void)v;
    *(int *)self = 1;
    return 0;
}

static const struct rb_cli info_cli = {
    .command = "info",
    .synopsis = "usage: reprobench info [--json]\n"
                "\n"
                "The hwloc topology summary (CPU model, packages, cores, PUs, caches, NUMA\n"
                "nodes, memory as hwloc counts it and as the system reports it) and every\n"
                "OpenCL, CUDA and HIP device found, or why none.\n\n",
    .opts = info_table,
    .set = set_json,
};

int rb_cli_info(int argc, char **argv)
{
    int json = 0, rc;
    char env[256];

    if ((rc = rb_cli_parse(&info_cli, argc, argv, &json, NULL)))
        return rc < 0 ? 0 : rc;
    if (rb_env_check(env, sizeof env))
        return rb_cli_usage_error("%s", env);
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
