#!/bin/sh
# tests/integration/split_snarkjs.sh — `grothmpi snarkjs prove --split`: a
# circom-free circuit (an .r1cs and .wtns written here: 700 constraints, a
# chain of products and linear steps, nVars 702, domain 2^10) set up by the
# real snarkjs (`groth16 setup` on a `grothmpi snarkjs ptau` file); with the
# same --proof-seed, R = 1, 2, 3 (3 divides none of the sizes) and 4 ranks
# give the very bytes of the unsplit `grothmpi snarkjs prove`, and
# `snarkjs groth16 verify` accepts the split proof; so does the committed
# multiplier (domain 4) on 3 and 5 ranks (empty slices); random r, s give
# another valid proof; a truncated zkey fails every R with one line naming
# the file and section, a point damaged in rank 2's slice of PointsH names
# rank 2, the point and the section, a bad section-4 entry in rank 1's
# share (by index) of 3 stops every rank with one line naming rank 1 and
# the entry, and no output file is written on failure. Needs mpirun, python3 and node (tests/interop/node_modules;
# GM_SKIP_INTEROP=1 skips the test as snarkjs_interop.sh does).
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/split_snarkjs.sh"
if [ "${GM_SKIP_INTEROP:-0}" = 1 ]; then echo "SKIP: GM_SKIP_INTEROP=1"; exit 0; fi
need mpirun python3 node
SJ="node $(pwd)/tests/interop/node_modules/snarkjs/build/cli.cjs"
[ -f tests/interop/node_modules/snarkjs/build/cli.cjs ] || fail "tests/interop/node_modules has no snarkjs (make deps)"
gm_tmp splitsj
V=tests/vectors/snarkjs

python3 - "$T/c" <<'PY'
import struct, sys
R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
out = sys.argv[1]
x, k = 7, 123456789
# wires: 0 ONE, 1 y (public output), 2 x (public input), 3 k (private), 4.. internal
w = [1, 0, x, k]
cons = []  # (A, B, C), each a list of (wire, coefficient)
def new(v):
    w.append(v % R)
    return len(w) - 1
t = new(x * k)
cons.append(([(2, 1)], [(3, 1)], [(t, 1)]))
for i in range(1, 698):
    if i % 7 == 3:  # linear: (3 t + 5 k + i) * 1 = u
        u = new(3 * w[t] + 5 * k + i)
        cons.append(([(t, 3), (3, 5), (0, i)], [(0, 1)], [(u, 1)]))
    else:           # (t + i) * (x + 2 k + i) = u
        u = new((w[t] + i) * (x + 2 * k + i))
        cons.append(([(t, 1), (0, i)], [(2, 1), (3, 2), (0, i)], [(u, 1)]))
    t = u
w[1] = w[t]
cons.append(([(t, 1)], [(0, 1)], [(1, 1)]))
cons.append(([(1, 1), (t, R - 1)], [(3, 1)], []))  # (y - t) * k = 0, an empty C
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
"$BIN" snarkjs ptau --power 10 --threads 1 --seed 000000000000000000000000000000000000000000000000000000000000abce \
  "$T/p.ptau" > "$T/ptau.log" 2>&1 || { cat "$T/ptau.log"; fail "ptau"; }
$SJ groth16 setup "$T/c.r1cs" "$T/p.ptau" "$T/c.zkey" > "$T/setup.log" 2>&1 || { cat "$T/setup.log"; fail "snarkjs setup"; }
$SJ zkey export verificationkey "$T/c.zkey" "$T/vk.json" > "$T/vk.log" 2>&1 || { cat "$T/vk.log"; fail "export vk"; }

split_ranks_check "$T/c.zkey" "$T/c.wtns" "$T/vk.json" --backend cpu

# the committed multiplier (domain 4, nVars 4): 5 ranks leave some slices empty
"$BIN" snarkjs prove $V/multiplier.zkey $V/multiplier.wtns "$T/m.json" "$T/m.pub.json" --proof-seed 3 --threads 1 \
  --backend cpu > "$T/m.log" 2>&1 || { cat "$T/m.log"; fail "multiplier unsplit"; }
for r in 3 5; do
  timeout 120 mpirun -np $r "$BIN" snarkjs prove --split $V/multiplier.zkey $V/multiplier.wtns "$T/m$r.json" \
    "$T/m$r.pub.json" --proof-seed 3 --threads 1 > "$T/m$r.log" 2>&1 || { cat "$T/m$r.log"; fail "multiplier on $r"; }
  cmp -s "$T/m.json" "$T/m$r.json" || fail "multiplier on $r ranks: the proof differs from the unsplit one"
done

# a truncated zkey (20000 bytes short): every R fails with one line
# naming the file and the section, and writes nothing
size=$(wc -c < "$T/c.zkey")
head -c $((size - 20000)) "$T/c.zkey" > "$T/trunc.zkey"
for r in 1 2 3; do
  if timeout 120 mpirun -np $r "$BIN" snarkjs prove --split "$T/trunc.zkey" "$T/c.wtns" "$T/t.json" "$T/t.pub.json" \
      --threads 1 > "$T/t.out" 2> "$T/t.err"; then cat "$T/t.out" "$T/t.err"; fail "$r ranks: a truncated zkey was accepted"; fi
  [ "$(grep -c '^grothmpi:' "$T/t.err")" -eq 1 ] && grep -q "^grothmpi: snarkjs prove: --split: rank 0: .*trunc.zkey: truncated: section [0-9][0-9]* " "$T/t.err" \
    || { cat "$T/t.err"; fail "$r ranks: the truncated zkey's message"; }
  [ -e "$T/t.json" ] || [ -e "$T/t.pub.json" ] && fail "$r ranks: a file was written after a failure"
  ls "$T" | grep -q '\.tmp' && fail "$r ranks: a temporary file was left"
done

# point 1000 of PointsH (rank 2's slice of 3) made non-canonical: rank 2 names it
python3 - "$T/c.zkey" "$T/bad.zkey" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
pos = 12
for _ in range(struct.unpack('<I', b[8:12])[0]):
    sid, sz = struct.unpack('<IQ', b[pos:pos + 12])
    if sid == 9:
        off = pos + 12 + 96 * 1000
        b[off:off + 48] = b'\xff' * 48
    pos += 12 + sz
open(sys.argv[2], 'wb').write(bytes(b))
PY
if timeout 120 mpirun -np 3 "$BIN" snarkjs prove --split "$T/bad.zkey" "$T/c.wtns" "$T/t.json" "$T/t.pub.json" \
    --threads 1 > "$T/b.out" 2> "$T/b.err"; then fail "a damaged point was accepted"; fi
grep -q "^grothmpi: snarkjs prove: --split: rank 2: .*bad.zkey: section 9 (PointsH): point 1000: a coordinate is not below q" \
  "$T/b.err" || { cat "$T/b.err"; fail "the damaged point's message"; }
[ -e "$T/t.json" ] || [ -e "$T/t.pub.json" ] && fail "a file was written after the damaged point"

split_coef_error_check "$T/c.zkey" "$T/c.wtns" 0xe25f4955

# what --split does not do is refused (exit 2, one line)
rc=0; "$BIN" snarkjs prove --split --r1cs "$T/c.r1cs" "$T/c.zkey" "$T/c.wtns" "$T/u.json" "$T/u.pub.json" \
  > "$T/u.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$T/u.log")" -eq 1 ] || { cat "$T/u.log"; fail "--split --r1cs: exit $rc"; }
echo "PASS: snarkjs prove --split on 1-4 ranks gives the unsplit bytes, snarkjs verifies; bad zkeys fail cleanly"
