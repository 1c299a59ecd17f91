#!/bin/sh
# tests/integration/slurm_cluster.sh — the mechanics, without a campaign run:
# slurm/local-cluster.sh (a second start is a no-op; status; two nodes n1, n2;
# slurm/local-exec names each rank after its node; stop leaves no daemon, no
# process and no file, and a second stop is a no-op) and slurm/grothmpi.sbatch
# (the srun step it builds from its options and the environment, checked with
# --dry-run inside salloc; its usage errors, inside and outside Slurm).
# Needs root (slurmd, munged); skips with a message otherwise. Bounded by a
# watchdog (GM_SLURM_TEST_TIMEOUT seconds, default 170); the cluster is stopped
# and every file removed on any exit.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
BIN=$BUILD/grothmpi
NAME=slurm_cluster

if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP $NAME: needs root (it starts munged, slurmctld and slurmd)"
    exit 0
fi
# The watchdog: run the body under timeout, and stop the cluster whatever happens.
if [ -z "${GM_SLURM_TEST_INNER:-}" ]; then
    T=$(mktemp -d /tmp/gm-slurm-test.XXXXXX) || exit 1
    chmod 755 "$T"
    GM_SLURM_TEST_INNER=1 GM_SLURM_TEST_DIR=$T timeout -k 5 "${GM_SLURM_TEST_TIMEOUT:-170}" sh "$0"
    rc=$?
    [ $rc -eq 124 ] && echo "FAIL $NAME: timed out after ${GM_SLURM_TEST_TIMEOUT:-170} s"
    "$ROOT/slurm/local-cluster.sh" stop --dir "$T/cluster" >/dev/null 2>&1
    rm -rf "$T"
    exit $rc
fi

