/* SPDX-License-Identifier: MIT */
/* The shape of the SBO training's stable sort (kernels/cuda/
 * sbo_train_select.cuh, kernels/opencl/sbo_train_select.cl: the worst-W
 * selection and the grouping by block): its digit, and the chunks of
 * positions its blocks own.  C, C++, CUDA and HIP; the OpenCL kernels get
 * SBO_SORT_BITS from the host. */
#ifndef SBO_SORT_H
#define SBO_SORT_H

/* 8 bits a pass: 256 digits, also the `blocks` axis's most. */
#define SBO_SORT_BITS 8
#define SBO_SORT_BUCKETS (1 << SBO_SORT_BITS)
/* The most chunks a sort takes: every block of the scatter reads all their
 * counts. */
#define SBO_SORT_TILES 128

/* The chunks of a sort of m positions by blocks of `block` threads: at
 * most SBO_SORT_TILES, each a whole number of blocks' worth of positions
 * (*chunk), the last possibly short. */
static inline int sbo_sort_chunks(int m, int block, int *chunk)
{
    const int blocks = (m + block - 1) / block;
    const int most = blocks < SBO_SORT_TILES ? blocks : SBO_SORT_TILES;
    *chunk = ((m + most - 1) / most + block - 1) / block * block;
    return (m + *chunk - 1) / *chunk;
}

#endif
