/* SPDX-License-Identifier: MIT */
/* Run-wide context: defaults and release. */
#include <stdlib.h>
#include <string.h>
#include "harness/backend/backend.h"
#include "harness/ctx.h"
#include "harness/cli/env.h"
#include "harness/records/hw.h"
#include "harness/run/observe.h"

void rb_ctx_init(struct rb_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->seed = 1;
    rb_device_picks_default(ctx->device);
    ctx->cl_dir = getenv("RB_CL_DIR");
}

void rb_ctx_set_mem_limit(struct rb_ctx *ctx)
{
    ctx->mem_limit_mb = rb_env_mem_limit_mb();
    ctx->mem_limit = ctx->mem_limit_mb ? ctx->mem_limit_mb << 20
                                       : rb_hw_host_memory() / 10 * 9;
}

void rb_ctx_release(struct rb_ctx *ctx)
{
    rb_observers_release(ctx);
    rb_backend_release(ctx);
}
