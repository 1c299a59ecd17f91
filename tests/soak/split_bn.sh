#!/bin/sh
# tests/soak/split_bn.sh [LOG2] — the bn128 split demonstration (not in
# `make test`: at 2^22 it is long): a chain of squarings written here as an
# .r1cs and .wtns (2^LOG2 - 3 constraints, domain 2^LOG2; default 22), its
# ptau from `grothmpi snarkjs ptau --curve bn128`, its zkey from `snarkjs
# groth16 setup` (timed: the JavaScript step that bounds LOG2), then one
# proof split over 1 rank and over 4 ranks on 2 network-namespace hosts
# (2 each, TCP only, as tests/integration/split_netns.sh): the 4-rank proof
# must have the bytes of the 1-rank one and pass `snarkjs groth16 verify`.
# Prints each run's accounts and each rank's peak memory against
# 1.15 x the 1-rank peak / 4 (the goal, before the fixed scratch).
# Needs root, network namespaces, python3, node (tests/interop/node_modules).
# SPLIT_BN_KEEP=DIR keeps the circuit, witness, zkey and key in DIR (and
# reuses them when there): the proving half then reruns in minutes.
set -eu
. "$(dirname "$0")/../integration/lib/common.sh"
. "$(dirname "$0")/../integration/lib/netns.sh"
NETNS_DIR=$(cd "$(dirname "$0")/../integration" && pwd)/netns
K=${1:-22}
# snarkjs setup holds about 2.9 GB at 2^20 and scales with the rows: node's
# heap limit follows (SJ_HEAP_MB overrides)
HEAP=${SJ_HEAP_MB:-$(( K <= 20 ? 4096 : 4096 << (K - 20) ))}
SJ="node --max-old-space-size=$HEAP $(pwd)/tests/interop/node_modules/snarkjs/build/cli.cjs"
need python3 node
P=gmb
netns_hosts 2 $P 10.78.0
now() { date +%s.%N; }
el() { echo "$2 - $1" | bc; }
KEEP=${SPLIT_BN_KEEP:-}
if [ -n "$KEEP" ] && [ -f "$KEEP/c$K.zkey" ]; then
  for f in r1cs wtns zkey; do ln -s "$KEEP/c$K.$f" "$T/c.$f"; done
  ln -s "$KEEP/vk$K.json" "$T/vk.json"
  echo "split_bn: circuit, witness and zkey of 2^$K from $KEEP"
else
python3 - "$T/c" "$K" <<'PY'
import struct, sys
R = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001
out, k = sys.argv[1], int(sys.argv[2])
n = (1 << k) - 4                     # squarings; + 1 output constraint + nPublic + 1 = 2^k rows
# wires: 0 ONE, 1 y (public output), 2 x (public input), 3.. t_1 .. t_n; t_1 = x^2, t_i = t_(i-1)^2, y = t_n
x = 3
nw = 3 + n
fe = lambda v: v.to_bytes(32, 'little')
sec = lambda i, b: struct.pack('<IQ', i, len(b)) + b
one = fe(1)
def con(a, b, c):
    return struct.pack('<II', 1, a) + one + struct.pack('<II', 1, b) + one + struct.pack('<II', 1, c) + one
body = bytearray()
body += con(2, 2, 3)
for i in range(2, n + 1):
    body += con(2 + i - 1, 2 + i - 1, 2 + i)
body += struct.pack('<II', 1, 2 + n) + one + struct.pack('<II', 1, 0) + one + struct.pack('<II', 1, 1) + one
hdr = struct.pack('<I', 32) + fe(R) + struct.pack('<IIIIQI', nw, 1, 1, 0, nw, n + 1)
with open(out + '.r1cs', 'wb') as f:
    f.write(b'r1cs' + struct.pack('<II', 1, 3) + sec(1, hdr) + sec(2, bytes(body)) +
            sec(3, b''.join(struct.pack('<Q', i) for i in range(nw))))
vals = [1, 0, x]
t = x
for i in range(n):
    t = t * t % R
    vals.append(t)
vals[1] = t
wh = struct.pack('<I', 32) + fe(R) + struct.pack('<I', nw)
with open(out + '.wtns', 'wb') as f:
    f.write(b'wtns' + struct.pack('<II', 2, 2) + sec(1, wh) + sec(2, b''.join(fe(v) for v in vals)))
PY
fi
cd "$T"
echo "split_bn: 2^$K rows, $(( (1 << K) - 3 )) constraints (a chain of squarings)"
"$BIN" snarkjs check c.r1cs c.wtns
if [ ! -f c.zkey ]; then
t0=$(now); "$BIN" snarkjs ptau --curve bn128 --power $K --threads 2 --seed \
  00000000000000000000000000000000000000000000000000000000000000b1 p.ptau; echo "split_bn: ptau $(el $t0 $(now)) s"
t0=$(now); $SJ groth16 setup c.r1cs p.ptau c.zkey > setup.log 2>&1 || { cat setup.log; fail "snarkjs setup"; }
echo "split_bn: snarkjs groth16 setup $(el $t0 $(now)) s"
$SJ zkey export verificationkey c.zkey vk.json > /dev/null 2>&1 || fail "export vk"
rm -f p.ptau
[ -z "$KEEP" ] || { mkdir -p "$KEEP"; for f in r1cs wtns zkey; do cp c.$f "$KEEP/c$K.$f"; done; cp vk.json "$KEEP/vk$K.json"; }
fi
netns_mpirun 3000 ${P}1:1 tcp,self -np 1 "$BIN" snarkjs prove --split c.zkey c.wtns s1.json s1.pub.json \
  --proof-seed 11 --threads 1 --verbose > s1.log 2>&1 || { cat s1.log; fail "1 rank"; }
cat s1.log
netns_mpirun 3000 ${P}1:2,${P}2:2 tcp,self -np 4 "$BIN" snarkjs prove --split c.zkey c.wtns s4.json s4.pub.json \
  --proof-seed 11 --threads 1 --verbose > s4.log 2>&1 || { cat s4.log; fail "4 ranks over 2 hosts"; }
cat s4.log
cmp -s s1.json s4.json || fail "4 ranks: the proof differs from the 1-rank one"
cmp -s s1.pub.json s4.pub.json || fail "4 ranks: public.json differs"
$SJ groth16 verify vk.json s4.pub.json s4.json > v.log 2>&1 && grep -q "OK!" v.log || { cat v.log; fail "snarkjs verify"; }
echo "split_bn: 4 ranks on 2 hosts: the 1-rank proof's bytes; snarkjs groth16 verify: OK"
# memory: the table's "mem pk" column (MiB) of the rank rows; the columns
# are right-aligned under their names, so a value ends where its name does
mempk() {
  awk '/^split: rank/ { e = index($0, "mem pk") + 5 }
       /^split: +[0-9]+ +[0-9.]+ +[0-9]+ / { v = substr($0, 1, e); sub(/.* /, "", v); print $2, v }' "$1"
}
one=$(mempk s1.log | head -1 | cut -d' ' -f2)
echo "split_bn: goal per rank 1.15 x $one / 4 = $(echo "1.15 * $one / 4" | bc -l | cut -c1-8) MiB + fixed scratch"
mempk s4.log | while read -r r v; do echo "split_bn: rank $r: mem pk $v MiB"; done
