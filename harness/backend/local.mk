# SPDX-License-Identifier: MIT
# harness/backend/local.mk: each backend's plumbing and its descriptor
# (docs/backends.md); the host's in the core, each GPU backend's in its own
# library with its flags.
librb_core_a_SOURCES += \
	%reldir%/backend.h %reldir%/devices.c %reldir%/device_pick.c \
	%reldir%/cpu.h %reldir%/cpu.c %reldir%/cpu_ops.c \
	%reldir%/occ.h %reldir%/occ.c %reldir%/ceiling_cpu.c
# The GPUs' clocks, power and energy through NVML (loaded with dlopen), the
# CPU's governor and RAPL.
librb_core_a_SOURCES += %reldir%/nvml.h %reldir%/nvml.c %reldir%/nvml_observer.c \
	%reldir%/cpu_power.c
# The AMD targets HIP builds for, as data, and the occupancy they allow:
# plain C, in every build, so that its test runs without HIP.
librb_core_a_SOURCES += %reldir%/hip_targets.h %reldir%/hip_targets.c
if RB_HAVE_OPENCL
librb_opencl_a_SOURCES += \
	%reldir%/opencl.h %reldir%/opencl.c \
	%reldir%/opencl_program.c %reldir%/opencl_occ.c \
	%reldir%/opencl_info.c %reldir%/opencl_ceiling.c \
	%reldir%/opencl_ops.c %reldir%/opencl_buffer.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/rb_ceiling.c
CLEANFILES += kernels/opencl/rb_ceiling.c
endif RB_HAVE_OPENCL
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += \
	%reldir%/cuda.h %reldir%/cuda_check.h %reldir%/cuda.cu \
	%reldir%/gpu_ceiling.cu %reldir%/cuda_ops.c
endif RB_HAVE_CUDA
if RB_HAVE_HIP
librb_hip_a_SOURCES += \
	%reldir%/hip.h %reldir%/hip_check.h %reldir%/hip.hip \
	%reldir%/hip_ops.c
RB_HIP_CU_OBJECTS += %reldir%/gpu_ceiling.hipo
endif RB_HAVE_HIP
EXTRA_DIST += docs/backends.md
# The CUDA and HIP ceiling probe: one source, compiled once per backend.
EXTRA_DIST += %reldir%/gpu_ceiling.cu
# The HIP-on-CUDA header is used only when HIP targets NVIDIA; always shipped.
EXTRA_DIST += %reldir%/hipcuda/hip/hip_runtime.h
