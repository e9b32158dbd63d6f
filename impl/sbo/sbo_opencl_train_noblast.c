/* SPDX-License-Identifier: MIT */
/* The stand-in for sbo_opencl_train_clblast.c in builds without CLBlast:
 * cases that ask for it are skipped with the reason. */
#include "impl/sbo/sbo_opencl_train.h"

int sbo_cl_have_clblast(void)
{
    return 0;
}

int sbo_cl_gemm_clblast(struct rb_case *c, struct sbo_cl_train *t, int ta, int tb, int M,
                        int N, int K, cl_mem A, const size_t *aoff, cl_mem B,
                        const size_t *boff, cl_mem Cm, const size_t *coff, int nbatch)
{
    (void)t, (void)ta, (void)tb, (void)M, (void)N, (void)K, (void)A, (void)aoff, (void)B;
    (void)boff, (void)Cm, (void)coff, (void)nbatch;
    return rb_fail(c, RB_ESKIP, "built without CLBlast (configure --enable-clblast)");
}
