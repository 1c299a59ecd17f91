#!/bin/sh
# tests/integration/serve_claim.sh — two servers on one spool (one on 2
# ranks under mpirun, one singleton) while jobs arrive: every job is claimed
# and proved exactly once, every proof verifies; `grothmpi submit --wait`
# prints the receipt's path; `grothmpi serve status` counts them; a restart
# of the same spool finds nothing to do. Exit 0 = pass.
set -eu
. "$(dirname "$0")/lib/common.sh"
export OMPI_MCA_mpi_yield_when_idle=1
need mpirun
gm_tmp serveclaim
. "$(dirname "$0")/lib/serve.sh"
cd "$T"
serve_params
S="$T/spool"
mkdir -p "$S/incoming"
N=24
serve_start "$S" a.log 2 --batch 4 --exit-when-idle 4
A=$SP
serve_start "$S" b.log 0 --batch 2 --exit-when-idle 4
B=$SP
submit_jobs "$S" $N j
# One more, waited for: its receipt's path, exit 0.
echo '{"circuit": "test-synthetic", "constraints": 1024, "seed": 99}' > w.json
timeout 120 "$BIN" submit "$S" w.json --wait --name waited > w.out || { cat w.out; fail "submit --wait"; }
[ "$(sed -n 2p w.out)" = "$S/done/waited.receipt.json" ] || { cat w.out; fail "submit --wait: not the receipt's path"; }
grep -q '"job": "waited"' "$S/done/waited.receipt.json" || fail "the receipt does not name its job"
set +e; wait $A; ra=$?; wait $B; rb=$?; set -e
[ $ra -eq 0 ] && [ $rb -eq 0 ] || { cat a.log b.log; fail "servers exited $ra and $rb"; }
all_done "$S" $((N + 1)) a.log b.log
pa=$(grep -c '^serve: proved ' a.log || true); pb=$(grep -c '^serve: proved ' b.log || true)
[ $((pa + pb)) -eq $((N + 1)) ] || { cat a.log b.log; fail "$pa + $pb proved lines, expected $((N + 1))"; }
"$BIN" serve status "$S" > st.out
grep -q "0 incoming, 0 active, $((N + 1)) done, 0 failed" st.out || { cat st.out; fail "serve status: counts"; }
[ "$(grep -c ': not running, stopped' st.out)" -eq 2 ] || { cat st.out; fail "serve status: two stopped servers"; }
# The cluster report and the per-job rows of each server.
for f in "$S"/servers/*.report.json; do "$BIN" report "$f" > /dev/null || fail "$f: not a report"; done
[ "$(cat "$S"/servers/*.jobs.csv | grep -c ',done,')" -eq $((N + 1)) ] || fail "jobs.csv: not one row per job"
# A restart finds nothing to do; a relative --params is the working
# directory's (not the batch campaign's): one more job is proved with it.
timeout 120 "$BIN" serve spool --params params --exit-when-idle 0.5 > c.log 2>&1 || { cat c.log; fail "restart"; }
grep -q "exiting (0 proved, 0 failed" c.log || { cat c.log; fail "the restart proved something"; }
"$BIN" submit spool w.json --name relative > /dev/null
timeout 120 "$BIN" serve spool --params params --exit-when-idle 0.5 > d.log 2>&1 || { cat d.log; fail "relative --params"; }
grep -q "exiting (1 proved, 0 failed" d.log || { cat d.log; fail "relative --params: not proved"; }
echo "serve_claim: OK ($((N + 1)) jobs, $pa by the 2-rank server, $pb by the singleton, each once, all verified)"
