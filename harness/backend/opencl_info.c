/* SPDX-License-Identifier: MIT */
/* Every OpenCL platform and device, described for the hardware summary;
 * the PCI bus id of the run's device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/backend/opencl.h"

static void set_dev_str(json_t *o, const char *key, cl_device_id d, cl_device_info what)
{
    char buf[512] = "";
    if (clGetDeviceInfo(d, what, sizeof buf - 1, buf, NULL) == CL_SUCCESS)
        json_object_set_new(o, key, json_string(buf));
}

static void set_plat_str(json_t *o, const char *key, cl_platform_id p, cl_platform_info what)
{
    char buf[512] = "";
    if (clGetPlatformInfo(p, what, sizeof buf - 1, buf, NULL) == CL_SUCCESS)
        json_object_set_new(o, key, json_string(buf));
}

static void set_dev_uint(json_t *o, const char *key, cl_device_id d, cl_device_info what)
{
    cl_uint v;
    if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) == CL_SUCCESS)
        json_object_set_new(o, key, json_integer(v));
}

static void set_dev_ulong(json_t *o, const char *key, cl_device_id d, cl_device_info what)
{
    cl_ulong v;
    if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) == CL_SUCCESS)
        json_object_set_new(o, key, json_integer((json_int_t)v));
}

static void set_dev_size(json_t *o, const char *key, cl_device_id d, cl_device_info what)
{
    size_t v;
    if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) == CL_SUCCESS)
        json_object_set_new(o, key, json_integer((json_int_t)v));
}

static const char *type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (t & CL_DEVICE_TYPE_CPU)
        return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    return "other";
}

/* NVIDIA's extension: compute capability and warp size. */
static void add_nv(json_t *o, cl_device_id d)
{
    char ext[4096] = "";
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    if (!strstr(ext, "cl_nv_device_attribute_query"))
        return;
    cl_uint major, minor;
    if (clGetDeviceInfo(d, 0x4000, sizeof major, &major, NULL) == CL_SUCCESS
        && clGetDeviceInfo(d, 0x4001, sizeof minor, &minor, NULL) == CL_SUCCESS) {
        char cc[16];
        snprintf(cc, sizeof cc, "%u.%u", major, minor);
        json_object_set_new(o, "cc", json_string(cc));
    }
    set_dev_uint(o, "warp_size", d, 0x4003);
    set_dev_uint(o, "registers_per_block", d, 0x4002);
}

static json_t *describe(cl_platform_id p, int pi, cl_device_id d, int di, int index)
{
    json_t *o = json_object();
    json_object_set_new(o, "backend", json_string("opencl"));
    json_object_set_new(o, "index", json_integer(index));
    json_object_set_new(o, "platform", json_integer(pi));
    json_object_set_new(o, "device", json_integer(di));
    set_dev_str(o, "name", d, CL_DEVICE_NAME);
    set_dev_str(o, "vendor", d, CL_DEVICE_VENDOR);
    cl_device_type type = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    json_object_set_new(o, "type", json_string(type_name(type)));
    set_plat_str(o, "platform_name", p, CL_PLATFORM_NAME);
    set_plat_str(o, "platform_version", p, CL_PLATFORM_VERSION);
    set_dev_str(o, "version", d, CL_DEVICE_VERSION);
    set_dev_str(o, "driver", d, CL_DRIVER_VERSION);
    set_dev_str(o, "opencl_c", d, CL_DEVICE_OPENCL_C_VERSION);
    set_dev_uint(o, "compute_units", d, CL_DEVICE_MAX_COMPUTE_UNITS);
    set_dev_uint(o, "clock_mhz", d, CL_DEVICE_MAX_CLOCK_FREQUENCY);
    set_dev_ulong(o, "memory_bytes", d, CL_DEVICE_GLOBAL_MEM_SIZE);
    set_dev_ulong(o, "local_memory_bytes", d, CL_DEVICE_LOCAL_MEM_SIZE);
    set_dev_size(o, "max_work_group_size", d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    set_dev_size(o, "timer_resolution_ns", d, CL_DEVICE_PROFILING_TIMER_RESOLUTION);
    add_nv(o, d);
    return o;
}

int rb_opencl_devices(json_t *devices, char *why, size_t len)
{
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &np);
    if (err != CL_SUCCESS || np == 0) {
        snprintf(why, len, "no platform (clGetPlatformIDs: %s (%d))",
                 err == CL_SUCCESS ? "0 platforms" : rb_cl_strerror(err), (int)err);
        return 0;
    }
    cl_platform_id *ps = calloc(np, sizeof *ps);
    if (!ps) {
        snprintf(why, len, "out of host memory");
        return 0;
    }
    clGetPlatformIDs(np, ps, NULL);
    int count = 0;
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
            continue;
        cl_device_id *ds = calloc(nd, sizeof *ds);
        if (ds && clGetDeviceIDs(ps[p], CL_DEVICE_TYPE_ALL, nd, ds, NULL) == CL_SUCCESS)
            for (cl_uint d = 0; d < nd; d++)
                json_array_append_new(devices, describe(ps[p], (int)p, ds[d], (int)d, count++));
        free(ds);
    }
    free(ps);
    if (count == 0)
        snprintf(why, len, "no device (%u platform%s, none with a device)", np,
                 np == 1 ? "" : "s");
    return count;
}

