/* SPDX-License-Identifier: MIT */
/* rb_json_escape: every character class, truncation that never splits an
 * escape, and random strings that jansson parses back unchanged. */
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <jansson.h>

#include "harness/records/record.h"
#include "t/tap.h"

static void expect(const char *in, const char *want, const char *what)
{
    char buf[256];
    size_t n;

    memset(buf, 'X', sizeof buf);
    n = rb_json_escape(in, buf, sizeof buf);
    if (!tap_ok(strcmp(buf, want) == 0 && n == strlen(want), "%s", what))
        tap_diag("got \"%s\" (%zu), want \"%s\" (%zu)", buf, n, want, strlen(want));
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(void)
{
    char buf[16], in[200], out[1300], quoted[1310];
    uint64_t seed = (uint64_t)time(NULL) | 1, s = seed;
    int roundtrips = 1;

    tap_plan(16);
    expect("plain text", "plain text", "plain text unchanged");
    expect("a\"b\\c", "a\\\"b\\\\c", "quote and backslash escaped");
    expect("\n\t\r\b\f", "\\n\\t\\r\\b\\f", "short escapes for newline, tab, CR, BS, FF");
    expect("\x01\x1f\x7f", "\\u0001\\u001f\\u007f", "other controls as \\u00XX");
    expect("caf\xc3\xa9 \xe2\x9c\x93", "caf\xc3\xa9 \xe2\x9c\x93", "UTF-8 passes through");
    expect("/", "/", "slash not escaped");
    tap_is((long long)rb_json_escape(NULL, buf, sizeof buf), 0, "NULL is the empty string");
    tap_ok(buf[0] == '\0', "and leaves an empty buffer");
    tap_is((long long)rb_json_escape("a\"b", NULL, 0), 4, "length needed without a buffer");

    /* 4 bytes: room for 3 characters; the escape \" fits after 'a', 'b' does not. */
    tap_is((long long)rb_json_escape("a\"b", buf, 4), 4, "short buffer still returns the need");
    tap_ok(strcmp(buf, "a\\\"") == 0, "short buffer keeps whole escapes (\"%s\")", buf);
    rb_json_escape("a\"b", buf, 3);
    tap_ok(strcmp(buf, "a") == 0, "an escape that does not fit is left out (\"%s\")", buf);
    rb_json_escape("x\x01", buf, 6);
    tap_ok(strcmp(buf, "x") == 0, "a \\u escape is never cut (\"%s\")", buf);
    rb_json_escape("abc", buf, 1);
    tap_ok(buf[0] == '\0', "one byte: only the terminator");

    tap_diag("seed %llu", (unsigned long long)seed);
    for (int trial = 0; trial < 500; trial++) {
        size_t len = next(&s) % (sizeof in - 1);
        json_t *j;

        for (size_t i = 0; i < len; i++)
            in[i] = (char)(1 + next(&s) % 127);        /* ASCII, controls included */
        in[len] = '\0';
        if (rb_json_escape(in, out, sizeof out) >= sizeof out) {
            roundtrips = 0;
            break;
        }
        snprintf(quoted, sizeof quoted, "\"%s\"", out);
        j = json_loads(quoted, JSON_DECODE_ANY, NULL);
        if (!j || strcmp(json_string_value(j), in) != 0) {
            tap_diag("trial %d does not parse back: %s", trial, quoted);
            roundtrips = 0;
        }
        json_decref(j);
        if (!roundtrips)
            break;
    }
    tap_ok(roundtrips, "500 random ASCII strings parse back unchanged through jansson");
    {
        char full[8];
        size_t n = rb_json_escape("\"\"\"\"", full, sizeof full);
        tap_ok(n == 8 && strlen(full) == 6, "never writes past the buffer (%zu, \"%s\")", n, full);
    }
    return tap_done();
}
