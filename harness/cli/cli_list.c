/* SPDX-License-Identifier: MIT */
/* reprobench list: every variant built into this binary, and whether it can
 * run here (with the reason when not). */
#include <stdio.h>
#include <string.h>
#include "harness/cli/cli.h"
#include "harness/cli/cli_opts.h"
#include "harness/cli/env.h"
#include "harness/ctx.h"
#include "harness/registry.h"

static void axes_text(const struct rb_axis *a, char *buf, size_t len)
{
    size_t l = 0;
    buf[0] = '\0';
    for (; a && a->name && l < len; a++)
        l += (size_t)snprintf(buf + l, len - l, "%s%s", l ? "," : "", a->name);
    if (!buf[0])
        snprintf(buf, len, "-");
}

enum { LIST_PAPER, LIST_BACKEND };

struct list_opts {
    const char *paper;
    int backend;                /* -1: all */
};

static const struct rb_opt list_table[] = {
    { RB_OPT_STRING, "--paper", "P", .id = LIST_PAPER, .help = "only this paper's variants" },
    { RB_OPT_STRING, "--backend", "B", .id = LIST_BACKEND,
      .help = "only this backend's (serial, omp, opencl, cuda, hip)" },
    { RB_OPT_END }
};

static int set_option(void *self, const struct rb_opt *o, const struct rb_opt_value *v)
{
    struct list_opts *l = self;
    enum rb_backend b;

    if (o->id == LIST_PAPER) {
        l->paper = v->str;
        return 0;
    }
    if (rb_backend_parse(v->str, &b))
        return rb_cli_usage_error("unknown backend '%s' (serial, omp, opencl, cuda, hip)",
                                  v->str);
    l->backend = (int)b;
    return 0;
}

static const struct rb_cli list_cli = {
    .command = "list",
    .synopsis = "usage: reprobench list [--paper P] [--backend B]\n"
                "\n"
                "One line per variant: paper, algorithm, variant, backend, precisions, size and\n"
                "tunable axes, and 'yes' or 'no: <reason>' for whether it can run here.\n\n",
    .opts = list_table,
    .set = set_option,
};

int rb_cli_list(int argc, char **argv)
{
    struct list_opts o = { .backend = -1 };
    char err[256];
    int rc;

    if ((rc = rb_cli_parse(&list_cli, argc, argv, &o, NULL)))
        return rc < 0 ? 0 : rc;
    if (rb_env_check(err, sizeof err))
        return rb_cli_usage_error("%s", err);
    const char *paper = o.paper;
    int backend = o.backend;
    struct rb_ctx ctx;
    rb_ctx_init(&ctx);
    /* Columns as wide as their longest entry, so the table stays aligned. */
    int wv = (int)strlen("variant"), ws = (int)strlen("sizes"), wt = (int)strlen("tunables");
    const struct rb_variant *v;
    char sizes[64], tun[64];
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        axes_text(v->sizes, sizes, sizeof sizes);
        axes_text(v->tunables, tun, sizeof tun);
        wv = (int)strlen(v->name) > wv ? (int)strlen(v->name) : wv;
        ws = (int)strlen(sizes) > ws ? (int)strlen(sizes) : ws;
        wt = (int)strlen(tun) > wt ? (int)strlen(tun) : wt;
    }
    printf("%-8s %-9s %-*s %-7s %-8s %-*s %-*s %s\n", "paper", "algo", wv, "variant",
           "backend", "prec", ws, "sizes", wt, "tunables", "available");
    for (size_t i = 0; (v = rb_registry_get(i)); i++) {
        if ((paper && strcmp(paper, v->paper)) || (backend >= 0 && (int)v->backend != backend))
            continue;
        char why[256] = "";
        axes_text(v->sizes, sizes, sizeof sizes);
        axes_text(v->tunables, tun, sizeof tun);
        int ok = v->available(&ctx, why, sizeof why);
        printf("%-8s %-9s %-*s %-7s %-8s %-*s %-*s %s%s\n", v->paper, v->algo, wv, v->name,
               rb_backend_name(v->backend),
               v->precs == (RB_PREC_F32 | RB_PREC_F64) ? "f32,f64" : rb_prec_name(v->precs),
               ws, sizes, wt, tun, ok ? "yes" : "no: ", ok ? "" : why);
    }
    for (int b = 0; b < RB_BACKEND_COUNT; b++)
        if (!rb_registry_backend_built((enum rb_backend)b))
            printf("# %s: not built (see the configure summary)\n",
                   rb_backend_name((enum rb_backend)b));
    rb_ctx_release(&ctx);
    return 0;
}
