# SPDX-License-Identifier: MIT
# harness/local.mk: the reprobench program and its backend plumbing.
reprobench_SOURCES += %reldir%/main.c
librb_registry_a_SOURCES += %reldir%/registry.c
librb_core_a_SOURCES += \
	%reldir%/variant.h %reldir%/variant.c \
	%reldir%/error.h %reldir%/error.c \
	%reldir%/ctx.h %reldir%/ctx.c \
	%reldir%/registry.h \
	%reldir%/cli.h %reldir%/cli_run.c %reldir%/cli_list.c %reldir%/cli_info.c \
	%reldir%/cli_plot.c %reldir%/execute.h %reldir%/execute.c \
	%reldir%/fault.h %reldir%/fault.c \
	%reldir%/parse.h %reldir%/parse.c \
	%reldir%/prog.h %reldir%/prog.c \
	%reldir%/stats.h %reldir%/stats.c \
	%reldir%/timer.h %reldir%/timer.c \
	%reldir%/sweep.h %reldir%/sweep.c \
	%reldir%/measure.h %reldir%/measure.c \
	%reldir%/progress.h %reldir%/progress.c \
	%reldir%/record.h %reldir%/record.c %reldir%/record_tsv.c %reldir%/json_build.h \
	%reldir%/results.h %reldir%/results.c %reldir%/meta.c \
	%reldir%/hw.h %reldir%/hw.c \
	%reldir%/plot.h %reldir%/plot.c \
	%reldir%/backend/backend.h %reldir%/backend/devices.c \
	%reldir%/backend/cpu.h %reldir%/backend/cpu.c \
	%reldir%/backend/occ.h %reldir%/backend/occ.c
# The roofline's ceilings: the run's probe, and the CPU's.
librb_core_a_SOURCES += %reldir%/ceiling.h %reldir%/ceiling.c %reldir%/ceiling_run.c \
	%reldir%/backend/ceiling_cpu.c
if RB_HAVE_OPENCL
librb_opencl_a_SOURCES += \
	%reldir%/backend/opencl.h %reldir%/backend/opencl.c \
	%reldir%/backend/opencl_program.c %reldir%/backend/opencl_occ.c \
	%reldir%/backend/opencl_info.c %reldir%/backend/opencl_ceiling.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/rb_ceiling.c
CLEANFILES += kernels/opencl/rb_ceiling.c
endif RB_HAVE_OPENCL
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += \
	%reldir%/backend/cuda.h %reldir%/backend/cuda_check.h %reldir%/backend/cuda.cu \
	%reldir%/backend/cuda_ceiling.cu
endif RB_HAVE_CUDA
if RB_HAVE_HIP
librb_hip_a_SOURCES += \
	%reldir%/backend/hip.h %reldir%/backend/hip_check.h %reldir%/backend/hip.hip \
	%reldir%/backend/hip_ceiling.hip
endif RB_HAVE_HIP
# The CUDA and HIP ceiling probes' shared host code.
EXTRA_DIST += %reldir%/backend/gpu_ceiling.inc
# The HIP-on-CUDA header is used only when HIP targets NVIDIA; always shipped.
EXTRA_DIST += %reldir%/backend/hipcuda/hip/hip_runtime.h
# meta.c includes the generated version header: BUILT_SOURCES covers `make`,
# this covers building the library or a test alone.
%reldir%/librb_core_a-meta.$(OBJEXT): harness/gitdesc.h
# reprobench compare: two runs' records matched by case, each ratio
# bootstrapped, printed and plotted.
librb_core_a_SOURCES += %reldir%/compare.h %reldir%/compare.c %reldir%/compare_match.c \
	%reldir%/compare_print.c %reldir%/compare_plot.c %reldir%/cli_compare.c
# reprobench report: a run's report as HTML and Markdown from one document.
librb_core_a_SOURCES += %reldir%/report.h %reldir%/report.c %reldir%/report_doc.c \
	%reldir%/report_machine.c %reldir%/report_paper.c %reldir%/report_claims.c \
	%reldir%/report_roofline.c \
	%reldir%/report_html.c %reldir%/report_md.c %reldir%/cli_report.c
# The AMD targets HIP builds for, as data, and the occupancy they allow:
# plain C, in every build, so that its test runs without HIP.
librb_core_a_SOURCES += %reldir%/backend/hip_targets.h %reldir%/backend/hip_targets.c
