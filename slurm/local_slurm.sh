#!/bin/bash
# A one-node SLURM on this machine, for the tests (and for trying the sbatch scripts on a
# laptop). Needs root: installs Debian's slurmctld, slurmd, slurm-client and munge when missing.
#   slurm/local_slurm.sh start [STATE_DIR]   # prints `export SLURM_CONF=...` on its last line
#   slurm/local_slurm.sh stop  [STATE_DIR]
# Clients (sbatch, squeue, dask-jobqueue, submitit) find the cluster through SLURM_CONF.
# SLURM_LOCAL_CPUS: CPUs the node advertises (default 4, more than a 2-core machine has, so a
# driver job and a few tiny worker jobs fit at once; slurmd accepts it with config_overrides).
set -euo pipefail

action="${1:-}"
dir="${2:-${SLURM_LOCAL_DIR:-/tmp/dsame-slurm}}"
host="$(hostname -s)"
cpus="${SLURM_LOCAL_CPUS:-4}"

die() { echo "local_slurm: $*" >&2; exit 1; }
say() { echo "local_slurm: $*" >&2; }  # each change to the machine, before it is made

install_packages() {
    command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null \
        && command -v munged >/dev/null && return 0
    [ "$(id -u)" = 0 ] || die "slurmctld/slurmd/munge are missing and installing them needs root"
    command -v apt-get >/dev/null || die "slurm is missing and this is not a Debian-like system (no apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    say "installing slurmctld slurmd slurm-client munge with apt-get"
    apt-get update -q >/dev/null
    apt-get install -y -q slurmctld slurmd slurm-client munge >/dev/null
}

start_munge() {
    if [ ! -s /etc/munge/munge.key ]; then
        say "writing a new munge key, /etc/munge/munge.key"
        mkdir -p /etc/munge
        if command -v mungekey >/dev/null; then mungekey --create --force --keyfile /etc/munge/munge.key
        else dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none; fi
    fi
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    chmod 400 /etc/munge/munge.key
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
    if ! munge -n >/dev/null 2>&1; then
        say "starting munged"
        if id munge >/dev/null 2>&1; then
            runuser -u munge -- /usr/sbin/munged
        else
            /usr/sbin/munged --force
        fi
    fi
    for _ in $(seq 50); do munge -n >/dev/null 2>&1 && return 0; sleep 0.1; done
    die "munged did not start"
}

# The slurm.conf settings of both test clusters (this one and nodes_slurm.sh's): no cgroups,
# no accounting, quick scheduling.
common_conf() {
    cat <<'EOF'
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2
MessageTimeout=20
KillWait=5
MinJobAge=300
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
EOF
}

write_conf() {
    local mem
    mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.8)}' /proc/meminfo)
    mkdir -p "$dir/state" "$dir/spool" "$dir/log"
    cat >"$dir/slurm.conf" <<EOF
# Written by slurm/local_slurm.sh: a one-node cluster on $host for tests.
ClusterName=dsame-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=${SLURM_LOCAL_PORT:-6817}
SlurmdPort=$(( ${SLURM_LOCAL_PORT:-6817} + 1 ))
$(common_conf)
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Stop the daemon whose pid file is $1: TERM, up to 5 s to go, then KILL.
stop_pidfile() {
    local pid
    pid_alive "$1" || return 0
    pid=$(cat "$1")
    kill "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
}

start() {
    install_packages
    start_munge
    if pid_alive "$dir/slurmctld.pid" && pid_alive "$dir/slurmd.pid"; then
        echo "export SLURM_CONF=$dir/slurm.conf"
        return 0
    fi
    write_conf
    export SLURM_CONF="$dir/slurm.conf"
    say "starting slurmctld and slurmd ($SLURM_CONF)"
    # -i: ignore state from an earlier start (stale jobs); -c: clear saved job state
    pid_alive "$dir/slurmctld.pid" || /usr/sbin/slurmctld -c -i -f "$SLURM_CONF"
    pid_alive "$dir/slurmd.pid" || /usr/sbin/slurmd -f "$SLURM_CONF"
    for _ in $(seq 120); do
        state=$(sinfo -h -N -o '%t' 2>/dev/null | head -1 || true)
        case "$state" in
            idle|mix|alloc)  # and ours: a cluster of another folder may answer on these ports
                if pid_alive "$dir/slurmctld.pid" && pid_alive "$dir/slurmd.pid"; then
                    echo "export SLURM_CONF=$SLURM_CONF"; return 0
                fi ;;
            drain*|down*) scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true ;;
        esac
        sleep 0.5
    done
    tail -5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    die "the node did not become idle (sinfo state: ${state:-none}); logs in $dir/log"
}

stop() {
    export SLURM_CONF="$dir/slurm.conf"
    [ -f "$SLURM_CONF" ] && scancel --full --user="$(id -un)" >/dev/null 2>&1 || true
    for name in slurmd slurmctld; do
        stop_pidfile "$dir/$name.pid"
    done
}

# slurm/nodes_slurm.sh sources this file for install_packages and start_munge.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    case "$action" in
        start) start ;;
        stop) stop ;;
        *) die "usage: $0 start|stop [STATE_DIR]" ;;
    esac
fi
