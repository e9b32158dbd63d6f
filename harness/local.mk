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
	%reldir%/backend/cpu.h %reldir%/backend/cpu.c %reldir%/backend/cpu_ops.c \
	%reldir%/backend/occ.h %reldir%/backend/occ.c
# The roofline's ceilings: the run's probe, and the CPU's.
librb_core_a_SOURCES += %reldir%/ceiling.h %reldir%/ceiling.c %reldir%/ceiling_run.c \
	%reldir%/backend/ceiling_cpu.c
if RB_HAVE_OPENCL
librb_opencl_a_SOURCES += \
	%reldir%/backend/opencl.h %reldir%/backend/opencl.c \
	%reldir%/backend/opencl_program.c %reldir%/backend/opencl_occ.c \
	%reldir%/backend/opencl_info.c %reldir%/backend/opencl_ceiling.c \
	%reldir%/backend/opencl_ops.c
librb_opencl_a_SOURCES += %reldir%/backend/opencl_buffer.c
nodist_librb_opencl_a_SOURCES += kernels/opencl/rb_ceiling.c
CLEANFILES += kernels/opencl/rb_ceiling.c
endif RB_HAVE_OPENCL
if RB_HAVE_CUDA
librb_cuda_a_SOURCES += \
	%reldir%/backend/cuda.h %reldir%/backend/cuda_check.h %reldir%/backend/cuda.cu \
	%reldir%/backend/gpu_ceiling.cu %reldir%/backend/cuda_ops.c
endif RB_HAVE_CUDA
if RB_HAVE_HIP
librb_hip_a_SOURCES += \
	%reldir%/backend/hip.h %reldir%/backend/hip_check.h %reldir%/backend/hip.hip \
	%reldir%/backend/hip_ops.c
RB_HIP_CU_OBJECTS += %reldir%/backend/gpu_ceiling.hipo
endif RB_HAVE_HIP
# Each backend's descriptor, listed by the registry (docs/backends.md).
EXTRA_DIST += docs/backends.md
# The CUDA and HIP ceiling probe: one source, compiled once per backend.
EXTRA_DIST += %reldir%/backend/gpu_ceiling.cu
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
# Whole-file output through a temporary and a rename; gnuplot's figures
# through a temporary directory.
librb_core_a_SOURCES += %reldir%/atomic_file.h %reldir%/atomic_file.c %reldir%/plot_exec.c
# run's options as a table (cli_opts.c, run_opts.c), its stored plan, the
# run directory's lock and the environment's values.
librb_core_a_SOURCES += %reldir%/cli_opts.h %reldir%/cli_opts.c \
	%reldir%/run_opts.h %reldir%/run_opts.c %reldir%/plan.h %reldir%/plan.c \
	%reldir%/lock.h %reldir%/lock.c %reldir%/env.h %reldir%/env.c
# What a run keeps (plan, lock, writes, signals, memory, options).
EXTRA_DIST += docs/runs.md
# Observers around each case's timed samples: GPU clocks, power, energy and
# throttling through NVML (loaded with dlopen), the CPU's governor and RAPL.
librb_core_a_SOURCES += %reldir%/observe.h %reldir%/observe.c %reldir%/record_energy.c \
	%reldir%/backend/nvml.h %reldir%/backend/nvml.c %reldir%/backend/nvml_observer.c \
	%reldir%/backend/cpu_power.c
# compare's and the report's energy: joules per case, throttled cases,
# GFLOP per joule.
librb_core_a_SOURCES += %reldir%/compare_energy.c %reldir%/report_energy.c
EXTRA_DIST += docs/energy.md
# The results store: queries, machines and the commands in the core; what
# speaks SQLite is built with its flags in librb_store.a, whose objects join
# librb_core.a (the core calls them, they call the core); without libsqlite3
# the core gets stubs that say the store was not built.
librb_core_a_SOURCES += %reldir%/db.h %reldir%/db_query.c %reldir%/db_machine.c \
	%reldir%/cli_db.c %reldir%/history.h %reldir%/history.c %reldir%/history_plot.c \
	%reldir%/cli_history.c %reldir%/db_compare.h %reldir%/db_compare.c \
	%reldir%/report_store.h %reldir%/report_store.c
if RB_HAVE_SQLITE
noinst_LIBRARIES += librb_store.a
librb_store_a_SOURCES = %reldir%/db_priv.h %reldir%/db_schema.c \
	%reldir%/db_record.h %reldir%/db_record.c %reldir%/db_import.c %reldir%/db_select.c
librb_store_a_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
librb_core_a_LIBADD += $(librb_store_a_OBJECTS)
# The objects are built before the core is archived, whatever target asks for it.
EXTRA_librb_core_a_DEPENDENCIES = $(librb_store_a_OBJECTS)
RB_CORE_LIBS += $(SQLITE_LIBS)
else !RB_HAVE_SQLITE
librb_core_a_SOURCES += %reldir%/db_none.c
endif !RB_HAVE_SQLITE
EXTRA_DIST += docs/store.md docs/slurm-local.md
# Sweeps on Slurm: shards of a stored plan, submit, merge and status.
librb_core_a_SOURCES += %reldir%/shard.h %reldir%/shard.c %reldir%/shard_merge.c \
	%reldir%/submit.h %reldir%/submit.c %reldir%/submit_plan.h %reldir%/submit_plan.c \
	%reldir%/cli_submit.c %reldir%/cli_merge.c %reldir%/cli_status.c
EXTRA_DIST += docs/slurm.md
# The AMD targets HIP builds for, as data, and the occupancy they allow:
# plain C, in every build, so that its test runs without HIP.
librb_core_a_SOURCES += %reldir%/backend/hip_targets.h %reldir%/backend/hip_targets.c

# run --devices: one worker process per device (docs/devices.md)
librb_core_a_SOURCES += %reldir%/workers.h %reldir%/workers.c
EXTRA_DIST += docs/devices.md

# What the report says of each paper (title, claims, figures), defined with
# the paper and reached through the registry.
librb_core_a_SOURCES += %reldir%/paper.h
