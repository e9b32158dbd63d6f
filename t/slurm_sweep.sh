#!/bin/sh
# SPDX-License-Identifier: MIT
# A small sweep submitted to Slurm as 3 shards: each shard records its own
# cases with the node's host and machine, the dependent job merges them into
# one run with the same cases as the sweep run directly, imports it into the
# store, and status shows every shard finished.  Skipped without a Slurm.
. "$RB_TOP_SRCDIR/t/slurm_lib.sh"
slurm_running || tap_skip_all "$slurm_why"
tap_plan 10
# Job output and the run go to a folder the node can write: here, this machine.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rb-slurm-sweep.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2086
"$RB_BIN" run $SWEEP --no-ceilings --no-plot --no-db --quiet --out "$tmp/direct" \
    >/dev/null 2>"$tmp/err"
tap_ok $? "the sweep runs directly"
direct=$(ls -d "$tmp"/direct/*/)

# shellcheck disable=SC2086
run=$("$RB_BIN" submit $SWEEP --shards 3 --no-ceilings --quiet --time 5 --out "$tmp/res" \
      2>"$tmp/err")
st=$?
[ $st -eq 0 ] && [ -f "$run/slurm.json" ]; tap_ok $? "submit makes the run and its jobs ($run)"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
if [ $st -ne 0 ]; then
    for _ in $(seq 8); do tap_ok 1 "nothing submitted"; done
    exit 0
fi
jobs=$(jobs_of "$run")
trap 'scancel $jobs 2>/dev/null; rm -rf "$tmp"' EXIT
wait_jobs "$run" 120; tap_ok $? "the shards and the merge left the queue"

[ "$(keys "$run/records.jsonl")" = "$(keys "$direct/records.jsonl")" ] \
    && [ "$(keys "$run/records.jsonl" | wc -l)" -eq 12 ]
tap_ok $? "the merged run holds the direct run's 12 cases"
[ -z "$(keys "$run/records.jsonl" | uniq -d)" ]; tap_ok $? "no case is recorded twice"

n=0 st=0
for i in 1 2 3; do
    f=$run/shards/$i/records.jsonl
    n=$((n + $(wc -l < "$f")))
    [ "$(grep -c "\"node\":{\"host\":\"$(hostname)\",\"machine\":\"[0-9a-f]*\"" "$f")" \
        -eq "$(wc -l < "$f")" ] || st=1
done
tap_ok $st "each shard's records carry the node's host and machine"
[ $n -eq 12 ] && [ -z "$(cat "$run"/shards/*/records.jsonl | keys /dev/stdin | uniq -d)" ]
tap_ok $? "the shards split the 12 cases between them"

[ -s "$run/best.tsv" ] && [ -s "$run/report/README.md" ]
tap_ok $? "the merge wrote best.tsv and the report"
"$RB_BIN" db info --db "$tmp/res/reprobench.db" > "$tmp/info" 2>&1 \
    && grep -q "$(basename "$run")" "$tmp/info"
st=$?; tap_ok $st "the merge imported the run into the store"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/info")"

"$RB_BIN" status "$run" > "$tmp/status" 2>&1
grep -Eq '^all +12 +12 +0 +0$' "$tmp/status" && grep -q '^merge  COMPLETED' "$tmp/status" \
    && [ "$(grep -Ec '^[123] +(COMPLETED|finished) +[0-9]+ +[0-9]+ +0 +0$' "$tmp/status")" -eq 3 ]
st=$?; tap_ok $st "status shows the three shards and the merge done"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/status")"
