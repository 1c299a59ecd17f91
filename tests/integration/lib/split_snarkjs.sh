# tests/integration/lib/split_snarkjs.sh — sourced by split_snarkjs.sh and
# split_snarkjs_bn.sh (after common.sh; the caller defines T, SJ (node
# running snarkjs's cli.cjs) and BIN): the checks of `snarkjs prove --split`
# that hold on every curve.

# split_ranks_check ZKEY WTNS VK [UNSPLIT-OPTIONS...]: the unsplit proof
# with --proof-seed 11 ($T/ref.json), then the split proof on 1..4 ranks
# with the same seed: the unsplit proof's bytes and public.json, one account
# per rank; snarkjs accepts the 3-rank proof, each of whose ranks holds a
# third of the points and decoded a third of section 4's entries (the
# three together all of them once); a split proof with random r, s differs
# and snarkjs accepts it too.
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
  nc=$(grep '"coefs_read"' "$T/s1.log" | tr -dc 0-9)
  [ "${nc:-0}" -gt 0 ] || { cat "$T/s1.log"; fail "1 rank: no section-4 entries decoded"; }
  tot=0
  for k in $(grep '"coefs_read"' "$T/s3.log" | tr -dc '0-9\n'); do
    [ $((k * 3)) -ge $((nc - 3)) ] && [ $((k * 3)) -le $((nc + 3)) ] \
      || fail "3 ranks: a rank decoded $k of the $nc section-4 entries"
    tot=$((tot + k))
  done
  [ "$tot" -eq "$nc" ] || fail "3 ranks: $tot section-4 entries decoded, the zkey has $nc"
  timeout 120 mpirun -np 2 "$BIN" snarkjs prove --split "$zk" "$wt" "$T/rnd.json" "$T/rnd.pub.json" \
    --threads 1 > "$T/rnd.log" 2>&1 || { cat "$T/rnd.log"; fail "random r, s"; }
  cmp -s "$T/ref.json" "$T/rnd.json" && fail "random r, s gave the seeded proof"
  $SJ groth16 verify "$vk" "$T/rnd.pub.json" "$T/rnd.json" > "$T/v2.log" 2>&1 && grep -q "OK!" "$T/v2.log" \
    || { cat "$T/v2.log"; fail "snarkjs rejects the random split proof"; }
}

# split_coef_error_check ZKEY WTNS J: an entry of section 4 in rank 1's
# share by index (of 3) whose row (J·constraint mod domainSize: J is
# snarkjs's root as a power of ours) is another rank's made bad (matrix 7):
# on 3 ranks every rank returns (none hangs in an exchange), rank 0 exits 1
# (the others 0, as for every split failure: docs/split.md, "Faults") and
# prints one line naming rank 1, the file, the section and the entry;
# nothing is written.
split_coef_error_check() {
  zk=$1 wt=$2
  i=$(python3 - "$zk" "$T/bad4.zkey" "$3" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
J = int(sys.argv[3], 0)
sec, pos = {}, 12
for _ in range(struct.unpack('<I', b[8:12])[0]):
    sid, sz = struct.unpack('<IQ', b[pos:pos + 12])
    sec[sid] = pos + 12
    pos += 12 + sz
n8q = struct.unpack('<I', b[sec[2]:sec[2] + 4])[0]
ds = struct.unpack('<I', b[sec[2] + 48 + n8q:sec[2] + 52 + n8q])[0]
n, e0 = struct.unpack('<I', b[sec[4]:sec[4] + 4])[0], sec[4] + 4
def owner(i):  # the rank of 3 whose rows [(ds-1)q/3, (ds-1)(q+1)/3) hold the entry's row
    row = J * struct.unpack('<I', b[e0 + 44 * i + 4:e0 + 44 * i + 8])[0] % ds
    return max(q for q in range(3) if (ds - 1) * q // 3 <= row)
i = next(i for i in range(n // 3, 2 * n // 3) if owner(i) != 1)
b[e0 + 44 * i:e0 + 44 * i + 4] = struct.pack('<I', 7)
open(sys.argv[2], 'wb').write(bytes(b))
print(i)
PY
) || fail "no section-4 entry in rank 1's share of another rank's rows"
  rm -f "$T/rcs" "$T/t.json" "$T/t.pub.json"
  timeout 120 mpirun -np 3 sh -c '"$1" snarkjs prove --split "$2" "$3" "$4" "$5" --threads 1
    echo "rank $OMPI_COMM_WORLD_RANK exit $?" >> "$6"' \
    sh "$BIN" "$T/bad4.zkey" "$wt" "$T/t.json" "$T/t.pub.json" "$T/rcs" > "$T/e.out" 2> "$T/e.err" \
    || { cat "$T/e.out" "$T/e.err"; fail "a bad section-4 entry: mpirun failed or timed out"; }
  [ "$(grep -c '^rank [0-2] exit [01]$' "$T/rcs")" -eq 3 ] && grep -q '^rank 0 exit 1$' "$T/rcs" \
    || { cat "$T/rcs" "$T/e.err"; fail "a bad section-4 entry: not every rank returned, or rank 0 exited 0"; }
  [ "$(grep -c '^grothmpi:' "$T/e.err")" -eq 1 ] \
    && grep -q "^grothmpi: snarkjs prove: --split: rank 1: .*bad4.zkey: section 4 (Coefs): entry $i: matrix 7," "$T/e.err" \
    || { cat "$T/e.err"; fail "a bad section-4 entry's message"; }
  [ -e "$T/t.json" ] || [ -e "$T/t.pub.json" ] && fail "a file was written after a bad section-4 entry"
  return 0
}
