#!/bin/sh
# tests/integration/split_campaign.sh — a campaign's "split": R (docs/split.md,
# docs/campaign.md): test-synthetic on 4 ranks with split 2 (two groups of two
# ranks, each unit proved by one group with mpi_split_prove):
#  1. every unit's proof verifies, and the units and public inputs are those
#     of the unsplit campaign (campaigns draw r and s at random for every
#     proof, so the proof bytes differ from run to run: compared by
#     verification, not bytes); report.json holds both groups' accounts, and
#     `grothmpi report` prints them per group;
#  2. split 3 on 4 ranks: one error line naming the file and the field, exit
#     non-zero, nothing proved;
#  3. SIGTERM to one rank of group 1 (not its leader) mid-run: exit 75, the
#     "interrupted" line, journal and files agree; a rerun completes, every
#     unit exactly once in the journal;
#  3b. the parameter file touched mid-run: one line naming the group and the
#     file, exit non-zero, journal and files agree; a rerun completes;
#  4. a rank SIGKILLed mid-run: mpirun fails the job (non-zero), no partial
#     proof file, journal and files agree; a rerun completes;
#  5. with root and network namespaces: 4 ranks on 2 namespace hosts over TCP,
#     each group spanning both hosts: every proof verifies, same public inputs.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/netns.sh" # netns_mpirun (scenario 5 makes its hosts itself: T exists by then)
HERE=$(cd "$(dirname "$0")" && pwd)
need mpirun
gm_tmp splitcamp
cd "$T"
. "$HERE/lib/journal.sh"
SEED=00000000000000000000000000000000000000000000000000000000000000d7
N=12
VK=params/test-synthetic-1024.vk
"$BIN" setup --circuit test-synthetic --constraints 1024 --out params --seed $SEED > /dev/null
campaign() { # NAME SPLIT COUNT: a campaign writing into NAME/
  cat > "$1.json" <<JSON
{ "name": "$1", "circuit": "test-synthetic", "constraints": 1024, "params": "params", "setup": "never",
  "sectors": {"count": $3}, "partitions": 1, "output": "$1", "split": $2,
  "resources": {"threads": 1}, "progress_interval": 0 }
JSON
}
# once DIR COUNT: every unit exactly once in the journal, COUNT of them
once() {
  [ "$(ndone "$1")" -eq "$2" ] || fail "$1: $(ndone "$1") journal lines, expected $2"
  [ "$(grep '^done ' "$1/journal" | cut -d' ' -f2 | sort -u | wc -l)" -eq "$2" ] || fail "$1: a unit journaled twice"
}
# rerun DIR COUNT: the rerun proves exactly what the journal lacks
rerun() {
  d=$(ndone "$1")
  timeout 300 mpirun -np 4 "$BIN" prove "$1.json" > "$1.rerun" 2>&1 || { cat "$1.rerun"; fail "$1: rerun"; }
  grep -q "campaign done: $2 units, $(($2 - d)) proved in this run, $d resumed" "$1.rerun" \
    || { cat "$1.rerun"; fail "$1: the rerun did not resume exactly the $d journaled units"; }
  consistent "$1"
  once "$1" "$2"
}

# 1. split 2 on 4 ranks against the unsplit campaign on 1 rank
campaign whole 1 $N
timeout 300 "$BIN" prove whole.json > whole.out 2>&1 || { cat whole.out; fail "unsplit campaign"; }
campaign split 2 $N
timeout 300 mpirun -np 4 "$BIN" prove split.json > split.out 2>&1 || { cat split.out; fail "split campaign"; }
grep -q "campaign done: $N units, $N proved in this run, 0 resumed" split.out || { cat split.out; fail "split: summary"; }
consistent split
once split $N
same_proofs $VK $N whole split
python3 - split/report.json <<'PY' || fail "split: report.json's accounts"
import json, sys
r = json.load(open(sys.argv[1]))
sp = r["split"]
assert sp["ranks_per_group"] == 2 and sp["groups"] == 2, sp
per = sp["per_rank"]
assert [p["rank"] for p in per] == [0, 1, 2, 3] and [p["group"] for p in per] == [0, 0, 1, 1], per
units = [rk["units"] for rk in r["ranks"]]
assert units[0] == units[1] and units[2] == units[3] and units[0] + units[2] == 12, units
for p in per:
    # each rank holds about half the key, and sent and received NTT columns
    assert p["key_bytes"] > 0 and p["points"] > 0 and p["mem_peak_bytes"] > 0, p
    assert p["stages"]["ntt"]["sent_bytes"] > 0 and p["stages"]["ntt"]["recv_bytes"] > 0, p
    assert p["stages"]["ntt"]["network_wait_s"] >= 0, p
    if units[p["rank"]]:
        red = p["stages"]["reduce"]
        assert (red["recv_bytes"] if p["rank"] % 2 == 0 else red["sent_bytes"]) > 0, p
