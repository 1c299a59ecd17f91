#!/bin/sh
# tests/soak/soak.sh — the long reliability run (`make soak`; not part of
# `make test`): SOAK_UNITS test-mul proofs (default 1000) on SOAK_RANKS ranks
# (default 4, oversubscribed) under mpirun, interrupted again and again at
# random moments by SIGKILL of one random rank (mpirun aborts the job) or
# SIGTERM of every rank (a clean stop, exit 75, as a Slurm preemption
# delivers it), rerun until a run completes. Then: every unit has exactly one
# journal line, its files match it, every proof verifies, no temporary file
# is left, and no unit journaled by an earlier run was lost or changed.
# SOAK_SEED replays the same schedule of delays and victims; the figures are
# printed at the end (docs/reliability.md records a run).
set -eu
BUILD=${BUILD:-build}
BIN=$(cd "$(dirname "$BUILD/grothmpi")" && pwd)/grothmpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
UNITS=${SOAK_UNITS:-1000}
RANKS=${SOAK_RANKS:-4}
SEED=${SOAK_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
MAX_RUNS=${SOAK_MAX_RUNS:-200}
echo "soak: $UNITS units, $RANKS ranks, SOAK_SEED=$SEED"
T=$(mktemp -d /tmp/gm-soak.XXXXXX); trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T"
t0=$(date +%s)
"$BIN" setup --circuit test-mul --out params > /dev/null
cat > c.json <<JSON
{ "name": "soak", "circuit": "test-mul", "params": "params", "setup": "never",
  "sectors": {"count": $UNITS, "prefix": "u"}, "batch_size": 2, "output": "out",
  "resources": {"threads": 1}, "progress_interval": 0 }
JSON
# rnd N: a number in 0..N-1 from the seeded stream (a 31-bit LCG, state in
# $T/rng: the caller's $( ) is a subshell, so the state lives in a file)
echo $((SEED % 2147483648)) > rng
rnd() {
  st=$(( ($(cat rng) * 1103515245 + 12345) % 2147483648 ))
  echo $st > rng
  echo $(( (st / 65536) % $1 ))
}
ndone() { n=$(grep -c '^done ' out/journal 2>/dev/null || true); echo "${n:-0}"; }
rank_pids() { for p in $(pgrep -P "$1"); do echo "$p"; done; }
runs=0; kills=0; terms=0; clean75=0; done_rc=1
touch journal.prev
while [ $runs -lt $MAX_RUNS ]; do
  runs=$((runs + 1))
  timeout 600 mpirun -np "$RANKS" "$BIN" prove c.json > run.out 2> run.err &
  M=$!
  # a random moment: 0.3 .. 2.2 s after the start (start-up takes about 1 s
  # of it, so some runs die in set-up, the others while proving)
  delay=$(( $(rnd 20) + 3 ))
  i=0
  while kill -0 $M 2>/dev/null && [ $i -lt $delay ]; do sleep 0.1; i=$((i + 1)); done
  MR=$(pgrep -x mpirun -P $M || true)
  if kill -0 $M 2>/dev/null && [ -n "$MR" ]; then
    set -- $(rank_pids "$MR")
    if [ $# -gt 0 ]; then
      if [ "$(rnd 2)" -eq 0 ]; then
        shift $(( $(rnd $#) )); kill -9 "$1" 2>/dev/null && kills=$((kills + 1))
      else
        kill -TERM "$@" 2>/dev/null && terms=$((terms + 1))
      fi
    fi
  fi
  set +e; wait $M; rc=$?; set -e
  [ $rc -ne 124 ] || { cat run.err; fail "run $runs hung"; }
  [ $rc -eq 75 ] && clean75=$((clean75 + 1))
  # nothing journaled before may disappear or change (a run killed in its
  # set-up may not have created the journal yet)
  if [ -f out/journal ]; then
    head -n "$(wc -l < journal.prev)" out/journal | cmp -s - journal.prev \
      || { cat run.err; fail "run $runs: journal lines of earlier runs lost or changed"; }
    cp out/journal journal.prev
  elif [ -s journal.prev ]; then
    fail "run $runs: the journal disappeared"
  fi
  if [ $rc -eq 0 ]; then done_rc=0; break; fi
done
[ $done_rc -eq 0 ] || fail "not complete after $MAX_RUNS runs"
grep -q "campaign done: $UNITS units" run.out || fail "last run: no 'campaign done'"
# exactly one line per unit, files match, proofs verify, no temporaries
[ "$(grep -c '^done ' out/journal)" -eq "$UNITS" ] || fail "journal: $(grep -c '^done ' out/journal) lines for $UNITS units"
[ "$(grep '^done ' out/journal | awk '{print $2}' | sort -u | wc -l)" -eq "$UNITS" ] || fail "journal: a unit twice"
ls out out/proofs | grep -q '\.tmp\.' && fail "temporary file left"
[ "$(ls out/proofs | grep -c '\.proof$')" -eq "$UNITS" ] || fail "not $UNITS proof files"
grep '^done ' out/journal > lines
lost=0; corrupt=0
while read -r _ name psha qsha _; do
  p=out/proofs/$name.proof
  if [ ! -f "$p" ] || [ "$(sha256sum < "$p" | cut -d' ' -f1)" != "$psha" ] \
     || [ "$(sha256sum < "${p%.proof}.public.json" | cut -d' ' -f1)" != "$qsha" ]; then
    lost=$((lost + 1)); continue
  fi
  "$BIN" verify --vk params/test-mul.vk --proof "$p" --inputs "${p%.proof}.public.json" > /dev/null 2>&1 \
    || corrupt=$((corrupt + 1))
done < lines
t1=$(date +%s)
echo "soak: proofs $UNITS, runs $runs (restarts $((runs - 1))), SIGKILLs of a rank $kills, SIGTERMs of the job $terms (clean exits 75: $clean75), lost $lost, corrupt $corrupt, wall $((t1 - t0)) s, SOAK_SEED=$SEED"
[ $lost -eq 0 ] && [ $corrupt -eq 0 ] || fail "lost $lost, corrupt $corrupt"
echo "PASS: soak"
