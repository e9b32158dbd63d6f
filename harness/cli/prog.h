/* SPDX-License-Identifier: MIT */
/* What the stand-alone programs (sammon-embed, sbo-learn) share: one error
 * line prefixed with the program's name, and bounded integer options. */
#ifndef RB_PROG_H
#define RB_PROG_H

#ifdef __cplusplus
extern "C" {
#endif

/* "<prog>: <message>\n" on stderr; returns status. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int rb_prog_complain(const char *prog, int status, const char *fmt, ...);

/* *out = val as an integer in lo..hi; else one line naming opt, and 2. */
int rb_prog_parse_int(const char *prog, const char *opt, const char *val, long long lo,
                      long long hi, long long *out);

#ifdef __cplusplus
}
#endif

#endif
