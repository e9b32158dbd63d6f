# SPDX-License-Identifier: MIT
# fuzz/local.mk: libFuzzer targets for every parser of outside input, built
# with configure --enable-fuzz (clang) and run by make fuzz.  To add one:
#   1. fuzz/fuzz_NAME.c defines LLVMFuzzerTestOneInput (fuzz/fuzz_input.h
#      cuts an input into fields);
#   2. a few seed inputs go in t/fuzz-corpus/fuzz_NAME/ (and, if it helps,
#      the format's tokens in fuzz/fuzz_NAME.dict, listed in EXTRA_DIST);
#   3. fuzz/fuzz_NAME joins RB_FUZZ_TARGETS below, with its _LDADD line: each
#      target is built from its one source and links what the tests link.
RB_FUZZ_TARGETS = fuzz/fuzz_parse_list fuzz/fuzz_parse_num fuzz/fuzz_records fuzz/fuzz_csv \
	fuzz/fuzz_pgm

EXTRA_PROGRAMS += $(RB_FUZZ_TARGETS)
CLEANFILES += $(RB_FUZZ_TARGETS) fuzz/*.trs fuzz/*.log
EXTRA_DIST += %reldir%/README %reldir%/fuzz_input.h %reldir%/fuzz_parse_list.dict \
	%reldir%/fuzz_records.dict t/fuzz-corpus build-aux/fuzz-run.sh
# Each target links what the tests link (LDADD), and libFuzzer.
fuzz_fuzz_parse_list_LDADD = $(LDADD) $(RB_FUZZ_LDFLAGS)
fuzz_fuzz_parse_num_LDADD = $(LDADD) $(RB_FUZZ_LDFLAGS)
fuzz_fuzz_records_LDADD = $(LDADD) $(RB_FUZZ_LDFLAGS)
fuzz_fuzz_csv_LDADD = $(LDADD) $(RB_FUZZ_LDFLAGS)
fuzz_fuzz_pgm_LDADD = $(LDADD) $(RB_FUZZ_LDFLAGS)

# make fuzz: each target for FUZZ_SECONDS (default 60, from the command line
# or the environment) over its seeds and what earlier runs found (kept in
# fuzz/corpus/NAME/), FUZZ_JOBS targets at a time (default: one a processor),
# by build-aux/fuzz-run.sh.  Each target's result goes to fuzz/NAME.trs as a
# test result, its output to fuzz/NAME.log, an input that crashed, leaked or
# ran over 10 s to fuzz/NAME-crash-* (-leak-*, -timeout-*); make fuzz then
# fails and prints the end of each failed target's log.
.PHONY: fuzz
if RB_FUZZ
fuzz: $(RB_FUZZ_TARGETS)
	@secs='$(FUZZ_SECONDS)'; secs=$${secs:-60}; \
	jobs='$(FUZZ_JOBS)'; \
	test -n "$$jobs" || jobs=`getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1`; \
	echo "  FUZZ     $(RB_FUZZ_TARGETS) ($$secs s each, $$jobs at a time)"; \
	rm -f $(RB_FUZZ_TARGETS:=.trs); \
	printf '%s\n' $(RB_FUZZ_TARGETS) | \
	    xargs -n 1 -P "$$jobs" $(SHELL) $(top_srcdir)/build-aux/fuzz-run.sh $(srcdir) "$$secs"; \
	failed=; \
	for t in $(RB_FUZZ_TARGETS); do \
	    grep -q '^:test-result: PASS' $$t.trs 2>/dev/null && continue; \
	    failed="$$failed `basename $$t`"; tail -n 60 $$t.log; \
	done; \
	test -z "$$failed" || { echo "make fuzz: failed:$$failed (see fuzz/NAME.log)" >&2; exit 1; }
else !RB_FUZZ
fuzz:
	@echo "make fuzz: configure with --enable-fuzz (needs clang) first" >&2; exit 1
endif !RB_FUZZ
