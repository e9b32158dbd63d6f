/* SPDX-License-Identifier: MIT */
/* Building JSON objects with jansson: a failed allocation anywhere in a build
 * is collected in one flag instead of being checked at each call. */
#ifndef RB_JSON_BUILD_H
#define RB_JSON_BUILD_H

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

#endif
