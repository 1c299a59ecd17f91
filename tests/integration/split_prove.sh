#!/bin/sh
# tests/integration/split_prove.sh — `grothmpi prove --split`: one proof of
# test-synthetic proved on R = 1, 2, 3 and 4 ranks (3 divides none of the
# query sizes) with the same --proof-seed gives the very bytes of the
# unsplit `grothmpi prove` with that seed, and the proof verifies with
# `grothmpi verify`; so do test-sha256 on 3 and 6 ranks (a slice past the
# constraint rows) and test-mul on 5 (more ranks than H points); each rank holds about 1/R of the key (the --json
# accounts); a parameter file damaged inside one rank's slice fails every
# rank with one line naming rank, file, section and point; a point swapped
# for another valid one fails the whole-file digest check against the
# manifest (a stamp with the file's mtime put back skips it unless
# --check-params); a rank killed
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
# (No manifest there: the digest check takes the damaged file on first use,
# and the slice's own checks must catch it.)
mkdir "$T/bad" && cp "$T/params"/* "$T/bad/" && rm "$T/bad/manifest.json"
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

# A point of section h replaced by another valid point of the file: no
# slice check can see it, the whole-file digest against the manifest does
# (once per node, before any slice is read). First changed in place with
# its mtime put back: the stamp (same inode, size, mtime) skips the hash, as
# documented (the assembled proof's check fails instead), and --check-params
# hashes the file whatever its stamp; then with a new mtime: on 2 ranks, one
# line naming the file, exit 1, no proof.
mkdir "$T/swap" && cp -p "$T/params"/* "$T/swap/"
F="$T/swap/test-synthetic-$N.params"
timeout 120 mpirun -np 2 "$BIN" prove $P --params "$T/swap" --split --out "$T/swap.proof" > "$T/swap0.log" 2>&1 \
  || { cat "$T/swap0.log"; fail "the copied cache (stamped now)"; }
rm -f "$T/swap.proof" "$T/swap.proof.public.json"
touch -r "$F" "$T/swap.mtime"
python3 - "$F" <<'PY2'
import sys
p = sys.argv[1]; b = bytearray(open(p, 'rb').read())
off = 96 * 2 + 192 * 2 + 96 + 192
n_ic = int.from_bytes(b[off:off + 4], 'big'); off += 4 + 96 * n_ic + 4
b[off + 96:off + 192] = b[off:off + 96]      # h point 1 := h point 0
with open(p, 'r+b') as f:                     # in place: the same inode
    f.write(bytes(b))
PY2
touch -r "$T/swap.mtime" "$F"
if timeout 120 mpirun -np 2 "$BIN" prove $P --params "$T/swap" --split --out "$T/swap.proof" > "$T/swap1.log" 2>&1; then
  cat "$T/swap1.log"; fail "a swapped H point gave a proof"; fi
grep -q "the proof does not verify" "$T/swap1.log" || { cat "$T/swap1.log"; fail "the stamp was not honoured"; }
if timeout 120 mpirun -np 2 "$BIN" prove $P --params "$T/swap" --split --check-params --out "$T/swap.proof" \
    > "$T/swap2.log" 2>&1; then cat "$T/swap2.log"; fail "--check-params accepted a changed file"; fi
grep -q "rank 0: $F: BLAKE2b digest" "$T/swap2.log" || { cat "$T/swap2.log"; fail "--check-params: the digest line"; }
touch "$F"
if timeout 120 mpirun -np 2 "$BIN" prove $P --params "$T/swap" --split --out "$T/swap.proof" > "$T/swap3.log" 2>&1; then
  cat "$T/swap3.log"; fail "a parameter file unlike its manifest digest was accepted"; fi
[ "$(grep -c "^grothmpi: prove: --split: rank 0: $F: BLAKE2b digest [0-9a-f]*, but .*manifest.json lists" "$T/swap3.log")" -eq 1 ] \
  || { cat "$T/swap3.log"; fail "the digest mismatch's line"; }
[ -e "$T/swap.proof" ] && fail "a proof was written with a changed parameter file"
# --check-params without --split checks every point of the file (params_load's policy);
# with --trust-params it is a contradiction, refused
"$BIN" prove $P --check-params --out "$T/no.proof" > "$T/use2.log" 2>&1 || { cat "$T/use2.log"; fail "--check-params without --split"; }
grep -q "every point checked (--check-params)" "$T/use2.log" || { cat "$T/use2.log"; fail "--check-params: not every point"; }
rc=0; "$BIN" prove $P --check-params --trust-params --out "$T/no.proof" > "$T/use3.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { cat "$T/use3.log"; fail "--check-params with --trust-params: exit $rc"; }

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
