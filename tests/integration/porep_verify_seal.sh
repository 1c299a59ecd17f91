#!/bin/sh
# gm-test: heavy
# tests/integration/porep_verify_seal.sh — `grothmpi porep verify-seal` on
# sectors sealed and proved here, from their public data alone:
#   - a 2 KiB sector is sealed (`porep seal`), its C1 written (`porep c1`)
#     and proved (`prove --c1`, parameters cached in $BUILD/porep-cache as
#     porep_prove.sh makes them; the proof is the test's one heavy step);
#   - verify-seal accepts each from flags (hex commitments and CIDs; proof
#     as raw bytes, hex and base64), and rejects it with any one field
#     changed: comm_r, comm_d, prover, sector id, ticket, seed, registered
#     proof, a proof byte;
#   - a lotus SealVerifyInfo array of two entries verifies as one batch;
#     with the second one's seed changed, the fallback names that entry only; a CID of
#     the wrong codec is refused with a message naming both codecs;
#   - the proof is made through a directory in Filecoin's layout (our
#     .params linked under its v28 name, `prove --params DIR`), and
#     verify-seal --params-dir finds our .vk under its v28 name (the swap a
#     Filecoin user makes the other way round) and names the file it lacks;
#     another circuit's file under that name is refused naming the count;
#   - rust-fil-proofs' regression records are read line by line and each
#     line gets its verdict (against our key they cannot verify: Filecoin's
#     2 KiB .vk is in no public repository; docs/porep.md);
#   - a committed-capacity 2 KiB sector has the unsealed CID lotus gives an
#     empty 2 KiB piece;
#   - the messages a new user meets: a ticket with 0x, or of 63 digits
#     (hashed, with a note), a commitment of 63 digits, bad hex or base64 in
#     a proof file (exit 1), a proof of the wrong size, records in a JSON
#     array, a directory as --seal-info, --vk with no seal, and `verify
#     --inputs` with JSON numbers.
# Exit 0 = pass. BUILD names the build directory (default: build).
set -u
BUILD=${BUILD:-build}
BIN="$BUILD/grothmpi"
[ -x "$BIN" ] || { echo "porep_verify_seal: $BIN is not built"; exit 1; }
CACHE=${GROTHMPI_POREP_CACHE:-$BUILD/porep-cache}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "porep_verify_seal: FAIL: $*"; fail=1; }
json() { sed -n "s/.*\"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},*$/\1/p" "$1"; }

mkdir -p "$CACHE" || exit 1
"$BIN" setup --circuit porep --sector-size 2KiB --out "$CACHE" >"$dir/setup.out" 2>&1 ||
    { echo "porep_verify_seal: setup failed: $(cat "$dir/setup.out")"; exit 1; }
VK="$CACHE/porep-2048-v2.vk"

# --- a committed-capacity sector: lotus' CID of an empty 2 KiB piece -----------------------------
"$BIN" porep seal --sector-size 2KiB --seed 30 --zero --out "$dir/cc" --quiet >/dev/null 2>&1 || bad "seal --zero"
[ "$(json "$dir/cc/seal.json" unsealed_cid)" = baga6ea4seaqpy7usqklokfx2vxuynmupslkeutzexe2uqurdg5vhtebhxqmpqmy ] ||
    bad "CC sector: unsealed_cid $(json "$dir/cc/seal.json" unsealed_cid)"

# --- Filecoin's directory layout: `prove --params DIR` finds the .params by its v28 name -------------
# (ours, linked under Filecoin's name with no shape file: the shape is recorded in memory)
PNAME=$("$BIN" porep param-name --proof-id 5 | sed -n 1p)
mkdir -p "$dir/filp" "$dir/filbad"
ln -s "$(cd "$CACHE" && pwd)/porep-2048-v2.params" "$dir/filp/$PNAME"

