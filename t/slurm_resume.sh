#!/bin/sh
# SPDX-License-Identifier: MIT
# A shard of a Slurm sweep cancelled mid-run (scancel) keeps every record it
# finished, whole; the merge after it leaves its cases out and status counts
# them left; submit --resume submits that shard alone, which runs only its
# unfinished cases: the run ends with each case once.  Skipped without a
# Slurm.
. "$RB_TOP_SRCDIR/t/slurm_lib.sh"
slurm_running || tap_skip_all "$slurm_why"
tap_plan 9
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rb-slurm-resume.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# Every case about 0.6 s (4 runs of 150 ms), so a shard runs for seconds.
RB_INJECT_DELAY='givens/*/*:150'
export RB_INJECT_DELAY

# shellcheck disable=SC2086
run=$("$RB_BIN" submit $SWEEP --shards 3 --no-ceilings --no-plot --quiet --time 5 \
      --out "$tmp/res" 2>"$tmp/err")
st=$?
tap_ok $st "submit makes the run and its jobs"
[ $st -eq 0 ] || { tap_diag "$(cat "$tmp/err")"; exit 1; }
array=$(sed -n 's/.*"array": *\([0-9]*\).*/\1/p' "$run/slurm.json")
trap 'scancel $(jobs_of "$run") 2>/dev/null; rm -rf "$tmp"' EXIT

# Cancel shard 1 once it has recorded a case (and before it is done).
f=$run/shards/1/records.jsonl
for _ in $(seq 300); do
    [ -s "$f" ] && break
    sleep 0.1
done
scancel "${array}_1"
wait_jobs "$run" 120; tap_ok $? "the other shards and the merge ran after the cancel"

"$RB_BIN" status "$run" > "$tmp/status" 2>&1
grep -Eq '^1 +CANCELLED +[0-9]+ +[1-9][0-9]* +0 +[1-9][0-9]*$' "$tmp/status"
st=$?; tap_ok $st "status shows shard 1 cancelled with cases done and cases left"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/status")"
[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] \
    && [ "$(grep -cv '^{.*}$' "$f")" -eq 0 ]
tap_ok $? "every record the cancelled shard wrote is whole"
cp "$f" "$tmp/before"
before=$(wc -l < "$tmp/before")
[ "$(keys "$run/records.jsonl" | wc -l)" -lt 12 ]
tap_ok $? "the merge holds the finished records only"

"$RB_BIN" submit --resume "$run" --quiet --time 5 > /dev/null 2>"$tmp/err"
st=$?
grep -q '"tasks": "1"' "$run/slurm.json"
tap_ok $(( st | $? )) "submit --resume submits shard 1 alone"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
wait_jobs "$run" 120; tap_ok $? "the resumed shard and a new merge ran"

head -n "$before" "$f" | cmp -s - "$tmp/before"
tap_ok $? "shard 1 kept the $before records it had"
[ "$(keys "$run/records.jsonl" | wc -l)" -eq 12 ] && [ -z "$(keys "$run/records.jsonl" | uniq -d)" ] \
    && [ -z "$(cat "$run"/shards/*/records.jsonl | keys /dev/stdin | uniq -d)" ]
tap_ok $? "the run holds each of the 12 cases once"
