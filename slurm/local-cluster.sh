#!/bin/sh
# slurm/local-cluster.sh — a real Slurm cluster on this one machine, for tests
# and for trying slurm/grothmpi.sbatch: a private munged, one slurmctld and N
# slurmd daemons acting as N nodes (n1..nN), all run by hand (no systemd), as
# root, with every file under one state directory.
#
#   slurm/local-cluster.sh start  [options]   start it (a no-op when it runs)
#   slurm/local-cluster.sh stop   [options]   cancel its jobs, stop every daemon,
#                                             remove the state directory
#   slurm/local-cluster.sh status [options]   exit 0 when it runs (prints sinfo)
#   slurm/local-cluster.sh env    [options]   the lines to eval in a shell:
#                                             export SLURM_CONF=<dir>/slurm.conf
#                                             export GROTHMPI_LAUNCHER=<this dir>/local-exec
#
# Options (each also read from the environment variable in brackets):
#   --dir DIR      state directory [GROTHMPI_SLURM_DIR, default /tmp/grothmpi-slurm]
#   --nodes N      fake nodes n1..nN [GROTHMPI_SLURM_NODES, default 2]
#   --cpus N       CPUs of each fake node [GROTHMPI_SLURM_CPUS, default: nproc]
#   --port P       slurmctld port; the slurmd take P+1..P+N [GROTHMPI_SLURM_PORT,
#                  default 6817]
#
# Layout of DIR: slurm.conf, env, munge/ (socket, pid, log), state/, spool/<node>/,
# tmpfs/<node>/ (each node's TmpFS: pmix needs one per node), log/, pids.
# Nothing outside DIR is written; the daemons never touch /run/munge or
# /etc/slurm. The clients (sbatch, srun, squeue, ...) find the cluster through
# SLURM_CONF, which `env` prints. The fake nodes share this host's name;
# GROTHMPI_LAUNCHER (also printed by `env`) makes slurm/grothmpi.sbatch start
# each rank through slurm/local-exec, in a UTS namespace named after its node,
# so that reports name n1, n2, ... rather than this host N times.
#
# Slurm 22.05 specifics (docs/slurm.md, platform notes §8): MpiDefault=pmix for
# Debian's Open MPI; no cgroups (proctrack/linuxproc, task/none); TmpFS=DIR/tmpfs/%n
# so the two slurmstepd of one job do not collide in one pmix directory;
# cred_expire=10 (default 120): a requeued job waits that long before it may
# start again (a node refuses the job id's revoked credential until then);
# sched_interval=2 so that such a job starts soon after (default 60 s).
set -u

usage() {
    sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2
    exit 2
}

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
D=${GROTHMPI_SLURM_DIR:-/tmp/grothmpi-slurm}
NODES=${GROTHMPI_SLURM_NODES:-2}
CPUS=${GROTHMPI_SLURM_CPUS:-$(nproc)}
PORT=${GROTHMPI_SLURM_PORT:-6817}
while [ $# -gt 0 ]; do
    case $1 in
    --dir) D=$2; shift 2 ;;
    --nodes) NODES=$2; shift 2 ;;
    --cpus) CPUS=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    -h | --help) usage ;;
    *) echo "local-cluster.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
