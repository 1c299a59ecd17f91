#!/bin/sh
# tests/integration/snarkjs_cli.sh — `grothmpi snarkjs` on the committed
# snarkjs vectors (tests/vectors/snarkjs/, no npm needed): prove and verify,
# exit codes (0 ok, 1 failure, 2 usage), one-line errors naming the file, and
# no output file left behind by a failed prove; the emulated device's proofs
# on both curves, the CPU's byte for byte.
set -u
BUILD=${BUILD:-build}
G="$BUILD/grothmpi"
V=tests/vectors/snarkjs
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect() { # expect CODE DESC CMD...
    want=$1; desc=$2; shift 2
    "$@" >"$T/out" 2>"$T/err"; got=$?
    if [ "$got" -eq "$want" ]; then ok "$desc"; else bad "$desc: exit $got, expected $want"; cat "$T/out" "$T/err"; fi
}

expect 0 "prove the multiplier" "$G" snarkjs prove $V/multiplier.zkey $V/multiplier.wtns "$T/proof.json" "$T/public.json"
cmp -s "$T/public.json" $V/public.json && ok "public.json is snarkjs's" || bad "public.json differs"
expect 0 "verify our proof" "$G" snarkjs verify $V/verification_key.json "$T/public.json" "$T/proof.json"
grep -q '^OK!$' "$T/out" && ok "prints OK!" || bad "no OK!"
expect 0 "verify snarkjs's proof" "$G" snarkjs verify $V/verification_key.json $V/public.json $V/proof.json
expect 0 "prove with --r1cs check and --verbose" "$G" snarkjs prove --r1cs $V/multiplier.r1cs --verbose \
    --threads 1 $V/multiplier.zkey $V/multiplier.wtns "$T/p2.json" "$T/pub2.json"
expect 0 "check the witness" "$G" snarkjs check $V/multiplier.r1cs $V/multiplier.wtns
expect 0 "info" "$G" snarkjs info $V/multiplier.zkey

printf '["34", "3"]' >"$T/badpub.json"
expect 1 "wrong public input" "$G" snarkjs verify $V/verification_key.json "$T/badpub.json" "$T/proof.json"
grep -q "Invalid proof" "$T/err" && ok "says Invalid proof" || bad "message: $(cat "$T/err")"

expect 1 "bn128 zkey with a bls12381 witness refused" "$G" snarkjs prove $V/multiplier_bn128.zkey $V/multiplier.wtns \
    "$T/x.json" "$T/y.json"
grep -q "bn128" "$T/err" && [ "$(wc -l <"$T/err")" -eq 1 ] && ok "one line naming bn128" || bad "message: $(cat "$T/err")"
expect 0 "verify snarkjs's bn128 proof" "$G" snarkjs verify $V/verification_key_bn128.json $V/public_bn128.json \
    $V/proof_bn128.json
expect 1 "bn128 proof, wrong public input" "$G" snarkjs verify $V/verification_key_bn128.json "$T/badpub.json" \
    $V/proof_bn128.json
expect 0 "check the bn128 witness" "$G" snarkjs check $V/multiplier_bn128.r1cs $V/multiplier_bn128.wtns
expect 1 "bn128 r1cs with a bls12381 witness" "$G" snarkjs check $V/multiplier_bn128.r1cs $V/multiplier.wtns
expect 0 "info bn128" "$G" snarkjs info $V/multiplier_bn128.zkey
grep -q "bn128" "$T/out" && ok "info names bn128" || bad "info: $(cat "$T/out")"
expect 1 "plonk zkey refused" "$G" snarkjs prove $V/multiplier_plonk.zkey $V/multiplier.wtns "$T/x.json" "$T/y.json"
expect 1 "bn128 witness refused" "$G" snarkjs prove $V/multiplier.zkey $V/multiplier_bn128.wtns "$T/x.json" "$T/y.json"
head -c 3000 $V/multiplier.zkey >"$T/trunc.zkey"
expect 1 "truncated zkey refused" "$G" snarkjs prove "$T/trunc.zkey" $V/multiplier.wtns "$T/x.json" "$T/y.json"
grep -q "trunc.zkey" "$T/err" && ok "message names the file" || bad "message: $(cat "$T/err")"
expect 1 "missing file" "$G" snarkjs prove "$T/none.zkey" $V/multiplier.wtns "$T/x.json" "$T/y.json"
[ ! -e "$T/x.json" ] && [ ! -e "$T/y.json" ] && ok "no output after failures" || bad "output written after a failure"
ls "$T" | grep -q tmp && bad "temporary file left" || ok "no temporary file"

# The device backends on both curves: the emulated device's proof.json is
# the CPU's byte for byte (same --proof-seed), with the device unlimited,
# with GROTHMPI_EMU_MEM too small for the bases (they stay on the CPU: the
# MSMs there, the NTTs on the device) and too small for the NTT's
# workspace (the device fails, the proof is made again on the CPU); every
# one verified by grothmpi and, when tests/interop's node_modules is there,
# by `snarkjs groth16 verify`. (Bases that stream: tests/unit's
# gpu*/emulated_context_resident_and_streamed.)
SJ=tests/interop/node_modules/snarkjs/build/cli.cjs
for x in "" _bn128; do
    expect 0 "prove$x on the CPU" "$G" snarkjs prove --backend cpu --proof-seed 7 $V/multiplier$x.zkey \
        $V/multiplier$x.wtns "$T/cpu$x.json" "$T/cpub$x.json"
    for mem in "" 300K 100K; do
        expect 0 "prove$x on the emulated device (GROTHMPI_EMU_MEM '$mem')" env GROTHMPI_EMU_MEM=$mem "$G" snarkjs \
            prove --backend emulate --proof-seed 7 --verbose $V/multiplier$x.zkey $V/multiplier$x.wtns \
            "$T/emu$x.json" "$T/epub$x.json"
        grep -q "backend emulate:0: 1 units" "$T/out" && ok "the emulated device took the unit" || bad "no summary"
        cmp -s "$T/emu$x.json" "$T/cpu$x.json" && cmp -s "$T/epub$x.json" "$T/cpub$x.json" \
            && ok "proof.json$x is the CPU's" || bad "proof.json$x (GROTHMPI_EMU_MEM '$mem') differs from the CPU's"
        expect 0 "verify$x" "$G" snarkjs verify $V/verification_key$x.json "$T/epub$x.json" "$T/emu$x.json"
        if command -v node >/dev/null && [ -f "$SJ" ]; then
            expect 0 "snarkjs groth16 verify$x" node "$SJ" groth16 verify $V/verification_key$x.json \
                "$T/epub$x.json" "$T/emu$x.json"
        fi
    done
done
expect 2 "--backend with --split refused" "$G" snarkjs prove --split --backend emulate $V/multiplier_bn128.zkey \
    $V/multiplier_bn128.wtns "$T/x.json" "$T/y.json"

expect 2 "prove usage" "$G" snarkjs prove $V/multiplier.zkey
expect 2 "verify usage" "$G" snarkjs verify $V/verification_key.json
expect 2 "unknown subcommand" "$G" snarkjs frobnicate
expect 0 "help" "$G" snarkjs --help

[ "$fails" -eq 0 ] && echo "snarkjs_cli: all passed"
[ "$fails" -eq 0 ]
