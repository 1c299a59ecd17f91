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
NAME=slurm_campaign
. "$(dirname "$0")/lib/slurm_common.sh"

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
