#!/bin/sh
# tests/soak/serve.sh — the proving service's long reliability run (not in
# `make test`; `make soak` runs it after tests/soak/soak.sh): JOBS
# test-mul jobs (the first argument, else SOAK_JOBS, default 1000) from 4
# concurrent submitters into one spool, while a server on SOAK_RANKS ranks
# (default 2) is stopped again and again at random moments, by SIGKILL of
# one random rank (mpirun aborts the job), SIGKILL of the whole job (mpirun
# and every rank at once) or SIGTERM of every rank (a clean drain, exit 75),
# and started again until every job is in done/. Then: every job has its receipt, none is left in
# incoming/ or active/, no job was proved twice (its "proved" line in all
# the runs' logs together), every proof verifies. SOAK_SEED replays the
# schedule of delays and victims.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../integration/lib/common.sh"
JOBS=${1:-${SOAK_JOBS:-1000}}
RANKS=${SOAK_RANKS:-2}
SEED=${SOAK_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
MAX_RUNS=${SOAK_MAX_RUNS:-400}
echo "soak serve: $JOBS jobs from 4 submitters, $RANKS ranks, SOAK_SEED=$SEED"
gm_tmp soakserve
. "$HERE/../integration/lib/serve.sh"
cd "$T"
t0=$(date +%s)
"$BIN" setup --circuit test-mul --out params > /dev/null
VK="$T/params/test-mul.vk"
S="$T/spool"
mkdir -p "$S/incoming"
echo $((SEED % 2147483648)) > rng
rnd() { # N: 0..N-1 from the seeded stream (state in a file: callers use $( ))
  st=$(( ($(cat rng) * 1103515245 + 12345) % 2147483648 ))
  echo $st > rng
  echo $(( (st / 65536) % $1 ))
}
# 4 submitters, each JOBS/4 jobs with pauses of 0..50 ms (the last takes the remainder)
per=$((JOBS / 4))
for s in 1 2 3 4; do
  n=$per; [ $s -eq 4 ] && n=$((JOBS - 3 * per))
  (i=1; while [ $i -le $n ]; do
     echo "{\"circuit\": \"test-mul\", \"seed\": $((s * 100000 + i))}" > "sub$s.json"
     "$BIN" submit "$S" "sub$s.json" --name "s$s-$i" > /dev/null || { echo "submitter $s: job $i refused"; exit 1; }
     sleep "0.0$((i * 7 % 6))"; i=$((i + 1))
   done) &
  eval "SUB$s=\$!"
done
runs=0; kills=0; jobkills=0; terms=0; finished=0
: > all.log
while [ $runs -lt $MAX_RUNS ]; do
  runs=$((runs + 1))
  subs_done=1
  for p in $SUB1 $SUB2 $SUB3 $SUB4; do kill -0 "$p" 2>/dev/null && subs_done=0; done
  timeout 600 mpirun -np "$RANKS" "$BIN" serve "$S" --params params --batch 4 --max-wait 0.1 --poll 0.05 \
    --threads 1 --exit-when-idle 2 > run.log 2>&1 &
  M=$!
  delay=$(( $(rnd 40) + 5 )) # 0.5 .. 4.4 s: some runs die in set-up, most while proving
  i=0
  while kill -0 $M 2>/dev/null && [ $i -lt $delay ]; do sleep 0.1; i=$((i + 1)); done
  MR=$(pgrep -x mpirun -P $M || true)
  if kill -0 $M 2>/dev/null && [ -n "$MR" ]; then
    set -- $(pgrep -P "$MR")
    if [ $# -gt 0 ]; then
      case $(rnd 3) in
      0) shift $(( $(rnd $#) )); kill -9 "$1" 2>/dev/null && kills=$((kills + 1)) ;;
      1) kill -9 "$MR" "$@" 2>/dev/null && jobkills=$((jobkills + 1)) ;;
      *) kill -TERM "$@" 2>/dev/null && terms=$((terms + 1)) ;;
      esac
    fi
  fi
  set +e; wait $M; rc=$?; set -e
  cat run.log >> all.log
  if [ $rc -eq 0 ] && [ $subs_done -eq 1 ] && [ "$(nreceipts "$S")" -eq "$JOBS" ]; then finished=1; break; fi
  case $rc in 0|75|1|137|143) ;; *) echo "note: run $runs exited $rc" ;; esac
done
[ $finished -eq 1 ] || fail "not finished after $runs runs ($(nreceipts "$S") of $JOBS done)"
for p in $SUB1 $SUB2 $SUB3 $SUB4; do wait "$p" || fail "a submitter failed"; done
all_done "$S" "$JOBS" all.log
proved=$(grep -c '^serve: proved ' all.log || true)
echo "soak serve: OK: $JOBS jobs, $runs server runs ($kills SIGKILLs of a rank, $jobkills of the whole job," \
  "$terms SIGTERMs), 0 lost, 0 twice," \
  "$proved proved lines, every proof verified, $(( $(date +%s) - t0 )) s"
