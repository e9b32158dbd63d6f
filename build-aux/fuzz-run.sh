#!/bin/sh
# SPDX-License-Identifier: MIT
# One fuzz target for make fuzz (fuzz/local.mk), run in the build directory:
#   build-aux/fuzz-run.sh SRCDIR SECONDS fuzz/NAME
# Runs fuzz/NAME for SECONDS over its seeds (SRCDIR/t/fuzz-corpus/NAME/) and
# what earlier runs found (fuzz/corpus/NAME/), with the format's tokens when
# SRCDIR/fuzz/NAME.dict exists.  Its output goes to fuzz/NAME.log, its result
# (PASS or FAIL) to fuzz/NAME.trs as a test result, an input that crashed,
# leaked or ran over 10 s to fuzz/NAME-crash-* (-leak-*, -timeout-*); prints
# one line.  make fuzz runs several of these at once.
set -u
srcdir=$1 secs=$2 target=$3
name=$(basename "$target")
mkdir -p "fuzz/corpus/$name"
dict=
if [ -f "$srcdir/fuzz/$name.dict" ]; then dict=-dict=$srcdir/fuzz/$name.dict; fi
# $dict is one word or none.
# shellcheck disable=SC2086
if UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
    "./$target" -max_total_time="$secs" -timeout=10 -print_final_stats=1 $dict \
    -artifact_prefix="fuzz/$name-" "fuzz/corpus/$name" "$srcdir/t/fuzz-corpus/$name" \
    >"fuzz/$name.log" 2>&1; then
    res=PASS
else
    res=FAIL
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz/$name.log")
printf ':test-result: %s\n' "$res" >"fuzz/$name.trs"
echo "$res: $name (${runs:-0} inputs in $secs s)"
