#!/bin/sh
# SPDX-License-Identifier: MIT
# A one-node Slurm on localhost for tests and for trying reprobench's Slurm
# support on a laptop: munged, slurmctld and slurmd (node "localhost"), with
# every file (key, sockets, configuration, state, spool, pid files, logs)
# under one folder, stopped by their pids.  Needs Debian's slurm-wlm and
# munge, and root (slurmd starts jobs as the user who submitted them).
#
#   build-aux/slurm-local.sh start [DIR]   start (DIR: a new folder in /tmp);
#                                          prints "SLURM_CONF=DIR/slurm.conf"
#   build-aux/slurm-local.sh stop DIR      stop the daemons started in DIR
#   build-aux/slurm-local.sh status DIR    sinfo of that cluster
#
# Clients find the cluster through SLURM_CONF (export it); the folder is kept
# after stop, for its logs.  RB_SLURM_PORT picks slurmctld's port (slurmd's
# is the next one); by default the first free pair from 6817 on.
set -u
me=slurm-local

die() { echo "$me: $*" >&2; exit 1; }

# port_free PORT: no TCP socket listens on PORT (state 0A in /proc/net/tcp*).
port_free() {
    hex=$(printf '%04X' "$1")
    ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null \
        | awk -v p=":$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}

# wait_for SECONDS COMMAND...: run COMMAND every 0.1 s until it succeeds.
wait_for() {
    tries=$(($1 * 10)); shift
    while [ "$tries" -gt 0 ]; do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.1
        tries=$((tries - 1))
    done
    return 1
}

# node_idle: sinfo shows the one node idle.
node_idle() {
    [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ]
}

# stop_pidfile FILE NAME: end the process named in FILE and wait for it.
stop_pidfile() {
    [ -s "$1" ] || return 0
    pid=$(cat "$1")
    case $pid in ''|*[!0-9]*) return 0 ;; esac
    kill "$pid" 2>/dev/null || { rm -f "$1"; return 0; }
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "$me: $2 (pid $pid) did not stop; killing it" >&2
        kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$1"
}

write_conf() {
    dir=$1 port=$2
    # The node as slurmd sees it, renamed: a line with CPUs only makes
    # slurmd log socket and core mismatches.
    node=$(slurmd -C | sed -n 's/^NodeName=[^ ]* /NodeName=localhost /p')
    [ -n "$node" ] || die "slurmd -C printed no node line"
    cat > "$dir/slurm.conf" <<EOF
# A one-node cluster on localhost, written by build-aux/slurm-local.sh.
ClusterName=rblocal
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
# No systemd and no cgroup controllers: track processes by their parents.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
# No accounting: sacct says so; squeue and scontrol show finished jobs a while.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# A job depending on a cancelled or failed one ends instead of pending forever.
DependencyParameters=kill_invalid_depend
# A request beyond the node (more CPUs, memory) is refused at submission.
EnforcePartLimits=ALL
MailProg=/bin/true
ReturnToService=2
MpiDefault=none
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
$node
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
    [ "$(id -u)" -eq 0 ] || die "run as root (slurmd starts jobs as their users)"
    for prog in munged mungekey slurmctld slurmd sinfo; do
        command -v "$prog" >/dev/null 2>&1 \
            || die "$prog not found (apt-get install slurm-wlm munge)"
    done
    if [ $# -ge 1 ]; then
        dir=$1
        mkdir -p "$dir" || exit 1
    else
        dir=$(mktemp -d /tmp/rb-slurm.XXXXXX) || exit 1
    fi
    dir=$(cd "$dir" && pwd)
    [ -e "$dir/slurmctld.pid" ] && die "$dir: a cluster was started here; stop it first"
    # munged's socket must be reachable by all: every folder above DIR too.
    up=$(dirname "$dir")
    while [ "$up" != / ]; do
        [ "$(($(stat -c %a "$up") % 2))" -eq 1 ] \
            || die "$up is not open to all (chmod o+x), which munged needs of every folder above its socket"
        up=$(dirname "$up")
    done
    t0=$(date +%s.%N)
    # munged wants its socket's folder open to all and its key private.
    mkdir -p "$dir/munge" "$dir/key" "$dir/state" "$dir/spool" "$dir/log" || exit 1
    chmod 755 "$dir" "$dir/munge"
    chmod 700 "$dir/key"
    [ -f "$dir/key/munge.key" ] || mungekey --create --keyfile="$dir/key/munge.key" \
        || die "mungekey failed"
    munged --key-file="$dir/key/munge.key" --socket="$dir/munge/munge.socket" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$dir/munge/munged.seed" \
        || die "munged did not start (see $dir/log/munged.log)"

    port=${RB_SLURM_PORT:-6817}
    if [ -z "${RB_SLURM_PORT:-}" ]; then
        while ! port_free "$port" || ! port_free $((port + 1)); do
            port=$((port + 2))
            [ "$port" -lt 6900 ] || die "no free port pair in 6817..6899"
        done
    fi
    write_conf "$dir" "$port"
    SLURM_CONF=$dir/slurm.conf
    export SLURM_CONF
    slurmctld -f "$SLURM_CONF" || die "slurmctld did not start (see $dir/log/slurmctld.log)"
    # The machine's hostname is not the node's name: slurmd must be told.
    slurmd -f "$SLURM_CONF" -N localhost || die "slurmd did not start (see $dir/log/slurmd.log)"
    if ! wait_for 30 node_idle; then
        echo "$me: the node is not idle after 30 s; sinfo says:" >&2
        sinfo >&2
        die "see the logs in $dir/log"
    fi
    t1=$(date +%s.%N)
    echo "$me: node localhost idle $(echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}') s" \
         "after start, ports $port and $((port + 1)), files in $dir" >&2
    echo "SLURM_CONF=$SLURM_CONF"
}

stop() {
    [ $# -ge 1 ] || die "stop: give the cluster's folder"
    dir=$1
    [ -d "$dir" ] || die "$dir: no such folder"
    stop_pidfile "$dir/slurmd.pid" slurmd
    stop_pidfile "$dir/slurmctld.pid" slurmctld
    stop_pidfile "$dir/munge/munged.pid" munged
}

status() {
    [ $# -ge 1 ] || die "status: give the cluster's folder"
    SLURM_CONF=$1/slurm.conf sinfo
}

[ $# -ge 1 ] || die "usage: $0 start [DIR] | stop DIR | status DIR"
cmd=$1; shift
case $cmd in
    start) start "$@" ;;
    stop) stop "$@" ;;
    status) status "$@" ;;
    *) die "unknown command '$cmd' (start, stop, status)" ;;
esac
