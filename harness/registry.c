/* SPDX-License-Identifier: MIT */
/* The registry: every variant table and backend descriptor this binary
 * was built with, one line each under its backend's condition.  Adding a
 * variant never touches this file; adding a table or a backend is one line
 * here.  The only file that names every backend, so that the core need not:
 * it is linked first, as an object, and pulls in what it names. */
#include "config.h"
#include <string.h>
#include "harness/backend/backend.h"
#include "harness/paper.h"
#include "harness/registry.h"

extern const struct rb_variant givens_serial_variants[];
extern const struct rb_variant sammon_serial_variants[];
#if RB_HAVE_OPENMP
extern const struct rb_variant givens_omp_variants[];
extern const struct rb_variant sammon_omp_variants[];
#endif
#if RB_HAVE_BLAS
extern const struct rb_variant sbo_serial_variants[];
#if RB_HAVE_OPENMP
extern const struct rb_variant sbo_omp_variants[];
#endif
#endif
#if RB_HAVE_OPENCL
extern const struct rb_variant givens_opencl_variants[];
extern const struct rb_variant sammon_opencl_variants[];
#if RB_HAVE_BLAS
extern const struct rb_variant sbo_opencl_variants[];
#endif
#endif
#if RB_HAVE_CUDA
extern const struct rb_variant givens_cuda_variants[];
extern const struct rb_variant givens_cuda_apply_variants[];
extern const struct rb_variant sammon_cuda_variants[];
#if RB_HAVE_BLAS
extern const struct rb_variant sbo_cuda_variants[];
#endif
#endif
#if RB_HAVE_HIP
extern const struct rb_variant givens_hip_variants[];
extern const struct rb_variant givens_hip_apply_variants[];
extern const struct rb_variant sammon_hip_variants[];
#if RB_HAVE_BLAS
extern const struct rb_variant sbo_hip_variants[];
#endif
#endif

extern const struct rb_backend_ops rb_serial_backend, rb_omp_backend;
#if RB_HAVE_OPENCL
extern const struct rb_backend_ops rb_opencl_backend;
#endif
#if RB_HAVE_CUDA
extern const struct rb_backend_ops rb_cuda_backend;
#endif
#if RB_HAVE_HIP
extern const struct rb_backend_ops rb_hip_backend;
#endif

/* OpenMP's descriptor is there without OpenMP too: it says why not. */
static const struct rb_backend_ops *const backends[] = {
    &rb_serial_backend,
    &rb_omp_backend,
#if RB_HAVE_OPENCL
    &rb_opencl_backend,
#endif
#if RB_HAVE_CUDA
    &rb_cuda_backend,
#endif
#if RB_HAVE_HIP
    &rb_hip_backend,
#endif
    NULL
};

static const struct rb_variant *const tables[] = {
    givens_serial_variants,
    sammon_serial_variants,
#if RB_HAVE_OPENMP
    givens_omp_variants,
    sammon_omp_variants,
#endif
#if RB_HAVE_BLAS
    sbo_serial_variants,
#if RB_HAVE_OPENMP
    sbo_omp_variants,
#endif
#endif
#if RB_HAVE_OPENCL
    givens_opencl_variants,
    sammon_opencl_variants,
#if RB_HAVE_BLAS
    sbo_opencl_variants,
#endif
#endif
#if RB_HAVE_CUDA
    givens_cuda_variants,
    givens_cuda_apply_variants,
    sammon_cuda_variants,
#if RB_HAVE_BLAS
    sbo_cuda_variants,
#endif
#endif
#if RB_HAVE_HIP
    givens_hip_variants,
    givens_hip_apply_variants,
    sammon_hip_variants,
#if RB_HAVE_BLAS
    sbo_hip_variants,
#endif
#endif
    NULL
};

const struct rb_variant *rb_registry_get(size_t i)
{
    for (size_t t = 0; tables[t]; t++)
        for (const struct rb_variant *v = tables[t]; v->name; v++)
            if (i-- == 0)
                return v;
    return NULL;
}

size_t rb_registry_count(void)
{
    size_t n = 0;
    while (rb_registry_get(n))
        n++;
    return n;
}

static const struct rb_axis *find_axis(const struct rb_axis *axes, const char *name)
{
    for (; axes && axes->name; axes++)
        if (strcmp(axes->name, name) == 0)
            return axes;
    return NULL;
}

const struct rb_axis *rb_registry_axis(const char *name)
{
    const struct rb_variant *v;
    const struct rb_axis *a;
    for (size_t i = 0; (v = rb_registry_get(i)); i++)
        if ((a = find_axis(v->sizes, name)) || (a = find_axis(v->tunables, name)))
            return a;
    return NULL;
}

int rb_registry_axis_range(const char *name, long long *min, long long *max)
{
    const struct rb_variant *v;
    const struct rb_axis *a;
    int found = 0;

    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if (!(a = find_axis(v->sizes, name)) && !(a = find_axis(v->tunables, name)))
            continue;
        if (!found || a->min < *min)
            *min = a->min;
        if (!found || a->max > *max)
            *max = a->max;
        found = 1;
    }
    return found ? 0 : -1;
}

const struct rb_backend_ops *rb_registry_backend(enum rb_backend b)
{
    for (size_t i = 0; backends[i]; i++)
        if (backends[i]->id == b)
            return backends[i];
    return NULL;
}

int rb_registry_backend_built(enum rb_backend b)
{
    switch (b) {
    case RB_BACKEND_SERIAL:
        return 1;
    case RB_BACKEND_OMP:
#if RB_HAVE_OPENMP
        return 1;
#else
        return 0;
#endif
    case RB_BACKEND_OPENCL:
#if RB_HAVE_OPENCL
        return 1;
#else
        return 0;
#endif
    case RB_BACKEND_CUDA:
#if RB_HAVE_CUDA
        return 1;
#else
        return 0;
#endif
    case RB_BACKEND_HIP:
#if RB_HAVE_HIP
        return 1;
#else
        return 0;
#endif
    default:
        return 0;
    }
}

/* The papers, in the order the report lists them; each is built whatever
 * backends are, since the report reads runs made elsewhere. */
extern const struct rb_paper givens_paper, sammon_paper, sbo_paper;

const struct rb_paper *rb_registry_paper(size_t i)
{
    static const struct rb_paper *const papers[] = { &givens_paper, &sammon_paper, &sbo_paper };

    return i < sizeof papers / sizeof *papers ? papers[i] : NULL;
}