# --- a sealed and proved sector---------------------------------------------------------------
for i in 1; do
    "$BIN" porep seal --sector-size 2KiB --seed "s$i" --actor "100$i" --sector-id "$((40 + i))" --ticket "t$i" \
        --out "$dir/s$i" --quiet >/dev/null 2>"$dir/err" || { bad "seal $i: $(cat "$dir/err")"; exit 1; }
    "$BIN" porep c1 "$dir/s$i" --seed "r$i" --out "$dir/c1-$i.json" >/dev/null 2>"$dir/err" ||
        { bad "c1 $i: $(cat "$dir/err")"; exit 1; }
    "$BIN" prove --params "$dir/filp" --c1 "$dir/c1-$i.json" --out "$dir/p$i.bin" --trust-params >/dev/null \
        2>"$dir/err" || { bad "prove $i: $(cat "$dir/err")"; exit 1; }
done
S=$dir/s1
CR=$(json "$S/seal.json" comm_r); CD=$(json "$S/seal.json" comm_d); PID=$(json "$S/seal.json" prover_id)
CRC=$(json "$S/seal.json" sealed_cid); CDC=$(json "$S/seal.json" unsealed_cid)
base() { # the first seal's flags, any of them overridden by NAME=VALUE arguments
    comm_r=$CR comm_d=$CD prover=$PID sid=41 ticket=t1 seed=r1 pid=5 proof=$dir/p1.bin fmt=raw
    for kv in "$@"; do eval "$kv"; done
    "$BIN" porep verify-seal --vk "$VK" --comm-r "$comm_r" --comm-d "$comm_d" --prover-id "$prover" \
        --sector-id "$sid" --ticket "$ticket" --seed "$seed" --proof-id "$pid" --proof "$proof" --proof-format "$fmt"
}
base >"$dir/out" 2>&1 || bad "flags: $(cat "$dir/out")"
grep -q "OK: 2KiB API 1.1.0 interactive, 1 partition(s), sector 41" "$dir/out" || bad "flags: $(cat "$dir/out")"
"$BIN" porep verify-seal --vk "$VK" --comm-r "$CRC" --comm-d "$CDC" --actor 1001 --sector-id 41 --ticket t1 \
    --seed r1 --sector-size 2KiB --api 1.1 --proof "$dir/p1.bin" >"$dir/out" 2>&1 || bad "CIDs, --actor: $(cat "$dir/out")"
od -An -v -tx1 "$dir/p1.bin" | tr -d ' \n' >"$dir/p1.hex"
base64 -w0 "$dir/p1.bin" >"$dir/p1.b64"
base proof="$dir/p1.hex" fmt=hex >"$dir/out" 2>&1 || bad "--proof-format hex: $(cat "$dir/out")"
base proof="$dir/p1.b64" fmt=base64 >"$dir/out" 2>&1 || bad "--proof-format base64: $(cat "$dir/out")"

# --- each field changed: rejected ------------------------------------------------------------------
other() { printf '%s' "$1" | sed 's/^\(.\)\(.*\)/\2\1/'; } # rotate by one digit
flipped=$dir/p1.flip.bin
{ head -c 150 "$dir/p1.bin"; printf '\001'; tail -c 41 "$dir/p1.bin"; } >"$flipped"
for change in "comm_r=$(other "$CR")" "comm_d=$(other "$CD")" "prover=$(other "$PID")" sid=42 ticket=t2 seed=r2 \
              pid=0 "proof=$flipped"; do
    if base "$change" >"$dir/out" 2>&1; then bad "verify-seal accepts $change"; fi
    grep -q "FAIL" "$dir/out" || bad "$change: no FAIL line: $(cat "$dir/out")"
done

