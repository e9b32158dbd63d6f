/* SPDX-License-Identifier: MIT */
/* libFuzzer target: rb_parse_ll within any bounds, and rb_parse_seconds, on
 * the same text. */
#include <errno.h>
#include <stdio.h>

#include "fuzz/fuzz_input.h"
#include "harness/error.h"
#include "harness/cli/parse.h"

/* Input: 1 byte message length, 8 bytes min, 8 bytes max (little-endian),
 * then the text. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t errlen = fuzz_take_byte(&data, &size);
    long long min = fuzz_take_ll(&data, &size);
    long long max = fuzz_take_ll(&data, &size);
    char *text = fuzz_take_string(data, size);
    char *err = malloc(errlen ? errlen : 1);
    long long v = 0x5a5a5a5a;
    double s = -1.0;
    int rc;

    if (!text || !err)
        goto out_free;
    if (errlen)
        err[0] = '\0';
    rc = rb_parse_ll(text, min, max, &v, err, errlen);
    if (rc == 0) {
        /* Accepted: the whole text is the number, and it is in range. */
        char *end;
        errno = 0;
        if (v < min || v > max || strtoll(text, &end, 10) != v || *end || errno)
            abort();
    } else if (rc != RB_EINVAL || v != 0x5a5a5a5a || (errlen > 1 && !err[0])) {
        abort();
    }
    if (errlen)
        err[0] = '\0';
    rc = rb_parse_seconds(text, &s, err, errlen);
    if (rc == 0 ? !(s > 0 && s <= 1e6)
                : rc != RB_EINVAL || s != -1.0 || (errlen > 1 && !err[0]))
        abort();
out_free:
    free(text);
    free(err);
    return 0;
}
