# SPDX-License-Identifier: MIT
# t/local.mk: TAP tests.  Each C test links librb_core.a; shell tests drive the CLI.
AM_TESTS_ENVIRONMENT = RB_BIN='$(abs_top_builddir)/reprobench'; export RB_BIN; \
	RB_TOP_SRCDIR='$(abs_top_srcdir)'; export RB_TOP_SRCDIR; \
	RB_PLOTS_DIR='$(abs_top_srcdir)/plots'; export RB_PLOTS_DIR; \
	OMP_NUM_THREADS=2; export OMP_NUM_THREADS;
EXTRA_DIST += %reldir%/tap.h %reldir%/cli_lib.sh

check_PROGRAMS += t/stats_median t/parse_args t/registry_unique_names
TESTS += t/stats_median t/parse_args t/registry_unique_names
TESTS += t/cli_errors.sh t/cli_run.sh
EXTRA_DIST += t/cli_errors.sh t/cli_run.sh
check_PROGRAMS += t/json_escape t/record_roundtrip t/results_resume
TESTS += t/json_escape t/record_roundtrip t/results_resume
TESTS += t/plot_givens.sh t/plot_sammon.sh
EXTRA_DIST += t/plot_givens.sh t/plot_sammon.sh

# Round-robin schedule and the CPU Givens code.
check_PROGRAMS += t/rr_schedule t/givens_forward t/givens_backward t/givens_check
TESTS += t/rr_schedule t/givens_forward t/givens_backward t/givens_check
if RB_HAVE_OPENMP
check_PROGRAMS += t/givens_omp
TESTS += t/givens_omp
endif RB_HAVE_OPENMP
check_PROGRAMS += t/givens_cases
TESTS += t/givens_cases
# Hardware tagging and the backend plumbing (harness/records/hw.c, harness/backend/).
check_PROGRAMS += t/hw_summary t/backend_occ
TESTS += t/hw_summary t/backend_occ
EXTRA_DIST += kernels/opencl/rb_selftest.cl
if RB_HAVE_OPENCL
check_PROGRAMS += t/backend_opencl
TESTS += t/backend_opencl
t_backend_opencl_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_backend_opencl_SOURCES = t/backend_opencl.c
nodist_t_backend_opencl_SOURCES = kernels/opencl/rb_selftest.c
CLEANFILES += kernels/opencl/rb_selftest.c
endif RB_HAVE_OPENCL
if RB_HAVE_CUDA
check_PROGRAMS += t/backend_cuda
TESTS += t/backend_cuda
t_backend_cuda_SOURCES = t/backend_cuda.c t/backend_cuda_kernel.cu
nodist_EXTRA_t_backend_cuda_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_CUDA
if RB_HAVE_HIP
check_PROGRAMS += t/backend_hip
TESTS += t/backend_hip
t_backend_hip_SOURCES = t/backend_hip.c t/backend_hip_kernel.hip
nodist_EXTRA_t_backend_hip_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_HIP
if RB_HAVE_CUDA
check_PROGRAMS += t/givens_cuda
TESTS += t/givens_cuda
t_givens_cuda_SOURCES = t/givens_cuda.c t/givens_gpu_test.h
endif RB_HAVE_CUDA
# The OpenCL Givens variants on whatever OpenCL device is there (PoCL in CI).
if RB_HAVE_OPENCL
check_PROGRAMS += t/givens_opencl
TESTS += t/givens_opencl
t_givens_opencl_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_givens_opencl_SOURCES = t/givens_opencl.c t/opencl_test.h
endif RB_HAVE_OPENCL
# The HIP Givens variants: the CUDA test's driver (t/givens_gpu_test.h).
if RB_HAVE_HIP
check_PROGRAMS += t/givens_hip
TESTS += t/givens_hip
t_givens_hip_SOURCES = t/givens_hip.c t/givens_gpu_test.h
nodist_EXTRA_t_givens_hip_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_HIP
# The OpenCL Sammon variants and the pair inversion on whatever OpenCL device
# is there (PoCL in CI).
if RB_HAVE_OPENCL
check_PROGRAMS += t/sammon_opencl
TESTS += t/sammon_opencl
t_sammon_opencl_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_sammon_opencl_SOURCES = t/sammon_opencl.c t/opencl_test.h
check_PROGRAMS += t/sammon_opencl_stored
TESTS += t/sammon_opencl_stored
t_sammon_opencl_stored_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_sammon_opencl_stored_SOURCES = t/sammon_opencl_stored.c t/opencl_test.h
endif RB_HAVE_OPENCL
# The CUDA and HIP Sammon variants: one driver (t/sammon_gpu_test.h).
if RB_HAVE_CUDA
check_PROGRAMS += t/sammon_cuda
TESTS += t/sammon_cuda
t_sammon_cuda_SOURCES = t/sammon_cuda.c t/sammon_gpu_test.h
nodist_EXTRA_t_sammon_cuda_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_CUDA
if RB_HAVE_HIP
check_PROGRAMS += t/sammon_hip
TESTS += t/sammon_hip
t_sammon_hip_SOURCES = t/sammon_hip.c t/sammon_gpu_test.h
nodist_EXTRA_t_sammon_hip_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_HIP
# The CPU Sammon code: the fp64 reference, the pair index, the peers'
# drivers on iris, the serial and OpenMP cases, the CSV reader, sammon-embed.
check_PROGRAMS += t/sammon_gradient t/sammon_pair t/sammon_iris t/sammon_cases t/datasets_csv \
	t/sammon_last_step
