#!/bin/sh
# SPDX-License-Identifier: MIT
# The Slurm that SLURM_CONF (or /etc/slurm) names, if one runs: a 3-task job
# array and a job depending on it (afterok) run, in order, and write what
# they should.  build-aux/slurm-local.sh starts a one-node one on localhost.
. "${RB_TOP_SRCDIR:-.}/t/cli_lib.sh"

for prog in sbatch squeue scontrol sinfo; do
    command -v "$prog" >/dev/null 2>&1 \
        || tap_skip_all "no $prog here (apt-get install slurm-wlm munge)"
done
sinfo -h >/dev/null 2>&1 \
    || tap_skip_all "no Slurm running (build-aux/slurm-local.sh start, then export SLURM_CONF)"

tap_plan 8
# Job output goes to a folder the node can write: here, the same machine.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rb-slurm-smoke.XXXXXX") || exit 1
jobs=
cleanup() {
    [ -n "$jobs" ] && scancel $jobs 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

cat > "$tmp/task.sh" <<'EOF'
#!/bin/sh
echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT in job $SLURM_ARRAY_JOB_ID"
EOF
# The dependent job counts the outputs it finds: all three, since it starts
# only after every task ended well.
cat > "$tmp/after.sh" <<EOF
#!/bin/sh
n=\$(ls "$tmp"/task-*.out 2>/dev/null | wc -l)
echo "after: \$n outputs"
cat "$tmp"/task-*.out
EOF

array=$(sbatch --parsable --job-name=rb-smoke --array=0-2 --time=2 \
            -o "$tmp/task-%a.out" "$tmp/task.sh" 2>"$tmp/err")
case $array in ''|*[!0-9]*) st=1 ;; *) st=0; jobs=$array ;; esac
tap_ok $st "sbatch accepts a 3-task array (job $array)"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"
after=$(sbatch --parsable --job-name=rb-smoke-after --dependency="afterok:$array" --time=2 \
            -o "$tmp/after.out" "$tmp/after.sh" 2>"$tmp/err")
case $after in ''|*[!0-9]*) st=1 ;; *) st=0; jobs="$jobs $after" ;; esac
tap_ok $st "sbatch accepts a job depending on it (job $after)"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp/err")"

# Two CPUs run the three tasks in two rounds; a minute is plenty.
waited=0
while [ -n "$(squeue -h -j "$array,$after" 2>/dev/null)" ] && [ $waited -lt 600 ]; do
    sleep 0.2
    waited=$((waited + 1))
done
[ $waited -lt 600 ]; tap_ok $? "both jobs left the queue (after about $((waited / 5)) s)"

st=0
for i in 0 1 2; do
    grep -qx "task $i of 3 in job $array" "$tmp/task-$i.out" 2>/dev/null || st=1
done
tap_ok $st "each task wrote its own line"
[ $st -eq 0 ] || tap_diag "$(cat "$tmp"/task-*.out 2>&1)"

grep -qx "after: 3 outputs" "$tmp/after.out" 2>/dev/null
tap_ok $? "the dependent job started after all three tasks had written"
[ "$(grep -c '^task ' "$tmp/after.out" 2>/dev/null)" = 3 ]
tap_ok $? "the dependent job read their three lines"

# Finished jobs stay in slurmctld's memory a while (MinJobAge).
states=$(scontrol -o show job "$array" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' \
         | sort | uniq -c | awk '{print $1, $2}')
[ "$states" = "3 COMPLETED" ]; tap_ok $? "the array's tasks are COMPLETED"
[ "$states" = "3 COMPLETED" ] || tap_diag "states: $states"
state=$(scontrol -o show job "$after" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
[ "$state" = COMPLETED ]; tap_ok $? "the dependent job is COMPLETED"
[ "$state" = COMPLETED ] || tap_diag "state: $state"
jobs=
