#!/bin/sh
# tests/integration/split_snarkjs_bn.sh — `grothmpi snarkjs prove --split`
# on bn128 zkeys, and the development ptau they are set up from.
# `grothmpi snarkjs ptau --curve bn128` is accepted by the real snarkjs:
# `groth16 setup` on it for a circom-free circuit written here (BN254's r,
# 300 constraints, a chain of products and linear steps, domain 2^9), `zkey
# verify` of that key against the r1cs and the ptau, and snarkjs's own
# proof on that key, which `snarkjs groth16 verify` and `grothmpi snarkjs
# verify` accept; the same seed writes the same file; an unknown --curve is
# refused (exit 2). With the same --proof-seed, --split on R = 1, 2, 3 and 4
# ranks gives the very bytes of the unsplit `grothmpi snarkjs prove`, each
# rank holding about 1/R of the points, and snarkjs verifies the split
# proof; so does the committed bn128 multiplier on 3 and 5 ranks; random r,
# s give another proof snarkjs accepts; a truncated zkey fails every R with
# one line naming the file and the section, writing nothing, and so does a
# bad section-4 entry on 3 ranks (every rank returns, the line names the
# rank that read it). Needs mpirun,
# python3 and node (tests/interop/node_modules; GM_SKIP_INTEROP=1 skips).
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/split_snarkjs.sh"
if [ "${GM_SKIP_INTEROP:-0}" = 1 ]; then echo "SKIP: GM_SKIP_INTEROP=1"; exit 0; fi
need mpirun python3 node
SJ="node $(pwd)/tests/interop/node_modules/snarkjs/build/cli.cjs"
[ -f tests/interop/node_modules/snarkjs/build/cli.cjs ] || fail "tests/interop/node_modules has no snarkjs (make deps)"
gm_tmp splitsjbn

python3 - "$T/c" <<'PY'
import struct, sys
R = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001
out = sys.argv[1]
x, k = 7, 123456789
w = [1, 0, x, k]  # 0 ONE, 1 y (public output), 2 x (public input), 3 k (private), 4.. internal
cons = []
def new(v):
    w.append(v % R)
    return len(w) - 1
t = new(x * k)
cons.append(([(2, 1)], [(3, 1)], [(t, 1)]))
for i in range(1, 298):
    if i % 7 == 3:
        u = new(3 * w[t] + 5 * k + i)
        cons.append(([(t, 3), (3, 5), (0, i)], [(0, 1)], [(u, 1)]))
    else:
        u = new((w[t] + i) * (x + 2 * k + i))
        cons.append(([(t, 1), (0, i)], [(2, 1), (3, 2), (0, i)], [(u, 1)]))
    t = u
w[1] = w[t]
cons.append(([(t, 1)], [(0, 1)], [(1, 1)]))
fe = lambda v: v.to_bytes(32, 'little')
sec = lambda i, b: struct.pack('<IQ', i, len(b)) + b
hdr = struct.pack('<I', 32) + fe(R) + struct.pack('<IIIIQI', len(w), 1, 1, 1, len(w), len(cons))
body = b''.join(struct.pack('<I', len(lc)) + b''.join(struct.pack('<I', i) + fe(c) for i, c in lc)
                for con in cons for lc in con)
labels = b''.join(struct.pack('<Q', i) for i in range(len(w)))
open(out + '.r1cs', 'wb').write(b'r1cs' + struct.pack('<II', 1, 3) + sec(1, hdr) + sec(2, body) + sec(3, labels))
wh = struct.pack('<I', 32) + fe(R) + struct.pack('<I', len(w))
open(out + '.wtns', 'wb').write(b'wtns' + struct.pack('<II', 2, 2) + sec(1, wh) + sec(2, b''.join(fe(v) for v in w)))
PY
"$BIN" snarkjs check "$T/c.r1cs" "$T/c.wtns" > /dev/null || fail "the generated witness does not satisfy its r1cs"
S=000000000000000000000000000000000000000000000000000000000000abce
"$BIN" snarkjs ptau --curve bn128 --power 9 --threads 2 --seed $S "$T/p.ptau" > "$T/ptau.log" 2>&1 \
  || { cat "$T/ptau.log"; fail "ptau --curve bn128"; }
