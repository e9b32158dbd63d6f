# SPDX-License-Identifier: MIT
# impl/sammon/local.mk: Sammon mapping by gradient descent on CPUs and GPUs.
# The fp64 reference, its starts and peer drivers, and the case every
# backend shares (setup, verification).
librb_core_a_SOURCES += \
	%reldir%/sammon.h %reldir%/sammon_dist.h %reldir%/sammon_pair.h %reldir%/sammon_ref.c \
	%reldir%/sammon_init.c \
	%reldir%/sammon_peers.c %reldir%/sammon_check.h %reldir%/sammon_check.c \
	%reldir%/sammon_case.h %reldir%/sammon_case.c
# The embedding's engines (sammon_engine.h): the common part and the fp64
# ones here, each device's with its backend below.
librb_core_a_SOURCES += %reldir%/sammon_engine.h %reldir%/sammon_sums.h \
	%reldir%/sammon_engine_cpu.c
# The CPU variants: serial loops (the paper's CPU-1T) and OpenMP.
librb_core_a_SOURCES += %reldir%/sammon_cpu.h %reldir%/sammon_cpu.c %reldir%/sammon_serial_table.c
# The OpenMP step compiles with -fno-math-errno, so that sqrt vectorises
# (its errno check is a branch), and only it: the object is built through a
# library of its own and joins librb_core.a.
if RB_HAVE_OPENMP
noinst_LIBRARIES += librb_sammon_simd.a
librb_sammon_simd_a_SOURCES = %reldir%/sammon_omp.h %reldir%/sammon_omp.c \
	%reldir%/sammon_omp_rows.c
librb_sammon_simd_a_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS) -fno-math-errno -DRB_PREC=32
# The typed rows once more, in double: a library of their own for the flag.
noinst_LIBRARIES += librb_sammon_simd64.a
librb_sammon_simd64_a_SOURCES = %reldir%/sammon_omp_rows.c
librb_sammon_simd64_a_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS) -fno-math-errno -DRB_PREC=64
librb_core_a_LIBADD += %reldir%/librb_sammon_simd_a-sammon_omp.$(OBJEXT) \
	%reldir%/librb_sammon_simd_a-sammon_omp_rows.$(OBJEXT) \
	%reldir%/librb_sammon_simd64_a-sammon_omp_rows.$(OBJEXT)
librb_core_a_SOURCES += %reldir%/sammon_omp_table.c
endif RB_HAVE_OPENMP
# sammon-embed: Sammon maps of real or generated data (datasets/) on the
# host or a GPU, written as a TSV; the GPU engines come from the backend
# libraries; CUDA and HIP objects are C++.
# It is reprobench embed; sammon-embed, its old name, stays for one release
# as a program of one call.
RB_EMBED_SOURCES = %reldir%/sammon_embed.h %reldir%/sammon_embed.c \
	%reldir%/sammon_embed_io.h %reldir%/sammon_embed_io.c \
	harness/cli/embed_engines.h harness/cli/embed_engines.c
reprobench_SOURCES += $(RB_EMBED_SOURCES) harness/cli/cli_embed.c
bin_PROGRAMS += sammon-embed
sammon_embed_SOURCES = $(RB_EMBED_SOURCES) harness/cli/alias_embed.c
sammon_embed_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)
sammon_embed_LDADD = $(RB_LINK_LIBS)
nodist_EXTRA_sammon_embed_SOURCES = build-aux/link-cxx.cxx
if RB_HAVE_OPENCL
librb_opencl_a_SOURCES += %reldir%/sammon_opencl.h %reldir%/sammon_opencl.c \
	%reldir%/sammon_opencl_kernels.c %reldir%/sammon_opencl_run.c \
	%reldir%/sammon_opencl_table.c \
	%reldir%/sammon_opencl_stored.h %reldir%/sammon_opencl_stored.c \
	%reldir%/sammon_opencl_stored_case.c %reldir%/sammon_engine_opencl.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/sammon_common.c \
	kernels/opencl/sammon_standard.c kernels/opencl/sammon_modified.c \
	kernels/opencl/sammon_tiled.c kernels/opencl/sammon_stored.c \
	kernels/opencl/sammon_step.c
CLEANFILES += kernels/opencl/sammon_common.c kernels/opencl/sammon_standard.c \
	kernels/opencl/sammon_modified.c kernels/opencl/sammon_tiled.c \
	kernels/opencl/sammon_stored.c kernels/opencl/sammon_step.c
endif RB_HAVE_OPENCL
# CUDA and HIP: one host code (sammon_gpu_*.cu, sammon_gpu_state.h says how;
# sammon_engine_gpu.cu), one table source and one set of kernels
# (kernels/cuda/sammon_*.cuh), each compiled once per backend.
RB_SAMMON_GPU_SOURCES = %reldir%/sammon_gpu.h %reldir%/sammon_gpu_state.h \
	%reldir%/sammon_gpu_case.cu %reldir%/sammon_gpu_launch.cu %reldir%/sammon_gpu_stored.cu \
	%reldir%/sammon_engine_gpu.cu %reldir%/sammon_gpu_table.c
EXTRA_DIST += $(RB_SAMMON_GPU_SOURCES)
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += $(RB_SAMMON_GPU_SOURCES)
endif RB_HAVE_CUDA
if RB_HAVE_HIP
librb_hip_a_SOURCES += %reldir%/sammon_gpu.h %reldir%/sammon_gpu_table.c
RB_HIP_CU_OBJECTS += %reldir%/sammon_gpu_case.hipo %reldir%/sammon_gpu_launch.hipo \
	%reldir%/sammon_gpu_stored.hipo %reldir%/sammon_engine_gpu.hipo
endif RB_HAVE_HIP
# The stored variant and sammon-embed on the GPU, described.
EXTRA_DIST += docs/sammon-stored.md
# What the report quotes of the paper.
librb_core_a_SOURCES += %reldir%/sammon_paper.c