TESTS += t/sammon_gradient t/sammon_pair t/sammon_iris t/sammon_cases t/datasets_csv \
	t/sammon_last_step
if RB_HAVE_OPENMP
check_PROGRAMS += t/sammon_omp
TESTS += t/sammon_omp
endif RB_HAVE_OPENMP
TESTS += t/sammon_embed.sh
EXTRA_DIST += t/sammon_embed.sh
# reprobench embed against its old name sammon-embed; its --help from the table.
TESTS += t/cli_embed.sh
EXTRA_DIST += t/cli_embed.sh
# The embedding engines of the devices against the fp64 one
# (t/sammon_engine_test.h): OpenCL on whatever device is there (PoCL in
# CI), CUDA and HIP on a device (skipped without).
if RB_HAVE_OPENCL
check_PROGRAMS += t/sammon_engine_opencl
TESTS += t/sammon_engine_opencl
t_sammon_engine_opencl_SOURCES = t/sammon_engine_opencl.c t/sammon_engine_test.h
endif RB_HAVE_OPENCL
if RB_HAVE_CUDA
check_PROGRAMS += t/sammon_engine_cuda
TESTS += t/sammon_engine_cuda
t_sammon_engine_cuda_SOURCES = t/sammon_engine_cuda.c t/sammon_engine_test.h
nodist_EXTRA_t_sammon_engine_cuda_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_CUDA
if RB_HAVE_HIP
check_PROGRAMS += t/sammon_engine_hip
TESTS += t/sammon_engine_hip
t_sammon_engine_hip_SOURCES = t/sammon_engine_hip.c t/sammon_engine_test.h
nodist_EXTRA_t_sammon_engine_hip_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_HIP
# Run comparison: the bootstrap and verdict on synthetic samples, and the
# compare command on real and injected-delay runs.
check_PROGRAMS += t/compare_bootstrap
TESTS += t/compare_bootstrap
TESTS += t/cli_compare.sh
EXTRA_DIST += t/cli_compare.sh
# The run report: its content, escaping and figures; then the page in a
# headless Chromium where one is installed.
TESTS += t/cli_report.sh t/report_browser.sh
EXTRA_DIST += t/cli_report.sh t/report_browser.sh
# The roofline: every variant's work count, the CPU's ceiling probe, and a
# run's ceilings in meta.json and ceilings.tsv.
check_PROGRAMS += t/work_counts t/ceiling_cpu
TESTS += t/work_counts t/ceiling_cpu t/cli_ceilings.sh
EXTRA_DIST += t/cli_ceilings.sh