T=$GM_SLURM_TEST_DIR
C=$T/cluster
fail() {
    echo "FAIL $NAME: $*"
    for f in "$T"/*.out "$C"/log/slurmctld.log; do
        [ -f "$f" ] && { echo "--- $f (last 30 lines)"; tail -30 "$f"; }
    done
    exit 1
}
cleanup() {
    "$ROOT/slurm/local-cluster.sh" stop --dir "$C" >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 143' TERM INT

for b in sbatch srun squeue scancel scontrol slurmctld slurmd munged; do
    command -v $b >/dev/null 2>&1 || fail "$b is not installed (make deps installs slurm-wlm and munge)"
done
[ -x "$BIN" ] || fail "$BIN is missing (make BUILD=$BUILD)"

# A free port range for this cluster (another test or a user's cluster may use 6817).
port=$((20000 + $$ % 20000))
while ss -Hltn | awk '{ n = split($4, a, ":"); print a[n] }' | grep -qx -e "$port" -e "$((port + 1))" -e "$((port + 2))"; do
    port=$((port + 3))
done
"$ROOT/slurm/local-cluster.sh" start --dir "$C" --nodes 2 --port "$port" >"$T/start.log" 2>&1 ||
    { cat "$T/start.log"; fail "the local cluster did not start"; }
eval "$("$ROOT/slurm/local-cluster.sh" env --dir "$C")"
export SLURM_CONF GROTHMPI_LAUNCHER
export GROTHMPI_BIN=$BIN
cd "$T" || fail "cd $T"

# wait_job JID SECONDS: until the job has left the queue; prints its final state.
wait_job() {
    end=$(($(date +%s) + $2))
    while squeue -h -j "$1" 2>/dev/null | grep -q .; do
        [ "$(date +%s)" -lt "$end" ] || fail "job $1 still queued or running after $2 s: $(squeue -h -j "$1")"
        sleep 0.25
    done
    scontrol show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n 's/^JobState=//p;s/^ExitCode=//p' | tr '\n' ' '
}

# done_lines OUT: the journal's "done" lines.
done_lines() {
    n=$(grep -c '^done ' "$1/journal" 2>/dev/null)
    echo "${n:-0}"
}

# verify_all CAMPAIGN: every proof of the campaign's output verifies (one batch
# call: the proofs concatenated, their public inputs as an array of arrays).
verify_all() {
    out=$("$BIN" campaign info --key output "$1") || fail "campaign info $1"
    params=$("$BIN" campaign info --key params "$1") || fail "campaign info $1"
    circuit=$("$BIN" campaign info --key circuit "$1") || fail "campaign info $1"
    units=$("$BIN" campaign info --key units "$1") || fail "campaign info $1"
    n=$(ls "$out"/proofs/*.proof 2>/dev/null | wc -l)
    [ "$n" -eq "$units" ] || fail "$out/proofs: $n proofs, the campaign has $units units"
    : >"$T/all.proof"
    printf '[' >"$T/all.inputs"
    sep=""
    for p in "$out"/proofs/*.proof; do
        cat "$p" >>"$T/all.proof"
        printf '%s' "$sep" >>"$T/all.inputs"
        cat "${p%.proof}.public.json" >>"$T/all.inputs"
        sep=","
    done
    printf ']' >>"$T/all.inputs"
    "$BIN" verify --vk "$params/$circuit.vk" --proof "$T/all.proof" --inputs "$T/all.inputs" >"$T/verify.log" 2>&1 ||
        { cat "$T/verify.log"; fail "the proofs in $out do not all verify"; }
}

CPUS=$(nproc)

# ---- local-cluster.sh: idempotent start, status, nodes, full stop ---------------
"$ROOT/slurm/local-cluster.sh" start --dir "$C" --nodes 2 --port "$port" >"$T/start2.log" 2>&1 ||
    { cat "$T/start2.log"; fail "a second start failed"; }
grep -q "already running" "$T/start2.log" || { cat "$T/start2.log"; fail "a second start did not say 'already running'"; }
"$ROOT/slurm/local-cluster.sh" status --dir "$C" >/dev/null || fail "status says not running"
nodes=$(timeout 30 srun -N 2 -n 2 sh -c 'echo "$SLURMD_NODENAME"' | sort | tr '\n' ' ')
[ "$nodes" = "n1 n2 " ] || fail "srun -N2 ran on '$nodes', not n1 n2"
names=$(timeout 30 srun -N 2 -n 2 --mpi=pmix "$GROTHMPI_LAUNCHER" hostname | sort | tr '\n' ' ')
[ "$names" = "n1 n2 " ] || fail "slurm/local-exec gave host names '$names', not n1 n2"

# ---- grothmpi.sbatch: the step it builds, and its usage errors ------------------
cat >"$T/c.json" <<'EOF'
{"circuit": "test-mul", "params": "params", "sectors": {"count": 2}, "output": "out-c"}
EOF
line=$(timeout 30 salloc -N 2 --exclusive -Q "$ROOT/slurm/grothmpi.sbatch" --dry-run --threads 3 \
    --mem-budget 1GiB "$T/c.json" -- --x 2>&1) || fail "the dry run failed: $line"
case $line in
*"srun --mpi=pmix --nodes=2 --ntasks=2 --ntasks-per-node=1 --cpus-per-task=$CPUS "*"prove $T/c.json --threads 3 --mem-budget 1GiB --x"*) ;;
*) fail "the dry run printed: $line" ;;
esac
case $line in *--gpus-per-task*) fail "a job without GPUs got --gpus-per-task: $line" ;; esac
line=$(GROTHMPI_GPUS_PER_TASK=1 GROTHMPI_SRUN_ARGS="--cpu-bind=none" timeout 30 salloc -N 1 -Q \
    "$ROOT/slurm/grothmpi.sbatch" --dry-run "$T/c.json" 2>&1) || fail "the dry run failed: $line"
case $line in *"--gpus-per-task=1 --cpu-bind=none "*) ;; *) fail "options from the environment ignored: $line" ;; esac

"$ROOT/slurm/grothmpi.sbatch" "$T/c.json" >"$T/noslurm.log" 2>&1
[ $? -eq 2 ] && grep -q "not inside a Slurm job" "$T/noslurm.log" || { cat "$T/noslurm.log"; fail "run outside Slurm"; }
mkdir -p "$T/notasplit"
jid=$(sbatch --parsable -o "$T/bad-%j.out" "$ROOT/slurm/grothmpi.sbatch" "$T/notasplit") || fail "sbatch failed"
st=$(wait_job "$jid" 30)
case $st in "FAILED 2:0 ") ;; *) fail "a directory outside an array ended as '$st'" ;; esac
grep -q "submit a split campaign as an array" "$T/bad-$jid.out" || { cat "$T/bad-$jid.out"; fail "no clear message"; }

# ---- stop: no daemon, no job process, no file left; a second stop is a no-op ----
pids=$(cat "$C"/slurmctld.pid "$C"/slurmd-n1.pid "$C"/slurmd-n2.pid "$C"/munge/munged.pid 2>/dev/null)
[ -n "$pids" ] || fail "no pid files in $C"
"$ROOT/slurm/local-cluster.sh" stop --dir "$C" >"$T/stop.log" 2>&1 || { cat "$T/stop.log"; fail "stop failed"; }
for p in $pids; do
    st=$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f1)
    case $st in '' | Z | X) ;; *) fail "process $p ($st) still runs after stop" ;; esac
done
[ ! -e "$C" ] || fail "$C is left after stop"
"$ROOT/slurm/local-cluster.sh" stop --dir "$C" >"$T/stop2.log" 2>&1 || { cat "$T/stop2.log"; fail "a second stop failed"; }
echo "ok: start x2, status, srun on n1 n2, local-exec names, sbatch dry runs and errors, stop x2 with nothing left"
exit 0
