/* SPDX-License-Identifier: MIT */
/* The batched GEMMs of the OpenCL SBO training through CLBlast (the paper
 * used AMD's clBLAS; notes 5.1): one CLBlastXgemmBatched call per GEMM for
 * all blocks, offsets per entry, alpha 1 and beta 0. */
#include <stdlib.h>
#include <clblast_c.h>
#include "impl/sbo/sbo_opencl_train.h"

int sbo_cl_have_clblast(void)
{
    return 1;
}

int sbo_cl_gemm_clblast(struct rb_case *c, struct sbo_cl_train *t, int ta, int tb, int M,
                        int N, int K, cl_mem A, const size_t *aoff, cl_mem B,
                        const size_t *boff, cl_mem Cm, const size_t *coff, int nbatch)
{
    const CLBlastTranspose opa = ta ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose opb = tb ? CLBlastTransposeYes : CLBlastTransposeNo;
    const size_t ld = (size_t)t->p;     /* every operand has p rows */
    void *scal = malloc(2 * (size_t)nbatch * t->sz);
    if (!scal)
        return rb_fail(c, RB_ENOMEM, "GEMM scalars of %d blocks", nbatch);
    cl_event ev = NULL;
    cl_event *evp = t->prof || !t->first ? &ev : NULL;
    CLBlastStatusCode st;
    if (t->f64) {
        double *al = scal, *be = al + nbatch;
        for (int g = 0; g < nbatch; g++) {
            al[g] = 1.0;
            be[g] = 0.0;
        }
        st = CLBlastDgemmBatched(CLBlastLayoutColMajor, opa, opb, (size_t)M, (size_t)N,
                                 (size_t)K, al, A, aoff, ld, B, boff, ld, be, Cm, coff, ld,
                                 (size_t)nbatch, &t->cl->queue, evp);
    } else {
        float *al = scal, *be = al + nbatch;
        for (int g = 0; g < nbatch; g++) {
            al[g] = 1.0f;
            be[g] = 0.0f;
        }
        st = CLBlastSgemmBatched(CLBlastLayoutColMajor, opa, opb, (size_t)M, (size_t)N,
                                 (size_t)K, al, A, aoff, ld, B, boff, ld, be, Cm, coff, ld,
                                 (size_t)nbatch, &t->cl->queue, evp);
    }
    free(scal);
    if (st != CLBlastSuccess)
        return rb_fail(c, RB_EDEVICE, "CLBlast %cgemmBatched %dx%dx%d, %d blocks: status %d",
                       t->f64 ? 'D' : 'S', M, N, K, nbatch, (int)st);
    return sbo_cl_launched(c, t, SBO_TK_GEMM, ev);
}
