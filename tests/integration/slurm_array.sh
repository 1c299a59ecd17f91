#!/bin/sh
# tests/integration/slurm_array.sh — `grothmpi campaign split` and a Slurm job
# array of slurm/grothmpi.sbatch on a real local cluster (slurm/local-cluster.sh,
# nodes n1, n2): a campaign split in 2 tasks runs as `sbatch --array=0-1`, one
# task per node, both generating the test parameters at once from the split's
# one seed; task 0 is requeued (scontrol requeue, as a preemption would) once it
# has journaled a proof, restarts under the same job id and resumes. Then
# `grothmpi campaign status` reports every unit done, no unit was proved twice,
# and every proof of every task verifies.
# Needs root (slurmd, munged); skips with a message otherwise. Bounded by a
# watchdog (GM_SLURM_TEST_TIMEOUT seconds, default 170); the cluster is stopped
# and every file removed on any exit.
set -u
NAME=slurm_array
. "$(dirname "$0")/lib/slurm_common.sh"

# ---- split, submit as an array, requeue task 0 mid-way --------------------------
cat >"$T/big.json" <<'EOF'
{
  "name": "slurm-array",
  "circuit": "test-synthetic",
  "constraints": 4096,
  "params": "params",
  "setup": "auto",
  "sectors": {"count": 6, "prefix": "a"},
  "partitions": 2,
  "batch_size": 1,
  "output": "out",
  "resources": {"threads": 1},
  "progress_interval": 1
}
EOF
"$BIN" campaign split "$T/big.json" --tasks 2 --out "$T/parts" >"$T/split.log" 2>&1 ||
    { cat "$T/split.log"; fail "campaign split failed"; }
grep -q 'sbatch --array=0-1 ' "$T/split.log" || { cat "$T/split.log"; fail "split does not print the array to submit"; }
s0=$(grep -o '"setup_seed": "[0-9a-f]*"' "$T/parts/task-0000.json")
s1=$(grep -o '"setup_seed": "[0-9a-f]*"' "$T/parts/task-0001.json")
[ -n "$s0" ] && [ "$s0" = "$s1" ] || fail "the tasks do not share one setup_seed ('$s0', '$s1')"
"$BIN" campaign status "$T/parts" >/dev/null && fail "campaign status says done before any task ran"

ajid=$(sbatch --parsable --array=0-1 -N 1 -t 5 -o "$T/arr-%A_%a.out" "$ROOT/slurm/grothmpi.sbatch" "$T/parts") ||
    fail "sbatch --array failed"
out0=$T/out/task-0000
end=$(($(date +%s) + 60))
requeued=no
while :; do
    st=$(squeue -h -j "${ajid}_0" -o %T 2>/dev/null)
    if [ "$(done_lines "$out0")" -ge 1 ] && [ "$st" = RUNNING ]; then
        scontrol requeue "${ajid}_0" && requeued=yes
        break
    fi
    [ -n "$st" ] || break
    [ "$(date +%s)" -lt "$end" ] || fail "task ${ajid}_0 journaled no proof in 60 s"
    sleep 0.1
done
[ $requeued = yes ] || fail "task ${ajid}_0 finished before it could be requeued: lengthen big.json"
# The requeued task starts again once its old credential expires: 10 s on the
# local cluster (AuthInfo cred_expire), 2 min by default.
d1=$(done_lines "$out0")
end=$(($(date +%s) + 120))
while squeue -h -j "$ajid" 2>/dev/null | grep -q .; do
    [ "$(date +%s)" -lt "$end" ] || fail "array $ajid still queued or running after 120 s: $(squeue -h -j "$ajid")"
    sleep 0.25
done
for i in 0 1; do
    st=$(scontrol show job "${ajid}_$i" 2>/dev/null | tr ' ' '\n' | sed -n 's/^JobState=//p;s/^ExitCode=//p' | tr '\n' ' ')
    case $st in "COMPLETED 0:0 ") ;; *) fail "task ${ajid}_$i ended as '$st'" ;; esac
done

"$BIN" campaign status "$T/parts" >"$T/status.log" 2>&1 || { cat "$T/status.log"; fail "campaign status: not all done"; }
for f in "$T"/parts/task-*.json; do
    out=$("$BIN" campaign info --key output "$f")
    units=$("$BIN" campaign info --key units "$f")
    total=$(done_lines "$out")
    distinct=$(grep '^done ' "$out/journal" | cut -d' ' -f2 | sort -u | wc -l)
    [ "$distinct" -eq "$units" ] && [ "$total" -eq "$units" ] ||
        fail "$out/journal: $total done lines, $distinct units, $units expected"
    verify_all "$f"
done
log0=$out0/slurm-${ajid}_0.log
[ -f "$log0" ] || fail "no job log of task 0 beside its report ($log0)"
grep -q "restart 1 " "$log0" || { cat "$log0"; fail "the log of task 0 shows no restart"; }
resumed=$(sed -n 's/.*campaign done: .* \([0-9][0-9]*\) resumed.*/\1/p' "$log0" | tail -1)
[ -n "$resumed" ] && [ "$resumed" -ge "$d1" ] && [ "$resumed" -ge 1 ] ||
    { cat "$log0"; fail "task 0's second start resumed '$resumed' units, $d1 were journaled before the requeue"; }
echo "ok: array $ajid of 2 tasks; task 0 requeued after $d1 proofs, resumed $resumed; $(tail -1 "$T/status.log"); all verify"
exit 0