json_t *rb_opencl_versions(void)
{
    json_t *o = json_object();
    char target[16];
    snprintf(target, sizeof target, "%d.%d", CL_TARGET_OPENCL_VERSION / 100,
             CL_TARGET_OPENCL_VERSION / 10 % 10);
    json_object_set_new(o, "target", json_string(target));
    json_t *list = json_array();
    cl_uint np = 0;
    cl_platform_id ps[64];
    if (clGetPlatformIDs(64, ps, &np) == CL_SUCCESS) {
        for (cl_uint p = 0; p < np && p < 64; p++) {
            json_t *e = json_object();
            set_plat_str(e, "name", ps[p], CL_PLATFORM_NAME);
            set_plat_str(e, "version", ps[p], CL_PLATFORM_VERSION);
            json_array_append_new(list, e);
        }
    }
    json_object_set_new(o, "platforms", list);
    return o;
}

/* cl_nv_device_attribute_query's PCI attributes: the slot holds the device
 * number above the function's three bits.  The domain came later (CUDA
 * 10.2's driver); 0 without it. */
int rb_opencl_pci_bus_id(struct rb_ctx *ctx, char *bus, size_t len, char *why, size_t whylen)
{
    struct rb_opencl *cl;
    char ext[4096] = "";
    cl_uint nvbus, nvslot, nvdomain = 0;

    if (rb_opencl_get(ctx, &cl, why, whylen) != 0)
        return RB_ENODEV;
    clGetDeviceInfo(cl->device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
    if (!strstr(ext, "cl_nv_device_attribute_query")) {
        snprintf(why, whylen, "%s has no cl_nv_device_attribute_query", cl->name);
        return RB_ENODEV;
    }
    if (clGetDeviceInfo(cl->device, 0x4008, sizeof nvbus, &nvbus, NULL) != CL_SUCCESS
        || clGetDeviceInfo(cl->device, 0x4009, sizeof nvslot, &nvslot, NULL) != CL_SUCCESS) {
        snprintf(why, whylen, "%s: CL_DEVICE_PCI_BUS_ID_NV/SLOT_ID_NV unreadable", cl->name);
        return RB_ENODEV;
    }
    if (clGetDeviceInfo(cl->device, 0x400A, sizeof nvdomain, &nvdomain, NULL) != CL_SUCCESS)
        nvdomain = 0;
    snprintf(bus, len, "%04x:%02x:%02x.%x", nvdomain, nvbus & 0xff, nvslot >> 3, nvslot & 7);
    return 0;
}