# --- lotus SealVerifyInfo: a batch of two, then one bad seal ------------------------------------------
svi() { # n seed -> one SealVerifyInfo object
    s=$dir/s$1
    printf '{"SealProof": 5, "SectorID": {"Miner": %s, "Number": %s}, "DealIDs": [], "Randomness": "%s", ' \
        "100$1" "$(json "$s/seal.json" sector_id)" "$(printf '%s' "$(json "$s/seal.json" ticket)" | xxd -r -p | base64 -w0)"
    printf '"InteractiveRandomness": "%s", "Proof": "%s", "SealedCID": {"/": "%s"}, "UnsealedCID": {"/": "%s"}}' \
        "$(printf '%s' "$2" | sha256sum | cut -c1-64 | xxd -r -p | base64 -w0)" "$(base64 -w0 "$dir/p$1.bin")" \
        "$(json "$s/seal.json" sealed_cid)" "$(json "$s/seal.json" unsealed_cid)"
}
{ printf '['; svi 1 r1; printf ', '; svi 1 r1; printf ']\n'; } >"$dir/svi.json"
"$BIN" porep verify-seal --vk "$VK" --seal-info "$dir/svi.json" >"$dir/out" 2>&1 || bad "SVI batch: $(cat "$dir/out")"
grep -q "2 of 2 seal(s) verify" "$dir/out" || bad "SVI batch: $(cat "$dir/out")"
{ printf '['; svi 1 r1; printf ', '; svi 1 r9; printf ']\n'; } >"$dir/svi-bad.json"
"$BIN" porep verify-seal --vk "$VK" --seal-info "$dir/svi-bad.json" >"$dir/out" 2>&1 && bad "SVI with a wrong seed verifies"
grep -q "svi-bad.json\[0\]: OK" "$dir/out" && grep -q "svi-bad.json\[1\]: FAIL: the proof does not verify" "$dir/out" ||
    bad "SVI fallback: $(cat "$dir/out")"
sed "s/\"SealedCID\": {\"\/\": \"$CRC\"}/\"SealedCID\": {\"\/\": \"$CDC\"}/" "$dir/svi.json" >"$dir/svi-codec.json"
"$BIN" porep verify-seal --vk "$VK" --seal-info "$dir/svi-codec.json" >"$dir/out" 2>&1 && bad "a wrong-codec CID verifies"
grep -q "SealedCID.*codec fil-commitment-unsealed (0xf101); a sealed (comm_r) commitment needs fil-commitment-sealed" \
    "$dir/out" || bad "wrong codec: $(cat "$dir/out")"

# --- Filecoin's file names ------------------------------------------------------------------------------
mkdir -p "$dir/fil"
name=$("$BIN" porep param-name --proof-id 5 | sed -n 2p)
[ "$name" = v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk ] ||
    bad "param-name: $name"
"$BIN" porep verify-seal --params-dir "$dir/fil" --seal-info "$dir/svi.json" >"$dir/out" 2>&1 &&
    bad "--params-dir without the .vk verifies"
grep -q "no readable $name for the 2KiB PoRep circuit" "$dir/out" || bad "missing vk: $(cat "$dir/out")"
[ "$(wc -c <"$VK")" -eq 4708 ] || bad "our 2 KiB .vk is $(wc -c <"$VK") bytes, Filecoin's 4708"
cp "$VK" "$dir/fil/$name"
"$BIN" porep verify-seal --params-dir "$dir/fil" --seal-info "$dir/svi.json" >"$dir/out" 2>&1 ||
    bad "--params-dir: $(cat "$dir/out")"
# its digest checked against a parameters.json-style manifest first
dg=$("$BIN" params digest "$dir/fil/$name" | cut -d' ' -f1)
printf '{"%s": {"cid": "Qm", "digest": "%s", "sector_size": 2048}}\n' "$name" "$dg" >"$dir/parameters.json"
"$BIN" porep verify-seal --params-dir "$dir/fil" --manifest "$dir/parameters.json" --seal-info "$dir/svi.json" \
    >"$dir/out" 2>&1 || bad "--manifest: $(cat "$dir/out")"
printf '{"%s": {"cid": "Qm", "digest": "%s", "sector_size": 2048}}\n' "$name" 00112233445566778899aabbccddeeff \
    >"$dir/parameters.json"
"$BIN" porep verify-seal --params-dir "$dir/fil" --manifest "$dir/parameters.json" --seal-info "$dir/svi.json" \
    >"$dir/out" 2>&1 && bad "--manifest with another digest verifies"
