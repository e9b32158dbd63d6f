/* SPDX-License-Identifier: MIT */
/* The CPU backends: serial is always there, OpenMP when configure found it. */
#include <config.h>
#include <stdio.h>
#include <string.h>
#include <hwloc.h>
#if RB_HAVE_OPENMP && defined(_OPENMP)
#include <omp.h>
#endif
#include "harness/backend/cpu.h"

int rb_serial_available(struct rb_ctx *ctx, char *why, size_t len)
{
    (void)ctx;
    if (len)
        why[0] = '\0';
    return 1;
}

int rb_omp_available(struct rb_ctx *ctx, char *why, size_t len)
{
    (void)ctx;
#if RB_HAVE_OPENMP && defined(_OPENMP)
    if (len)
        why[0] = '\0';
    return 1;
#else
    snprintf(why, len, "not built with OpenMP (configure found no OpenMP)");
    return 0;
#endif
}

int rb_omp_max_threads(void)
{
#if RB_HAVE_OPENMP && defined(_OPENMP)
    return omp_get_num_procs();
#else
    return 1;
#endif
}

/* The model string from hwloc (cpuid on x86, /proc/cpuinfo elsewhere). */
static void describe_cpu(char *buf, size_t len)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0) {
        snprintf(buf, len, "unknown CPU");
        return;
    }
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        snprintf(buf, len, "unknown CPU");
        return;
    }
    hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
    const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
#if HWLOC_API_VERSION < 0x00030000
    if (!model)
        model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), "CPUModel");
#else
    if (!model)
        model = hwloc_get_info_by_name(hwloc_topology_get_infos(t), "CPUModel");
#endif
    int packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
    int cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
    if (packages > 1)
        snprintf(buf, len, "%d x %s, %d cores", packages, model ? model : "unknown CPU", cores);
    else
        snprintf(buf, len, "%s, %d cores", model ? model : "unknown CPU", cores);
    hwloc_topology_destroy(t);
}

/* Cached for the process: the CPU does not change during a run and a
 * topology load costs milliseconds per case otherwise.  The first call
 * happens on the main thread, in setup, before any parallel region. */
const char *rb_cpu_name(void)
{
    static char name[256];
    if (name[0] == '\0')
        describe_cpu(name, sizeof name);
    return name;
}
