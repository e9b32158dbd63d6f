// SPDX-License-Identifier: MIT
// cuBLAS on first use (sbo_cublas.h): RB_CUBLAS_LIB, the library configure
// linked against, else the soname on the loader's path.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <config.h>
#include "impl/sbo/sbo_cublas.h"

namespace {

using create_fn = cublasStatus_t (*)(cublasHandle_t *);
using destroy_fn = cublasStatus_t (*)(cublasHandle_t);
using stream_fn = cublasStatus_t (*)(cublasHandle_t, cudaStream_t);
using sgemm_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                    int, int, const float *, const float *const[], int,
                                    const float *const[], int, const float *, float *const[],
                                    int, int);
using dgemm_fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int,
                                    int, int, const double *, const double *const[], int,
                                    const double *const[], int, const double *,
                                    double *const[], int, int);

struct entry_points {
    create_fn create;
    destroy_fn destroy;
    stream_fn set_stream;
    sgemm_fn sgemm;
    dgemm_fn dgemm;
};

pthread_once_t once = PTHREAD_ONCE_INIT;
entry_points api;               // all set, or all NULL
char failure[512];

// One symbol into *slot; 0 or -1 with the reason in failure.
template <typename F> int find(void *lib, const char *name, F *slot)
{
    *slot = reinterpret_cast<F>(dlsym(lib, name));
    if (*slot)
        return 0;
    snprintf(failure, sizeof failure, "cuBLAS: no %s in %s", name, RB_CUBLAS_LIB);
    return -1;
}

void open_once()
{
    void *lib = dlopen(RB_CUBLAS_LIB, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *first = dlerror();
        snprintf(failure, sizeof failure, "cuBLAS: %s", first ? first : RB_CUBLAS_LIB);
        return;
    }
    entry_points e = {};
    if (find(lib, "cublasCreate_v2", &e.create) || find(lib, "cublasDestroy_v2", &e.destroy)
        || find(lib, "cublasSetStream_v2", &e.set_stream)
        || find(lib, "cublasSgemmBatched", &e.sgemm)
        || find(lib, "cublasDgemmBatched", &e.dgemm)) {
        dlclose(lib);
        return;
    }
    api = e;                    // the library stays open for the program's life
}

bool ready()
{
    pthread_once(&once, open_once);
    return api.create != nullptr;
}

} // namespace

int sbo_cublas_open(char *why, size_t len)
{
    if (ready())
        return 0;
    snprintf(why, len, "%s", failure);
    return -1;
}

cublasStatus_t sbo_cublas_create(cublasHandle_t *h)
{
    return ready() ? api.create(h) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t sbo_cublas_destroy(cublasHandle_t h)
{
    return ready() ? api.destroy(h) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t sbo_cublas_set_stream(cublasHandle_t h, cudaStream_t s)
{
    return ready() ? api.set_stream(h, s) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t sbo_cublas_sgemm_batched(cublasHandle_t h, cublasOperation_t ta,
                                        cublasOperation_t tb, int m, int n, int k,
                                        const float *alpha, const float *const A[], int lda,
                                        const float *const B[], int ldb, const float *beta,
                                        float *const C[], int ldc, int count)
{
    return ready() ? api.sgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, count)
                   : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t sbo_cublas_dgemm_batched(cublasHandle_t h, cublasOperation_t ta,
                                        cublasOperation_t tb, int m, int n, int k,
                                        const double *alpha, const double *const A[], int lda,
                                        const double *const B[], int ldb, const double *beta,
                                        double *const C[], int ldc, int count)
{
    return ready() ? api.dgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, count)
                   : CUBLAS_STATUS_NOT_INITIALIZED;
}