grep -q "00112233445566778899aabbccddeeff" "$dir/out" || bad "--manifest mismatch: $(cat "$dir/out")"

# --- rust-fil-proofs' regression records: per-line verdicts ----------------------------------------------
"$BIN" porep verify-seal --vk "$VK" --seal-info tests/vectors/porep/seal_regression_records.jsonl >"$dir/out" 2>&1 &&
    bad "Filecoin's proofs verify against our key"
[ "$(grep -c ': FAIL: ' "$dir/out")" -eq 7 ] || bad "records: $(cat "$dir/out")"
grep -q "line 5: FAIL: .*328 ic points\|line 5: FAIL: .*40 ic points" "$dir/out" || bad "records line 5: $(cat "$dir/out")"
grep -q "line 7: FAIL: .*SnarkPack aggregate" "$dir/out" || bad "records line 7: $(cat "$dir/out")"

# --- prove --proof-format: the same proof as raw bytes, hex and base64 (test-mul: fast) --------------
"$BIN" setup --circuit test-mul --out "$dir/tm" --seed 1111111111111111111111111111111111111111111111111111111111111111 \
    --threads 1 >/dev/null 2>&1 || bad "setup test-mul"
for f in raw hex base64; do
    "$BIN" prove --params "$dir/tm" --circuit test-mul --out "$dir/tm.$f" --proof-format "$f" --threads 1 >/dev/null \
        2>&1 || bad "prove --proof-format $f"
done
# each proof has its own randomness: decode the text forms and verify them
tr -d '\n' <"$dir/tm.hex" | xxd -r -p >"$dir/tm.hex.bin"
base64 -d "$dir/tm.base64" >"$dir/tm.base64.bin"
for f in raw hex.bin base64.bin; do
    [ "$(wc -c <"$dir/tm.$f")" -eq 192 ] || bad "prove --proof-format: tm.$f is $(wc -c <"$dir/tm.$f") bytes"
    "$BIN" verify --vk "$dir/tm/test-mul.vk" --proof "$dir/tm.$f" --inputs "$dir/tm.${f%%.*}.public.json" \
        >/dev/null 2>&1 || bad "prove --proof-format: tm.$f does not verify"
done
"$BIN" prove --params "$dir/tm" --circuit test-mul --out "$dir/x" --proof-format octal >/dev/null 2>&1
[ $? -eq 2 ] || bad "prove --proof-format octal: not exit 2"
# another circuit's parameters under Filecoin's 2 KiB name: the error names what differs
ln -s "$dir/tm/test-mul.params" "$dir/filbad/$PNAME"
"$BIN" prove --params "$dir/filbad" --c1 "$dir/c1-1.json" --out "$dir/x" --trust-params >/dev/null 2>"$dir/err" &&
    bad "prove with test-mul parameters under the 2 KiB name succeeds"
grep -q "$PNAME: section ic: 2 points, the circuit needs 40" "$dir/err" || bad "wrong params: $(cat "$dir/err")"

# --- messages a new user meets ------------------------------------------------------------------------
# a ticket given as its 32 bytes of hex, with 0x: taken as bytes (no note); 63 digits: hashed, with a note
TK=$(json "$S/seal.json" ticket)
base ticket="0x$TK" >"$dir/out" 2>&1 || bad "--ticket 0x<hex>: $(cat "$dir/out")"
grep -q "note: --ticket" "$dir/out" && bad "--ticket 0x<hex>: a note: $(cat "$dir/out")"
short=$(printf '%s' "$TK" | cut -c2-)
base ticket="$short" >"$dir/out" 2>&1 && bad "--ticket of 63 digits verifies"
grep -q "note: --ticket '$short' is not 64 hex digits: its SHA-256 is used" "$dir/out" ||
    bad "--ticket of 63 digits: no note: $(cat "$dir/out")"
grep -q "note: --seed" "$dir/out" || bad "--seed r1 (text): no note: $(cat "$dir/out")"
# a commitment of 63 hex digits is named as hex, not as a CID
base comm_r="$(printf '%s' "$CR" | cut -c2-)" >"$dir/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q -- "--comm-r: expected 64 hex digits, found 63" "$dir/out" ||
    bad "--comm-r of 63 digits: exit $rc: $(cat "$dir/out")"
