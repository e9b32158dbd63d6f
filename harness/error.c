/* SPDX-License-Identifier: MIT */
/* The text of each status code. */
#include "harness/error.h"

static const char *const texts[RB_ECOUNT] = {
    [0] = "success",
    [-RB_EINVAL] = "invalid input",
    [-RB_ENOMEM] = "out of memory",
    [-RB_EDEVICE] = "device error",
    [-RB_ENODEV] = "no device",
    [-RB_EBUILD] = "device program build failed",
    [-RB_ELAUNCH] = "kernel launch failed",
    [-RB_EVERIFY] = "verification failed",
    [-RB_ESKIP] = "skipped",
    [-RB_EIO] = "input/output error",
    [-RB_EINTR] = "interrupted",
};

const char *rb_strerror(int code)
{
    if (code > 0 || -code >= RB_ECOUNT || !texts[-code])
        return "unknown error";
    return texts[-code];
}