# Faults during a sweep: RB_FAULT injections, a broken OpenCL source, SIGTERM
# and resume, a full disk.
TESTS += t/faults.sh
EXTRA_DIST += t/faults.sh
# Under --enable-sanitizers: leaks and undefined behaviour fail the test.
# protect_shadow_gap=0 lets the CUDA driver map memory where ASan would
# reserve it; the slow unwinder lets t/lsan.supp see past libraries built
# without frame pointers.  intercept_tls_get_addr=0: once PoCL has unloaded a
# kernel library, GCC 12's LeakSanitizer may keep a bogus dynamic-TLS range for
# it and crash scanning it at exit ("Tracer caught signal 11"), more often the
# busier the machine.  Options already in the environment come last and win.
if RB_SANITIZE
RB_ASAN_OPTIONS = detect_leaks=1:fast_unwind_on_malloc=0:protect_shadow_gap=0:intercept_tls_get_addr=0
RB_LSAN_OPTIONS = suppressions=$(abs_top_srcdir)/t/lsan.supp:print_suppressions=0
RB_UBSAN_OPTIONS = halt_on_error=1:print_stacktrace=1
AM_TESTS_ENVIRONMENT += \
	ASAN_OPTIONS="$(RB_ASAN_OPTIONS)$${ASAN_OPTIONS:+:$$ASAN_OPTIONS}"; export ASAN_OPTIONS; \
	LSAN_OPTIONS="$(RB_LSAN_OPTIONS)$${LSAN_OPTIONS:+:$$LSAN_OPTIONS}"; export LSAN_OPTIONS; \
	UBSAN_OPTIONS="$(RB_UBSAN_OPTIONS)$${UBSAN_OPTIONS:+:$$UBSAN_OPTIONS}"; export UBSAN_OPTIONS;
