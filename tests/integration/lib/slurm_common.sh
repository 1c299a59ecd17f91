# tests/integration/lib/slurm_common.sh — what the Slurm integration tests share,
# sourced after the caller sets NAME: paths, the root check, a watchdog, a
# private local cluster started in a temp dir and stopped on any exit, and the
# helpers (fail, waiting for jobs, checking that proofs verify).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
BIN=$BUILD/grothmpi

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
