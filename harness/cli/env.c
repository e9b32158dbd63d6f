/* SPDX-License-Identifier: MIT */
/* Strict reading of the harness's environment variables. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/cli/env.h"
#include "harness/error.h"
#include "harness/cli/parse.h"

/* A whole number in [lo, hi]: the command line's own parser. */
static int parse_var(const char *var, long long lo, long long hi, long long *out, char *err,
                     size_t errlen)
{
    const char *s = getenv(var);
    char why[160];

    if (!s || !*s)                  /* set empty: as if unset */
        return 1;
    if (rb_parse_ll(s, lo, hi, out, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", var, why);
        return RB_EINVAL;
    }
    return 0;
}

unsigned long long rb_env_mem_limit_mb(void)
{
    char err[256];
    long long mb;

    return parse_var("RB_MEM_LIMIT_MB", 1, (long long)RB_MEM_LIMIT_MB_MAX, &mb, err,
                     sizeof err) == 0 ? (unsigned long long)mb : 0;
}

int rb_env_index(const char *var)
{
    char err[256];
    long long v;

    return parse_var(var, 0, 64, &v, err, sizeof err) == 0 ? (int)v : -1;
}

int rb_env_check_dir(const char *what, const char *dir, char *err, size_t errlen)
{
    struct stat st;

    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "%s %s: %s", what, dir, strerror(errno));
        return RB_EINVAL;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s %s: not a directory", what, dir);
        return RB_EINVAL;
    }
    return 0;
}

int rb_env_check(char *err, size_t errlen)
{
    static const char *const indices[] = { "RB_CL_PLATFORM", "RB_CL_DEVICE" };
    const char *dir = getenv("RB_CL_DIR");
    long long v;

    if (parse_var("RB_MEM_LIMIT_MB", 1, (long long)RB_MEM_LIMIT_MB_MAX, &v, err, errlen) < 0)
        return RB_EINVAL;
    for (size_t i = 0; i < sizeof indices / sizeof *indices; i++)
        if (parse_var(indices[i], 0, 64, &v, err, errlen) < 0)
            return RB_EINVAL;
    if (dir && *dir && rb_env_check_dir("RB_CL_DIR", dir, err, errlen) < 0)
        return RB_EINVAL;
    return 0;
}
