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
# CUDA or HIP, the device training too (the GPU libraries call back into
# the core: each side is listed twice; CUDA and HIP objects are C++).
if RB_HAVE_BLAS
if RB_HAVE_OPENMP
bin_PROGRAMS += sbo-learn
sbo_learn_SOURCES = %reldir%/sbo_learn.h %reldir%/sbo_learn.c \
	%reldir%/sbo_learn_backend.c %reldir%/sbo_learn_out.c
sbo_learn_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)
sbo_learn_LDADD = $(RB_BACKEND_LIBS) librb_core.a $(RB_BACKEND_LIBS) librb_core.a \
	$(RB_CORE_LIBS)
nodist_EXTRA_sbo_learn_SOURCES = build-aux/link-cxx.cxx
if RB_HAVE_OPENCL
sbo_learn_SOURCES += %reldir%/sbo_learn_opencl.c
sbo_learn_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS) -DCL_TARGET_OPENCL_VERSION=120
endif RB_HAVE_OPENCL
if RB_HAVE_CUDA
sbo_learn_SOURCES += %reldir%/sbo_learn_gpu.inc %reldir%/sbo_learn_cuda.c
endif RB_HAVE_CUDA
if RB_HAVE_HIP
sbo_learn_SOURCES += %reldir%/sbo_learn_gpu.inc %reldir%/sbo_learn_hip.c
endif RB_HAVE_HIP
endif RB_HAVE_OPENMP
endif RB_HAVE_BLAS
# CUDA and HIP: one host source (sbo_gpu_*) and one set of kernels
# (kernels/cuda/sbo_*.cuh) for both; the case above needs BLAS.
if RB_HAVE_BLAS
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += %reldir%/sbo_gpu_state.h %reldir%/sbo_gpu_fused.inc \
	%reldir%/sbo_gpu_launch.inc %reldir%/sbo_gpu_case.inc %reldir%/sbo_cuda.h %reldir%/sbo_cuda.cu \
	%reldir%/sbo_cuda_table.c %reldir%/sbo_gpu_table.inc
# The training on the device (kernels/cuda/sbo_train_*.cuh), its GEMMs
# through cuBLAS where configure found it (RB_CUDA_LIBS links it).
librb_cuda_a_SOURCES += %reldir%/sbo_gpu_train.h %reldir%/sbo_gpu_train_state.h \
	%reldir%/sbo_gpu_train_steps.inc %reldir%/sbo_gpu_train_loop.inc \
	%reldir%/sbo_gpu_train_case.inc %reldir%/sbo_gpu_train_host.inc \
	%reldir%/sbo_gpu_train_direct.inc %reldir%/sbo_cuda_train.cu
endif RB_HAVE_CUDA
if RB_HAVE_HIP
librb_hip_a_SOURCES += %reldir%/sbo_gpu_state.h %reldir%/sbo_gpu_fused.inc \
	%reldir%/sbo_gpu_launch.inc %reldir%/sbo_gpu_case.inc %reldir%/sbo_hip.h %reldir%/sbo_hip.hip \
	%reldir%/sbo_hip_table.c %reldir%/sbo_gpu_table.inc
librb_hip_a_SOURCES += %reldir%/sbo_gpu_train.h %reldir%/sbo_gpu_train_state.h \
	%reldir%/sbo_gpu_train_steps.inc %reldir%/sbo_gpu_train_loop.inc \
	%reldir%/sbo_gpu_train_case.inc %reldir%/sbo_gpu_train_host.inc \
	%reldir%/sbo_gpu_train_direct.inc %reldir%/sbo_hip_train.hip
endif RB_HAVE_HIP
endif RB_HAVE_BLAS
# How the own batched GEMM splits K (the CUDA, HIP and OpenCL kernels').
EXTRA_DIST += %reldir%/sbo_gemm_split.h %reldir%/sbo_sort.h
# sbo-learn's device trainers, documented.
EXTRA_DIST += docs/sbo-learn.md
