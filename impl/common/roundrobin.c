/* SPDX-License-Identifier: MIT */
/* Sizes and the regression hash of the circle-method schedule. */
#include "impl/common/roundrobin.h"

int rb_rr_padded(int n)
{
    return n + (n & 1);
}

int rb_rr_steps(int n)
{
    return rb_rr_padded(n) - 1;
}

int rb_rr_slots(int n)
{
    return rb_rr_padded(n) / 2;
}

static uint64_t fnv1a_u32(uint64_t h, uint32_t v)
{
    for (int b = 0; b < 4; b++) {
        h ^= (v >> (8 * b)) & 0xffu;
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t rb_rr_hash(int n, int m)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    int nt = rb_rr_padded(n);
    for (int s = 0; s < nt - 1; s++)
        for (int k = 0; k < nt / 2; k++) {
            int i, j;
            rb_rr_pair(nt, s, k, &i, &j);
            if (!rb_rr_keep(n, m, i, j))
                continue;
            h = fnv1a_u32(h, (uint32_t)i);
            h = fnv1a_u32(h, (uint32_t)j);
        }
    return h;
}
