# SPDX-License-Identifier: MIT
# impl/common/local.mk: seeded RNG, the round-robin schedule, matrix helpers.
librb_core_a_SOURCES += \
	%reldir%/rng.h %reldir%/rng.c \
	%reldir%/roundrobin.h %reldir%/roundrobin.c
# One spelling of CUDA and HIP for the host code both compile.
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += %reldir%/gpu_api.h
endif RB_HAVE_CUDA
if RB_HAVE_HIP
librb_hip_a_SOURCES += %reldir%/gpu_api.h
endif RB_HAVE_HIP
