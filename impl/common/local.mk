# SPDX-License-Identifier: MIT
# impl/common/local.mk: seeded RNG, the round-robin schedule, matrix helpers.
librb_core_a_SOURCES += \
	%reldir%/rng.h %reldir%/rng.c \
	%reldir%/roundrobin.h %reldir%/roundrobin.c
