# tests/integration/lib/split_snarkjs.sh — sourced by split_snarkjs.sh and
# split_snarkjs_bn.sh (after common.sh; the caller defines T, SJ (node
# running snarkjs's cli.cjs) and BIN): the checks of `snarkjs prove --split`
# that hold on every curve.

# split_ranks_check ZKEY WTNS VK [UNSPLIT-OPTIONS...]: the unsplit proof
# with --proof-seed 11 ($T/ref.json), then the split proof on 1..4 ranks
# with the same seed: the unsplit proof's bytes and public.json, one account
# per rank; snarkjs accepts the 3-rank proof, each of whose ranks holds a
# third of the points; a split proof with random r, s differs and snarkjs
# accepts it too.
split_ranks_check() {
  zk=$1 wt=$2 vk=$3
  shift 3
  "$BIN" snarkjs prove "$zk" "$wt" "$T/ref.json" "$T/ref.pub.json" --proof-seed 11 --threads 1 "$@" \
    > "$T/ref.log" 2>&1 || { cat "$T/ref.log"; fail "unsplit prove"; }
  for r in 1 2 3 4; do
    timeout 120 mpirun -np $r "$BIN" snarkjs prove --split "$zk" "$wt" "$T/s$r.json" "$T/s$r.pub.json" \
      --proof-seed 11 --threads 1 --json > "$T/s$r.log" 2>&1 || { cat "$T/s$r.log"; fail "--split on $r ranks"; }
    cmp -s "$T/ref.json" "$T/s$r.json" || fail "--split on $r ranks: the proof differs from the unsplit one"
    cmp -s "$T/ref.pub.json" "$T/s$r.pub.json" || fail "--split on $r ranks: public.json differs"
    [ "$(grep -c '"key_bytes"' "$T/s$r.log")" -eq $r ] || { cat "$T/s$r.log"; fail "$r ranks: not $r accounts"; }
  done
  $SJ groth16 verify "$vk" "$T/s3.pub.json" "$T/s3.json" > "$T/v3.log" 2>&1 && grep -q "OK!" "$T/v3.log" \
    || { cat "$T/v3.log"; fail "snarkjs rejects the proof split over 3 ranks"; }
  pts=$(grep '"points"' "$T/s1.log" | tr -dc 0-9)
  for p in $(grep '"points"' "$T/s3.log" | tr -dc '0-9\n'); do
    [ $((p * 3)) -ge $((pts - 15)) ] && [ $((p * 3)) -le $((pts + 15)) ] || fail "3 ranks: a rank holds $p of $pts points"
  done
  timeout 120 mpirun -np 2 "$BIN" snarkjs prove --split "$zk" "$wt" "$T/rnd.json" "$T/rnd.pub.json" \
    --threads 1 > "$T/rnd.log" 2>&1 || { cat "$T/rnd.log"; fail "random r, s"; }
  cmp -s "$T/ref.json" "$T/rnd.json" && fail "random r, s gave the seeded proof"
  $SJ groth16 verify "$vk" "$T/rnd.pub.json" "$T/rnd.json" > "$T/v2.log" 2>&1 && grep -q "OK!" "$T/v2.log" \
    || { cat "$T/v2.log"; fail "snarkjs rejects the random split proof"; }
}