grep -q "bn128, power 9" "$T/ptau.log" || { cat "$T/ptau.log"; fail "ptau: the curve is not reported"; }
"$BIN" snarkjs ptau --curve bn128 --power 9 --threads 1 --seed $S "$T/q.ptau" > /dev/null 2>&1 || fail "ptau again"
cmp -s "$T/p.ptau" "$T/q.ptau" || fail "ptau --curve bn128: the same seed wrote another file"
$SJ groth16 setup "$T/c.r1cs" "$T/p.ptau" "$T/c.zkey" > "$T/setup.log" 2>&1 || { cat "$T/setup.log"; fail "snarkjs setup"; }
$SJ zkey verify "$T/c.r1cs" "$T/p.ptau" "$T/c.zkey" > "$T/zv.log" 2>&1 && grep -q "ZKey Ok!" "$T/zv.log" \
  || { cat "$T/zv.log"; fail "snarkjs zkey verify rejects the key set up from the ptau"; }
$SJ zkey export verificationkey "$T/c.zkey" "$T/vk.json" > "$T/vk.log" 2>&1 || { cat "$T/vk.log"; fail "export vk"; }
$SJ groth16 prove "$T/c.zkey" "$T/c.wtns" "$T/proof.json" "$T/pub.json" > "$T/p.log" 2>&1 \
  || { cat "$T/p.log"; fail "snarkjs prove"; }
$SJ groth16 verify "$T/vk.json" "$T/pub.json" "$T/proof.json" > "$T/v.log" 2>&1 && grep -q "OK!" "$T/v.log" \
  || { cat "$T/v.log"; fail "snarkjs rejects its proof on the key from the bn128 ptau"; }
"$BIN" snarkjs verify "$T/vk.json" "$T/pub.json" "$T/proof.json" > "$T/gv.log" 2>&1 \
  || { cat "$T/gv.log"; fail "grothmpi snarkjs verify rejects the proof"; }
if "$BIN" snarkjs ptau --curve bn254 --power 4 "$T/x.ptau" > /dev/null 2> "$T/bad.err"; then fail "--curve bn254 accepted"; fi
grep -q "^grothmpi: snarkjs ptau: --curve: 'bn254' is neither bls12381 nor bn128" "$T/bad.err" || { cat "$T/bad.err"; fail "--curve's message"; }
[ -e "$T/x.ptau" ] && fail "a file was written for a bad --curve"

split_ranks_check "$T/c.zkey" "$T/c.wtns" "$T/vk.json"

V=tests/vectors/snarkjs
"$BIN" snarkjs prove $V/multiplier_bn128.zkey $V/multiplier_bn128.wtns "$T/m.json" "$T/m.pub.json" --proof-seed 3 \
  --threads 1 > "$T/m.log" 2>&1 || { cat "$T/m.log"; fail "multiplier unsplit"; }
for r in 3 5; do
  timeout 120 mpirun -np $r "$BIN" snarkjs prove --split $V/multiplier_bn128.zkey $V/multiplier_bn128.wtns \
    "$T/m$r.json" "$T/m$r.pub.json" --proof-seed 3 --threads 1 > "$T/m$r.log" 2>&1 \
    || { cat "$T/m$r.log"; fail "multiplier on $r"; }
  cmp -s "$T/m.json" "$T/m$r.json" || fail "multiplier on $r ranks: the proof differs from the unsplit one"
done

size=$(wc -c < "$T/c.zkey")
head -c $((size - 20000)) "$T/c.zkey" > "$T/trunc.zkey"
for r in 1 3; do
  if timeout 120 mpirun -np $r "$BIN" snarkjs prove --split "$T/trunc.zkey" "$T/c.wtns" "$T/t.json" "$T/t.pub.json" \
      --threads 1 > "$T/t.out" 2> "$T/t.err"; then cat "$T/t.out" "$T/t.err"; fail "$r ranks: a truncated zkey was accepted"; fi
  [ "$(grep -c '^grothmpi:' "$T/t.err")" -eq 1 ] && grep -q "^grothmpi: snarkjs prove: --split: rank 0: .*trunc.zkey: truncated: section [0-9][0-9]* " "$T/t.err" \
    || { cat "$T/t.err"; fail "$r ranks: the truncated zkey's message"; }
  [ -e "$T/t.json" ] || [ -e "$T/t.pub.json" ] && fail "$r ranks: a file was written after a failure"
done
split_coef_error_check "$T/c.zkey" "$T/c.wtns" 1
echo "PASS: snarkjs ptau --curve bn128 sets up with snarkjs; bn128 --split on 1-5 ranks gives the unsplit bytes, snarkjs verifies"
