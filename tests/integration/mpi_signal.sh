#!/bin/sh
# tests/integration/mpi_signal.sh — SIGTERM / SIGINT (Slurm preemption,
# Ctrl-C) stop a running campaign cleanly: no new units, the units in flight
# are written and journaled, one "interrupted" line naming the output
# directory, exit status 75; the journal and the proof files agree, no
# temporary file is left; a rerun resumes exactly what was journaled and
# completes, and every proof verifies. Four scenarios: a singleton with
# SIGTERM; a singleton in its own process group with SIGINT to the group (as
# Ctrl-C does); 2 ranks under mpirun with SIGTERM to rank 1 alone (rank 0
# learns of it by message and stops everyone); SIGTERM to mpirun itself
# (Open MPI 4 sends the ranks SIGCONT, waits odls_base_sigkill_timeout, sends
# SIGTERM, waits again, then SIGKILL; mpirun then exits 1 whatever the ranks
# said, and rank 0's last line may be lost: see docs/reliability.md).
set -eu
. "$(dirname "$0")/lib/common.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
need mpirun
gm_tmp signal
cd "$T"
SEED=00000000000000000000000000000000000000000000000000000000000000c3
N=60 # units per campaign (scenario 4 needs more: see there)
"$BIN" setup --circuit test-synthetic --constraints 1024 --out params --seed $SEED > /dev/null
campaign() { # NAME: a campaign writing into NAME/
  cat > "$1.json" <<JSON
{ "name": "$1", "circuit": "test-synthetic", "constraints": 1024, "params": "params", "setup": "never",
  "sectors": {"count": $N}, "partitions": 1, "batch_size": 2, "output": "$1",
  "resources": {"threads": 1}, "progress_interval": 0 }
JSON
}
. "$HERE/lib/journal.sh"
# interrupted DIR RC ERRFILE WANT_RC: the stop was clean
interrupted() {
  [ "$2" -ne 124 ] || fail "$1: hung after the signal"
  [ "$2" -eq "$4" ] || { cat "$3"; fail "$1: exit status $2, expected $4"; }
  n=$(grep -c '^grothmpi: ' "$3" || true)
  [ "$n" -eq 1 ] || { cat "$3"; fail "$1: $n error lines, expected 1"; }
  grep -q "^grothmpi: prove: interrupted by signal .*: $(ndone "$1") of $N units done and journaled in .*/$1, .* left; rerun the same command to resume" "$3" \
    || { cat "$3"; fail "$1: not the interrupted line"; }
  [ "$(ndone "$1")" -lt $N ] || echo "note: $1 finished before the signal landed"
  consistent "$1"
  echo "ok: $1: exit $2, $(grep '^grothmpi: ' "$3")"
}
# resume DIR NP: the rerun proves exactly the rest, every proof verifies
resume() {
  d=$(ndone "$1")
  if [ "$2" -eq 1 ]; then timeout 300 "$BIN" prove "$1.json" > "$1.rerun" 2>&1 || { cat "$1.rerun"; fail "$1: rerun"; }
  else timeout 300 mpirun -np "$2" "$BIN" prove "$1.json" > "$1.rerun" 2>&1 || { cat "$1.rerun"; fail "$1: rerun"; }; fi
  grep -q "campaign done: $N units, $((N - d)) proved in this run, $d resumed" "$1.rerun" \
    || { grep 'campaign done' "$1.rerun"; fail "$1: the rerun did not resume exactly the $d journaled units"; }
  consistent "$1"
  [ "$(ndone "$1")" -eq $N ] || fail "$1: not $N journal lines"
  for p in "$1"/proofs/*.proof; do
    "$BIN" verify --vk params/test-synthetic-1024.vk --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null \
      || fail "$p does not verify"
  done
  echo "ok: $1: rerun resumed $d, proved $((N - d)), all $N proofs verify"
}

# 1. singleton, SIGTERM
campaign single
timeout 300 "$BIN" prove single.json > single.out 2> single.err &
P=$!
wait_done single 4
# To grothmpi itself, not to timeout(1): timeout passes a SIGTERM on to its
# child and to the child's process group, i.e. twice, and a second signal
# aborts by design (exit 143 instead of 75, a race CI hit once).
kill -TERM "$(pgrep -P $P)"
set +e; wait $P; rc=$?; set -e
interrupted single $rc single.err 75
grep -q 'stopping (signal 15)' single.out || fail "single: no 'stopping' line"
resume single 1

# 2. singleton in its own process group, SIGINT to the group (Ctrl-C). No
# timeout(1) in the group (it would pass a second SIGINT on, which aborts at
# once by design): a bounded wait instead.
campaign ctrlc
setsid "$BIN" prove ctrlc.json > ctrlc.out 2> ctrlc.err &
P=$!
wait_done ctrlc 4
kill -INT "-$P" # setsid made it the leader of its own group
i=0
while kill -0 $P 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $P 2>/dev/null && { kill -9 $P; fail "ctrlc: still running 60 s after SIGINT"; }
set +e; wait $P; rc=$?; set -e
interrupted ctrlc $rc ctrlc.err 75
resume ctrlc 1

# 3. two ranks, SIGTERM to rank 1 only: rank 0 stops the whole job
campaign rank1
timeout 300 mpirun -np 2 "$BIN" prove rank1.json > rank1.out 2> rank1.err &
M=$!
wait_done rank1 4
R1=$(rank_pid "$(pgrep -x mpirun -P $M)" 1)
[ -n "$R1" ] || fail "rank 1 not found"
kill -TERM "$R1"
set +e; wait $M; rc=$?; set -e
interrupted rank1 $rc rank1.err 75
resume rank1 2

# 4. SIGTERM to mpirun: the ranks get SIGTERM after odls_base_sigkill_timeout
# and have as long again to finish before SIGKILL
N=150 # more than 2 ranks prove in the 2 s before the ranks see the signal
campaign mpirun
OMPI_MCA_odls_base_sigkill_timeout=2 timeout 300 mpirun -np 2 "$BIN" prove mpirun.json > mpirun.out 2> mpirun.err &
M=$!
wait_done mpirun 4
kill -TERM "$(pgrep -x mpirun -P $M)"
set +e; wait $M; rc=$?; set -e
# mpirun is asleep in its kill sequence and serves no MPI_Finalize: rank 0
# may be SIGKILLed there, before its last line; the stop itself was clean.
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "mpirun: exit status $rc"
grep -q 'stopping (signal 15)' mpirun.out || { cat mpirun.out mpirun.err; fail "mpirun: the ranks never saw SIGTERM"; }
[ "$(ndone mpirun)" -lt $N ] || echo "note: mpirun finished before the signal landed"
consistent mpirun orphans-ok
echo "ok: mpirun: exit $rc, $(ndone mpirun) of $N journaled, consistent"
resume mpirun 2
echo "PASS: SIGTERM/SIGINT stop cleanly (exit 75), nothing lost or partial, reruns complete"
