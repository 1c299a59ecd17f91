#!/bin/sh
# tests/integration/serve_zkey.sh — zkey jobs in the proving service:
# {"zkey": PATH, "wtns": PATH} jobs (paths relative to the submitted file,
# or, for a job written straight into incoming/, to the spool root) and
# test-circuit jobs in one spool, on 2 ranks, all proved (the zkey jobs on
# both curves: three BLS12-381, one bn128, in one batch): each zkey job's
# done/NAME.proof.json and NAME.public.json accepted by `grothmpi snarkjs
# verify` (and `snarkjs groth16 verify` when tests/interop's node_modules is
# there), its receipt of kind "zkey"; the test jobs' proofs verify. Bad zkey
# jobs go to failed/ with one line while the others prove: a missing zkey,
# a missing wtns, a zkey of an unknown curve (its q altered), a bn128 wtns
# for a BLS12-381 zkey, a wtns with one value
# more than its zkey's nVars (found by the proof: tried alone, then failed).
set -eu
. "$(dirname "$0")/lib/common.sh"
export OMPI_MCA_mpi_yield_when_idle=1
need mpirun python3
gm_tmp servezkey
. "$(dirname "$0")/lib/serve.sh"
V=$(cd tests/vectors/snarkjs && pwd)
SJ=$(pwd)/tests/interop/node_modules/snarkjs/build/cli.cjs
cd "$T"
serve_params
S="$T/spool"
mkdir -p "$S/incoming" sub
cp "$V/multiplier.zkey" "$V/multiplier.wtns" "$V/multiplier_bn128.zkey" "$V/multiplier_bn128.wtns" sub/
cp "$V/multiplier.zkey" "$S/root.zkey"
cp "$V/multiplier.wtns" "$S/root.wtns"
# the wtns with one value more (nWitness + 1, section 2 one value longer)
python3 - "$V/multiplier.wtns" long.wtns <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off, out = 12, bytearray(b[:12])
while off < len(b):
    t, sz = struct.unpack('<IQ', b[off:off + 12])
    d = bytearray(b[off + 12:off + 12 + sz])
    if t == 1:
        n8 = struct.unpack('<I', d[:4])[0]
        d[4 + n8:8 + n8] = struct.pack('<I', struct.unpack('<I', d[4 + n8:8 + n8])[0] + 1)
    if t == 2:
        d += d[-32:]
    out += struct.pack('<IQ', t, len(d)) + d
    off += 12 + sz
open(sys.argv[2], 'wb').write(out)
PY
# a zkey whose section 2 q (the base field's prime) is neither curve's
python3 - "$V/multiplier.zkey" odd.zkey <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off = 12
while off < len(b):
    t, sz = struct.unpack('<IQ', b[off:off + 12])
    if t == 2:
        b[off + 12 + 4] ^= 2      # q's lowest byte, after n8q
        break
    off += 12 + sz
open(sys.argv[2], 'wb').write(b)
PY
submit_jobs "$S" 2 t
echo '{"zkey": "multiplier.zkey", "wtns": "multiplier.wtns"}' > sub/z.json
"$BIN" submit "$S" sub/z.json --name z1 > /dev/null || fail "submit z1"
"$BIN" submit "$S" sub/z.json --name z2 > /dev/null || fail "submit z2"
echo '{"zkey": "root.zkey", "wtns": "root.wtns", "priority": 3}' > "$S/incoming/z3.json"
echo '{"zkey": "multiplier_bn128.zkey", "wtns": "multiplier_bn128.wtns"}' > sub/b.json
"$BIN" submit "$S" sub/b.json --name z4 > /dev/null || fail "submit z4"
bad() { # NAME TEXT
  printf '%s\n' "$2" > "$1.json"
  "$BIN" submit "$S" "$1.json" --name "$1" > /dev/null || fail "submit $1"
}
bad nozkey '{"zkey": "none.zkey", "wtns": "sub/multiplier.wtns"}'
bad nowtns '{"zkey": "sub/multiplier.zkey"}'
cp "$V/multiplier_bn128.wtns" bn.wtns
bad bnwtns '{"zkey": "sub/multiplier.zkey", "wtns": "bn.wtns"}'
bad oddzkey '{"zkey": "odd.zkey", "wtns": "sub/multiplier.wtns"}'
bad longwtns '{"zkey": "sub/multiplier.zkey", "wtns": "long.wtns"}'
bad mixed '{"zkey": "sub/multiplier.zkey", "wtns": "sub/multiplier.wtns", "seed": 1}'
timeout 300 mpirun -np 2 "$BIN" serve "$S" --params "$T/params" --batch 4 --max-wait 0.2 --poll 0.05 --threads 1 \
  --exit-when-idle 1 > serve.log 2>&1 || { cat serve.log; fail "the server stopped"; }
[ "$(nreceipts "$S")" -eq 6 ] || { cat serve.log; fail "$(nreceipts "$S") receipts, expected 6"; }
for j in t1 t2; do
  "$BIN" verify --vk "$VK" --proof "$S/done/$j.proof" --inputs "$S/done/$j.public.json" > /dev/null || fail "$j: verify"
done
for j in z1 z2 z3 z4; do
  x=; [ $j = z4 ] && x=_bn128
  [ -f "$S/done/$j.json" ] || fail "$j: no job file in done/"
  "$BIN" snarkjs verify "$V/verification_key$x.json" "$S/done/$j.public.json" "$S/done/$j.proof.json" > /dev/null \
    || fail "$j: grothmpi snarkjs verify"
  cmp -s "$S/done/$j.public.json" "$V/public$x.json" || fail "$j: public.json is not snarkjs's"
  grep -q '"kind": "zkey"' "$S/done/$j.receipt.json" || { cat "$S/done/$j.receipt.json"; fail "$j: receipt kind"; }
  grep -q "\"proof\": \"$j.proof.json\"" "$S/done/$j.receipt.json" || fail "$j: receipt's proof file"
  if command -v node >/dev/null && [ -f "$SJ" ]; then
    node "$SJ" groth16 verify "$V/verification_key$x.json" "$S/done/$j.public.json" "$S/done/$j.proof.json" \
      > sj.out 2>&1 && grep -q "OK!" sj.out || { cat sj.out; fail "$j: snarkjs groth16 verify"; }
  fi
done
reason() { # NAME PATTERN
  [ -f "$S/failed/$1.json" ] || { cat serve.log; fail "$1: not in failed/"; }
  [ "$(wc -l < "$S/failed/$1.reason")" -eq 1 ] || fail "$1: not one line"
  grep -q -- "$2" "$S/failed/$1.reason" || { cat "$S/failed/$1.reason"; fail "$1: reason"; }
  echo "ok: $1: $(cat "$S/failed/$1.reason")"
}
reason nozkey "^incoming/nozkey.json: zkey '$T/none.zkey': No such file or directory"
reason nowtns "^incoming/nowtns.json: wtns: missing"
reason bnwtns "^incoming/bnwtns.json: zkey '.*multiplier.zkey' is bls12381's, wtns '.*bn.wtns' bn128's"
reason oddzkey "^incoming/oddzkey.json: zkey: .*odd.zkey: section 2 (header): q (48 bytes) is neither bn128's nor bls12381's"
reason longwtns "^incoming/longwtns.json: not proved: .*long.wtns' has 5 values, its zkey .* nVars 4"
reason mixed "^incoming/mixed.json: a zkey job takes no seed"
grep -q "^serve: proved z1 " serve.log || fail "no 'proved z1' line"
echo "serve_zkey: all passed"
