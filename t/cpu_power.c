/* SPDX-License-Identifier: MIT */
/* The CPU observer on a sysfs tree of the test's own (RB_SYSFS_ROOT): the
 * governor of every CPU, the RAPL packages' energy with a counter that
 * wraps, subzones left out, and each way of not being available. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/ctx.h"
#include "harness/run/observe.h"
#include "t/tap.h"

#define RANGE_UJ 262143328850ULL

static char root[256];

static const struct rb_axis no_axes[] = { { 0 } };
static const struct rb_variant serial_v = {
    .paper = "givens", .algo = "forward", .name = "fake", .backend = RB_BACKEND_SERIAL,
    .precs = RB_PREC_F32, .sizes = no_axes,
};

/* mkdir -p of root/rel's folder, then write text to root/rel. */
static void put(const char *rel, const char *text)
{
    char path[512];

    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            tap_diag("mkdir %s: %s", path, strerror(errno));
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        tap_diag("writing %s failed", path);
}

static void zone(const char *dir, const char *name, unsigned long long uj)
{
    char rel[128], text[64];

    snprintf(rel, sizeof rel, "class/powercap/%s/name", dir);
    snprintf(text, sizeof text, "%s\n", name);
    put(rel, text);
    snprintf(rel, sizeof rel, "class/powercap/%s/max_energy_range_uj", dir);
    snprintf(text, sizeof text, "%llu\n", RANGE_UJ);
    put(rel, text);
    snprintf(rel, sizeof rel, "class/powercap/%s/energy_uj", dir);
    snprintf(text, sizeof text, "%llu\n", uj);
    put(rel, text);
}

/* Watch one case on a fresh context; between its start and stop, call
 * `between` (may be NULL) to move the counters. */
static void watch(void (*between)(void), struct rb_observation *o)
{
    struct rb_ctx ctx;
    struct rb_case c = { 0 };

    rb_ctx_init(&ctx);
    c.v = &serial_v;
    c.ctx = &ctx;
    rb_observe_start(&c, o);
    rb_observe_sample(&c, o, 0);
    if (between)
        between();
    rb_observe_stop(&c, o);
    rb_ctx_release(&ctx);
}

static void move_counters(void)
{
    zone("intel-rapl:0", "package-0", 500000);     /* wrapped */
    zone("intel-rapl:1", "package-1", 3000000);
    zone("intel-rapl:0:0", "core", 5);              /* a subzone: not counted */
}

static void remove_counter(void)
{
    char path[512];

    snprintf(path, sizeof path, "%s/class/powercap/intel-rapl:1/energy_uj", root);
    unlink(path);
}

static void rm_rf(const char *dir)
{
    char cmd[600];

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        tap_diag("%s failed", cmd);
}

int main(void)
{
    struct rb_observation o;

    tap_plan(12);
    snprintf(root, sizeof root, "%s/rb-cpu-power-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR")
                                                                           : "/tmp");
    if (!mkdtemp(root))
        tap_skip_all("mkdtemp failed: %s", strerror(errno));
    setenv("RB_SYSFS_ROOT", root, 1);
    unsetenv("RB_NVML_BUS_ID");

    /* Nothing there: each part says why. */
    watch(NULL, &o);
    tap_ok(!o.cpu.governor[0] && strstr(o.cpu.governor_why, "cpu0/cpufreq/scaling_governor")
           && strstr(o.cpu.governor_why, "No such file"), "no cpufreq: why (%s)",
           o.cpu.governor_why);
    tap_ok(!o.cpu.energy_available && strstr(o.cpu.energy_why, "class/powercap")
           && strstr(o.cpu.energy_why, "no powercap interface"), "no powercap: why (%s)",
           o.cpu.energy_why);
    tap_ok(!o.gpu.available && strstr(o.gpu.why, "not a GPU case"), "and no GPU watched");
    rb_observation_free(&o);

    put("devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
    put("devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
    put("devices/system/cpu/cpufreq/boost", "1\n");
    put("class/powercap/intel-rapl/enabled", "1\n");
    watch(NULL, &o);
    tap_ok(!strcmp(o.cpu.governor, "performance"), "one governor (%s)", o.cpu.governor);
    tap_ok(!o.cpu.energy_available && strstr(o.cpu.energy_why, "no RAPL package zone"),
           "powercap without a RAPL zone: why (%s)", o.cpu.energy_why);
    rb_observation_free(&o);

    /* Package 0 a million uJ below its range, package 1 at 1 J. */
    zone("intel-rapl:0", "package-0", RANGE_UJ - 1000000);
    zone("intel-rapl:0:0", "core", 1);
    zone("intel-rapl:1", "package-1", 1000000);
    put("devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n");
    watch(move_counters, &o);
    tap_ok(o.cpu.energy_available, "RAPL zones read");
    /* Package 0: 1 J to the wrap and 0.5 J past it; package 1: 2 J. */
    tap_near(o.cpu.energy_j, 3.5, 1e-9, "energy over the wrap, subzones left out");
    tap_ok(!strcmp(o.cpu.zones, "package-0,package-1"), "the zones named (%s)", o.cpu.zones);
    tap_ok(!strcmp(o.cpu.governor, "mixed: performance,powersave"),
           "CPUs that disagree: mixed (%s)", o.cpu.governor);
    rb_observation_free(&o);

    watch(remove_counter, &o);
    tap_ok(!o.cpu.energy_available && strstr(o.cpu.energy_why, "intel-rapl:1/energy_uj")
           && strstr(o.cpu.energy_why, "at the end"),
           "a counter gone at the end: why (%s)", o.cpu.energy_why);
    rb_observation_free(&o);

    /* A counter that cannot be read (as energy_uj is for users since Linux
     * 5.10; the test may run as root, so a folder stands in). */
    remove_counter();
    put("class/powercap/intel-rapl:1/energy_uj/x", "");
    watch(NULL, &o);
    tap_ok(!o.cpu.energy_available && strstr(o.cpu.energy_why, "intel-rapl:1/energy_uj"),
           "an unreadable counter: why (%s)", o.cpu.energy_why);
    rb_observation_free(&o);

    setenv("RB_SYSFS_ROOT", "/nonexistent-sysfs", 1);
    watch(NULL, &o);
    tap_ok(strstr(o.cpu.governor_why, "/nonexistent-sysfs/devices/system/cpu") != NULL,
           "RB_SYSFS_ROOT is where it looks");
    rb_observation_free(&o);
    rm_rf(root);
    return tap_done();
}
