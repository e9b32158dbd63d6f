#!/bin/sh
# SPDX-License-Identifier: MIT
# Faults during a sweep: injected out-of-memory, launch, verification and
# missing-device faults (RB_FAULT), a broken OpenCL source, SIGTERM and
# resume, and a full disk; each leaves whole records and an exit status.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset RB_FAULT RB_INJECT_DELAY RB_CL_DIR

# sweep OUT [ARGS...]: the three serial Givens variants at n=16, f32 (unless
# ARGS select others); status in $st, stderr in $tmp/err, run dir in $run.
sweep() {
    out=$1; shift
    "$RB_BIN" run --prec f32 --min-samples 2 --min-time 0.001 --no-plot --quiet \
        --out "$tmp/$out" "$@" >/dev/null 2>"$tmp/err"
    st=$?
    run=$(ls -d "$tmp/$out"/*/ 2>/dev/null | head -n 1)
}
serial() { sweep "$@" --paper givens --backend serial --n 16 --m 0; }

# expect WHAT VARIANT STATUS STAGE MESSAGE_START EXIT: the record of VARIANT
# in $run has that status, stage and message start, and the sweep exited EXIT.
expect() {
    rec=$(grep "\"variant\":\"$2\"" "$run/records.jsonl" 2>/dev/null | head -n 1)
    if [ "$4" = null ]; then stage=null; else stage="\"$4\""; fi
    if [ "$st" -eq "$6" ] && printf '%s' "$rec" \
        | grep -q "\"status\":\"$3\",\"stage\":$stage,\"message\":\"$5"; then
        tap_ok 0 "$1"
    else
        tap_ok 1 "$1"
        tap_diag "exit $st (want $6)" "$(printf '%s' "$rec" | grep -o '"status":.*"timer"')" \
            "$(cat "$tmp/err")"
    fi
}

# whole_lines FILE: every line a complete record and the file ends in a newline.
whole_lines() {
    [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] \
        && [ "$(grep -c '}$' "$1")" -eq "$(wc -l < "$1")" ] \
        && "$RB_BIN" compare --no-plot --quiet --format tsv "$(dirname "$1")" \
            "$(dirname "$1")" >/dev/null 2>&1
}

has_opencl=$("$RB_BIN" list 2>/dev/null | grep -c 'givens *forward *paper *opencl .* yes$')

tap_plan 17

# Each kind on a cheap CPU variant; the other two cases run on.
RB_FAULT=oom@givens/forward/sequential serial oom
expect "oom: setup fails, labelled injected; the sweep goes on; exit 1" sequential failed \
    setup "fault injected: oom: [0-9]* bytes of serial memory: out of memory" 1
RB_FAULT=launch@givens/forward/sequential serial launch
expect "launch: the run stage fails, labelled injected" sequential failed run \
    "fault injected: launch: kernel launch failed" 1
RB_FAULT=verify@givens/forward/sequential serial verify
expect "verify: the check fails, labelled injected, with the real check's numbers" \
    sequential failed verify "fault injected: verify (the real check passed: " 1
RB_FAULT='nodevice@givens/*/sequential' serial nodevice
others=$(grep -c '"status":"ok"' "$run/records.jsonl")
expect "nodevice: skipped with the reason at stage 'available'; exit 1" sequential skipped \
    available "fault injected: nodevice: no device for serial" 1
tap_ok $([ "$others" -eq 2 ] && grep -q 'found no device' "$tmp/err"; echo $?) \
    "nodevice: the other cases ran ($others ok) and the summary names the missing device"

# A malformed RB_FAULT is bad input.
RB_FAULT=melt@givens serial badspec
tap_ok $([ "$st" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
    && grep -q "^reprobench: RB_FAULT: 'melt@givens'" "$tmp/err"; echo $?) \
    "a malformed RB_FAULT is a one-line error, exit 2"

# A device named explicitly but absent stays an error before the sweep;
# where a CUDA device is present, CUDA_VISIBLE_DEVICES=-1 hides it.
export CUDA_VISIBLE_DEVICES=-1
if "$RB_BIN" list 2>/dev/null | grep -q ' cuda .* yes$'; then
    tap_skip "a CUDA device is present here and CUDA_VISIBLE_DEVICES=-1 does not hide it"
else
    sweep nocuda --paper givens --backend cuda --n 64 --m 0
    tap_ok $([ "$st" -eq 2 ] && [ -z "$run" ]; echo $?) \
        "--backend cuda without a device: exit 2, no run directory"
fi
unset CUDA_VISIBLE_DEVICES

# OpenCL through its real error paths (PoCL here).
if [ "$has_opencl" -eq 0 ]; then
    for what in oom launch "broken .cl"; do tap_skip "OpenCL $what: no OpenCL device"; done
else
    ocl() { sweep "$@" --paper givens --algo forward --variant paper --backend opencl \
                --n 16 --m 0 --wg 16; }
    RB_FAULT=oom@givens/forward/paper ocl cloom
    # The error is the implementation's: PoCL refuses the buffer
    # (CL_INVALID_BUFFER_SIZE); NVIDIA's driver creates it, and
    # rb_opencl_buffer refuses it against CL_DEVICE_MAX_MEM_ALLOC_SIZE.
    expect "OpenCL oom: the implementation's real error, labelled injected" paper failed setup \
        "fault injected: oom: .*: CL_[A-Z_]*" 1
    RB_FAULT=launch@givens/forward/paper ocl cllaunch
    expect "OpenCL launch: clEnqueueNDRangeKernel's real error, labelled injected" paper \
        failed run "fault injected: launch: .*clEnqueueNDRangeKernel.*CL_INVALID_WORK_" 1
    mkdir "$tmp/cl"
    printf '__kernel void k(__global float *x) { x[0] = no_such_name_q7; }\n' \
        > "$tmp/cl/givens_paper_forward.cl"
    ocl clbuild --cl-dir "$tmp/cl"
    head="build of givens_paper_forward.cl failed: CL_BUILD_PROGRAM_FAILURE.*no_such_name_q7"
    expect "broken .cl: a build failure whose message holds the log's head" paper failed \
        setup "$head" 1
    tap_ok $(grep -q no_such_name_q7 "$run/build-givens_paper_forward.log" 2>/dev/null; \
             echo $?) "broken .cl: the whole log in build-givens_paper_forward.log"
fi

# SIGTERM after the first record, then resume.
args="--paper givens --backend serial --n 16,18,20,22 --m 0 --prec f32 --warmup 1
      --min-samples 1 --min-time 0.001 --no-plot --quiet"
# shellcheck disable=SC2086
RB_INJECT_DELAY='givens/*/*:150' "$RB_BIN" run $args --out "$tmp/sig" 2>"$tmp/err" &
pid=$!
i=0
while [ $i -lt 200 ] && ! [ -s "$(ls "$tmp"/sig/*/records.jsonl 2>/dev/null | head -n 1)" ]; do
    sleep 0.05; i=$((i + 1))
done
kill -TERM $pid
wait $pid; st=$?
run=$(ls -d "$tmp"/sig/*/ | head -n 1)
n=$(wc -l < "$run/records.jsonl")
tap_ok $([ "$st" -eq 143 ] && grep -q 'interrupted.*--resume' "$tmp/err"; echo $?) \
    "SIGTERM: exit 143 with the --resume hint"
tap_ok $([ "$n" -ge 1 ] && [ "$n" -lt 12 ] && whole_lines "$run/records.jsonl"; echo $?) \
    "SIGTERM: $n of 12 records, every line whole and loadable"
# shellcheck disable=SC2086
"$RB_BIN" run $args --resume "$run" 2>"$tmp/err"; st=$?
dups=$(grep -o '"key":"[^"]*"' "$run/records.jsonl" | sort | uniq -d | wc -l)
tap_ok $([ "$st" -eq 0 ] && [ "$(wc -l < "$run/records.jsonl")" -eq 12 ] && [ "$dups" -eq 0 ] \
    && whole_lines "$run/records.jsonl"; echo $?) \
    "resume: exit $st, every case once (12 records, $dups duplicate keys)"

# A second SIGTERM abandons a slow case at once; resume runs it.
RB_INJECT_DELAY='givens/*/*:3000' "$RB_BIN" run $args --out "$tmp/sig2" 2>"$tmp/err" &
pid=$!
i=0
while [ $i -lt 200 ] && ! [ -e "$(ls "$tmp"/sig2/*/records.jsonl 2>/dev/null | head -n 1)" ]; do
    sleep 0.05; i=$((i + 1))
done
sleep 0.3
kill -TERM $pid
sleep 0.2
kill -TERM $pid
wait $pid; st=$?
run=$(ls -d "$tmp"/sig2/*/ | head -n 1)
n=$(wc -l < "$run/records.jsonl")
# shellcheck disable=SC2086
"$RB_BIN" run $args --resume "$run" 2>/dev/null; st2=$?
tap_ok $([ "$st" -eq 143 ] && [ "$n" -eq 0 ] && [ "$st2" -eq 0 ] \
    && [ "$(wc -l < "$run/records.jsonl")" -eq 12 ] && whole_lines "$run/records.jsonl"; \
    echo $?) "second SIGTERM: killed mid-case (exit $st, $n records), resume completes it"

# The disk fills in the middle of a record (RB_FAULT=nospace).
RB_FAULT=nospace@givens/backward/roundrobin serial nospace
tap_ok $([ "$st" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
    && grep -q "^reprobench: could not append to .*records.jsonl: No space left on device" \
        "$tmp/err" \
    && [ "$(wc -l < "$run/records.jsonl")" -eq 2 ] && whole_lines "$run/records.jsonl"; \
    echo $?) "nospace: one-line error naming the file and ENOSPC, exit 1, 2 whole records"

# A real write limit (ulimit -f, EFBIG): resume a 24-record run cut back to
# its first k records under a limit less than a block above them (a record
# takes more than a block).  The resume rewrites the run's other files, so k
# is the fewest records whose bytes exceed each of those (record sizes follow
# the samples taken); 24 records outweigh the hwloc topology of a host with
# a GPU and 16 cores (26 kB), which 6 did not.
sweep full --paper givens --backend serial --n 16:23 --m 0
unit=$( (ulimit -f 1; trap '' XFSZ; head -c 4096 /dev/zero > "$tmp/unit") 2>/dev/null; \
        wc -c < "$tmp/unit")
largest=$(ls -l "$run" \
    | awk 'NR > 1 && $NF != "records.jsonl" { if ($5 > m) m = $5 } END { print m + 0 }')
cp "$run/records.jsonl" "$tmp/all"
total=$(wc -l < "$tmp/all")
k=$(LC_ALL=C awk -v big="$largest" '{ b += length($0) + 1 } b > big { print NR; exit }' \
    "$tmp/all")
[ -n "$k" ] || k=$total
head -n "$k" "$tmp/all" > "$run/records.jsonl"
kept=$(wc -c < "$run/records.jsonl")
limit=$(( kept / unit + 1 ))
if [ "$unit" -lt 512 ] || [ "$k" -ge "$total" ] || [ "$largest" -ge $((limit * unit)) ]
then
    tap_skip "write limit: the run's other files ($largest bytes) exceed its records"
else
    (ulimit -f "$limit"; trap '' XFSZ; exec "$RB_BIN" run --resume "$run" --prec f32 \
        --min-samples 2 --min-time 0.001 --no-plot --quiet --paper givens --backend serial \
        --n 16:23 --m 0) >/dev/null 2>"$tmp/err"
    st=$?
    tap_ok $([ "$st" -eq 1 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
        && grep -q "^reprobench: could not append to .*records.jsonl: File too large" \
            "$tmp/err" \
        && [ "$(wc -l < "$run/records.jsonl")" -eq "$k" ] && whole_lines "$run/records.jsonl"; \
        echo $?) "ulimit -f: one-line error naming the file and EFBIG, exit 1, $k whole records"
    [ "$st" -eq 1 ] || tap_diag "exit $st, limit $limit x $unit, size $kept" "$(cat "$tmp/err")"
fi
