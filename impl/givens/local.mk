# SPDX-License-Identifier: MIT
# impl/givens/local.mk: round-robin Givens rotations (forward, JVP) on the CPU.
librb_core_a_SOURCES += \
	%reldir%/givens.h %reldir%/givens_rot.h %reldir%/givens_ref.c %reldir%/givens_check.c \
	%reldir%/givens_case.h %reldir%/givens_case.c %reldir%/givens_serial_table.c
if RB_HAVE_OPENMP
librb_core_a_SOURCES += %reldir%/givens_omp.c %reldir%/givens_omp_table.c
endif RB_HAVE_OPENMP
