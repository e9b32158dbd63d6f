/* SPDX-License-Identifier: MIT */
/* The OpenCL apply-mode Givens variants' data: X and dL/dY drawn as the CUDA
 * variants draw them, uploaded; Y = U X formed on the device for the
 * backward (untimed); outputs poisoned; the shared apply checks. */
#include <stdlib.h>
#include "impl/common/rng.h"
#include "impl/givens/givens.h"
#include "impl/givens/givens_opencl.h"

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
    int rc = givens_opencl_buffer(c, s, len * s->sz, out);
    if (!rc)
        rc = givens_opencl_upload(c, s, *out, h, len * s->sz);
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
        rc = givens_opencl_buffer(c, s, len * s->sz, &s->Y);
    if (rc)
        return rc;
    if (s->kind == GIVENS_CL_APPLY_FORWARD) {
        rc = givens_opencl_prepare(c, s);
        return rc ? rc : givens_opencl_poison(c, s, s->Y, len);
    }
    rc = upload_matrix(c, s, s->G, &s->GY);
    if (!rc)
        rc = givens_opencl_buffer(c, s, (size_t)s->steps * s->S * s->sz * (size_t)s->groups,
                                  &s->P);
    if (!rc)
        rc = givens_opencl_buffer(c, s, s->count * s->sz, &s->dtheta);
    if (!rc)
        rc = givens_opencl_buffer(c, s, len * s->sz, &s->dX);
    if (!rc)
        rc = givens_opencl_form_input(c, s);
    if (!rc)
        rc = givens_opencl_prepare(c, s);
    if (!rc)
        rc = givens_opencl_poison(c, s, s->dtheta, s->count);
    return rc ? rc : givens_opencl_poison(c, s, s->dX, len);
}

int givens_opencl_apply_verify(struct rb_case *c, struct givens_opencl *s,
                               struct rb_check *out)
{
    size_t len = (size_t)s->n * s->nb;
    int rc;
    if (s->kind == GIVENS_CL_APPLY_FORWARD) {
        RB_CL_CHECK(c, clEnqueueReadBuffer(s->cl->queue, s->Y, CL_TRUE, 0, len * s->sz, s->out,
                                           0, NULL, NULL));
        rc = givens_check_apply(s->n, s->m, s->theta_d, s->X, s->out, s->nb, c->prec, out);
    } else {
        RB_CL_CHECK(c, clEnqueueReadBuffer(s->cl->queue, s->dtheta, CL_TRUE, 0,
                                           s->count * s->sz, s->out, 0, NULL, NULL));
        RB_CL_CHECK(c, clEnqueueReadBuffer(s->cl->queue, s->dX, CL_TRUE, 0, len * s->sz,
                                           s->out2, 0, NULL, NULL));
        rc = givens_check_apply_backward(s->n, s->m, s->theta_d, s->X, s->G, s->out, s->out2,
                                         s->nb, c->prec, out);
    }
    return rc ? rb_fail(c, rc, "verification buffers for n=%d batch=%d", s->n, s->nb) : 0;
}
