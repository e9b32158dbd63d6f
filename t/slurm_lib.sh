# SPDX-License-Identifier: MIT
# Helpers of the tests that submit sweeps to a real Slurm.  Sourced, not run.
. "$RB_TOP_SRCDIR/t/cli_lib.sh"

# A small sweep: 12 cases of a few milliseconds each.
SWEEP="--paper givens --backend serial --n 16,32 --prec f32,f64 --min-samples 3 \
--min-time 0.01 --seed 11"

# slurm_running: 0 when sbatch and a controller answer; else the reason in
# $slurm_why.
slurm_running() {
    for prog in sbatch squeue scontrol scancel sinfo; do
        command -v "$prog" >/dev/null 2>&1 \
            || { slurm_why="no $prog here (apt-get install slurm-wlm munge)"; return 1; }
    done
    sinfo -h >/dev/null 2>&1 \
        || { slurm_why="no Slurm running (build-aux/slurm-local.sh start, then export SLURM_CONF)"; return 1; }
}

# jobs_of RUN: the array and merge job ids of RUN's last submission.
jobs_of() {
    sed -n 's/.*"\(array\|merge\)": *\([0-9-]*\).*/\2/p' "$1/slurm.json" | tail -2 \
        | grep -v '^-1$' | paste -sd, -
}

# wait_jobs RUN SECONDS: until RUN's last jobs have left the queue; 0, or 1
# when they had not after SECONDS.
wait_jobs() {
    jobs=$(jobs_of "$1") tries=$(($2 * 5))
    while [ -n "$(squeue -h -j "$jobs" 2>/dev/null)" ]; do
        tries=$((tries - 1))
        [ $tries -gt 0 ] || return 1
        sleep 0.2
    done
}

# keys FILE: the case keys of a records file, sorted.
keys() {
    sed -n 's/.*"key":"\([^"]*\)".*/\1/p' "$1" | sort
}
