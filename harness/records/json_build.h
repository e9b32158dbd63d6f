/* SPDX-License-Identifier: MIT */
/* Building JSON objects with jansson: a failed allocation anywhere in a build
 * is collected in one flag instead of being checked at each call; seeds and
 * timestamps as every JSON file of a run writes them. */
#ifndef RB_JSON_BUILD_H
#define RB_JSON_BUILD_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <jansson.h>

/* obj[key] = val (reference stolen); *bad = 1 if val is NULL or the set fails. */
static inline void rb_json_put(json_t *obj, const char *key, json_t *val, int *bad)
{
    if (!val || json_object_set_new(obj, key, val) < 0)
        *bad = 1;
}

/* The built object, or NULL (and nothing leaked) if any part failed. */
static inline json_t *rb_json_finish(json_t *obj, int bad)
{
    if (bad) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* A seed as a JSON integer, or as a decimal string above INT64_MAX (JSON
 * readers commonly hold integers in int64). */
static inline json_t *rb_json_seed(uint64_t seed)
{
    char buf[32];
    if (seed <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)seed);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
    return json_string(buf);
}

/* The current time, ISO 8601 in UTC ("2026-11-30T12:00:00Z"); null if the
 * clock cannot be read. */
static inline json_t *rb_json_now_utc(void)
{
    char buf[32];
    time_t now = time(NULL);
    struct tm tm;
    if (!gmtime_r(&now, &tm) || !strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm))
        return json_null();
    return json_string(buf);
}

#endif