PY
"$BIN" report split/report.json > report.txt
grep -q '^group 1 (ranks 2\.\.3):' report.txt || { cat report.txt; fail "report: no group 1 table"; }
[ "$(grep -c '^split: *[0-3]  *[0-9]' report.txt)" -eq 4 ] || { cat report.txt; fail "report: not 4 split rows"; }
echo "ok: split 2 on 4 ranks: $N units, every proof verifies, same units and public inputs as unsplit; accounts per group"

# 2. split 3 on 4 ranks
campaign three 3 4
set +e; timeout 120 mpirun -np 4 "$BIN" prove three.json > three.out 2> three.err; rc=$?; set -e
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "split 3 on 4 ranks: exit $rc"
[ "$(grep -c '^grothmpi: ' three.err)" -eq 1 ] || { cat three.err; fail "split 3: not one error line"; }
grep -q "^grothmpi: prove: .*three.json: split: 3 does not divide the job's 4 ranks" three.err \
  || { cat three.err; fail "split 3: the line does not name the file and the field"; }
[ ! -d three/proofs ] || [ -z "$(ls three/proofs)" ] || fail "split 3: proofs written"
echo "ok: split 3 on 4 ranks: $(grep '^grothmpi: ' three.err)"

# hit NAME SIG RANK [MPIRUN OPTION...]: campaign NAME on 4 ranks, SIG to
# rank RANK once 2 units are journaled; rc: mpirun's exit status
hit() {
  n=$1; sig=$2; rk=$3; shift 3
  timeout 300 mpirun -np 4 "$@" "$BIN" prove "$n.json" > "$n.out" 2> "$n.err" &
  M=$!
  wait_done "$n" 2
  P=$(rank_pid "$(pgrep -x mpirun -P $M)" "$rk")
  [ -n "$P" ] || fail "$n: rank $rk not found"
  kill "-$sig" "$P"
  set +e; wait $M; rc=$?; set -e
}

# 3. SIGTERM to rank 3 (group 1, not its leader): the group agrees to stop,
# its leader tells rank 0, which hands out nothing more; exit 75
M3=24
campaign term 2 $M3
hit term TERM 3
[ $rc -eq 75 ] || { cat term.err; fail "term: exit $rc, expected 75"; }
[ "$(grep -c '^grothmpi: ' term.err)" -eq 1 ] || { cat term.err; fail "term: not one error line"; }
grep -q "^grothmpi: prove: interrupted by signal 15 .*: $(ndone term) of $M3 units done and journaled in .*/term, .* left; rerun" term.err \
  || { cat term.err; fail "term: not the interrupted line"; }
[ "$(ndone term)" -lt $M3 ] || echo "note: term finished before the signal landed"
consistent term
echo "ok: SIGTERM to rank 3: exit 75, $(ndone term) of $M3 journaled, consistent"
rerun term $M3
echo "ok: term: the rerun completed, every unit once"

# 3b. the key changed between units (the ranks read their slices at every
# unit): the group that sees it fails the run with one line naming the file;
# the journal agrees with the files; the rerun (the digest computed again:
# the same bytes) completes
campaign changed 2 $M3
timeout 300 mpirun -np 4 "$BIN" prove changed.json > changed.out 2> changed.err &
M=$!
wait_done changed 2
touch params/test-synthetic-1024.params
set +e; wait $M; rc=$?; set -e
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "changed: exit $rc"
[ "$(grep -c '^grothmpi: ' changed.err)" -eq 1 ] || { cat changed.err; fail "changed: not one error line"; }
grep -q "^grothmpi: prove: rank [02] (.*): group [01], rank [0-3]: .*/params/test-synthetic-1024.params: changed since this node checked its digest" changed.err \
  || { cat changed.err; fail "changed: the line does not name the group and the file"; }