endif RB_SANITIZE
EXTRA_DIST += t/lsan.supp
# Inputs the fuzz targets (fuzz/) crashed on, fixed and kept as tests.
check_PROGRAMS += t/parse_fuzz_finds t/record_fuzz_finds
TESTS += t/parse_fuzz_finds t/record_fuzz_finds
# SBO dictionary learning on CPUs (OpenBLAS and LAPACKE): 1ONB's descent,
# the block choice against brute force, planted recovery, the OpenMP float
# version against the fp64 reference, and the harness cases.
if RB_HAVE_BLAS
check_PROGRAMS += t/sbo_1onb t/sbo_choice t/sbo_cases
TESTS += t/sbo_1onb t/sbo_choice t/sbo_cases
if RB_HAVE_OPENMP
check_PROGRAMS += t/sbo_planted t/sbo_omp
TESTS += t/sbo_planted t/sbo_omp
endif RB_HAVE_OPENMP
endif RB_HAVE_BLAS
# The PGM reader and patch extraction (datasets/pgm.c, patches.c).
check_PROGRAMS += t/datasets_pgm
TESTS += t/datasets_pgm
# The OpenCL SBO representation variants on whatever OpenCL device is there
# (PoCL in CI).
if RB_HAVE_BLAS
if RB_HAVE_OPENCL
check_PROGRAMS += t/sbo_opencl
TESTS += t/sbo_opencl
t_sbo_opencl_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_sbo_opencl_SOURCES = t/sbo_opencl.c t/opencl_test.h
endif RB_HAVE_OPENCL
endif RB_HAVE_BLAS
# sbo-learn on a real image: its files, the RMSE by blocks, bad input; the
# PGM reader as a command (t/pgm_info) reads its atoms image back.
check_PROGRAMS += t/pgm_info
TESTS += t/sbo_learn.sh
EXTRA_DIST += t/sbo_learn.sh
# reprobench learn against its old name sbo-learn; its --help from the table.
TESTS += t/cli_learn.sh
EXTRA_DIST += t/cli_learn.sh
# The CUDA and HIP SBO representation variants on a device (skipped without).
if RB_HAVE_BLAS
if RB_HAVE_CUDA
check_PROGRAMS += t/sbo_cuda
TESTS += t/sbo_cuda
t_sbo_cuda_SOURCES = t/sbo_cuda.c t/sbo_gpu_test.h
nodist_EXTRA_t_sbo_cuda_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_CUDA
if RB_HAVE_HIP
check_PROGRAMS += t/sbo_hip
TESTS += t/sbo_hip
t_sbo_hip_SOURCES = t/sbo_hip.c t/sbo_gpu_test.h
nodist_EXTRA_t_sbo_hip_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_HIP
endif RB_HAVE_BLAS
# The CUDA and HIP SBO kernels run on the CPU (t/gpu_emu.h): C++20 threads.
if RB_HAVE_BLAS
check_PROGRAMS += t/sbo_kernels_host
TESTS += t/sbo_kernels_host
t_sbo_kernels_host_SOURCES = t/sbo_kernels_host.cc t/gpu_emu.h
t_sbo_kernels_host_CXXFLAGS = -std=c++20 -pthread -Wall -Wextra -Wno-unknown-pragmas $(RB_SAN_CFLAGS)
t_sbo_kernels_host_LDFLAGS = $(AM_LDFLAGS) -pthread
endif RB_HAVE_BLAS
# The CUDA and HIP paper and apply-mode Givens kernels on the CPU, as
# t/givens_slab_host below.
check_PROGRAMS += t/givens_apply_host
TESTS += t/givens_apply_host
t_givens_apply_host_SOURCES = t/givens_apply_host.cc t/gpu_emu.h t/givens_host.h
t_givens_apply_host_CXXFLAGS = -std=c++20 -pthread -Wall -Wextra -Wno-unknown-pragmas $(RB_SAN_CFLAGS)
t_givens_apply_host_LDFLAGS = $(AM_LDFLAGS) -pthread
# The CUDA and HIP fused Givens kernels run on the CPU (t/gpu_emu.h), with
# or without a GPU toolkit: nothing of theirs needs one.
check_PROGRAMS += t/givens_slab_host
TESTS += t/givens_slab_host
t_givens_slab_host_SOURCES = t/givens_slab_host.cc t/gpu_emu.h t/givens_host.h
t_givens_slab_host_CXXFLAGS = -std=c++20 -pthread -Wall -Wextra -Wno-unknown-pragmas $(RB_SAN_CFLAGS)
t_givens_slab_host_LDFLAGS = $(AM_LDFLAGS) -pthread
# The CUDA and HIP Sammon kernels run on the CPU the same way, verified as
# the GPU cases are (sammon_verify).
check_PROGRAMS += t/sammon_kernels_host
TESTS += t/sammon_kernels_host
t_sammon_kernels_host_SOURCES = t/sammon_kernels_host.cc t/gpu_emu.h
t_sammon_kernels_host_CXXFLAGS = -std=c++20 -pthread -Wall -Wextra -Wno-unknown-pragmas $(RB_SAN_CFLAGS)
t_sammon_kernels_host_LDFLAGS = $(AM_LDFLAGS) -pthread
# The stored form's kernels (fill, the benchmark's step, the embedding's
# passes) on the CPU the same way.
check_PROGRAMS += t/sammon_stored_host
TESTS += t/sammon_stored_host
t_sammon_stored_host_SOURCES = t/sammon_stored_host.cc t/gpu_emu.h
t_sammon_stored_host_CXXFLAGS = -std=c++20 -pthread -Wall -Wextra -Wno-unknown-pragmas $(RB_SAN_CFLAGS)
t_sammon_stored_host_LDFLAGS = $(AM_LDFLAGS) -pthread
# The SBO training on the OpenCL device: its kernels against the CPU, and
# whole trainings against sbo_train.
if RB_HAVE_BLAS
if RB_HAVE_OPENCL
check_PROGRAMS += t/sbo_opencl_train_kernels
TESTS += t/sbo_opencl_train_kernels
t_sbo_opencl_train_kernels_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_sbo_opencl_train_kernels_SOURCES = t/sbo_opencl_train_kernels.c t/sbo_opencl_train_util.h \
	t/opencl_test.h t/sbo_residuals.h t/sbo_svd_floor.h
check_PROGRAMS += t/sbo_opencl_train
TESTS += t/sbo_opencl_train
t_sbo_opencl_train_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_sbo_opencl_train_SOURCES = t/sbo_opencl_train.c t/opencl_test.h t/sbo_train_compare.h t/sbo_train_occ.h
endif RB_HAVE_OPENCL
endif RB_HAVE_BLAS
# sbo-learn --backend opencl (PoCL here): its files, RMSE against omp's,
# both block updates, bad device indices (skipped without OpenCL).
TESTS += t/sbo_learn_opencl.sh
EXTRA_DIST += t/sbo_learn_opencl.sh
# The OpenCL SBO training's profile metrics and deferred RMSE read-backs.
if RB_HAVE_BLAS
if RB_HAVE_OPENCL
check_PROGRAMS += t/sbo_opencl_train_prof
TESTS += t/sbo_opencl_train_prof
t_sbo_opencl_train_prof_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_sbo_opencl_train_prof_SOURCES = t/sbo_opencl_train_prof.c t/sbo_opencl_train_util.h \
	t/opencl_test.h
