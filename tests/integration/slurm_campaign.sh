#!/bin/sh
# tests/integration/slurm_campaign.sh — slurm/grothmpi.sbatch on a real Slurm
# cluster (slurm/local-cluster.sh: munged, slurmctld, two slurmd as nodes n1, n2):
#  1. the test-circuit demo campaign (jobs/examples/demo-test-circuit.json) on 2 nodes: the job completes, every
#     proof verifies, the report names both nodes, the job log sits beside it;
#  2. a longer campaign, cancelled (scancel) once some proofs are journaled,
#     then submitted again: the second job resumes (the proofs of the first are
#     kept, byte for byte, and not made again) and completes, all verifying.
# Needs root (slurmd, munged); skips with a message otherwise. Bounded by a
# watchdog (GM_SLURM_TEST_TIMEOUT seconds, default 170); the cluster is stopped
# and every file removed on any exit.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
BIN=$BUILD/grothmpi
NAME=slurm_campaign

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

# ---- 1. the demo campaign on two nodes ----------------------------------------
# The demo as it is, but with its output and parameter cache in this test's
# directory (the campaign names shared places under /tmp).
demo=${GM_SLURM_DEMO:-$ROOT/jobs/examples/demo-test-circuit.json}
[ -f "$demo" ] || fail "$demo is missing"
sed -e 's|"output": *"[^"]*"|"output": "demo-out"|' -e 's|"params": *"[^"]*"|"params": "demo-params"|' \
    "$demo" >"$T/demo.json"
[ "$("$BIN" campaign info --key output "$T/demo.json")" = "$T/demo-out" ] &&
    [ "$("$BIN" campaign info --key params "$T/demo.json")" = "$T/demo-params" ] ||
    fail "could not move the output and params of $demo into $T"
jid=$(sbatch --parsable -N 2 -t 5 -o "$T/demo-%j.out" "$ROOT/slurm/grothmpi.sbatch" "$T/demo.json") ||
    fail "sbatch of the demo campaign failed"
state=$(wait_job "$jid" 100)
case $state in "COMPLETED 0:0 ") ;; *) fail "demo job $jid ended as '$state'" ;; esac
out=$("$BIN" campaign info --key output "$T/demo.json")
verify_all "$T/demo.json"
[ -f "$out/report.json" ] || fail "$out/report.json is missing"
for node in n1 n2; do
    grep -q "\"host\": *\"$node\"" "$out/report.json" || fail "$out/report.json does not name node $node"
done
[ -f "$out/slurm-$jid.log" ] || fail "the job log $out/slurm-$jid.log is missing"
grep -q "job $jid.* on n\[1-2\]: 2 node(s)" "$out/slurm-$jid.log" || fail "the job log does not say 2 nodes n[1-2]"
echo "ok 1: demo on n1+n2, $(ls "$out"/proofs/*.proof | wc -l) proofs verify, report names n1 and n2"

# ---- 2. cancel a running campaign, submit it again: it resumes -----------------
cat >"$T/long.json" <<'EOF'
{
  "name": "slurm-resume",
  "circuit": "test-synthetic",
  "constraints": 4096,
  "params": "params-long",
  "setup": "auto",
  "sectors": {"count": 12, "prefix": "r"},
  "partitions": 2,
  "batch_size": 1,
  "output": "out-long",
  "resources": {"threads": 1},
  "progress_interval": 1
}
EOF
units=$("$BIN" campaign info --key units "$T/long.json") || fail "campaign info long.json"
lout=$T/out-long
jid=$(sbatch --parsable -N 2 -t 5 -o "$T/long-%j.out" "$ROOT/slurm/grothmpi.sbatch" "$T/long.json") ||
    fail "sbatch of the long campaign failed"
end=$(($(date +%s) + 60))
while [ "$(done_lines "$lout")" -lt 2 ]; do
    squeue -h -j "$jid" | grep -q . || fail "job $jid ended before 2 proofs were journaled ($(done_lines "$lout") of $units)"
    [ "$(date +%s)" -lt "$end" ] || fail "job $jid journaled no 2 proofs in 60 s"
    sleep 0.1
done
scancel "$jid"
state=$(wait_job "$jid" 30)
case $state in CANCELLED*) ;; *) fail "job $jid ended as '$state', not CANCELLED" ;; esac
d1=$(done_lines "$lout")
[ "$d1" -lt "$units" ] || fail "job $jid finished all $units units before scancel: lengthen long.json"
# What the cancelled job finished must survive the resubmission as it is.
grep '^done ' "$lout/journal" | cut -d' ' -f2 | sort >"$T/first.units"
# shellcheck disable=SC2046  # unit names: [A-Za-z0-9._-] only
(cd "$lout/proofs" && sha256sum $(sed 's/$/.proof/' "$T/first.units")) >"$T/first.sums" ||
    fail "a journaled proof file is missing after scancel"

jid2=$(sbatch --parsable -N 2 -t 5 -o "$T/long-%j.out" "$ROOT/slurm/grothmpi.sbatch" "$T/long.json") ||
    fail "the second sbatch of the long campaign failed"
state=$(wait_job "$jid2" 100)
case $state in "COMPLETED 0:0 ") ;; *) fail "resubmitted job $jid2 ended as '$state'" ;; esac
total=$(done_lines "$lout")
distinct=$(grep '^done ' "$lout/journal" | cut -d' ' -f2 | sort -u | wc -l)
[ "$distinct" -eq "$units" ] || fail "the journal names $distinct of $units units"
[ "$total" -eq "$units" ] || fail "the journal has $total done lines for $units units: proofs were made twice"
(cd "$lout/proofs" && sha256sum -c --quiet "$T/first.sums") || fail "proofs of the cancelled job were rewritten"
verify_all "$T/long.json"
grep -q "job $jid2" "$lout/slurm-$jid2.log" || fail "no log of job $jid2 beside the report"
resumed=$(sed -n 's/.*campaign done: .* \([0-9][0-9]*\) resumed.*/\1/p' "$lout/slurm-$jid2.log" | tail -1)
[ -n "$resumed" ] && [ "$resumed" -ge "$d1" ] ||
    { tail -5 "$lout/slurm-$jid2.log"; fail "job $jid2 resumed '$resumed' units, $d1 were journaled before scancel"; }
echo "ok 2: scancel after $d1 of $units proofs; resubmitted job $jid2 resumed $resumed and completed; all verify"
exit 0
