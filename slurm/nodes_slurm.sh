#!/bin/bash
# A SLURM of three hosts on this one machine, for the multi-node tests (tests/slurm/test_nodes.py):
#   dsame-ctl  10.213.97.1   slurmctld, and the login node: the driver and SLURM commands run here
#   dsame-n1   10.213.97.11  compute node (slurmd)
#   dsame-n2   10.213.97.12  compute node (slurmd)
# Each host is a Linux network namespace whose only interface besides its own loopback is eth0,
# one end of a veth pair whose other end sits on a bridge in a further namespace, dsame-net. The
# hosts reach each other only over eth0, never over a shared loopback, and there is no route off
# that network (nor a default route): this machine's own interfaces, routes and firewall are not
# touched. Whatever runs on a host also gets the host's name (its own UTS namespace) and an
# /etc/hosts that names the three hosts (bind-mounted in its own mount namespace); on a compute
# node, slurmd and the jobs it starts get their own /tmp (a tmpfs), as on clusters where /tmp is
# local to each node. The rest of the file system is this machine's, seen alike by every host:
# it stands for the shared file system that a real cluster mounts on every node (the repository,
# its .venv, the worker log folder; a repository under /tmp is kept shared too). Needs root; munge
# is this machine's (one key, as on a cluster).
#   slurm/nodes_slurm.sh start [STATE_DIR]   # prints `export SLURM_CONF=...` on its last line
#   slurm/nodes_slurm.sh on HOST CMD [ARG...]  # runs CMD on HOST, SLURM_CONF set (STATE_DIR: $SLURM_NODES_DIR)
#   slurm/nodes_slurm.sh stop [STATE_DIR]    # stops the daemons, then removes the namespaces
# SLURM_NODES_NAME (default dsame) names the hosts and namespaces, SLURM_NODES_NET (default
# 10.213.97) their /24: a second cluster beside the first needs other values of both.
# STATE_DIR (default /var/tmp/dsame-slurm-nodes) holds slurm.conf, hosts, pid files and logs; it
# may not be under /tmp, which the compute nodes do not share.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=local_slurm.sh
source "$here/local_slurm.sh"  # install_packages, start_munge, die, say, pid_alive, stop_pidfile

action="${1:-}"
net="${SLURM_NODES_NET:-10.213.97}"   # the /24 the hosts live on (inside the namespaces only)
prefix="${SLURM_NODES_NAME:-dsame}"    # hosts and namespaces are <prefix>-ctl, <prefix>-n1, ...
ctl="$prefix-ctl"
nodes=("$prefix-n1" "$prefix-n2")
switch="$prefix-net"
declare -A addr=(["$ctl"]="$net.1" ["${nodes[0]}"]="$net.11" ["${nodes[1]}"]="$net.12")
declare -A short=(["$ctl"]=ctl ["${nodes[0]}"]=n1 ["${nodes[1]}"]=n2)  # its veth on the bridge: v-<short>