endif RB_HAVE_OPENCL
endif RB_HAVE_BLAS
# The CUDA and HIP SBO training kernels run on the CPU (t/gpu_emu.h).
if RB_HAVE_BLAS
check_PROGRAMS += t/sbo_train_kernels_host
TESTS += t/sbo_train_kernels_host
t_sbo_train_kernels_host_SOURCES = t/sbo_train_kernels_host.cc t/gpu_emu.h t/sbo_residuals.h \
	t/sbo_svd_floor.h
t_sbo_train_kernels_host_CXXFLAGS = -std=c++20 -pthread -Wall -Wextra -Wno-unknown-pragmas $(RB_SAN_CFLAGS)
t_sbo_train_kernels_host_LDFLAGS = $(AM_LDFLAGS) -pthread
endif RB_HAVE_BLAS
# The CUDA and HIP SBO training on a device (skipped without): its steps
# against the CPU, whole trainings against sbo_train.
if RB_HAVE_BLAS
if RB_HAVE_CUDA
check_PROGRAMS += t/sbo_cuda_train
TESTS += t/sbo_cuda_train
t_sbo_cuda_train_SOURCES = t/sbo_cuda_train.c t/sbo_gpu_train_test.h t/sbo_train_compare.h t/sbo_train_occ.h \
	t/sbo_residuals.h t/sbo_svd_floor.h
nodist_EXTRA_t_sbo_cuda_train_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_CUDA
if RB_HAVE_HIP
check_PROGRAMS += t/sbo_hip_train
TESTS += t/sbo_hip_train
t_sbo_hip_train_SOURCES = t/sbo_hip_train.c t/sbo_gpu_train_test.h t/sbo_train_compare.h t/sbo_train_occ.h \
	t/sbo_residuals.h t/sbo_svd_floor.h
nodist_EXTRA_t_sbo_hip_train_SOURCES = build-aux/link-cxx.cxx
endif RB_HAVE_HIP
endif RB_HAVE_BLAS
# The OpenCL Newton-Schulz polar factor on badly conditioned blocks, in
# each of its storage plans.
if RB_HAVE_BLAS
if RB_HAVE_OPENCL
check_PROGRAMS += t/sbo_opencl_train_polar
TESTS += t/sbo_opencl_train_polar
t_sbo_opencl_train_polar_CPPFLAGS = $(AM_CPPFLAGS) $(OPENCL_CFLAGS)
t_sbo_opencl_train_polar_SOURCES = t/sbo_opencl_train_polar.c t/sbo_opencl_train_util.h \
	t/opencl_test.h
endif RB_HAVE_OPENCL
endif RB_HAVE_BLAS
# Output under a file-size limit: whole files or a named failure, never a
# kill by SIGXFSZ (harness/records/atomic_file.c and every writer on it).
check_PROGRAMS += t/atomic_file
TESTS += t/atomic_file t/cli_fsize.sh
EXTRA_DIST += t/cli_fsize.sh
# A run's session: its stored plan and --resume, the run directory's lock,
# signals before the first case, memory refused per case, the environment's
# values, one rule for options, OpenCL build messages in the user's file.
RB_SESSION_TESTS = t/cli_resume.sh t/cli_lock.sh t/cli_signal.sh t/cli_memory.sh \
	t/cli_env.sh t/cli_options.sh t/cli_cl_line.sh t/cli_device.sh
TESTS += $(RB_SESSION_TESTS)
EXTRA_DIST += $(RB_SESSION_TESTS)
# compare on ratios that are not finite numbers.
TESTS += t/cli_compare_nonfinite.sh
EXTRA_DIST += t/cli_compare_nonfinite.sh
# What make bench shows: three sizes per series in the default plan, the
# figures a run cannot draw named in its report, both counts of memory.
TESTS += t/cli_defaults.sh t/report_not_drawn.sh
EXTRA_DIST += t/cli_defaults.sh t/report_not_drawn.sh
# Clocks, power and throttling without a GPU: a fake NVML (t/libfake_nvml.so,
# loaded through RB_NVML_LIBRARY) drives the NVML observer through normal,
# throttled and failing sequences; the CPU observer reads a sysfs tree of the
# test's own; the CLI test runs sweeps under the fake and compares and
# reports them.  No libtool: the library is a program linked -shared.
check_PROGRAMS += t/libfake_nvml.so t/nvml_observer t/cpu_power
t_libfake_nvml_so_SOURCES = t/fake_nvml.c
t_libfake_nvml_so_CFLAGS = -std=gnu11 -fPIC $(RB_WARN_CFLAGS)
t_libfake_nvml_so_LDFLAGS = -shared
t_libfake_nvml_so_LDADD =
t_nvml_observer_CPPFLAGS = $(AM_CPPFLAGS) \
	-DRB_FAKE_NVML_PATH='"$(abs_top_builddir)/t/libfake_nvml.so"'