case $D in
/*) ;;
*) D=$(pwd)/$D ;;
esac
MARK=$D/.grothmpi-local-cluster
export SLURM_CONF=$D/slurm.conf

die() {
    echo "local-cluster.sh: $*" >&2
    exit 1
}

# alive PID: the process exists and is not a zombie (zombies linger here).
alive() {
    [ -n "$1" ] && [ -r "/proc/$1/stat" ] || return 1
    st=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

pidof_file() {
    [ -f "$1" ] && cat "$1" 2>/dev/null
}

nodelist() {
    i=1
    while [ "$i" -le "$NODES" ]; do
        printf 'n%d ' "$i"
        i=$((i + 1))
    done
}

running() {
    [ -f "$MARK" ] && alive "$(pidof_file "$D/slurmctld.pid")" && scontrol ping 2>/dev/null | grep -q 'is UP'
}

write_conf() {
    last=$((PORT + NODES))
    mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 / 2 }' /proc/meminfo)
    [ "$mem" -gt 0 ] 2>/dev/null || mem=4000
    cat >"$D/slurm.conf" <<EOF
# Written by slurm/local-cluster.sh: $NODES fake nodes on one host, Slurm 22.05,
# root, no cgroup, no systemd, a private munged.
ClusterName=grothmpi
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/munge.sock,cred_expire=10
MpiDefault=pmix
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
ReturnToService=2
JobRequeue=1
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool/%n
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd-%n.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=60
KillWait=5
Waittime=0
NodeName=n[1-$NODES] NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((PORT + 1))-$last CPUs=$CPUS RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=n[1-$NODES] Default=YES MaxTime=INFINITE State=UP
TmpFS=$D/tmpfs/%n
EOF
    echo "export SLURM_CONF=$D/slurm.conf" >"$D/env"
    echo "export GROTHMPI_LAUNCHER=$(cd "$(dirname "$0")" && pwd)/local-exec" >>"$D/env"
}

start() {
    [ "$(id -u)" -eq 0 ] || die "start needs root (slurmd runs jobs as any user; munged needs the munge user)"
    for b in munged munge slurmctld slurmd scontrol sinfo; do
        command -v "$b" >/dev/null 2>&1 || die "$b is not installed (make deps installs slurm-wlm and munge)"
    done
    if running; then
        echo "local-cluster.sh: already running in $D ($(sinfo -h -o '%D nodes %T' | tr '\n' ' '))"
        return 0
    fi
    # A directory left by a crash: stop what is left of it first.
    [ -f "$MARK" ] && stop >/dev/null 2>&1
    if [ -e "$D" ] && [ -n "$(ls -A "$D" 2>/dev/null)" ] && [ ! -f "$MARK" ]; then
        die "$D exists and is not a local-cluster.sh directory; choose another --dir"
    fi
    port_busy=$(ss -Hltn 2>/dev/null | awk -v lo="$PORT" -v hi="$((PORT + NODES))" \
        '{ n = split($4, a, ":"); p = a[n] + 0; if (p >= lo && p <= hi) print p }')
    [ -z "$port_busy" ] || die "port(s) $(echo $port_busy) already in use; choose another --port"

    mkdir -p "$D" && chmod 755 "$D" || die "cannot create $D"
    : >"$MARK"
    mkdir -p "$D/state" "$D/log" "$D/munge"
    for n in $(nodelist); do mkdir -p "$D/spool/$n" "$D/tmpfs/$n"; done
    # munged insists on a socket directory that it owns and everyone can search.
    chown munge:munge "$D/munge" && chmod 755 "$D/munge"
    write_conf
    export GROTHMPI_LOCAL_CLUSTER="$D"

    runuser -u munge -- /usr/sbin/munged -S "$D/munge/munge.sock" --pid-file="$D/munge/munged.pid" \
        --log-file="$D/munge/munged.log" --seed-file="$D/munge/munged.seed" ||
        die "munged did not start (see $D/munge/munged.log)"
    munge -S "$D/munge/munge.sock" -n | unmunge -S "$D/munge/munge.sock" >/dev/null ||
        die "munge round trip failed (see $D/munge/munged.log)"

    slurmctld -c -f "$D/slurm.conf" || die "slurmctld did not start (see $D/log/slurmctld.log)"
    for n in $(nodelist); do
        slurmd -N "$n" -f "$D/slurm.conf" || die "slurmd -N $n did not start (see $D/log/slurmd-$n.log)"
    done
    i=0
    until [ "$(sinfo -h -o '%T %D' 2>/dev/null | awk '$1 == "idle" { s += $2 } END { print s + 0 }')" -eq "$NODES" ]; do
        i=$((i + 1))
        [ $i -gt 200 ] && die "the $NODES nodes are not idle after 20 s: $(sinfo -h 2>&1 | tr '\n' ' ') (logs in $D/log)"
        sleep 0.1
    done
    # shellcheck disable=SC2046  # the node names, one word each
    echo "local-cluster.sh: $NODES nodes idle ($(echo $(nodelist)), $CPUS CPUs each); in a shell: eval \"\$($0 env --dir $D)\""
}

# Processes started for this cluster: the daemons carry GROTHMPI_LOCAL_CLUSTER=D
# in their environment and slurmstepd inherits it; job processes carry
# SLURM_JOB_ID and SLURM_CONF=D/slurm.conf. This shell and its ancestors (a
# test that exported SLURM_CONF) are never on the list.
cluster_pids() {
    keep=" $$ "
    a=$$
    while [ "$a" -gt 1 ] 2>/dev/null; do
        a=$(sed 's/^.*) //' "/proc/$a/stat" 2>/dev/null | cut -d' ' -f2)
        [ -n "$a" ] || break
        keep="$keep$a "
    done
    for p in /proc/[0-9]*; do
        pid=${p#/proc/}
        case $keep in *" $pid "*) continue ;; esac
        env=$( { tr '\0' '\n' <"$p/environ"; } 2>/dev/null) || continue
        if printf '%s\n' "$env" | grep -qx "GROTHMPI_LOCAL_CLUSTER=$D" ||
            { printf '%s\n' "$env" | grep -q '^SLURM_JOB_ID=' &&
                printf '%s\n' "$env" | grep -qx "SLURM_CONF=$D/slurm.conf"; }; then
            alive "$pid" && echo "$pid"
        fi
    done
}

stop() {
    if [ ! -f "$MARK" ]; then
        echo "local-cluster.sh: not running (no $MARK)"
        return 0
    fi
    if alive "$(pidof_file "$D/slurmctld.pid")"; then
        scancel --full --quiet --partition=debug 2>/dev/null
        i=0
        while [ -n "$(squeue -h -t R,CG,PD,S 2>/dev/null)" ] && [ $i -lt 100 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        scontrol shutdown 2>/dev/null
        i=0
        while scontrol ping 2>/dev/null | grep -q 'is UP' && [ $i -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
    fi
    # Whatever is left: the daemons by pid file, then any job or step process.
    pids=""
    for f in "$D"/slurmctld.pid "$D"/slurmd-*.pid "$D/munge/munged.pid"; do
        p=$(pidof_file "$f")
        alive "$p" && pids="$pids $p"
    done
    pids="$pids $(cluster_pids)"
    for sig in TERM KILL; do
        left=""
        for p in $pids; do
            alive "$p" && kill -s "$sig" "$p" 2>/dev/null && left="$left $p"
        done
        [ -z "$left" ] && break
        i=0
        while [ $i -lt 30 ]; do
            still=""
            for p in $left; do alive "$p" && still="$still $p"; done
            [ -z "$still" ] && break
            sleep 0.1
            i=$((i + 1))
        done
        pids=$still
    done
    for p in $pids; do alive "$p" && echo "local-cluster.sh: process $p did not exit" >&2; done
    rm -rf "$D"
    echo "local-cluster.sh: stopped; $D removed"
}

case $cmd in
start) start ;;
stop) stop ;;
status)
    if running; then
        sinfo
    else
        echo "local-cluster.sh: not running in $D"
        exit 1
    fi
    ;;
env)
    here=$(cd "$(dirname "$0")" && pwd)
    echo "export SLURM_CONF=$D/slurm.conf"
    echo "export GROTHMPI_LAUNCHER=$here/local-exec"
    ;;
*) usage ;;
esac
