#!/bin/sh
# tests/integration/campaign_zkey.sh — a "circuit": "snarkjs" campaign: three
# sectors, each a .zkey and a .wtns (the committed multiplier vectors: two
# BLS12-381, one bn128, in one campaign), on 2 ranks: each unit's proof.json
# and public.json accepted by
# `grothmpi snarkjs verify` and, when tests/interop's node_modules is there,
# by `snarkjs groth16 verify`; public.json is snarkjs's byte for byte; the
# .proof is 192 bytes (BLS12-381) or 256 (bn128, the Ethereum encoding);
# the journal and the report have every unit; a rerun resumes them. Bad
# campaigns (a missing zkey or wtns, an unknown sector key, a params key,
# verify "root", two partitions) and a wtns that does not fit its zkey give
# one error line and a non-zero exit.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
gm_tmp campaign-zkey
V=$(cd tests/vectors/snarkjs && pwd)
cp "$V/multiplier.zkey" "$V/multiplier.wtns" "$V/multiplier_bn128.zkey" "$V/multiplier_bn128.wtns" "$T/"

cat > "$T/c.json" <<JSON
{
  "name": "zk", "circuit": "snarkjs",
  "sectors": [{"id": "m1", "zkey": "multiplier.zkey", "wtns": "multiplier.wtns"},
              {"id": "m2", "zkey": "$T/multiplier.zkey", "wtns": "multiplier.wtns"},
              {"id": "b1", "zkey": "multiplier_bn128.zkey", "wtns": "multiplier_bn128.wtns"}],
  "output": "out", "resources": {"threads": 1}, "progress_interval": 0
}
JSON

(cd "$T" && timeout 120 mpirun -np 2 "$BIN" campaign run c.json > run.out 2> run.err) \
  || { cat "$T/run.out" "$T/run.err"; fail "zkey campaign on 2 ranks"; }
grep -q "^campaign run: campaign done: 3 units, 3 proved in this run, 0 resumed" "$T/run.out" \
  || { cat "$T/run.out"; fail "no summary line"; }
grep -q "cluster report: campaign zk, circuit snarkjs, 2 ranks" "$T/run.out" || { cat "$T/run.out"; fail "no report"; }
[ "$(grep -c '^done ' "$T/out/journal")" -eq 3 ] || fail "the journal has not 3 done lines"
SJ=tests/interop/node_modules/snarkjs/build/cli.cjs
for s in m1 m2 b1; do
  pf="$T/out/proofs/$s-p0.proof.json" pub="$T/out/proofs/$s-p0.public.json" x= len=192
  [ "$s" = b1 ] && x=_bn128 len=256
  [ "$(wc -c < "$T/out/proofs/$s-p0.proof")" -eq $len ] || fail "$s: .proof is not $len bytes"
  grep -q "\"curve\": \"$([ -n "$x" ] && echo bn128 || echo bls12381)\"" "$pf" || fail "$s: proof.json's curve"
  "$BIN" snarkjs verify "$V/verification_key$x.json" "$pub" "$pf" >/dev/null || fail "$s: grothmpi snarkjs verify"
  cmp -s "$pub" "$V/public$x.json" || fail "$s: public.json is not snarkjs's"
  if command -v node >/dev/null && [ -f "$SJ" ]; then
    node "$SJ" groth16 verify "$V/verification_key$x.json" "$pub" "$pf" > "$T/sj.out" 2>&1 \
      && grep -q "OK!" "$T/sj.out" || { cat "$T/sj.out"; fail "$s: snarkjs groth16 verify"; }
  fi
done
command -v node >/dev/null && [ -f "$SJ" ] || echo "note: no tests/interop/node_modules: snarkjs verify skipped"
grep -q '"proved": *3' "$T/out/report.json" || grep -q '"proved":3' "$T/out/report.json" || fail "report.json: not 3 proved"

(cd "$T" && timeout 120 mpirun -np 2 "$BIN" campaign run c.json > again.out 2>&1) || { cat "$T/again.out"; fail "rerun"; }
grep -q "campaign done: 3 units, 0 proved in this run, 3 resumed" "$T/again.out" || { cat "$T/again.out"; fail "not resumed"; }
# the bn128 unit's proof edited: its digest no longer matches, so it alone is proved again
printf 'x' | dd of="$T/out/proofs/b1-p0.proof" bs=1 seek=5 conv=notrunc 2>/dev/null
(cd "$T" && timeout 120 mpirun -np 2 "$BIN" campaign run c.json > third.out 2>&1) || { cat "$T/third.out"; fail "third run"; }
grep -q "campaign done: 3 units, 1 proved in this run, 2 resumed" "$T/third.out" || { cat "$T/third.out"; fail "b1 not proved again"; }
"$BIN" snarkjs verify "$V/verification_key_bn128.json" "$T/out/proofs/b1-p0.public.json" "$T/out/proofs/b1-p0.proof.json" \
  >/dev/null || fail "b1, proved again: grothmpi snarkjs verify"

# bad campaigns: one line, naming the file and key
bad() { # bad DESC PATTERN JSON-SECTORS [EXTRA-KEYS]
  printf '{"circuit": "snarkjs", "sectors": %s, "output": "o"%s}\n' "$3" "${4:-}" > "$T/b.json"
  if "$BIN" campaign run "$T/b.json" > "$T/b.out" 2> "$T/b.err"; then fail "$1: accepted"; fi
  [ "$(wc -l < "$T/b.err")" -eq 1 ] && grep -q "$2" "$T/b.err" || { cat "$T/b.out" "$T/b.err"; fail "$1: message"; }
}
bad "missing zkey" "sectors\[0\].zkey: '$T/none.zkey'" '[{"id": "a", "zkey": "none.zkey", "wtns": "multiplier.wtns"}]'
bad "no wtns key" "sectors\[0\].wtns: missing" '[{"id": "a", "zkey": "multiplier.zkey"}]'
bad "missing wtns" "sectors\[0\].wtns: '$T/no.wtns'" '[{"id": "a", "zkey": "multiplier.zkey", "wtns": "no.wtns"}]'
bad "unknown key" "sectors\[0\].c1: unknown key" '[{"id": "a", "c1": "x", "zkey": "multiplier.zkey", "wtns": "multiplier.wtns"}]'
bad "count form" "sectors: circuit snarkjs needs an array" '{"count": 2}'
S='[{"id": "a", "zkey": "multiplier.zkey", "wtns": "multiplier.wtns"}]'
bad "params key" "params: not for circuit snarkjs" "$S" ', "params": "p"'
bad "verify root" "verify: 'root'" "$S" ', "verify": "root"'
bad "partitions" "partitions: 2" "$S" ', "partitions": 2'
# a wtns of the other curve: the zkey's curve's reader refuses it for its prime
cp "$V/multiplier_bn128.wtns" "$T/other.wtns"
printf '{"circuit": "snarkjs", "sectors": [{"id": "a", "zkey": "multiplier.zkey", "wtns": "other.wtns"}], "output": "o2"}\n' \
  > "$T/w.json"
if (cd "$T" && "$BIN" campaign run w.json > w.out 2> w.err); then fail "a bn128 wtns: accepted"; fi
grep -q "bn128" "$T/w.err" || { cat "$T/w.err"; fail "bn128 wtns for a BLS12-381 zkey: message names no curve"; }
grep -q "sector a: .*other.wtns" "$T/w.err" || { cat "$T/w.out" "$T/w.err"; fail "bad wtns: message"; }
[ ! -e "$T/o2/proofs/a-p0.proof.json" ] || fail "bad wtns: a proof was written"
echo "campaign_zkey: all passed"