TESTS += t/nvml_observer t/cpu_power t/cli_energy.sh
EXTRA_DIST += t/cli_energy.sh
# sbo-learn --backend cuda and hip on the first device (skipped without the
# backend or a device): t/sbo_learn_gpu.sh's checks, as the OpenCL one's.
TESTS += t/sbo_learn_cuda.sh t/sbo_learn_hip.sh
EXTRA_DIST += t/sbo_learn_cuda.sh t/sbo_learn_hip.sh t/sbo_learn_gpu.sh t/sbo_learn_lib.sh
# A one-node Slurm, where one runs (build-aux/slurm-local.sh starts one; CI
# does): a job array and a job depending on it.  Skipped without one.
TESTS += t/slurm_smoke.sh
EXTRA_DIST += t/slurm_smoke.sh build-aux/slurm-local.sh
# The results store on real SQLite files: schema and migration, imports,
# queries; the commands on real runs (t/db_tool holds a lock from another
# process).  Without libsqlite3, t/cli_db.sh checks that they say so.
if RB_HAVE_SQLITE
check_PROGRAMS += t/db_schema t/db_import t/db_query t/db_tool
TESTS += t/db_schema t/db_import t/db_query
t_db_schema_SOURCES = t/db_schema.c t/db_test.h
t_db_schema_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
t_db_import_SOURCES = t/db_import.c t/db_test.h
t_db_import_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
t_db_query_SOURCES = t/db_query.c t/db_test.h
t_db_query_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
t_db_tool_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
t_db_tool_LDADD = $(SQLITE_LIBS)
endif RB_HAVE_SQLITE
TESTS += t/cli_db.sh
EXTRA_DIST += t/cli_db.sh
# Sweeps submitted to that Slurm: 3 shards merged into the direct run's
# cases, a shard cancelled and resumed, refusals.  Skipped without one.
TESTS += t/slurm_sweep.sh t/slurm_resume.sh t/slurm_refuse.sh
EXTRA_DIST += t/slurm_sweep.sh t/slurm_resume.sh t/slurm_refuse.sh t/slurm_lib.sh
# status against stand-ins for squeue, scontrol and sacct (no Slurm needed).
TESTS += t/slurm_status.sh
EXTRA_DIST += t/slurm_status.sh
# The shard assignment of a submitted sweep: a partition, stable, balanced.
check_PROGRAMS += t/shard_assign
TESTS += t/shard_assign
# The emulator of the CUDA and HIP kernels (t/gpu_emu.h) at both warp
# widths: GPU_EMU_WAVE=64 gives the kernels AMD's 64-lane wavefronts, with
# HIP's intrinsics and macros as hipcc's device pass for gfx9 has them.
RB_EMU64_CPPFLAGS = $(AM_CPPFLAGS) -DGPU_EMU_WAVE=64
RB_EMU_CXXFLAGS = -std=c++20 -pthread -Wall -Wextra -Wno-unknown-pragmas $(RB_SAN_CFLAGS)
EXTRA_DIST += t/gpu_emu_warp.h t/gpu_emu_run.h
# The emulator's warps themselves.
check_PROGRAMS += t/gpu_emu_warp t/gpu_emu_warp_wave64
TESTS += t/gpu_emu_warp t/gpu_emu_warp_wave64
t_gpu_emu_warp_SOURCES = t/gpu_emu_warp.cc t/gpu_emu.h
t_gpu_emu_warp_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_gpu_emu_warp_LDFLAGS = $(AM_LDFLAGS) -pthread
t_gpu_emu_warp_wave64_SOURCES = $(t_gpu_emu_warp_SOURCES)
t_gpu_emu_warp_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_gpu_emu_warp_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_gpu_emu_warp_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
# The kernels' host tests again on 64-lane wavefronts.
check_PROGRAMS += t/givens_slab_host_wave64 t/givens_apply_host_wave64 \
	t/sammon_kernels_host_wave64
