#!/bin/sh
# tests/integration/split_campaign_zkey.sh — a "circuit": "snarkjs" campaign
# with "split": R (docs/campaign.md, "Split units"): sectors of both curves
# (the committed multiplier vectors, BLS12-381 and bn128, alternating), each
# proved by a group of R ranks with the split zkey prover of its curve:
#  1. split 2 and split 4 on 4 ranks: every unit's proof.json accepted by
#     `grothmpi snarkjs verify` and `snarkjs groth16 verify` (campaigns draw
#     r and s at random, so proofs are compared by verification, not bytes),
#     public.json snarkjs's byte for byte, the .proof 192 (BLS12-381) or 256
#     (bn128) bytes; report.json holds every group's accounts; a rerun
#     resumes every unit;
#  2. a .wtns of the other curve fails the unit on its group: one line
#     naming the group, the rank and the sector, nothing written for it;
#  3. SIGTERM to rank 3 (group 1, not its leader) mid-run: exit 75, journal
#     and files agree; a rerun completes with every unit once.
set -eu
. "$(dirname "$0")/lib/common.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
need mpirun python3
gm_tmp splitcampzk
V=$(cd tests/vectors/snarkjs && pwd)
SJ=$(pwd)/tests/interop/node_modules/snarkjs/build/cli.cjs
cd "$T"
. "$HERE/lib/journal.sh"
cp "$V/multiplier.zkey" "$V/multiplier.wtns" "$V/multiplier_bn128.zkey" "$V/multiplier_bn128.wtns" .