state_dir() {
    dir="${1:-${SLURM_NODES_DIR:-/var/tmp/dsame-slurm-nodes}}"
    case "$(realpath -m "$dir")/" in /tmp/*) die "STATE_DIR $dir is under /tmp, which compute nodes do not share";; esac
}

netns_exists() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }

# Runs "$@" on host $1: in its network namespace, with its hostname and /etc/hosts, and on a
# compute node a /tmp of its own. (on_host_exec: the same in place of this shell.)
host_command() {
    local name="$1" private_tmp=0
    shift
    [ -n "${addr[$name]:-}" ] || die "no host $name (hosts: $ctl ${nodes[*]})"
    netns_exists "$name" || die "host $name is not up (slurm/nodes_slurm.sh start)"
    [ "$name" = "$ctl" ] || private_tmp=1
    # nsenter rather than `ip netns exec`, which mounts a new /sys and so hides the cgroup
    # file systems slurmd needs; unshare --mount makes the mounts below private to this host.
    # A repository checked out under /tmp (a CI clone, say) stays shared: it is moved over the
    # node's own /tmp at the same path, as a real cluster mounts the shared checkout on every node.
    local keep=""
    case "$(dirname "$here")/" in /tmp/*) keep="$(dirname "$here")";; esac
    command=(nsenter --net="/run/netns/$name" unshare --mount --uts -- /bin/sh -c '
        hostname "$1" && mount --bind "$2/hosts" /etc/hosts || exit 1
        if [ "$3" = 1 ]; then
            if [ -n "$4" ]; then mkdir -p /run/dsame-shared && mount --bind "$4" /run/dsame-shared || exit 1; fi
            mount -t tmpfs -o size=1g,mode=1777 tmpfs /tmp || exit 1
            if [ -n "$4" ]; then mkdir -p "$4" && mount --move /run/dsame-shared "$4" || exit 1; fi
        fi
        shift 4
        exec "$@"' sh "$name" "$dir" "$private_tmp" "$keep" env "SLURM_CONF=$dir/slurm.conf" "$@")
}
on_host() { host_command "$@"; "${command[@]}"; }
on_host_exec() { host_command "$@"; exec "${command[@]}"; }

make_network() {
    local name
    # All checked before any is removed: a cluster in use (a node of it down) must stay whole.
    for name in "$switch" "$ctl" "${nodes[@]}"; do
        if netns_exists "$name" && [ -n "$(ip netns pids "$name")" ]; then
            die "network namespace $name exists and is in use (another cluster?)"
        fi
    done
    for name in "$switch" "$ctl" "${nodes[@]}"; do
        if netns_exists "$name"; then
            say "removing the unused network namespace $name left from an earlier start"
            ip netns del "$name"
        fi
    done
    say "creating network namespaces $switch (a bridge), $ctl, ${nodes[*]} ($net.0/24, nothing routed off it)"
    ip netns add "$switch"
    ip -n "$switch" link add br0 type bridge
    ip -n "$switch" link set br0 up
    ip -n "$switch" link set lo up
    for name in "$ctl" "${nodes[@]}"; do
        ip netns add "$name"
        ip -n "$switch" link add "v-${short[$name]}" type veth peer name eth0 netns "$name"
        ip -n "$switch" link set "v-${short[$name]}" master br0 up
        ip -n "$name" link set lo up
        ip -n "$name" addr add "${addr[$name]}/24" dev eth0
        ip -n "$name" link set eth0 up
    done
}

write_conf() {
    local mem name
    mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.4)}' /proc/meminfo)  # per compute node
    mkdir -p "$dir/state" "$dir/log" "$dir/spool"
    {
        echo "127.0.0.1 localhost"
        for name in "$ctl" "${nodes[@]}"; do echo "${addr[$name]} $name"; done
    } >"$dir/hosts"
    {
        cat <<EOF
# Written by slurm/nodes_slurm.sh: a controller and two compute nodes in network namespaces.
ClusterName=$prefix-nodes
SlurmctldHost=$ctl(${addr[$ctl]})
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldPort=6817
SlurmdPort=6818
EOF
        common_conf
        # One CPU each: two one-core worker jobs land on different nodes.
        for name in "${nodes[@]}"; do
            echo "NodeName=$name NodeAddr=${addr[$name]} CPUs=${SLURM_NODES_CPUS:-1} RealMemory=$mem State=UNKNOWN"
        done
        echo "PartitionName=compute Nodes=$(IFS=,; echo "${nodes[*]}") Default=YES MaxTime=INFINITE State=UP"
    } >"$dir/slurm.conf"
}

all_alive() {
    local name
    pid_alive "$dir/slurmctld.pid" || return 1
    for name in "${nodes[@]}"; do pid_alive "$dir/slurmd-$name.pid" || return 1; done
}

start() {
    install_packages
    start_munge
    if all_alive && netns_exists "$switch"; then
        echo "export SLURM_CONF=$dir/slurm.conf"
        return 0
    fi
    make_network
    write_conf
    say "starting slurmctld on $ctl, slurmd on ${nodes[*]} ($dir/slurm.conf)"
    # -i: ignore state from an earlier start (stale jobs); -c: clear saved job state
    on_host "$ctl" /usr/sbin/slurmctld -c -i -f "$dir/slurm.conf"
    for name in "${nodes[@]}"; do
        mkdir -p "$dir/spool/$name"
        on_host "$name" /usr/sbin/slurmd -N "$name" -f "$dir/slurm.conf"
    done
    local states=""
    for _ in $(seq 120); do
        states=$(on_host "$ctl" sinfo -h -N -o '%N=%t' 2>/dev/null | sort -u | tr '\n' ' ' || true)
        local idle=0
        for name in "${nodes[@]}"; do
            case "$states" in
                *"$name=idle"*|*"$name=mix"*|*"$name=alloc"*) idle=$((idle + 1)) ;;
                *"$name=drain"*|*"$name=down"*)
                    on_host "$ctl" scontrol update nodename="$name" state=resume >/dev/null 2>&1 || true ;;
            esac
        done
        if [ "$idle" = "${#nodes[@]}" ] && all_alive; then
            echo "export SLURM_CONF=$dir/slurm.conf"
            return 0
        fi
        sleep 0.5
    done
    tail -5 "$dir"/log/*.log >&2 || true
    die "the nodes did not become idle (sinfo: ${states:-none}); logs in $dir/log"
}

stop() {
    local name
    if [ -f "$dir/slurm.conf" ] && netns_exists "$ctl"; then
        on_host "$ctl" scancel --full --user="$(id -un)" >/dev/null 2>&1 || true
    fi
    for name in "${nodes[@]/#/slurmd-}" slurmctld; do
        stop_pidfile "$dir/$name.pid"
    done
    # What is left in the namespaces (job steps) was started on these hosts; then the hosts go.
    for name in "${nodes[@]}" "$ctl" "$switch"; do
        if netns_exists "$name"; then
            ip netns pids "$name" | xargs -r kill -9 2>/dev/null || true
            ip netns del "$name"
        fi
    done
}

case "$action" in
    start) state_dir "${2:-}"; start ;;
    stop) state_dir "${2:-}"; stop ;;
    on) state_dir ""; shift; [ $# -ge 2 ] || die "usage: $0 on HOST CMD [ARG...]"; on_host_exec "$@" ;;
    *) die "usage: $0 start|stop [STATE_DIR] | on HOST CMD [ARG...]" ;;
esac
