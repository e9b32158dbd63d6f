/* SPDX-License-Identifier: MIT */
/* Helpers of the OpenCL Givens kernels (Hamze, arXiv:2106.00003, section 3):
 * the circle-method schedule of impl/common/roundrobin.h and the angle layout
 * of impl/givens/givens.h, in OpenCL C 1.2.  Joined before each kernel file. */

/* Element type: float or double (the host adds -D GIVENS_FP64=1 with double). */
#ifndef REAL
#define REAL float
#endif

/* 1 when REAL is double: enables cl_khr_fp64 (the host checks the device has it). */
#ifndef GIVENS_FP64
#define GIVENS_FP64 0
#endif

#if GIVENS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* Two-component vector of REAL (float2 or double2), for the rotation table. */
#define GIVENS_PASTE(a, b) a##b
#define GIVENS_VEC2(t) GIVENS_PASTE(t, 2)
#define REAL2 GIVENS_VEC2(REAL)

/* The pair (i, j), i < j, of `slot` in `step` for the padded size nt: the
 * official closed form, rb_rr_pair of impl/common/roundrobin.h. */
void givens_pair(int nt, int step, int slot, int *i, int *j)
{
    const int a = slot == 0 ? 0 : ((slot - 1 + step) % (nt - 1)) + 1;
    const int b = ((nt - 1 - slot - 1 + step) % (nt - 1)) + 1;
    *i = min(a, b);
    *j = max(a, b);
}

/* 1 if (i, j) is a real rotation: not the dummy coordinate of odd n, and
 * i < m (paper section 5); m <= 0 keeps all rows.  rb_rr_keep. */
int givens_keep(int n, int m, int i, int j)
{
    return j < n && i < (m <= 0 ? n : m);
}

/* Index of the angle of (i, j) in theta: the row-major strict upper
 * triangle, tri(n, i, j) = i n - i(i+1)/2 + j - i - 1. */
size_t givens_tri(int n, int i, int j)
{
    return (size_t)i * (size_t)n - (size_t)i * (size_t)(i + 1) / 2 + (size_t)(j - i - 1);
}

/* The coordinate at circle position p (0 .. nt-1) in `step`: position 0 is
 * fixed, the others shift by one per step.  Slot k pairs positions k and
 * nt-1-k, so givens_pair(nt, step, k) = sorted(coord(k), coord(nt-1-k)). */
int givens_coord(int nt, int step, int p)
{
    return p == 0 ? 0 : ((p - 1 + step) % (nt - 1)) + 1;
}

/* (c, s) of one angle. */
REAL givens_cos_sin(REAL theta, REAL *s)
{
    REAL c;
    *s = sincos(theta, &c);
    return c;
}
