#!/bin/sh
# tests/integration/split_prove.sh — `grothmpi prove --split`: one proof of
# test-synthetic proved on R = 1, 2, 3 and 4 ranks (3 divides none of the
# query sizes) with the same --proof-seed gives the very bytes of the
# unsplit `grothmpi prove` with that seed, and the proof verifies with
# `grothmpi verify`; so do test-sha256 on 3 and 6 ranks (a slice past the
# constraint rows) and test-mul on 5 (more ranks than H points); each rank holds about 1/R of the key (the --json
# accounts); a parameter file damaged inside one rank's slice fails every
# rank with one line naming rank, file, section and point; a rank killed
# mid-proof makes mpirun exit non-zero and no proof file is written.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
gm_tmp split
N=256
"$BIN" setup --circuit test-synthetic --constraints $N --out "$T/params" --threads 1 --quiet \
  --seed 00000000000000000000000000000000000000000000000000000000000000c3 > "$T/setup.log" 2>&1 \
  || { cat "$T/setup.log"; fail "setup"; }
P="--params $T/params --circuit test-synthetic --constraints $N --witness-seed 5 --proof-seed 9 --threads 1"
"$BIN" prove $P --out "$T/ref.proof" > "$T/ref.log" 2>&1 || { cat "$T/ref.log"; fail "unsplit prove"; }
for r in 1 2 3 4; do
  timeout 120 mpirun -np $r "$BIN" prove $P --split --out "$T/s$r.proof" --json > "$T/s$r.log" 2>&1 \
    || { cat "$T/s$r.log"; fail "--split on $r ranks"; }
  cmp -s "$T/ref.proof" "$T/s$r.proof" || fail "--split on $r ranks: the proof differs from the unsplit one"
  cmp -s "$T/ref.proof.public.json" "$T/s$r.proof.public.json" || fail "--split on $r ranks: public inputs differ"
  "$BIN" verify --vk "$T/params/test-synthetic-$N.vk" --proof "$T/s$r.proof" --inputs "$T/s$r.proof.public.json" \
    > /dev/null || fail "--split on $r ranks: the proof does not verify"
  [ "$(grep -c '"key_bytes"' "$T/s$r.log")" -eq $r ] || { cat "$T/s$r.log"; fail "$r ranks: not $r accounts"; }
done
# 4 ranks: every rank holds a quarter of the query points (within one per query)
pts=$(grep '"points"' "$T/s1.log" | tr -dc 0-9)
for p in $(grep '"points"' "$T/s4.log" | tr -dc '0-9\n'); do
  [ $((p * 4)) -ge $((pts - 20)) ] && [ $((p * 4)) -le $((pts + 20)) ] || fail "4 ranks: a rank holds $p of $pts points"
done
# without --proof-seed the randomness is fresh: another proof, still valid
mpirun -np 2 "$BIN" prove --params "$T/params" --circuit test-synthetic --constraints $N --witness-seed 5 \
  --threads 1 --split --out "$T/rnd.proof" > "$T/rnd.log" 2>&1 || { cat "$T/rnd.log"; fail "random r, s"; }
cmp -s "$T/ref.proof" "$T/rnd.proof" && fail "random r, s gave the seeded proof"
"$BIN" verify --vk "$T/params/test-synthetic-$N.vk" --proof "$T/rnd.proof" --inputs "$T/rnd.proof.public.json" \
  > /dev/null || fail "random r, s: the proof does not verify"

# test-sha256 (one compression, 2^15 domain) on 3 ranks: the same bytes too
"$BIN" setup --circuit test-sha256 --compressions 1 --out "$T/sha" --threads 1 --quiet \
  --seed 00000000000000000000000000000000000000000000000000000000000000c5 > "$T/setup3.log" 2>&1 \
  || { cat "$T/setup3.log"; fail "setup test-sha256"; }
S="--params $T/sha --circuit test-sha256 --compressions 1 --proof-seed 4 --threads 1 --trust-params"
"$BIN" prove $S --out "$T/sha.proof" > "$T/sha.log" 2>&1 || { cat "$T/sha.log"; fail "test-sha256 unsplit"; }
# 26,357 rows in a 32,768 domain: on 6 ranks the last slice starts past the
# rows (all padding)
for r in 3 6; do
  timeout 120 mpirun -np $r "$BIN" prove $S --split --out "$T/sha$r.proof" > "$T/sha$r.log" 2>&1 \
    || { cat "$T/sha$r.log"; fail "test-sha256 --split on $r ranks"; }
  cmp -s "$T/sha.proof" "$T/sha$r.proof" || fail "test-sha256 on $r ranks: the proof differs from the unsplit one"
done

# test-mul (4 domain values, 3 H points) on 5 ranks: ranks with empty slices
"$BIN" setup --circuit test-mul --out "$T/mul" --threads 1 --quiet \
  --seed 00000000000000000000000000000000000000000000000000000000000000c7 > "$T/setup4.log" 2>&1 \
  || { cat "$T/setup4.log"; fail "setup test-mul"; }
