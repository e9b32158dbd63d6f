/* SPDX-License-Identifier: MIT */
/* The environment variables that steer a run, each read strictly: a value
 * that is not what the variable takes is an error naming the variable,
 * never silently ignored. */
#ifndef RB_ENV_H
#define RB_ENV_H

#include <stddef.h>

/* RB_MEM_LIMIT_MB's largest value: 2^40 MiB (1 EiB), far below a wrap. */
#define RB_MEM_LIMIT_MB_MAX (1ULL << 40)

/* Check RB_MEM_LIMIT_MB (a whole number of MiB, 1 to RB_MEM_LIMIT_MB_MAX),
 * RB_CL_PLATFORM and RB_CL_DEVICE (indices 0 to 64) and RB_CL_DIR (an
 * existing directory), when set.  0, or RB_EINVAL with one line in err
 * naming the variable and its value. */
int rb_env_check(char *err, size_t errlen);

/* RB_MEM_LIMIT_MB in MiB; 0 when unset or malformed (rb_env_check says
 * which). */
unsigned long long rb_env_mem_limit_mb(void);

/* An OpenCL index variable (RB_CL_PLATFORM, RB_CL_DEVICE); -1 when unset or
 * malformed (rb_env_check says which). */
int rb_env_index(const char *var);

/* A directory given for OpenCL sources (--cl-dir, RB_CL_DIR) must exist:
 * 0, or RB_EINVAL with "what DIR: reason" in err. */
int rb_env_check_dir(const char *what, const char *dir, char *err, size_t errlen);

#endif
