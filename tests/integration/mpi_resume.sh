#!/bin/sh
# tests/integration/mpi_resume.sh — a rank killed mid-campaign (mpirun aborts
# the job) and a rerun that completes: nothing lost, nothing redone that was
# journaled, no corrupt or partial proof file; a torn journal line is dropped.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
gm_tmp resume
cd "$T"
cat > c.json <<JSON
{ "name": "resume", "circuit": "test-synthetic", "constraints": 1024, "params": "params",
  "setup_seed": "00000000000000000000000000000000000000000000000000000000000000b2",
  "sectors": {"count": 12}, "partitions": 2, "batch_size": 2, "output": "out",
  "resources": {"threads": 1}, "progress_interval": 0 }
JSON
N=24
"$BIN" setup --circuit test-synthetic --constraints 1024 --out params \
  --seed 00000000000000000000000000000000000000000000000000000000000000b2 > /dev/null

# run 1: 2 ranks; kill -9 rank 1 once a few units are journaled
timeout 120 mpirun -np 2 "$BIN" prove c.json > run1.log 2>&1 &
MPID=$!
i=0
ndone() { n=$(grep -c '^done ' out/journal 2>/dev/null || true); echo "${n:-0}"; }
while [ "$(ndone)" -lt 4 ]; do
  sleep 0.2; i=$((i + 1)); [ $i -lt 300 ] || fail "no progress in run 1"
done
victim=""
for p in $(pgrep -P "$MPID" 2>/dev/null; pgrep -f "$BIN prove c.json"); do
  if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -q '^OMPI_COMM_WORLD_RANK=1$'; then victim=$p; break; fi
done
[ -n "$victim" ] || fail "rank 1 not found"
kill -9 "$victim"
set +e; wait $MPID; rc=$?; set -e
[ $rc -ne 0 ] || fail "run 1 should have failed after the kill"
[ $rc -ne 124 ] || fail "run 1 hung after the kill"
done1=$(grep -c '^done ' out/journal)
echo "run 1: killed rank 1 (pid $victim), mpirun rc=$rc, $done1 of $N units journaled"
[ "$done1" -lt $N ] || echo "note: everything finished before the kill landed"
# every journaled proof is whole; finals are never partial
for p in out/proofs/*.proof; do
  [ -e "$p" ] || continue
  [ "$(stat -c %s "$p")" -eq 192 ] || fail "$p: partial proof file"
done
cp out/journal journal.run1
# a torn last line (as a kill during an append would leave) is dropped on resume
printf 'done s99-p0 abc' >> out/journal

# run 2: completes, resumes what was journaled
timeout 120 mpirun -np 2 "$BIN" prove c.json > run2.log 2>&1 || { cat run2.log; fail "run 2"; }
grep -q "campaign done: $N units, $((N - done1)) proved in this run, $done1 resumed" run2.log \
  || { grep 'campaign done' run2.log; fail "run 2 did not resume exactly the $done1 journaled units"; }
[ "$(grep -c '^done ' out/journal)" -eq $N ] || fail "journal: not $N done lines"
grep -q 's99-p0' out/journal && fail "torn line kept"
# the lines of run 1 are still there, unchanged, first
head -n "$((done1 + 1))" out/journal | cmp - journal.run1 || fail "run 1's journal lines changed"
ls out/proofs | grep -q '\.tmp\.' && fail "temporary file left"
[ "$(ls out/proofs | grep -c '\.proof$')" -eq $N ] || fail "not $N proofs"
for p in out/proofs/*.proof; do
  "$BIN" verify --vk params/test-synthetic-1024.vk --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null \
    || fail "$p does not verify"
done
# run 3: nothing left to do
timeout 60 mpirun -np 2 "$BIN" prove c.json > run3.log 2>&1 || fail "run 3"
grep -q "campaign done: $N units, 0 proved in this run, $N resumed" run3.log || fail "run 3 redid work"
# a proof file damaged after the fact is detected and proved again
printf 'X' | dd of=out/proofs/s01-p0.proof bs=1 seek=10 conv=notrunc 2>/dev/null
timeout 60 "$BIN" prove c.json > run4.log 2>&1 || fail "run 4"
grep -q "campaign done: $N units, 1 proved in this run, $((N - 1)) resumed" run4.log || fail "run 4: damaged proof not redone"
"$BIN" verify --vk params/test-synthetic-1024.vk --proof out/proofs/s01-p0.proof \
  --inputs out/proofs/s01-p0.public.json >/dev/null || fail "redone proof does not verify"
echo "PASS: kill, resume, torn journal line, damaged proof"
