#!/bin/sh
# tests/integration/serve_kill.sh — kill -9 loses and duplicates nothing: a
# 2-rank server is SIGKILLed mid-stream (rank 0 in one scenario, rank 1 in
# the other; mpirun then ends the whole job), then a restart recovers the
# dead server's claims (its lock is free): every job not in done/ is proved, none twice, every
# proof verifies, and no dead server's directory is left. Exit 0 = pass.
set -eu
. "$(dirname "$0")/lib/common.sh"
export OMPI_MCA_mpi_yield_when_idle=1
need mpirun
gm_tmp servekill
. "$(dirname "$0")/lib/serve.sh"
. "$(dirname "$0")/lib/journal.sh"
cd "$T"
serve_params
N=40
for victim in 0 1; do
  S="$T/r$victim"
  mkdir -p "$S/incoming"
  submit_jobs "$S" $N j
  serve_start "$S" "r$victim.log" 2 --batch 4
  wait_receipts "$S" 6
  M=$(pgrep -x mpirun -P $SP)
  kill -KILL "$(rank_pid "$M" "$victim")"
  set +e; wait $SP; rc=$?; set -e
  [ $rc -ne 0 ] || fail "r$victim: mpirun exited 0 after a rank was killed"
  claims=$(find "$S/active" -name 'j*.json' | wc -l)
  echo "ok: r$victim: rank $victim killed with $(nreceipts "$S") done and $claims claimed"
  serve_start "$S" "r$victim.2.log" 2 --batch 4 --exit-when-idle 1
  set +e; wait $SP; rc=$?; set -e
  [ $rc -eq 0 ] || { cat "r$victim.2.log"; fail "r$victim: restart exited $rc"; }
  grep -q "jobs\? of dead servers back in incoming/" "r$victim.2.log" || [ "$claims" -eq 0 ] ||
    { cat "r$victim.2.log"; fail "r$victim: the dead server's claims were not recovered"; }
  all_done "$S" $N "r$victim.log" "r$victim.2.log"
  [ -z "$(ls "$S/active")" ] || fail "r$victim: active/ not empty: $(ls "$S/active")"
  echo "ok: r$victim: the restart recovered $claims claims; all $N jobs done once, verified"
done
echo "serve_kill: OK (kill -9 of rank 0, of rank 1: nothing lost, nothing twice)"
