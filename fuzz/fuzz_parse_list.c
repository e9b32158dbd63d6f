/* SPDX-License-Identifier: MIT */
/* libFuzzer target: rb_parse_list (and through it rb_parse_ll) on any text,
 * within any bounds, into any capacity, with any message buffer. */
#include <stdio.h>

#include "fuzz/fuzz_input.h"
#include "harness/error.h"
#include "harness/cli/parse.h"

/* Input: 1 byte capacity (0..255 values), 1 byte message length, 8 bytes
 * min, 8 bytes max (little-endian), then the list text. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cap = fuzz_take_byte(&data, &size);
    size_t errlen = fuzz_take_byte(&data, &size);
    long long min = fuzz_take_ll(&data, &size);
    long long max = fuzz_take_ll(&data, &size);
    char *text = fuzz_take_string(data, size);
    long long *out = malloc(cap ? cap * sizeof *out : 1);
    char *err = malloc(errlen ? errlen : 1);
    int n;

    if (!text || !out || !err)
        goto out_free;
    if (errlen)
        err[0] = '\0';
    n = rb_parse_list(text, min, max, out, cap, err, errlen);
    if (n < 0) {
        /* Refused: with a reason, when there is room for one. */
        if (n != RB_EINVAL || (errlen > 1 && !err[0]))
            abort();
    } else {
        if (n == 0 || (size_t)n > cap)
            abort();
        for (int i = 0; i < n; i++)
            if (out[i] < min || out[i] > max)
                abort();
    }
out_free:
    free(text);
    free(out);
    free(err);
    return 0;
}
