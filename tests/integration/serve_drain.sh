#!/bin/sh
# tests/integration/serve_drain.sh — SIGTERM drains the service: no new job
# is taken, the batch in flight is finished (or, stopped inside its
# campaign, its units in flight are written and its jobs without a proof go
# back to incoming/), the server's directory is released, exit status 75;
# a restart proves the rest, every job once. Two scenarios on 2 ranks:
# SIGTERM to every rank (as Slurm and mpirun deliver it), and to rank 1
# alone (it stops the batch's campaign on every rank). Exit 0 = pass.
set -eu
. "$(dirname "$0")/lib/common.sh"
export OMPI_MCA_mpi_yield_when_idle=1
need mpirun
gm_tmp servedrain
. "$(dirname "$0")/lib/serve.sh"
. "$(dirname "$0")/lib/journal.sh"
cd "$T"
serve_params
N=40
# drained SPOOL LOG RC: the stop was clean
drained() {
  [ "$3" -eq 75 ] || { cat "$2"; fail "$1: exit status $3, expected 75"; }
  grep -q '^serve: stopped on request: .* unproved claims are back in incoming/' "$2" || { cat "$2"; fail "$1: no stop line"; }
  [ -z "$(ls "$1/active")" ] || fail "$1: active/ not released: $(ls -R "$1/active")"
  left=$(ls "$1/incoming" | grep -c '\.json$' || true)
  [ $((left + $(nreceipts "$1"))) -eq $N ] || fail "$1: $left queued + $(nreceipts "$1") done != $N"
  [ "$(nreceipts "$1")" -lt $N ] || echo "note: $1: every job was done before the signal landed"
  echo "ok: $1: exit 75, $(nreceipts "$1") done, $left back in incoming/"
}
for who in all rank1; do
  S="$T/$who"
  mkdir -p "$S/incoming"
  submit_jobs "$S" $N j
  serve_start "$S" "$who.log" 2 --batch 4
  wait_receipts "$S" 4
  M=$(pgrep -x mpirun -P $SP)
  if [ $who = all ]; then kill -TERM "$(rank_pid "$M" 0)" "$(rank_pid "$M" 1)"
  else kill -TERM "$(rank_pid "$M" 1)"; fi
  set +e; wait $SP; rc=$?; set -e
  drained "$S" "$who.log" $rc
  serve_start "$S" "$who.2.log" 2 --batch 4 --exit-when-idle 1
  set +e; wait $SP; rc=$?; set -e
  [ $rc -eq 0 ] || { cat "$who.2.log"; fail "$who: restart exited $rc"; }
  all_done "$S" $N "$who.log" "$who.2.log"
  echo "ok: $who: the restart proved the rest, every job once"
done
echo "serve_drain: OK (SIGTERM to all ranks and to rank 1: exit 75, nothing lost, nothing twice)"
