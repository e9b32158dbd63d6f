# SPDX-License-Identifier: MIT
# harness/store/local.mk: the results store.  Queries, machines, history and
# the store's report are in the core; what speaks SQLite is built with its
# flags in librb_store.a, whose objects join librb_core.a (the core calls
# them, they call the core); without libsqlite3 the core gets stubs that say
# the store was not built.
librb_core_a_SOURCES += %reldir%/db.h %reldir%/db_query.c %reldir%/db_machine.c \
	%reldir%/history.h %reldir%/history.c %reldir%/history_plot.c \
	%reldir%/db_compare.h %reldir%/db_compare.c \
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