consistent changed
echo "ok: key changed mid-run: exit $rc, $(grep '^grothmpi: ' changed.err)"
rerun changed $M3
echo "ok: changed: the rerun completed, every unit once"

# 4. rank 2 (group 1's leader) SIGKILLed: mpirun aborts the job
campaign kill 2 $M3
hit kill KILL 2 --mca odls_base_sigkill_timeout 1
[ $rc -ne 0 ] && [ $rc -ne 124 ] || fail "kill: exit $rc"
d=$(ndone kill)
[ "$d" -lt $M3 ] || echo "note: kill finished before the rank died"
# mpirun SIGKILLs the others after a second: rank 0 may die between a
# proof's rename and its journal line (a whole proof the rerun replaces), or
# inside a write (its temporary, which the rerun removes); never a partial
# proof under a proof's name: consistent checks every journaled file's hash.
consistent kill orphans-ok tmp-ok
for p in kill/proofs/*.proof; do
  [ -e "$p" ] || continue
  "$BIN" verify --vk $VK --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null || fail "kill: $p is not a valid proof"
done
echo "ok: rank 2 killed: mpirun exit $rc, $d of $M3 journaled, every proof file valid"
rerun kill $M3
for p in kill/proofs/*.proof term/proofs/*.proof; do
  "$BIN" verify --vk $VK --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null || fail "$p does not verify"
done
echo "ok: kill: the rerun completed, every unit once, all proofs verify"

# 5. over TCP: 4 ranks on 2 network-namespace hosts, mapped by node (ranks
# 0 and 2 on gmc1, 1 and 3 on gmc2), so each group of 2 spans both hosts and
# its all-to-alls and reduce cross the bridge; each host digests the key once.
# Skipped (with a line) without root or network namespaces.
if [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null && command -v unshare >/dev/null &&
   ip netns add "gmc-probe.$$" 2>/dev/null; then
  ip netns del "gmc-probe.$$"
  NETNS_P=gmc; NETNS_NET=10.83.0
  trap 'sh "$NETNS_DIR/netns-down.sh" $NETNS_P $NETNS_NET; rm -rf "$T"' EXIT
  sh "$NETNS_DIR/netns-down.sh" $NETNS_P $NETNS_NET # leftovers of a killed run
  sh "$NETNS_DIR/netns-up.sh" 2 $NETNS_P $NETNS_NET
  campaign tcp 2 8
  netns_mpirun 300 gmc1:2,gmc2:2 tcp,vader,self -np 4 --map-by node "$BIN" prove tcp.json > tcp.out 2>&1 \
    || { cat tcp.out; fail "tcp: mpirun"; }
  grep -q "campaign done: 8 units, 8 proved in this run" tcp.out || { cat tcp.out; fail "tcp: summary"; }
  consistent tcp
  once tcp 8
  for p in tcp/proofs/*.proof; do
    "$BIN" verify --vk $VK --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null || fail "tcp: $p does not verify"
    cmp -s "${p%.proof}.public.json" "whole/proofs/$(basename "${p%.proof}").public.json" || fail "tcp: $p: other public inputs"
  done
  python3 - tcp/report.json <<'PY' || fail "tcp: report.json"
import json, sys
r = json.load(open(sys.argv[1]))
hosts = [rk["host"] for rk in r["ranks"]]
assert hosts == ["gmc1", "gmc2", "gmc1", "gmc2"], hosts
for p in r["split"]["per_rank"]:
    assert p["stages"]["ntt"]["sent_bytes"] > 0, p
PY
  echo "ok: tcp: split 2 on 2 namespace hosts (each group spanning both), 8 proofs verify, same public inputs"
else
  echo "note: tcp scenario skipped (needs root and network namespaces)"
fi
echo "PASS: split campaigns: proofs verify and match the unsplit units; split 3 of 4 refused; SIGTERM exits 75 and a killed rank fails cleanly, reruns complete"
