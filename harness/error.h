/* SPDX-License-Identifier: MIT */
/* Status codes: 0, or a negative RB_E* whose text rb_strerror gives. */
#ifndef RB_ERROR_H
#define RB_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

enum {
    RB_OK = 0,
    RB_EINVAL = -1,     /* bad input: a parameter, a file, a flag */
    RB_ENOMEM = -2,     /* host or device allocation failed, or would not fit */
    RB_EDEVICE = -3,    /* a device API call failed */
    RB_ENODEV = -4,     /* no such backend or device here */
    RB_EBUILD = -5,     /* a device program failed to build */
    RB_ELAUNCH = -6,    /* a kernel launch failed */
    RB_EVERIFY = -7,    /* the result does not match the reference */
    RB_ESKIP = -8,      /* the case does not apply (parameters do not combine) */
    RB_EIO = -9,        /* reading or writing a file failed */
    RB_EINTR = -10,     /* interrupted by a signal */
    RB_ECOUNT = 11
};

/* The text of a status code; never NULL. */
const char *rb_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif
