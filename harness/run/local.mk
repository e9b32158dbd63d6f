# SPDX-License-Identifier: MIT
# harness/run/local.mk: a sweep from plan to cases: the planner, one case's
# execution and timing, fault injection, progress, the run directory's lock,
# the observers around samples, the roofline's ceilings and the workers of
# run --devices.
librb_core_a_SOURCES += \
	%reldir%/execute.h %reldir%/execute.c \
	%reldir%/fault.h %reldir%/fault.c \
	%reldir%/stats.h %reldir%/stats.c \
	%reldir%/timer.h %reldir%/timer.c \
	%reldir%/sweep.h %reldir%/sweep.c \
	%reldir%/measure.h %reldir%/measure.c \
	%reldir%/progress.h %reldir%/progress.c
# The roofline's ceilings: the run's probe.
librb_core_a_SOURCES += %reldir%/ceiling.h %reldir%/ceiling.c %reldir%/ceiling_run.c
# run's stored plan and the run directory's lock.
librb_core_a_SOURCES += %reldir%/plan.h %reldir%/plan.c %reldir%/lock.h %reldir%/lock.c
# What a run keeps (plan, lock, writes, signals, memory, options).
EXTRA_DIST += docs/runs.md
# Observers around each case's timed samples: GPU clocks, power, energy and
# throttling through NVML (loaded with dlopen), the CPU's governor and RAPL.
librb_core_a_SOURCES += %reldir%/observe.h %reldir%/observe.c
EXTRA_DIST += docs/energy.md
# run --devices: one worker process per device (docs/devices.md)
librb_core_a_SOURCES += %reldir%/workers.h %reldir%/workers.c
EXTRA_DIST += docs/devices.md
