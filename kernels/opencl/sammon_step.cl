/* SPDX-License-Identifier: MIT */
/* The fixed rules' step on an OpenCL device, for the embedding engine's
 * map kept there (impl/sammon/sammon_engine_opencl.c): as
 * kernels/cuda/sammon_step.cuh on CUDA and HIP, each point's gradient and
 * diagonal second derivative from the EMBED pass's float sums
 * (sammon_stored.cl's gather) in double, as sammon_engine_derivatives
 * forms them on the host, the map moved in double as the host's driver
 * moves it (impl/sammon/sammon_peers.c), and the moved map in float,
 * scaled, for the next pass.  One work-item a point; built only for
 * devices with cl_khr_fp64 (the host checks). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* y (len doubles) to the pass's float map yf: y / scale, inv = 1 / scale
 * a power of two, so that the scaling is exact. */
__kernel void sammon_map_to_float(const int len, __global const double *y, const double inv,
                                  __global float *yf)
{
    const int k = (int)get_global_id(0);
    if (k < len)
        yf[k] = (float)(y[k] * inv);
}

/* One step of N points in m dimensions from sums (N x 2 m: G_q, H_q):
 * g_q = gf G_q, gf = -2 / c, and with newton h_q = -2 H_q / hd, hd = c
 * scale; y_q - mf g_q / |h_q| (no move where h_q is 0), else y_q - alpha
 * g_q. */
__kernel void sammon_fixed_step(const int N, const int m, __global const float *sums,
                                const double gf, const double hd, const int newton,
                                const double mf, const double alpha, const double inv,
                                __global double *y, __global float *yf)
{
    const int p = (int)get_global_id(0);
    if (p >= N)
        return;
    __global const float *s = sums + (size_t)p * 2 * m;
    for (int q = 0; q < m; q++) {
        const double g = gf * s[q];
        double move = alpha * g;
        if (newton) {
            const double h = -2.0 * (double)s[m + q] / hd;
            move = h != 0.0 ? mf * g / fabs(h) : 0.0;
        }
        const size_t k = (size_t)p * m + q;
        y[k] = y[k] - move;
        yf[k] = (float)(y[k] * inv);
    }
}
