# SPDX-License-Identifier: MIT
# impl/givens/local.mk: round-robin Givens rotations (forward, JVP) on CPUs and GPUs.
librb_core_a_SOURCES += \
	%reldir%/givens.h %reldir%/givens_rot.h %reldir%/givens_ref.c %reldir%/givens_check.c \
	%reldir%/givens_case.h %reldir%/givens_case.c %reldir%/givens_serial_table.c \
	%reldir%/givens_gpu_axes.c
if RB_HAVE_OPENMP
librb_core_a_SOURCES += %reldir%/givens_omp.c %reldir%/givens_omp_table.c
endif RB_HAVE_OPENMP
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += \
	%reldir%/givens_gpu_api.h %reldir%/givens_gpu_state.h %reldir%/givens_gpu_case.inc \
	%reldir%/givens_gpu_launch.inc %reldir%/givens_gpu_fused.inc %reldir%/givens_gpu_pick.h \
	%reldir%/givens_gpu_apply.inc \
	%reldir%/givens_cuda.h %reldir%/givens_cuda.cu \
	%reldir%/givens_cuda_launch.cu %reldir%/givens_cuda_table.c
librb_cuda_a_SOURCES += %reldir%/givens_cuda_apply.h %reldir%/givens_cuda_apply.cu \
	%reldir%/givens_cuda_apply_table.c
endif RB_HAVE_CUDA
# HIP: every variant of CUDA, from the same host code (givens_gpu_*) and kernels.
if RB_HAVE_HIP
librb_hip_a_SOURCES += \
	%reldir%/givens_gpu_api.h %reldir%/givens_gpu_state.h %reldir%/givens_gpu_case.inc \
	%reldir%/givens_gpu_launch.inc %reldir%/givens_gpu_fused.inc %reldir%/givens_gpu_pick.h \
	%reldir%/givens_gpu_apply.inc \
	%reldir%/givens_hip.h %reldir%/givens_hip.hip %reldir%/givens_hip_table.c \
	%reldir%/givens_hip_apply.h %reldir%/givens_hip_apply.hip %reldir%/givens_hip_apply_table.c
endif RB_HAVE_HIP
if RB_HAVE_OPENCL
librb_opencl_a_SOURCES += %reldir%/givens_opencl.h %reldir%/givens_opencl.c \
	%reldir%/givens_opencl_kernels.c %reldir%/givens_opencl_run.c \
	%reldir%/givens_opencl_table.c %reldir%/givens_opencl_apply.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/givens_common.c \
	kernels/opencl/givens_paper_forward.c kernels/opencl/givens_paper_backward.c \
	kernels/opencl/givens_table.c kernels/opencl/givens_slab.c kernels/opencl/givens_fused.c \
	kernels/opencl/givens_apply_engine.c kernels/opencl/givens_apply.c
CLEANFILES += kernels/opencl/givens_common.c kernels/opencl/givens_paper_forward.c \
	kernels/opencl/givens_paper_backward.c kernels/opencl/givens_table.c \
	kernels/opencl/givens_slab.c kernels/opencl/givens_fused.c \
	kernels/opencl/givens_apply_engine.c kernels/opencl/givens_apply.c
endif RB_HAVE_OPENCL
