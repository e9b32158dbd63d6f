# SPDX-License-Identifier: MIT
# harness/cli/local.mk: the commands, the table-driven option parser,
# strict parsing of numbers, lists and environment values.  embed's and
# learn's commands are listed with their papers (impl/sammon/local.mk,
# impl/sbo/local.mk).
librb_core_a_SOURCES += \
	%reldir%/cli.h %reldir%/cli_run.c %reldir%/cli_list.c %reldir%/cli_info.c \
	%reldir%/cli_plot.c %reldir%/cli_compare.c %reldir%/cli_report.c \
	%reldir%/cli_db.c %reldir%/cli_history.c \
	%reldir%/cli_submit.c %reldir%/cli_merge.c %reldir%/cli_status.c \
	%reldir%/parse.h %reldir%/parse.c \
	%reldir%/prog.h %reldir%/prog.c
# run's options as a table (cli_opts.c, run_opts.c) and the environment's
# values.
librb_core_a_SOURCES += %reldir%/cli_opts.h %reldir%/cli_opts.c \
	%reldir%/run_opts.h %reldir%/run_opts.c %reldir%/env.h %reldir%/env.c
# run's plan read back from a run directory, and a shard's directory.
librb_core_a_SOURCES += %reldir%/run_plan.h %reldir%/run_plan.c
