# SPDX-License-Identifier: MIT
# harness/local.mk: the reprobench program, its registry and the variant
# interface that impl/ sees; each job of the harness has a folder and a
# fragment of its own (cli/, run/, records/, report/, store/, slurm/,
# backend/), included from Makefile.am.
reprobench_SOURCES += %reldir%/main.c
librb_registry_a_SOURCES += %reldir%/registry.c
librb_core_a_SOURCES += \
	%reldir%/variant.h %reldir%/variant.c \
	%reldir%/error.h %reldir%/error.c \
	%reldir%/ctx.h %reldir%/ctx.c \
	%reldir%/registry.h
# What the report says of each paper (title, claims, figures), defined with
# the paper and reached through the registry.
librb_core_a_SOURCES += %reldir%/paper.h
