#!/bin/sh
# SPDX-License-Identifier: MIT
# status against stand-ins for Slurm's commands: the states sacct reports
# for jobs squeue and scontrol no longer know, else what the records say,
# and the counts of cases done and left from shards.tsv and the shards'
# records.  Needs no Slurm.
. "$RB_TOP_SRCDIR/t/slurm_lib.sh"
tap_plan 4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$RB_BIN" run --paper givens --backend serial --n 16 --prec f32 --min-samples 3 \
    --min-time 0.01 --no-ceilings --no-plot --no-db --quiet --out "$tmp/d" >/dev/null 2>&1
recs=$(ls "$tmp"/d/*/records.jsonl)
keys "$recs" > "$tmp/keys"
[ "$(wc -l < "$tmp/keys")" -ge 3 ]; tap_ok $? "a small run to take records from"

# A sweep of two shards: shard 1 has two cases and recorded one, shard 2 has
# the rest and recorded none.
run=$tmp/sweep
mkdir -p "$run/shards/1" "$run/shards/2"
echo '{"shards": 2, "submissions": [{"array": 37, "merge": 38, "tasks": "1-2"}]}' \
    > "$run/slurm.json"
awk 'NR <= 2 { print 1 "\t" $0 "\t0.5" } NR > 2 { print 2 "\t" $0 "\t0.5" }' "$tmp/keys" \
    > "$run/shards.tsv"
grep -F "\"key\":\"$(head -1 "$tmp/keys")\"" "$recs" > "$run/shards/1/records.jsonl"
left2=$(($(wc -l < "$tmp/keys") - 2))

mkdir "$tmp/bin"
for prog in squeue scontrol; do
    printf '#!/bin/sh\necho "slurm_load_jobs error: Invalid job id specified" >&2\nexit 1\n' \
        > "$tmp/bin/$prog"
done
printf '#!/bin/sh\nprintf "37_1|CANCELLED by 0\\n37_2|COMPLETED\\n38|COMPLETED\\n"\n' \
    > "$tmp/bin/sacct"
chmod +x "$tmp"/bin/*

PATH=$tmp/bin:$PATH "$RB_BIN" status "$run" > "$tmp/out" 2>&1
grep -Eq '^1 +CANCELLED +2 +1 +0 +1$' "$tmp/out" \
    && grep -Eq "^2 +COMPLETED +$left2 +0 +0 +$left2\$" "$tmp/out" \
    && grep -q '^merge  COMPLETED' "$tmp/out"
st=$?; tap_ok $st "the states sacct keeps, with each shard's cases done and left"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/out")"

printf '#!/bin/sh\necho "sacct: error: accounting storage is disabled" >&2\nexit 1\n' \
    > "$tmp/bin/sacct"
PATH=$tmp/bin:$PATH "$RB_BIN" status "$run" > "$tmp/out" 2>&1
grep -Eq '^1 +stopped +2 +1 +0 +1$' "$tmp/out" \
    && grep -Eq "^2 +not started +$left2 +0 +0 +$left2\$" "$tmp/out" \
    && grep -q '^merge  unknown to Slurm' "$tmp/out" \
    && grep -q "submit --resume $run" "$tmp/out"
st=$?; tap_ok $st "without accounting: what the records say, and how to resume"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/out")"

rm "$tmp"/bin/*
PATH=$tmp/bin "$RB_BIN" status "$run" > "$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] && grep -q 'no Slurm to ask' "$tmp/err" && grep -Eq '^1 +stopped' "$tmp/out"
st=$?; tap_ok $st "without Slurm's commands: the records alone"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/out" "$tmp/err")"
