# SPDX-License-Identifier: MIT
# impl/sbo/local.mk: SBO dictionary learning on CPUs: the fp64 reference
# (LAPACKE for the p x p SVDs), the harness case, the serial variants, and
# the OpenMP + OpenBLAS float version.  Built only with OpenBLAS and LAPACKE.
if RB_HAVE_BLAS
librb_core_a_SOURCES += \
	%reldir%/sbo.h %reldir%/sbo_ref.c %reldir%/sbo_train.c \
	%reldir%/sbo_case.h %reldir%/sbo_case.c %reldir%/sbo_serial_table.c
if RB_HAVE_OPENMP
librb_core_a_SOURCES += %reldir%/sbo_omp.h %reldir%/sbo_omp.c %reldir%/sbo_omp_train.c \
	%reldir%/sbo_omp_table.c
endif RB_HAVE_OPENMP
endif RB_HAVE_BLAS
# The OpenCL representation pass (kernels/opencl/sbo_represent.cl): needs
# the case above, so BLAS too.
if RB_HAVE_BLAS
if RB_HAVE_OPENCL
librb_opencl_a_SOURCES += %reldir%/sbo_opencl.h %reldir%/sbo_opencl.c \
	%reldir%/sbo_opencl_run.c %reldir%/sbo_opencl_table.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/sbo_represent.c
CLEANFILES += kernels/opencl/sbo_represent.c
# The training on the device (kernels/opencl/sbo_train_*.cl), its GEMMs
# through CLBlast where configure found it.
librb_opencl_a_SOURCES += %reldir%/sbo_opencl_train.h %reldir%/sbo_opencl_train.c \
	%reldir%/sbo_opencl_train_steps.c %reldir%/sbo_opencl_train_case.c \
	%reldir%/sbo_opencl_train_prof.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/sbo_train_select.c \
	kernels/opencl/sbo_train_gemm.c kernels/opencl/sbo_train_svd.c \
	kernels/opencl/sbo_train_polar.c
CLEANFILES += kernels/opencl/sbo_train_select.c kernels/opencl/sbo_train_gemm.c \
	kernels/opencl/sbo_train_svd.c kernels/opencl/sbo_train_polar.c
if RB_HAVE_CLBLAST
librb_opencl_a_SOURCES += %reldir%/sbo_opencl_train_clblast.c
else !RB_HAVE_CLBLAST
librb_opencl_a_SOURCES += %reldir%/sbo_opencl_train_noblast.c
endif !RB_HAVE_CLBLAST
endif RB_HAVE_OPENCL
endif RB_HAVE_BLAS
# sbo-learn: SBO on patches of real images (datasets/), with the RMSE trace,
# the atoms image and a summary.  Its trainers are the fp64 reference and
# the OpenMP float version, so it needs both BLAS and OpenMP; with OpenCL,
# CUDA or HIP, the device training too (CUDA and HIP objects are C++).
if RB_HAVE_BLAS
if RB_HAVE_OPENMP
# It is reprobench learn; sbo-learn, its old name, stays for one release as
# a program of one call.
RB_LEARN_SOURCES = %reldir%/sbo_learn.h %reldir%/sbo_learn.c \
	%reldir%/sbo_learn_backend.c %reldir%/sbo_learn_out.c %reldir%/sbo_learn_gpu.c \
	harness/cli/learn_backends.c
if RB_HAVE_OPENCL
RB_LEARN_SOURCES += %reldir%/sbo_learn_opencl.c
RB_LEARN_CPPFLAGS = $(OPENCL_CFLAGS) -DCL_TARGET_OPENCL_VERSION=120
endif RB_HAVE_OPENCL
if RB_HAVE_CUDA
RB_LEARN_SOURCES += %reldir%/sbo_learn_cuda.c
endif RB_HAVE_CUDA
if RB_HAVE_HIP
RB_LEARN_SOURCES += %reldir%/sbo_learn_hip.c
endif RB_HAVE_HIP
reprobench_SOURCES += $(RB_LEARN_SOURCES) harness/cli/cli_learn.c
reprobench_CPPFLAGS = $(AM_CPPFLAGS) $(RB_LEARN_CPPFLAGS)
bin_PROGRAMS += sbo-learn
sbo_learn_SOURCES = $(RB_LEARN_SOURCES) harness/cli/alias_learn.c
sbo_learn_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)
sbo_learn_LDADD = $(RB_LINK_LIBS)
nodist_EXTRA_sbo_learn_SOURCES = build-aux/link-cxx.cxx
sbo_learn_CPPFLAGS = $(AM_CPPFLAGS) $(RB_LEARN_CPPFLAGS)
endif RB_HAVE_OPENMP
endif RB_HAVE_BLAS
# CUDA and HIP: one host code (sbo_gpu_*.cu; sbo_gpu_state.h and
# sbo_gpu_train_state.h say how) compiled for each through its rule
# (Makefile.am), one table built for each, one set of kernels
# (kernels/cuda/sbo_*.cuh); the case above needs BLAS.  The training's
# GEMMs go through cuBLAS where configure found it, opened on first use
# (sbo_cublas.h).
RB_SBO_GPU_SOURCES = %reldir%/sbo_gpu.h %reldir%/sbo_gpu_kernels.h %reldir%/sbo_gpu_state.h \
	%reldir%/sbo_gpu_case.cu %reldir%/sbo_gpu_launch.cu %reldir%/sbo_gpu_train_state.h \
	%reldir%/sbo_gpu_train_steps.cu %reldir%/sbo_gpu_train_loop.cu \
	%reldir%/sbo_gpu_train_case.cu %reldir%/sbo_gpu_train_host.cu \
	%reldir%/sbo_gpu_train_direct.cu %reldir%/sbo_gpu_engine.cu %reldir%/sbo_gpu_table.c
EXTRA_DIST += $(RB_SBO_GPU_SOURCES) %reldir%/sbo_cublas.h %reldir%/sbo_cublas.cu
if RB_HAVE_BLAS
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += $(RB_SBO_GPU_SOURCES)
if RB_HAVE_CUBLAS
librb_cuda_a_SOURCES += %reldir%/sbo_cublas.h %reldir%/sbo_cublas.cu
endif RB_HAVE_CUBLAS
endif RB_HAVE_CUDA
if RB_HAVE_HIP
librb_hip_a_SOURCES += %reldir%/sbo_gpu.h %reldir%/sbo_gpu_table.c
RB_HIP_CU_OBJECTS += %reldir%/sbo_gpu_case.hipo %reldir%/sbo_gpu_launch.hipo \
	%reldir%/sbo_gpu_train_steps.hipo %reldir%/sbo_gpu_train_loop.hipo \
	%reldir%/sbo_gpu_train_case.hipo %reldir%/sbo_gpu_train_host.hipo \
	%reldir%/sbo_gpu_train_direct.hipo %reldir%/sbo_gpu_engine.hipo
endif RB_HAVE_HIP
endif RB_HAVE_BLAS
# How the own batched GEMM splits K (the CUDA, HIP and OpenCL kernels').
EXTRA_DIST += %reldir%/sbo_gemm_split.h %reldir%/sbo_sort.h
# sbo-learn's device trainers, documented.
EXTRA_DIST += docs/sbo-learn.md
# What the report quotes of the paper: built with or without BLAS, since
# the report reads runs made elsewhere.
librb_core_a_SOURCES += %reldir%/sbo_paper.c
