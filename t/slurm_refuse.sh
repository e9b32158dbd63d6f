#!/bin/sh
# SPDX-License-Identifier: MIT
# What submit and a shard refuse, each with one line and exit status 2 and
# nothing left behind: no sbatch on PATH, a shard spec out of range, a
# partition Slurm does not have (Slurm's own message), a request Slurm
# refuses (GPUs on a node without any), a resume of a folder that is no
# submitted sweep; and a merge while a shard still writes.  The checks that
# need a Slurm skip without one.
. "$RB_TOP_SRCDIR/t/slurm_lib.sh"
tap_plan 9
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rb-slurm-refuse.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/out"

# refused DESCRIPTION PATTERN ARGS...: exit 2, one line on stderr matching
# PATTERN, nothing new under $tmp/out.  The program runs with $with before it.
with=
refused() {
    what=$1 pat=$2; shift 2
    $with "$RB_BIN" "$@" >/dev/null 2>"$tmp/err"; st=$?
    if [ $st -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -q "$pat" "$tmp/err" \
        && [ -z "$(ls -A "$tmp/out")" ]; then
        tap_ok 0 "$what"
    else
        tap_ok 1 "$what"
        tap_diag "status $st, stderr:" "$(cat "$tmp/err")" "left: $(ls -A "$tmp/out")"
    fi
}

# shellcheck disable=SC2086
with="env PATH=$tmp/nobin"
refused "no sbatch on PATH: refused before anything is made" \
    'sbatch not found' submit $SWEEP --shards 3 --out "$tmp/out"
with=
expect_usage_error "run --shard 4/3 is refused" run --plan "$tmp/out" --shard 4/3
expect_usage_error "run --shard without --plan is refused" run --shard 1/3
# These refusals come after the check for sbatch.
if command -v sbatch >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    refused "submit --shards beyond the plan's cases is refused" 'only 12 cases' \
        submit $SWEEP --shards 13 --out "$tmp/out"
    refused "submit --resume of a folder that is no sweep is refused" 'not a submitted sweep' \
        submit --resume "$tmp/out"
else
    tap_skip "no sbatch here (apt-get install slurm-wlm munge)"
    tap_skip "no sbatch here (apt-get install slurm-wlm munge)"
fi

# A merge while a shard still writes (holds its lock) would merge it half.
sweep=$tmp/sweep
mkdir -p "$sweep/shards/1"
echo '{"shards": 1, "submissions": []}' > "$sweep/slurm.json"
: > "$sweep/records.jsonl"
: > "$sweep/shards/1/records.jsonl"
if command -v flock >/dev/null 2>&1; then
    flock -x "$sweep/shards/1/.lock" sleep 30 & holder=$!
    for _ in $(seq 50); do
        [ -e "$sweep/shards/1/.lock" ] && break
        sleep 0.1
    done
    sleep 0.2
    expect_usage_error "merge refuses while a shard holds its lock" \
        merge "$sweep" --no-db --no-plot --quiet
    kill "$holder" 2>/dev/null
else
    tap_skip "no flock(1) here to hold a shard's lock"
fi

if ! slurm_running; then
    for _ in 1 2 3; do tap_skip "$slurm_why"; done
    exit 0
fi
# shellcheck disable=SC2086
refused "a partition that does not exist: Slurm's message" 'Invalid partition name' \
    submit $SWEEP --shards 3 --partition rb-no-such-partition --out "$tmp/out"
# shellcheck disable=SC2086
refused "GPUs on a node without any: Slurm's message" 'Invalid generic resource' \
    submit $SWEEP --shards 3 --gpus-per-task 1 --out "$tmp/out"
# shellcheck disable=SC2086
refused "an sbatch option Slurm rejects: its message" 'sbatch' \
    submit $SWEEP --shards 3 --sbatch-arg --mem=999999999 --out "$tmp/out"
