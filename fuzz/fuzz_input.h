/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer targets: fixed-size fields taken off the front of
 * an input, and the rest as an exactly sized C string. */
#ifndef RB_FUZZ_INPUT_H
#define RB_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next 8 bytes as a little-endian integer; 0 past the end. */
static inline long long fuzz_take_ll(const uint8_t **data, size_t *size)
{
    uint64_t v = 0;

    for (int i = 0; i < 8 && *size > 0; i++, (*data)++, (*size)--)
        v |= (uint64_t)**data << (8 * i);
    return (long long)v;
}

static inline unsigned fuzz_take_byte(const uint8_t **data, size_t *size)
{
    unsigned v = 0;

    if (*size > 0) {
        v = **data;
        (*data)++;
        (*size)--;
    }
    return v;
}

/* The rest as a string in a block of its own length plus the NUL, so ASan
 * sees any read past it; the string ends at an embedded NUL, as argv would. */
static inline char *fuzz_take_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);

    if (s) {
        memcpy(s, data, size);
        s[size] = '\0';
    }
    return s;
}

#endif
