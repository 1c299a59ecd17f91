#!/bin/sh
# fuzz/make_corpus.sh — regenerates the seed corpora under fuzz/corpus/ from
# files the project itself produces: `grothmpi setup` (parameters, verifying
# keys, shape cache files), `grothmpi prove` (proofs), `grothmpi porep`
# (a synthetic 2 KiB C1, a sealed sector's seal.json), `grothmpi topo
# --export-xml` and tests/vectors/topo (topologies), and, when given
# SNARKJS_DIR, the circom/snarkjs files of the multiplier interop circuit
# (.r1cs, .wtns, .zkey, proof.json, public.json, verification_key.json).
# Deterministic seeds throughout; the committed corpora stay well under 1 MB.
#
#   BUILD=build-rel sh fuzz/make_corpus.sh [SNARKJS_DIR]
set -eu
BUILD=${BUILD:-build}
BIN="$BUILD/grothmpi"
[ -x "$BIN" ] || { echo "make_corpus: $BIN is not built"; exit 1; }
C=fuzz/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SEED1=1111111111111111111111111111111111111111111111111111111111111111
SEED2=2222222222222222222222222222222222222222222222222222222222222222

# byte-prefixed copy: put NAME SELECTOR-BYTE FILE
put() { mkdir -p "$C/$1"; { printf "\\$(printf %03o "$2")"; cat "$3"; } >"$C/$1/$4"; }
# plain copy
cp1() { mkdir -p "$C/$1"; cp "$2" "$C/$1/$3"; }
# bytes [off, off+len) of a file
cut_bytes() { dd if="$1" bs=1 skip="$2" count="$3" status=none; }

# --- groth16: params, vk, shape, proofs ---------------------------------------------
"$BIN" setup --circuit test-mul --out "$tmp/p" --seed $SEED1 --threads 1 >/dev/null
"$BIN" setup --circuit test-synthetic --constraints 8 --out "$tmp/p" --seed $SEED2 --threads 1 >/dev/null
"$BIN" prove --params "$tmp/p" --circuit test-mul --out "$tmp/mul.proof" --batch 2 --threads 1 >/dev/null
"$BIN" prove --params "$tmp/p" --circuit test-synthetic --constraints 8 --out "$tmp/syn.proof" --threads 1 >/dev/null
put params 0 "$tmp/p/test-mul.params" test-mul
put params 2 "$tmp/p/test-mul.params" test-mul-shape
put params 1 "$tmp/p/test-synthetic-8.params" test-synthetic-8-trust
cp1 vk "$tmp/p/test-mul.vk" test-mul
cp1 vk "$tmp/p/test-synthetic-8.vk" test-synthetic-8
cp1 shape "$tmp/p/test-mul.shape" test-mul
cp1 shape "$tmp/p/test-synthetic-8.shape" test-synthetic-8
cut_bytes "$tmp/mul.proof" 0 192 >"$tmp/a"; cp1 proof "$tmp/a" test-mul-0
cut_bytes "$tmp/mul.proof" 192 192 >"$tmp/a"; cp1 proof "$tmp/a" test-mul-1
cp1 proof "$tmp/syn.proof" test-synthetic-8
# a bn128 proof (256 bytes: the Ethereum encoding) from a one-sector snarkjs campaign
V=$(pwd)/tests/vectors/snarkjs
printf '{"circuit": "snarkjs", "sectors": [{"id": "b", "zkey": "%s", "wtns": "%s"}], "output": "%s", "progress_interval": 0}\n' \
    "$V/multiplier_bn128.zkey" "$V/multiplier_bn128.wtns" "$tmp/bn" >"$tmp/bn.json"
"$BIN" campaign run "$tmp/bn.json" >/dev/null 2>&1
cp1 proof "$tmp/bn/proofs/b-p0.proof" bn128-multiplier

