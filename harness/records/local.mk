# SPDX-License-Identifier: MIT
# harness/records/local.mk: what a run writes: the run directory, each
# case's record (JSON and TSV, its energy fields), meta.json, the hardware
# tagging, and whole-file output through a temporary and a rename.
librb_core_a_SOURCES += \
	%reldir%/record.h %reldir%/record.c %reldir%/record_tsv.c %reldir%/json_build.h \
	%reldir%/record_energy.c \
	%reldir%/results.h %reldir%/results.c %reldir%/meta.c \
	%reldir%/hw.h %reldir%/hw.c \
	%reldir%/atomic_file.h %reldir%/atomic_file.c
# meta.c includes the generated version header: BUILT_SOURCES covers `make`,
# this covers building the library or a test alone.
%reldir%/librb_core_a-meta.$(OBJEXT): harness/gitdesc.h
