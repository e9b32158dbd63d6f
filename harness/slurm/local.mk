# SPDX-License-Identifier: MIT
# harness/slurm/local.mk: sweeps on Slurm: shards of a stored plan, submit,
# merge and status (the commands are in harness/cli/).
librb_core_a_SOURCES += %reldir%/shard.h %reldir%/shard.c %reldir%/shard_merge.c \
	%reldir%/submit.h %reldir%/submit.c %reldir%/submit_plan.h %reldir%/submit_plan.c
EXTRA_DIST += docs/slurm.md
