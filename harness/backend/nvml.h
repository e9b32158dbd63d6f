/* SPDX-License-Identifier: MIT */
/* The few NVML calls the harness makes, loaded with dlopen: no NVML header
 * and no link against libnvidia-ml, so the program starts where no driver
 * is.  Types and values as NVML documents them (nvml.h). */
#ifndef RB_BACKEND_NVML_H
#define RB_BACKEND_NVML_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int rb_nvml_return;                         /* nvmlReturn_t */
typedef struct rb_nvml_device_st *rb_nvml_device;   /* nvmlDevice_t */

#define RB_NVML_SUCCESS 0
#define RB_NVML_ERROR_NOT_SUPPORTED 3
#define RB_NVML_CLOCK_SM 1                  /* nvmlClockType_t */
#define RB_NVML_CLOCK_MEM 2
#define RB_NVML_TEMPERATURE_GPU 0           /* nvmlTemperatureSensors_t */

/* nvmlClocksEventReasons (formerly ...ThrottleReasons) bits. */
#define RB_NVML_REASON_GPU_IDLE 0x1ULL
#define RB_NVML_REASON_APP_CLOCKS 0x2ULL
#define RB_NVML_REASON_SW_POWER_CAP 0x4ULL
#define RB_NVML_REASON_HW_SLOWDOWN 0x8ULL
#define RB_NVML_REASON_SYNC_BOOST 0x10ULL
#define RB_NVML_REASON_SW_THERMAL 0x20ULL
#define RB_NVML_REASON_HW_THERMAL 0x40ULL
#define RB_NVML_REASON_HW_POWER_BRAKE 0x80ULL
#define RB_NVML_REASON_DISPLAY_CLOCKS 0x100ULL
/* The reasons that lower clocks below what the load asks for: idle, the
 * user's application clocks, sync boost and display clocks are not. */
#define RB_NVML_THROTTLE_MASK (RB_NVML_REASON_SW_POWER_CAP | RB_NVML_REASON_HW_SLOWDOWN   \
                               | RB_NVML_REASON_SW_THERMAL | RB_NVML_REASON_HW_THERMAL    \
                               | RB_NVML_REASON_HW_POWER_BRAKE)

/* The library and its entry points; the optional ones may be NULL. */
struct rb_nvml {
    void *lib;
    char path[256];
    rb_nvml_return (*init)(void);                                       /* nvmlInit_v2 */
    rb_nvml_return (*shutdown)(void);
    const char *(*error_string)(rb_nvml_return);
    rb_nvml_return (*handle_by_bus_id)(const char *, rb_nvml_device *); /* ..._v2 */
    rb_nvml_return (*clock_info)(rb_nvml_device, int, unsigned *);      /* MHz */
    /* Optional. */
    rb_nvml_return (*name)(rb_nvml_device, char *, unsigned);
    rb_nvml_return (*temperature)(rb_nvml_device, int, unsigned *);     /* C */
    rb_nvml_return (*power_usage)(rb_nvml_device, unsigned *);          /* mW */
    rb_nvml_return (*total_energy)(rb_nvml_device, unsigned long long *);   /* mJ */
    rb_nvml_return (*reasons)(rb_nvml_device, unsigned long long *);
};

/* dlopen RB_NVML_LIBRARY (default libnvidia-ml.so.1), find the entry points
 * and initialise NVML.  0, or RB_ENODEV with the reason in why (the library
 * is absent, lacks a required call, or nvmlInit_v2 failed). */
int rb_nvml_load(struct rb_nvml *n, char *why, size_t len);
/* nvmlShutdown and dlclose; safe on a failed load. */
void rb_nvml_unload(struct rb_nvml *n);
/* NVML's text for a status. */
const char *rb_nvml_strerror(const struct rb_nvml *n, rb_nvml_return r);
/* "sw_power_cap,hw_slowdown" for a set of reason bits ("" for none). */
void rb_nvml_reason_names(unsigned long long reasons, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
