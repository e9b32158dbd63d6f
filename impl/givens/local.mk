# SPDX-License-Identifier: MIT
# impl/givens/local.mk: round-robin Givens rotations (forward, JVP) on CPUs and GPUs.
librb_core_a_SOURCES += \
	%reldir%/givens.h %reldir%/givens_rot.h %reldir%/givens_ref.c %reldir%/givens_check.c \
	%reldir%/givens_case.h %reldir%/givens_case.c %reldir%/givens_serial_table.c \
	%reldir%/givens_gpu_axes.c
if RB_HAVE_OPENMP
librb_core_a_SOURCES += %reldir%/givens_omp.c %reldir%/givens_omp_table.c
endif RB_HAVE_OPENMP
# CUDA and HIP: one host code (givens_gpu_*.cu, givens_gpu_state.h says how)
# and one table source, each compiled once per backend.
RB_GIVENS_GPU_SOURCES = %reldir%/givens_gpu.h %reldir%/givens_gpu_state.h \
	%reldir%/givens_gpu_pick.h %reldir%/givens_gpu_case.cu %reldir%/givens_gpu_launch.cu \
	%reldir%/givens_gpu_fused.cu %reldir%/givens_gpu_apply.cu %reldir%/givens_gpu_table.c
EXTRA_DIST += $(RB_GIVENS_GPU_SOURCES)
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += $(RB_GIVENS_GPU_SOURCES)
endif RB_HAVE_CUDA
if RB_HAVE_HIP
librb_hip_a_SOURCES += %reldir%/givens_gpu.h %reldir%/givens_gpu_table.c
RB_HIP_CU_OBJECTS += %reldir%/givens_gpu_case.hipo %reldir%/givens_gpu_launch.hipo \
	%reldir%/givens_gpu_fused.hipo %reldir%/givens_gpu_apply.hipo
endif RB_HAVE_HIP
if RB_HAVE_OPENCL
librb_opencl_a_SOURCES += %reldir%/givens_opencl_state.h %reldir%/givens_opencl.c \
	%reldir%/givens_opencl_kernels.c %reldir%/givens_opencl_run.c \
	%reldir%/givens_opencl_table.c %reldir%/givens_opencl_apply.c
librb_opencl_a_SOURCES += %reldir%/givens_opencl_setup.h %reldir%/givens_opencl_kernels.h \
	%reldir%/givens_opencl_run.h
nodist_librb_opencl_a_SOURCES += kernels/opencl/givens_common.c \
	kernels/opencl/givens_paper_forward.c kernels/opencl/givens_paper_backward.c \
	kernels/opencl/givens_table.c kernels/opencl/givens_slab.c kernels/opencl/givens_fused.c \
	kernels/opencl/givens_apply_engine.c kernels/opencl/givens_apply.c
CLEANFILES += kernels/opencl/givens_common.c kernels/opencl/givens_paper_forward.c \
	kernels/opencl/givens_paper_backward.c kernels/opencl/givens_table.c \
	kernels/opencl/givens_slab.c kernels/opencl/givens_fused.c \
	kernels/opencl/givens_apply_engine.c kernels/opencl/givens_apply.c
endif RB_HAVE_OPENCL
# What the report quotes of the paper.
librb_core_a_SOURCES += %reldir%/givens_paper.c