TESTS += t/givens_slab_host_wave64 t/givens_apply_host_wave64 t/sammon_kernels_host_wave64
t_givens_slab_host_wave64_SOURCES = $(t_givens_slab_host_SOURCES)
t_givens_slab_host_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_givens_slab_host_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_givens_slab_host_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
t_givens_apply_host_wave64_SOURCES = $(t_givens_apply_host_SOURCES)
t_givens_apply_host_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_givens_apply_host_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_givens_apply_host_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
t_sammon_kernels_host_wave64_SOURCES = $(t_sammon_kernels_host_SOURCES)
t_sammon_kernels_host_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_sammon_kernels_host_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_sammon_kernels_host_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
check_PROGRAMS += t/sammon_stored_host_wave64
TESTS += t/sammon_stored_host_wave64
t_sammon_stored_host_wave64_SOURCES = $(t_sammon_stored_host_SOURCES)
t_sammon_stored_host_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_sammon_stored_host_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_sammon_stored_host_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
# The embedding's resident map on CUDA and HIP: its step and float map.
check_PROGRAMS += t/sammon_step_host
TESTS += t/sammon_step_host
t_sammon_step_host_SOURCES = t/sammon_step_host.cc t/gpu_emu.h
t_sammon_step_host_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_sammon_step_host_LDFLAGS = $(AM_LDFLAGS) -pthread
# The CUDA and HIP embedding engine whole, its host code and kernels, on
# the CPU (t/gpu_emu_api.h's runtime) at both warp widths: the engine
# checks a device gets, and memory short of the triangle.
check_PROGRAMS += t/sammon_engine_emu t/sammon_engine_emu_wave64
TESTS += t/sammon_engine_emu t/sammon_engine_emu_wave64
t_sammon_engine_emu_SOURCES = t/sammon_engine_emu.c t/sammon_engine_emu_gpu.cc \
	t/sammon_engine_test.h t/gpu_emu.h t/gpu_emu_api.h
t_sammon_engine_emu_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_sammon_engine_emu_LDFLAGS = $(AM_LDFLAGS) -pthread
t_sammon_engine_emu_wave64_SOURCES = $(t_sammon_engine_emu_SOURCES)
t_sammon_engine_emu_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_sammon_engine_emu_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_sammon_engine_emu_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
if RB_HAVE_BLAS
check_PROGRAMS += t/sbo_kernels_host_wave64 t/sbo_train_kernels_host_wave64
TESTS += t/sbo_kernels_host_wave64 t/sbo_train_kernels_host_wave64
t_sbo_kernels_host_wave64_SOURCES = $(t_sbo_kernels_host_SOURCES)
t_sbo_kernels_host_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_sbo_kernels_host_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_sbo_kernels_host_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
t_sbo_train_kernels_host_wave64_SOURCES = $(t_sbo_train_kernels_host_SOURCES)
t_sbo_train_kernels_host_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_sbo_train_kernels_host_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_sbo_train_kernels_host_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
endif RB_HAVE_BLAS
# The roofline's FMA kernel of CUDA and HIP on the CPU, at both widths.
check_PROGRAMS += t/ceiling_kernel_host t/ceiling_kernel_host_wave64
TESTS += t/ceiling_kernel_host t/ceiling_kernel_host_wave64
t_ceiling_kernel_host_SOURCES = t/ceiling_kernel_host.cc t/gpu_emu.h
t_ceiling_kernel_host_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_ceiling_kernel_host_LDFLAGS = $(AM_LDFLAGS) -pthread
t_ceiling_kernel_host_wave64_SOURCES = $(t_ceiling_kernel_host_SOURCES)
t_ceiling_kernel_host_wave64_CPPFLAGS = $(RB_EMU64_CPPFLAGS)
t_ceiling_kernel_host_wave64_CXXFLAGS = $(RB_EMU_CXXFLAGS)
t_ceiling_kernel_host_wave64_LDFLAGS = $(AM_LDFLAGS) -pthread
# The AMD target table and its occupancy, against the compiler's figures.
check_PROGRAMS += t/hip_targets
TESTS += t/hip_targets
t_hip_targets_SOURCES = t/hip_targets.c t/hip_targets_kernels.h
# run --devices over two PoCL devices of one platform.
TESTS += t/cli_devices.sh
EXTRA_DIST += t/cli_devices.sh
