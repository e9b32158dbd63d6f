/* SPDX-License-Identifier: MIT */
/* The CPU observer: the frequency governor of every CPU, and the packages'
 * energy over the timed samples from the powercap interface's RAPL zones
 * (intel-rapl:N/energy_uj, a counter that wraps at max_energy_range_uj).
 * RB_SYSFS_ROOT (default /sys) lets the tests stand in a tree of their own. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/error.h"
#include "harness/run/observe.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define RAPL_MAX_ZONES 16

struct rapl_zone {
    char dir[64];                   /* "intel-rapl:0" */
    unsigned long long e0, range;   /* uJ */
};

struct cpu_watch {
    char root[PATH_MAX];
    int nzones, active;
    struct rapl_zone z[RAPL_MAX_ZONES];
};

/* The first line of a file, without its newline.  0, or -1 with errno. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    int ok;

    if (!f)
        return -1;
    ok = fgets(buf, (int)len, f) != NULL;
    int why = ferror(f) ? errno : ENODATA;
    fclose(f);
    if (!ok) {
        errno = why;
        return -1;
    }
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

static int read_ull(const char *path, unsigned long long *out)
{
    char buf[64], *end;

    if (read_line(path, buf, sizeof buf) < 0)
        return -1;
    errno = 0;
    *out = strtoull(buf, &end, 10);
    if (end == buf || *end || errno) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

/* A cpuN directory of devices/system/cpu. */
static int is_cpu_dir(const char *name)
{
    if (strncmp(name, "cpu", 3) != 0 || !name[3])
        return 0;
    for (const char *p = name + 3; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

#define GOVERNORS_MAX 4

/* Every CPU's scaling_governor: one name when they agree, else
 * "mixed: a,b" (cpu0's first).  The why when cpu0 has none. */
static void read_governor(const char *root, struct rb_cpu_watch *cw)
{
    char dir[PATH_MAX + 32], path[PATH_MAX + 320], seen[GOVERNORS_MAX][32], gov[32];
    struct dirent *e;
    DIR *dp;
    int n = 1;

    snprintf(path, sizeof path, "%s/devices/system/cpu/cpu0/cpufreq/scaling_governor", root);
    if (read_line(path, seen[0], sizeof seen[0]) < 0) {
        int why = errno;
        snprintf(cw->governor_why, sizeof cw->governor_why, "not available: %.160s: %s%s",
                 path, strerror(why), why == ENOENT ? " (no cpufreq driver exposed here)" : "");
        return;
    }
    snprintf(dir, sizeof dir, "%s/devices/system/cpu", root);
    if ((dp = opendir(dir))) {
        while ((e = readdir(dp)) && n < GOVERNORS_MAX) {
            int known = 0;
            snprintf(path, sizeof path, "%s/%s/cpufreq/scaling_governor", dir, e->d_name);
            if (!is_cpu_dir(e->d_name) || read_line(path, gov, sizeof gov) < 0)
                continue;
            for (int i = 0; i < n; i++)
                known |= strcmp(seen[i], gov) == 0;
            if (!known)
                snprintf(seen[n++], sizeof seen[0], "%s", gov);
        }
        closedir(dp);
    }
    if (n == 1) {
        snprintf(cw->governor, sizeof cw->governor, "%s", seen[0]);
        return;
    }
    size_t at = (size_t)snprintf(cw->governor, sizeof cw->governor, "mixed: ");
    for (int i = 0; i < n && at < sizeof cw->governor; i++)
        at += (size_t)snprintf(cw->governor + at, sizeof cw->governor - at, "%s%s",
                               i ? "," : "", seen[i]);
}

/* A package zone: "intel-rapl:N", not a subzone "intel-rapl:N:M". */
static int is_package_zone(const char *name)
{
    const char *p = name + strlen("intel-rapl:");

    if (strncmp(name, "intel-rapl:", strlen("intel-rapl:")) != 0 || !*p)
        return 0;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

static int zone_order(const void *a, const void *b)
{
    return strcmp(((const struct rapl_zone *)a)->dir, ((const struct rapl_zone *)b)->dir);
}

/* Find the package zones and read their counters; 0, or -1 with the reason
 * in cw->energy_why. */
static int rapl_start(struct cpu_watch *w, struct rb_cpu_watch *cw)
{
    char dir[PATH_MAX + 32], path[PATH_MAX + 160], name[64];
    struct dirent *e;
    DIR *dp;

    w->nzones = 0;
    snprintf(dir, sizeof dir, "%s/class/powercap", w->root);
    if (!(dp = opendir(dir))) {
        int why = errno;
        snprintf(cw->energy_why, sizeof cw->energy_why, "not available: %.160s: %s%s", dir,
                 strerror(why), why == ENOENT ? " (no powercap interface here)" : "");
        return -1;
    }
    while ((e = readdir(dp)) && w->nzones < RAPL_MAX_ZONES)
        if (is_package_zone(e->d_name) && strlen(e->d_name) < sizeof w->z[0].dir)
            snprintf(w->z[w->nzones++].dir, sizeof w->z[0].dir, "%s", e->d_name);
    closedir(dp);
    if (w->nzones == 0) {
        snprintf(cw->energy_why, sizeof cw->energy_why,
                 "not available: no RAPL package zone (intel-rapl:N) in %.160s", dir);
        return -1;
    }
    qsort(w->z, (size_t)w->nzones, sizeof *w->z, zone_order);
    for (int i = 0; i < w->nzones; i++) {
        snprintf(path, sizeof path, "%s/%s/energy_uj", dir, w->z[i].dir);
        if (read_ull(path, &w->z[i].e0) < 0) {
            int why = errno;
            snprintf(cw->energy_why, sizeof cw->energy_why, "not available: %.160s: %s%s",
                     path, strerror(why), why == EACCES ? " (readable by root only)" : "");
            return -1;
        }
        snprintf(path, sizeof path, "%s/%s/max_energy_range_uj", dir, w->z[i].dir);
        if (read_ull(path, &w->z[i].range) < 0)
            w->z[i].range = 0;
        snprintf(path, sizeof path, "%s/%s/name", dir, w->z[i].dir);
        if (read_line(path, name, sizeof name) < 0)
            snprintf(name, sizeof name, "%s", w->z[i].dir);
        size_t at = strlen(cw->zones);
        snprintf(cw->zones + at, sizeof cw->zones - at, "%s%s", at ? "," : "", name);
    }
    return 0;
}

static void watch_start(void *self, const struct rb_case *c, struct rb_observation *o)
{
    struct cpu_watch *w = self;
    (void)c;

    read_governor(w->root, &o->cpu);
    w->active = rapl_start(w, &o->cpu) == 0;
}

/* The counter counts up to max_energy_range_uj and starts again from 0: a
 * reading below the first is one wrap (the window is far shorter than the
 * counter's range, minutes at a package's full power). */
static void watch_stop(void *self, struct rb_observation *o)
{
    struct cpu_watch *w = self;
    char path[PATH_MAX + 160];
    double uj = 0;

    if (!w->active)
        return;
    w->active = 0;
    for (int i = 0; i < w->nzones; i++) {
        unsigned long long e1;
        snprintf(path, sizeof path, "%s/class/powercap/%s/energy_uj", w->root, w->z[i].dir);
        if (read_ull(path, &e1) < 0) {
            snprintf(o->cpu.energy_why, sizeof o->cpu.energy_why, "not available: %.160s: "
                     "%s (at the end of the samples)", path, strerror(errno));
            return;
        }
        if (e1 >= w->z[i].e0) {
            uj += (double)(e1 - w->z[i].e0);
        } else if (w->z[i].range > w->z[i].e0) {
            uj += (double)(w->z[i].range - w->z[i].e0) + (double)e1;
        } else {
            snprintf(o->cpu.energy_why, sizeof o->cpu.energy_why, "not available: %.120s went "
                     "back from %llu to %llu (no max_energy_range_uj)", path, w->z[i].e0, e1);
            return;
        }
    }
    o->cpu.energy_available = 1;
    o->cpu.energy_j = uj * 1e-6;
}

static void watch_release(void *self)
{
    free(self);
}

int rb_cpu_power_observer(struct rb_observer *obs)
{
    struct cpu_watch *w = calloc(1, sizeof *w);
    const char *root = getenv("RB_SYSFS_ROOT");

    if (!w)
        return RB_ENOMEM;
    snprintf(w->root, sizeof w->root, "%s", root && *root ? root : "/sys");
    *obs = (struct rb_observer){
        .name = "cpu-power", .self = w, .start = watch_start, .sample = NULL,
        .stop = watch_stop, .release = watch_release,
    };
    return 0;
}
