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
NAME=slurm_cluster
. "$(dirname "$0")/lib/slurm_common.sh"

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