# --- points and field elements, cut from the vk and the proofs ----------------------
vk="$tmp/p/test-mul.vk"
cut_bytes "$vk" 0 96 >"$tmp/a"; put point 2 "$tmp/a" g1-alpha-uncompressed
cut_bytes "$vk" 192 192 >"$tmp/a"; put point 3 "$tmp/a" g2-beta-uncompressed
cut_bytes "$tmp/syn.proof" 0 48 >"$tmp/a"; put point 0 "$tmp/a" g1-proof-a-compressed
cut_bytes "$tmp/syn.proof" 48 96 >"$tmp/a"; put point 1 "$tmp/a" g2-proof-b-compressed
{ printf '\300'; head -c 47 /dev/zero; } >"$tmp/a"; put point 0 "$tmp/a" g1-infinity-compressed
{ printf '\100'; head -c 95 /dev/zero; } >"$tmp/a"; put point 2 "$tmp/a" g1-infinity-uncompressed
# BN254 points (bn254_point): the G1/G2 generators, the identity and a twist
# point outside G2, from the @noble/curves vectors (field n of record k of a kind).
bnv() { awk -v k="$1" -v i="$2" -v f="$3" '$1 == k && ++n == i { print $f }' tests/vectors/bn254.txt | xxd -r -p; }
bnv g1_snarkjs 2 2 >"$tmp/a"; put bn254_point 0 "$tmp/a" g1-generator-eth
bnv g1_snarkjs 2 3 >"$tmp/a"; put bn254_point 1 "$tmp/a" g1-generator-snarkjs
bnv g1_snarkjs 1 2 >"$tmp/a"; put bn254_point 0 "$tmp/a" g1-identity
bnv g2_snarkjs 2 2 >"$tmp/a"; put bn254_point 2 "$tmp/a" g2-generator-eth
bnv g2_snarkjs 2 3 >"$tmp/a"; put bn254_point 3 "$tmp/a" g2-generator-snarkjs
bnv g2_snarkjs 1 3 >"$tmp/a"; put bn254_point 3 "$tmp/a" g2-identity
awk '$1 == "g2_decode_bad" && $3 == "subgroup" { print $2; exit }' tests/vectors/bn254.txt | xxd -r -p >"$tmp/a"
put bn254_point 2 "$tmp/a" g2-outside-subgroup-eth
cut_bytes "$vk" 0 48 >"$tmp/a"; put ff 0 "$tmp/a" fp-be
cut_bytes "$vk" 48 48 >"$tmp/a"; put ff 1 "$tmp/a" fp-le
# Fr values: the shape's coefficient table (32 bytes LE each, after the header).
idlen=$(od -An -tu4 -j8 -N4 "$tmp/p/test-synthetic-8.shape" | tr -d ' ')
off=$((((12 + idlen + 7) / 8) * 8 + 40 + 64))  # padded header, counts, reserved, then coefficient 2
cut_bytes "$tmp/p/test-synthetic-8.shape" $off 32 >"$tmp/a"; put ff 3 "$tmp/a" fr-le
put ff 2 "$tmp/a" fr-be
put ff 4 "$tmp/a" fr-le-mod
sed -n 's/.*"\([0-9][0-9]*\)".*/\1/p' "$tmp/mul.proof.public.json" | head -1 | tr -d '\n' >"$tmp/a"
put ff 6 "$tmp/a" fr-dec
printf '4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559786' >"$tmp/a"
put ff 5 "$tmp/a" fp-dec-p-minus-1
printf '0' >"$tmp/a"; put ff 5 "$tmp/a" fp-dec-zero

# --- topology -----------------------------------------------------------------------
for f in tests/vectors/topo/*.xml; do put topo 1 "$f" "$(basename "$f" .xml)"; done
"$BIN" topo --topology "synthetic:pack:2 numa:2 l3:2 core:4 pu:2" --export-xml "$tmp/syn.xml" >/dev/null
put topo 1 "$tmp/syn.xml" exported-synthetic
printf 'pack:1 numa:1(memory=256GiB) l3:12(size=32MiB) l2:8 l1d:1 l1i:1 core:1 pu:2(indexes=2*96:1*2)' >"$tmp/a"
put topo 0 "$tmp/a" synthetic-7995wx
printf 'pack:2 numa:2 l3:1(size=60MiB) core:28 pu:2' >"$tmp/a"; put topo 0 "$tmp/a" synthetic-snc
printf 'pack:1 core:4 pu:1' >"$tmp/a"; put topo 0 "$tmp/a" synthetic-flat

# --- PoRep: C1 JSON and seal.json -----------------------------------------------------
"$BIN" porep synthetic --sector-size 2KiB --api 1.1 --seed fuzz --out "$tmp/c1.json" --quiet >/dev/null
cp1 c1 "$tmp/c1.json" synthetic-2KiB-v1_1
"$BIN" porep seal --sector-size 2KiB --seed fuzz --out "$tmp/sealed" --threads 1 --quiet >/dev/null
cp1 sealed "$tmp/sealed/seal.json" seal-2KiB

# --- verify-seal's readers: records, SealVerifyInfo, CIDs, base64 --------------------------
# (the 2 KiB regression records are rust-fil-proofs' data: tests/vectors/porep/README.md)
head -n 4 tests/vectors/porep/seal_regression_records.jsonl | sed -n 2p >"$tmp/a"; put sealinfo 0 "$tmp/a" record-2KiB-v1_1
head -n 4 tests/vectors/porep/seal_regression_records.jsonl | sed -n 4p >"$tmp/a"; put sealinfo 0 "$tmp/a" record-2KiB-synthetic
cr=$(sed -n 's/.*"sealed_cid": "\(.*\)".*/\1/p' "$tmp/sealed/seal.json")
cd=$(sed -n 's/.*"unsealed_cid": "\(.*\)".*/\1/p' "$tmp/sealed/seal.json")
printf '[{"SealProof": 5, "SectorID": {"Miner": 1000, "Number": 1}, "DealIDs": [], "Randomness": "%s", "InteractiveRandomness": "%s", "Proof": "%s", "SealedCID": {"/": "%s"}, "UnsealedCID": {"/": "%s"}}]' \
    "$(head -c 32 /dev/zero | base64 -w0)" "$(head -c 32 /dev/zero | tr '\000' '\001' | base64 -w0)" \
    "$(head -c 192 "$tmp/syn.proof" | base64 -w0)" "$cr" "$cd" >"$tmp/a"
