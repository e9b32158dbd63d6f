#!/bin/sh
# SPDX-License-Identifier: MIT
# An OpenCL source from --cl-dir that does not build: the compiler's
# message, in the record and in the build log, names the user's file and
# the line in it, not the implementation's temporary file or the line in
# the joined source.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
"$RB_BIN" list 2>/dev/null | grep -q 'givens *forward *paper *opencl .* yes$' \
    || tap_skip_all "no OpenCL device"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR

mkdir "$tmp/cl"
printf '// line 1\n__kernel void k(__global float *x)\n{ x[0] = no_such_name_q7; }\n' \
    > "$tmp/cl/givens_paper_forward.cl"
tap_plan 3
"$RB_BIN" run --paper givens --algo forward --variant paper --backend opencl --n 16 --m 0 \
    --wg 16 --prec f32 --min-samples 1 --no-plot --no-ceilings --quiet --cl-dir "$tmp/cl" \
    --out "$tmp/res" >/dev/null 2>"$tmp/err"; st=$?
run=$(ls -d "$tmp"/res/*/ | head -n 1)
# Compilers spell a position FILE:3: (clang, PoCL), "FILE", line 3 (EDG) or
# FILE(3) (others): any of them names the user's file and line.
file="$tmp/cl/givens_paper_forward.cl"
where="($file:3:|$file\\?\", line 3|$file\\(3\\))"
tap_ok $([ $st -eq 1 ] && grep -Eq "\"message\":\"build of givens_paper_forward.cl failed.*$where" \
         "$run/records.jsonl"; echo $?) "the record's message names $file, line 3 (exit $st)"
grep -Eq "$where" "$run/build-givens_paper_forward.log"; in_log=$?
tap_ok $in_log "and so does the log"
[ $in_log -eq 0 ] || sed -n '1,12s/^/# log: /p' "$run/build-givens_paper_forward.log"
tap_ok $(! grep -Eq 'tempfile|kcache|/tmp/pocl' "$run/build-givens_paper_forward.log"; echo $?) \
    "which names no temporary file"
