#!/bin/sh
# tests/interop/make_vectors.sh — regenerates tests/vectors/snarkjs/, the
# small snarkjs/circom artifacts the C unit tests (tests/unit/test_snarkjs.c)
# read, so that `make test` needs no npm for them. Everything here is made by
# the peer (circom2, snarkjs), none of it by grothmpi:
#   multiplier.{r1cs,wtns,zkey}, verification_key.json, proof.json,
#   public.json                         bls12381, groth16 (the known answers)
#   multiplier_bn128.{r1cs,wtns,zkey}, verification_key_bn128.json,
#   proof_bn128.json, public_bn128.json the same circuit on bn128
#   multiplier_plonk.zkey               a bls12381 plonk key (rejected)
# Usage: cd tests/interop && npm ci && sh make_vectors.sh
# Proofs are randomized (fresh r, s), so a rerun changes the proof.json and
# the zkeys (random contributions), never their validity.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../vectors/snarkjs"
SJ="node $here/node_modules/snarkjs/build/cli.cjs"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
cd "$tmp"
for curve in bls12381 bn128; do
    npx --prefix "$here" circom2 "$here/circuits/multiplier.circom" --r1cs --wasm --prime "$curve" -o . >/dev/null
    mv multiplier.r1cs "m_$curve.r1cs"
    $SJ powersoftau new "$curve" 4 p0.ptau >/dev/null
    $SJ powersoftau contribute p0.ptau p1.ptau --name=c1 -e="grothmpi vectors $curve" >/dev/null
    $SJ powersoftau prepare phase2 p1.ptau "pf_$curve.ptau" >/dev/null
    $SJ wtns calculate multiplier_js/multiplier.wasm "$here/circuits/multiplier.input.json" "m_$curve.wtns"
    $SJ groth16 setup "m_$curve.r1cs" "pf_$curve.ptau" m0.zkey >/dev/null
    $SJ zkey contribute m0.zkey "m_$curve.zkey" --name=c1 -e="grothmpi vectors zkey $curve" >/dev/null
    rm -rf multiplier_js p0.ptau p1.ptau m0.zkey
done
cp m_bls12381.r1cs "$out/multiplier.r1cs"
cp m_bls12381.wtns "$out/multiplier.wtns"
cp m_bls12381.zkey "$out/multiplier.zkey"
cp m_bn128.r1cs "$out/multiplier_bn128.r1cs"
cp m_bn128.wtns "$out/multiplier_bn128.wtns"
cp m_bn128.zkey "$out/multiplier_bn128.zkey"
$SJ plonk setup m_bls12381.r1cs pf_bls12381.ptau "$out/multiplier_plonk.zkey" >/dev/null
$SJ zkey export verificationkey "$out/multiplier.zkey" "$out/verification_key.json" >/dev/null
$SJ groth16 prove "$out/multiplier.zkey" "$out/multiplier.wtns" "$out/proof.json" "$out/public.json"
$SJ groth16 verify "$out/verification_key.json" "$out/public.json" "$out/proof.json"
$SJ zkey export verificationkey "$out/multiplier_bn128.zkey" "$out/verification_key_bn128.json" >/dev/null
$SJ groth16 prove "$out/multiplier_bn128.zkey" "$out/multiplier_bn128.wtns" "$out/proof_bn128.json" \
    "$out/public_bn128.json"
$SJ groth16 verify "$out/verification_key_bn128.json" "$out/public_bn128.json" "$out/proof_bn128.json"
ls -l "$out"