"$BIN" prove --params "$T/mul" --circuit test-mul --proof-seed 2 --out "$T/mul.proof" > "$T/mul.log" 2>&1 \
  || { cat "$T/mul.log"; fail "test-mul unsplit"; }
timeout 120 mpirun -np 5 "$BIN" prove --params "$T/mul" --circuit test-mul --proof-seed 2 --threads 1 --split \
  --out "$T/mul5.proof" > "$T/mul5.log" 2>&1 || { cat "$T/mul5.log"; fail "test-mul --split on 5 ranks"; }
cmp -s "$T/mul.proof" "$T/mul5.proof" || fail "test-mul on 5 ranks: the proof differs from the unsplit one"

# what --split does not do is refused (exit 2, one line), not ignored
for extra in "--batch 2" "--proof-format hex"; do
  rc=0; "$BIN" prove --params "$T/mul" --circuit test-mul --split $extra --out "$T/no.proof" > "$T/use.log" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] && grep -q "^grothmpi: prove: --split proves one seeded witness" "$T/use.log" \
    || { cat "$T/use.log"; fail "--split $extra: exit $rc"; }
done

# A point of section l's last quarter (rank 3's slice on 4 ranks) made
# non-canonical: all ranks fail, rank 0 says which rank, file, section, point.
mkdir "$T/bad" && cp "$T/params"/* "$T/bad/"
F="$T/bad/test-synthetic-$N.params"
python3 - "$F" <<'PY'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
off = 96 * 2 + 192 * 2 + 96 + 192
n_ic = int.from_bytes(b[off:off + 4], 'big'); off += 4 + 96 * n_ic
n_h = int.from_bytes(b[off:off + 4], 'big'); off += 4 + 96 * n_h
n_l = int.from_bytes(b[off:off + 4], 'big'); off += 4
k = n_l - 2                      # in rank 3's slice of 4
b[off + 96 * k:off + 96 * k + 48] = b'\x1f' + b'\xff' * 47   # x >= p, no flag bits
open(p, 'wb').write(bytes(b)); print(k)
PY
rm -f "$T/bad.proof"
if timeout 120 mpirun -np 4 "$BIN" prove --params "$T/bad" --circuit test-synthetic --constraints $N --witness-seed 5 \
    --threads 1 --split --out "$T/bad.proof" > "$T/bad.log" 2>&1; then cat "$T/bad.log"; fail "a damaged slice was accepted"; fi
grep -q "grothmpi: prove: --split: rank 3: .*test-synthetic-$N.params: section l: point [0-9]*: coordinate not canonical" \
  "$T/bad.log" || { cat "$T/bad.log"; fail "the damaged slice's message"; }
[ -e "$T/bad.proof" ] && fail "a proof was written after a failure"
# 2 ranks: the same point is in rank 1's slice
if timeout 120 mpirun -np 2 "$BIN" prove --params "$T/bad" --circuit test-synthetic --constraints $N --witness-seed 5 \
    --threads 1 --split --out "$T/bad.proof" > "$T/bad2.log" 2>&1; then fail "2 ranks: a damaged slice was accepted"; fi
grep -q "rank 1: .*section l: point" "$T/bad2.log" || { cat "$T/bad2.log"; fail "2 ranks: the damaged slice's message"; }

# A rank killed mid-proof (SIGKILL to rank 1 once it runs): mpirun exits
# non-zero and no proof file (nor temporary) is left. A larger circuit gives
# the kill time to land while the ranks prove.
"$BIN" setup --circuit test-synthetic --constraints 16384 --out "$T/big" --threads 1 --quiet \
  --seed 00000000000000000000000000000000000000000000000000000000000000c4 > "$T/setup2.log" 2>&1 \
  || { cat "$T/setup2.log"; fail "setup 16384"; }
timeout 120 mpirun -np 2 "$BIN" prove --params "$T/big" --circuit test-synthetic --constraints 16384 --threads 1 \
  --split --out "$T/kill.proof" > "$T/kill.log" 2>&1 &
MP=$!
victim=""
for i in $(seq 1 200); do
  victim=$(pgrep -f "^$BIN prove --params $T/big" | sort -n | tail -1 || true)
  [ -n "$victim" ] && [ "$(pgrep -fc "^$BIN prove --params $T/big" || true)" -ge 2 ] && break
  sleep 0.05
done
[ -n "$victim" ] || fail "the ranks did not start"
sleep 0.3
kill -9 "$victim" 2>/dev/null || true
if wait $MP; then cat "$T/kill.log"; fail "mpirun exited 0 after a rank was killed"; fi
grep -q "exited on signal 9" "$T/kill.log" || { cat "$T/kill.log"; fail "mpirun did not name the killed rank"; }
[ -e "$T/kill.proof" ] && fail "a proof was written after a rank was killed"
ls "$T" | grep -q 'kill.proof.tmp' && fail "a temporary proof file was left"
echo "PASS: --split on 1, 2, 3, 4 ranks gives the unsplit proof's bytes; damaged slice and killed rank fail cleanly"