# campaign NAME SPLIT COUNT: COUNT sectors, even ones BLS12-381 ("m<i>"), odd ones bn128 ("b<i>")
campaign() {
  python3 - "$@" <<'PY'
import json, sys
name, split, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sec = [{"id": "b%d" % i, "zkey": "multiplier_bn128.zkey", "wtns": "multiplier_bn128.wtns"} if i % 2 else
       {"id": "m%d" % i, "zkey": "multiplier.zkey", "wtns": "multiplier.wtns"} for i in range(n)]
json.dump({"name": name, "circuit": "snarkjs", "sectors": sec, "output": name, "split": split,
           "resources": {"threads": 1}, "progress_interval": 0}, open(name + ".json", "w"))
PY
}
# check DIR: every proof in DIR verifies, with snarkjs's public.json
check() {
  for pf in "$1"/proofs/*.proof.json; do
    s=$(basename "$pf" .proof.json) x= len=192
    case $s in b*) x=_bn128 len=256 ;; esac
    pub="$1/proofs/$s.public.json"
    [ "$(wc -c < "$1/proofs/$s.proof")" -eq $len ] || fail "$1: $s.proof is not $len bytes"
    "$BIN" snarkjs verify "$V/verification_key$x.json" "$pub" "$pf" > /dev/null || fail "$1: $s: grothmpi snarkjs verify"
    cmp -s "$pub" "$V/public$x.json" || fail "$1: $s: public.json is not snarkjs's"
    if command -v node > /dev/null && [ -f "$SJ" ]; then
      node "$SJ" groth16 verify "$V/verification_key$x.json" "$pub" "$pf" > sj.out 2>&1 && grep -q "OK!" sj.out \
        || { cat sj.out; fail "$1: $s: snarkjs groth16 verify"; }
    fi
  done
}
# once DIR COUNT: every unit exactly once in the journal, COUNT of them
once() {
  [ "$(ndone "$1")" -eq "$2" ] || fail "$1: $(ndone "$1") journal lines, expected $2"
  [ "$(grep '^done ' "$1/journal" | cut -d' ' -f2 | sort -u | wc -l)" -eq "$2" ] || fail "$1: a unit journaled twice"
}

# 1. split 2 and 4 on 4 ranks, 6 sectors of both curves
N=6
for R in 2 4; do
  campaign s$R $R $N
  timeout 120 mpirun -np 4 "$BIN" campaign run s$R.json > s$R.out 2>&1 || { cat s$R.out; fail "split $R"; }
  grep -q "campaign done: $N units, $N proved in this run, 0 resumed" s$R.out || { cat s$R.out; fail "split $R: summary"; }
  consistent s$R
  once s$R $N
  check s$R
  python3 - s$R/report.json $R <<'PY' || fail "split $R: report.json's accounts"
import json, sys
r = json.load(open(sys.argv[1]))
R = int(sys.argv[2])
sp = r["split"]
assert sp["ranks_per_group"] == R and sp["groups"] == 4 // R, sp
per = sp["per_rank"]
assert [p["rank"] for p in per] == [0, 1, 2, 3] and [p["group"] for p in per] == [k // R for k in range(4)], per
units = [rk["units"] for rk in r["ranks"]]
assert sum(units[::R]) == 6 and all(units[k] == units[k - k % R] for k in range(4)), units
for p in per:
    assert p["points"] > 0 and p["key_bytes"] > 0, p
PY
  timeout 120 mpirun -np 4 "$BIN" campaign run s$R.json > s$R.again 2>&1 || { cat s$R.again; fail "split $R: rerun"; }
  grep -q "campaign done: $N units, 0 proved in this run, $N resumed" s$R.again || { cat s$R.again; fail "split $R: not resumed"; }
  echo "ok: split $R on 4 ranks: $N units of both curves, every proof verifies, public.json snarkjs's; resumed"
done
command -v node > /dev/null && [ -f "$SJ" ] || echo "note: no tests/interop/node_modules: snarkjs verify skipped"

# 2. a bn128 .wtns for a BLS12-381 zkey: its group fails the unit, one line
cp multiplier_bn128.wtns other.wtns
printf '{"circuit": "snarkjs", "split": 2, "resources": {"threads": 1}, "output": "w", "sectors": [%s]}\n' \
  '{"id": "a", "zkey": "multiplier.zkey", "wtns": "other.wtns"}' > w.json
if timeout 120 mpirun -np 4 "$BIN" campaign run w.json > w.out 2> w.err; then fail "a bn128 wtns: accepted"; fi
[ "$(grep -c '^grothmpi: ' w.err)" -eq 1 ] || { cat w.out w.err; fail "bad wtns: not one error line"; }
grep -q "group 0, rank [01]: sector a: .*other.wtns.*bn128" w.err || { cat w.err; fail "bad wtns: message"; }
[ ! -e w/proofs/a-p0.proof.json ] || fail "bad wtns: a proof was written"
echo "ok: a wtns of the other curve: $(grep '^grothmpi: ' w.err)"

# 3. SIGTERM to rank 3 once 2 units are journaled
M=120
campaign term 2 $M
timeout 300 mpirun -np 4 "$BIN" campaign run term.json > term.out 2> term.err &
P0=$!
wait_done term 2
P=$(rank_pid "$(pgrep -x mpirun -P $P0)" 3)
[ -n "$P" ] || fail "term: rank 3 not found"
kill -TERM "$P"
set +e; wait $P0; rc=$?; set -e
[ $rc -eq 75 ] || { cat term.out term.err; fail "term: exit $rc, expected 75"; }
grep -q "^grothmpi: .*interrupted by signal 15 .*: $(ndone term) of $M units done and journaled" term.err \
  || { cat term.err; fail "term: not the interrupted line"; }
d=$(ndone term)
consistent term
timeout 300 mpirun -np 4 "$BIN" campaign run term.json > term.rerun 2>&1 || { cat term.rerun; fail "term: rerun"; }
grep -q "campaign done: $M units, $((M - d)) proved in this run, $d resumed" term.rerun \
  || { cat term.rerun; fail "term: the rerun did not resume exactly the $d journaled units"; }
consistent term
once term $M
for s in m0 b1 m$((M - 2)) b$((M - 1)); do
  x=; case $s in b*) x=_bn128 ;; esac
  "$BIN" snarkjs verify "$V/verification_key$x.json" "term/proofs/$s-p0.public.json" "term/proofs/$s-p0.proof.json" \
    > /dev/null || fail "term: $s does not verify"
done
echo "ok: SIGTERM to rank 3: exit 75, $d of $M journaled, consistent; the rerun completed, every unit once"
echo "PASS: split snarkjs campaigns: both curves on split 2 and 4, proofs verify; resume, a bad wtns, SIGTERM"
