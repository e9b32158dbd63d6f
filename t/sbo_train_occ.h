/* SPDX-License-Identifier: MIT */
/* What the device trainings' tests (t/sbo_opencl_train.c, t/sbo_gpu_train_test.h)
 * share about occupancy: a record must carry it for every kernel the run
 * launched, which the profile's ms_<kernel> metrics name; CLBlast's or
 * cuBLAS's GEMMs (clblast or cublas 1, timed as sbo_gemm_batched) are not
 * ours to size. */
#ifndef SBO_TRAIN_OCC_H
#define SBO_TRAIN_OCC_H

#include <string.h>
#include "harness/variant.h"
#include "t/tap.h"

static void sbo_train_occ_check(const struct rb_case *c, const struct rb_occ *occ,
                                const char *name)
{
    const int lib = rb_case_param(c, "clblast", 0) || rb_case_param(c, "cublas", 0);
    int ran = 0, missing = 0;
    const char *first = "";
    for (int m = 0; m < c->nmetrics; m++) {
        const char *k = c->metrics[m].name;
        if (strncmp(k, "ms_", 3) != 0 || strcmp(k, "ms_gaps") == 0
            || strcmp(k, "ms_wall") == 0 || (lib && strcmp(k, "ms_sbo_gemm_batched") == 0))
            continue;
        ran++;
        int found = 0;
        for (int i = 0; i < occ->count; i++)
            found |= strcmp(occ->k[i].kernel, k + 3) == 0;
        if (!found && !missing++)
            first = k + 3;
    }
    tap_ok(occ->available && ran > 0 && missing == 0 && occ->count <= RB_OCC_MAX_KERNELS,
           "%s: occupancy of %d kernels, each of the %d that ran among them%s%s", name,
           occ->count, ran, missing ? "; missing " : "", first);
}

#endif
