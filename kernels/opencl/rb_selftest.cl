/* SPDX-License-Identifier: MIT */
/* Self-test of the OpenCL plumbing (t/backend_opencl.c): y = a*x + y, with a
 * tunable set by -D to prove that build options reach the kernel. */

/* Elements per work-item, >= 1; the host sizes the NDRange to match. */
#ifndef RB_SELFTEST_ITEMS
#define RB_SELFTEST_ITEMS 1
#endif

__kernel void rb_selftest_saxpy(const int n, const float a, __global const float *x,
                                __global float *y)
{
    const int base = (int)get_global_id(0) * RB_SELFTEST_ITEMS;
    for (int i = 0; i < RB_SELFTEST_ITEMS; i++) {
        const int j = base + i;
        if (j < n)
            y[j] = a * x[j] + y[j];
    }
}

/* Reports the tunable back.  The quotes and backslash in this comment
 * ("\"x\"", \) check that embedding escapes them. */
__kernel void rb_selftest_items(__global int *out)
{
    out[0] = RB_SELFTEST_ITEMS;
}
