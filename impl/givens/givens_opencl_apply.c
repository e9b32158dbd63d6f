/* SPDX-License-Identifier: MIT */
/* The OpenCL apply-mode Givens variants' data: X and dL/dY drawn as the CUDA
 * variants draw them, uploaded; Y = U X formed on the device for the
 * backward (untimed); outputs poisoned; the shared apply checks. */
#include <stdlib.h>
#include "impl/common/rng.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_opencl_setup.h"
#include "impl/givens/givens_opencl_kernels.h"

/* Upload n x nb fp64 values in the case's precision into a new buffer. */
static int upload_matrix(struct rb_case *c, struct givens_opencl *s, const double *a,
                         cl_mem *out)
{
    size_t len = (size_t)s->n * s->nb;
    void *h = malloc(len * s->sz);
    if (!h)
        return rb_fail(c, RB_ENOMEM, "host copy of %zu values", len);
    for (size_t k = 0; k < len; k++) {
        if (c->prec == RB_PREC_F64)
            ((double *)h)[k] = a[k];
        else
            ((float *)h)[k] = (float)a[k];
    }
    int rc = rb_opencl_buffer(c, s->cl, len * s->sz, out);
    if (!rc)
        rc = rb_opencl_upload(c, s->cl, *out, 0, h, len * s->sz);
    free(h);
    return rc;
}

/* X, then GY, n x nb each, normal from the case's "givens/apply" stream. */
static int draw(struct rb_case *c, struct givens_opencl *s)
{
    size_t len = (size_t)s->n * s->nb;
    int backward = s->kind == GIVENS_CL_APPLY_BACKWARD;
    s->X = malloc(len * sizeof *s->X);
    s->G = malloc(len * sizeof *s->G);
    s->out = malloc((backward ? s->count : len) * s->sz);
    s->out2 = malloc(len * s->sz);
    if (!s->X || !s->G || !s->out || !s->out2)
        return rb_fail(c, RB_ENOMEM, "host arrays for n=%d batch=%d", s->n, s->nb);
    struct rb_rng r;
    rb_rng_seed(&r, rb_seed_derive(c->seed, "givens/apply"));
    for (size_t k = 0; k < len; k++)
        s->X[k] = rb_rng_normal(&r);
    for (size_t k = 0; k < len; k++)
        s->G[k] = rb_rng_normal(&r);
    return 0;
}

int givens_opencl_apply_setup(struct rb_case *c, struct givens_opencl *s)
{
    size_t len = (size_t)s->n * s->nb;
    int rc = draw(c, s);
    if (!rc)
        rc = upload_matrix(c, s, s->X, &s->Xd);
    if (!rc)
        rc = rb_opencl_buffer(c, s->cl, len * s->sz, &s->Y);
    if (rc)
        return rc;
    if (s->kind == GIVENS_CL_APPLY_FORWARD) {
        rc = givens_opencl_prepare(c, s);
        return rc ? rc : rb_opencl_poison(c, s->cl, s->Y, s->sz, len);
    }
    rc = upload_matrix(c, s, s->G, &s->GY);
    if (!rc)
        rc = rb_opencl_buffer(c, s->cl, (size_t)s->steps * s->S * s->sz * (size_t)s->groups,
                                  &s->P);
    if (!rc)
        rc = rb_opencl_buffer(c, s->cl, s->count * s->sz, &s->dtheta);
    if (!rc)
        rc = rb_opencl_buffer(c, s->cl, len * s->sz, &s->dX);
    if (!rc)
        rc = givens_opencl_form_input(c, s);
    if (!rc)
        rc = givens_opencl_prepare(c, s);
    if (!rc)
        rc = rb_opencl_poison(c, s->cl, s->dtheta, s->sz, s->count);
    return rc ? rc : rb_opencl_poison(c, s->cl, s->dX, s->sz, len);
}

int givens_opencl_apply_verify(struct rb_case *c, struct givens_opencl *s,
                               struct rb_check *out)
{
    size_t len = (size_t)s->n * s->nb;
    int rc;
    if (s->kind == GIVENS_CL_APPLY_FORWARD) {
        if ((rc = rb_opencl_download(c, s->cl, s->Y, 0, s->out, len * s->sz)))
            return rc;
        rc = givens_check_apply(s->n, s->m, s->theta_d, s->X, s->out, s->nb, c->prec, out);
    } else {
        if ((rc = rb_opencl_download(c, s->cl, s->dtheta, 0, s->out, s->count * s->sz))
            || (rc = rb_opencl_download(c, s->cl, s->dX, 0, s->out2, len * s->sz)))
            return rc;
        rc = givens_check_apply_backward(s->n, s->m, s->theta_d, s->X, s->G, s->out, s->out2,
                                         s->nb, c->prec, out);
    }
    return rc ? rb_fail(c, rc, "verification buffers for n=%d batch=%d", s->n, s->nb) : 0;
}