base comm_r="0x$CR" >"$dir/out" 2>&1 || bad "--comm-r 0x<hex>: $(cat "$dir/out")"
# a proof file that is not text of its format: exit 1 (as the help says), naming the character
{ cat "$dir/p1.hex"; printf 'zz'; } >"$dir/p1.badhex"
base proof="$dir/p1.badhex" fmt=hex >"$dir/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "p1.badhex: not hex text: 'z' (character 385) is not a hex digit" "$dir/out" ||
    bad "bad hex proof: exit $rc: $(cat "$dir/out")"
{ printf '!'; cat "$dir/p1.b64"; } >"$dir/p1.badb64"
base proof="$dir/p1.badb64" fmt=base64 >"$dir/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "p1.badb64: not base64 text: '!' (character 1)" "$dir/out" ||
    bad "bad base64 proof: exit $rc: $(cat "$dir/out")"
base fmt=octal >"$dir/out" 2>&1; [ $? -eq 2 ] || bad "--proof-format octal: not exit 2"
# a proof of the wrong size: "1 partition", no "a interactive"
head -c 100 "$dir/p1.bin" >"$dir/p1.short"
base proof="$dir/p1.short" >"$dir/out" 2>&1 && bad "a 100-byte proof verifies"
grep -q "100 bytes; the seal's config (2KiB, interactive) has 1 partition of 192 bytes" "$dir/out" ||
    bad "short proof: $(cat "$dir/out")"
# records in a JSON array, and a directory as --seal-info
{ printf '['; head -n 1 tests/vectors/porep/seal_regression_records.jsonl; printf ']\n'; } >"$dir/records.json"
"$BIN" porep verify-seal --vk "$VK" --seal-info "$dir/records.json" >"$dir/out" 2>&1 && bad "records array verifies"
grep -q "records are read one per line (JSON Lines), not in an array" "$dir/out" || bad "records array: $(cat "$dir/out")"
"$BIN" porep verify-seal --vk "$VK" --seal-info "$dir" >"$dir/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "cannot read: a directory, not a file of seals" "$dir/out" ||
    bad "--seal-info DIR: exit $rc: $(cat "$dir/out")"
# --vk and no seal at all
"$BIN" porep verify-seal --vk "$VK" >"$dir/out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "no seal given: --seal-info FILE, or one seal's" "$dir/out" ||
    bad "--vk alone: exit $rc: $(cat "$dir/out")"
# verify --inputs with JSON numbers instead of decimal strings
sed 's/"\([0-9]*\)"/\1/g' "$dir/tm.raw.public.json" >"$dir/tm.num.json"
"$BIN" verify --vk "$dir/tm/test-mul.vk" --proof "$dir/tm.raw" --inputs "$dir/tm.num.json" >"$dir/out" 2>&1 &&
    bad "verify --inputs with numbers succeeds"
grep -q "each input is a decimal string" "$dir/out" || bad "verify --inputs numbers: $(cat "$dir/out")"
printf '["1%s"]\n' 000000000000000000000000000000 | sed 's/"//g' >"$dir/big.json"
"$BIN" verify --vk "$dir/tm/test-mul.vk" --proof "$dir/tm.raw" --inputs "$dir/big.json" >"$dir/out" 2>&1 &&
    bad "verify --inputs with a big number succeeds"
grep -q "too big.*each input is a decimal string" "$dir/out" || bad "verify --inputs big number: $(cat "$dir/out")"

# --- usage errors ------------------------------------------------------------------------------------
"$BIN" porep verify-seal --seal-info "$dir/svi.json" >/dev/null 2>&1; [ $? -eq 2 ] || bad "no key: not exit 2"
"$BIN" porep verify-seal --vk "$VK" --comm-r "$CR" >/dev/null 2>"$dir/err"; [ $? -eq 2 ] || bad "missing flags: not exit 2"
exit $fail