put sealinfo 0 "$tmp/a" svi-2KiB
printf '%s' "$cr" >"$tmp/a"; put sealinfo 1 "$tmp/a" cid-sealed
printf '%s' "$cd" >"$tmp/a"; put sealinfo 1 "$tmp/a" cid-unsealed
printf 'TWFueSBoYW5kcyBtYWtlIGxpZ2h0IHdvcmsu' >"$tmp/a"; put sealinfo 2 "$tmp/a" base64

# --- small string parsers ---------------------------------------------------------------
s() { printf '%s' "$3" >"$tmp/a"; put strings "$1" "$tmp/a" "$2"; }
s 0 sector-2KiB 2KiB; s 0 sector-32gib 32gib; s 0 sector-bytes 536870912
s 1 api-1.1 1.1; s 1 api-1.0.0 1.0.0
s 2 size-64GiB 64GiB; s 2 size-bytes 1048576
{ printf '\003'; printf '\000\004\000\000\000\000\000\000'; printf 'test-synthetic'; } >"$C/strings/circuit-synthetic"
{ printf '\003'; printf '\000\000\000\000\000\000\000\000'; printf 'test-mul'; } >"$C/strings/circuit-mul"
{ printf '\003'; printf '\000\000\000\000\000\000\000\000'; printf 'porep\0002KiB'; } >"$C/strings/circuit-porep"

# --- campaigns ---------------------------------------------------------------------------
mkdir -p "$C/campaign"
for f in jobs/examples/*.json; do [ -e "$f" ] && cp "$f" "$C/campaign/$(basename "$f" .json)"; done

# --- circom / snarkjs ------------------------------------------------------------------
if [ $# -ge 1 ] && [ -d "$1" ]; then
    S=$1
    [ -e "$S/multiplier.r1cs" ] && cp1 r1cs "$S/multiplier.r1cs" multiplier
    [ -e "$S/multiplier.wtns" ] && cp1 wtns "$S/multiplier.wtns" multiplier
    [ -e "$S/multiplier.zkey" ] && put zkey 0 "$S/multiplier.zkey" multiplier
    [ -e "$S/multiplier.zkey" ] && put zkey 1 "$S/multiplier.zkey" multiplier-subgroup
    [ -e "$S/multiplier.zkey" ] && put zkey 4 "$S/multiplier.zkey" multiplier-streamed
    [ -e "$S/proof.json" ] && put snarkjs_json 0 "$S/proof.json" proof
    [ -e "$S/public.json" ] && put snarkjs_json 1 "$S/public.json" public
    [ -e "$S/verification_key.json" ] && put snarkjs_json 2 "$S/verification_key.json" verification_key
    [ -e "$S/multiplier_bn128.r1cs" ] && cp1 r1cs "$S/multiplier_bn128.r1cs" multiplier-bn128
    [ -e "$S/multiplier_bn128.wtns" ] && cp1 wtns "$S/multiplier_bn128.wtns" multiplier-bn128
    [ -e "$S/multiplier_bn128.zkey" ] && put zkey 2 "$S/multiplier_bn128.zkey" multiplier-bn128
    [ -e "$S/multiplier_bn128.zkey" ] && put zkey 3 "$S/multiplier_bn128.zkey" multiplier-bn128-subgroup
    [ -e "$S/multiplier_bn128.zkey" ] && put zkey 6 "$S/multiplier_bn128.zkey" multiplier-bn128-streamed
    [ -e "$S/proof_bn128.json" ] && put snarkjs_json 3 "$S/proof_bn128.json" proof-bn128
    [ -e "$S/public_bn128.json" ] && put snarkjs_json 4 "$S/public_bn128.json" public-bn128
    [ -e "$S/verification_key_bn128.json" ] && put snarkjs_json 5 "$S/verification_key_bn128.json" verification_key-bn128
fi
du -sh "$C"
