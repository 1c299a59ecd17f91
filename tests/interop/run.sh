#!/bin/sh
# tests/interop/run.sh — grothmpi against snarkjs, both directions.
#
#   BUILD=build sh tests/interop/run.sh [multiplier] [poseidon] [sha256] [sha256_192] [sha256_448]
#                                        [multiplier@bn128] [poseidon@bn128] ...
#
# For each circuit (default: the first three on bls12381, then multiplier and
# poseidon on bn128; NAME@bn128 is the circuit on BN254; bench/interop.sh's
# larger ones, not in the default: sha256_192, sha256_448, sha256_960 and
# sha256_1984, SHA-256 of that many bytes in the 2^17 to 2^20 domains, and
# poseidon_16 to poseidon_20, Poseidon chains filling the 2^16 to 2^20 domains):
# circom2 compiles it with --prime bls12381 (or bn128); the powers of tau are
# `grothmpi snarkjs ptau`'s development ceremony on either curve (snarkjs's
# `prepare phase2` needs hours at 2^16 on BLS12-381, and minutes already at
# 2^12 on bn128 on a loaded machine); snarkjs runs
# groth16 setup (poseidon also a zkey contribution, so both section orders
# occur), exports the verification key and computes the witness, which both
# `snarkjs wtns check` and `grothmpi snarkjs check` accept. Then:
#   1. grothmpi proves; `snarkjs groth16 verify` and `grothmpi snarkjs verify` accept;
#      so does snarkjs for the proof of --backend emulate, the CPU's byte for byte;
#   2. snarkjs proves; both verifiers accept;
#   3. each proof altered (pi_a x + 1, pi_a/pi_c swapped, pi_c negated) and
#      public.json altered: both verifiers reject every variant;
#   4. grothmpi's proof.json has snarkjs's layout (digits masked) and its
#      public.json is snarkjs's byte for byte; sha256's public values are
#      node's crypto SHA-256 of the message.
# Artifacts are cached in $GM_INTEROP_DIR (default $BUILD/interop), keyed by
# the circuit source and the package lock, so a rerun only proves and verifies.
# node_modules comes from `npm ci` here when it is missing or older than the lock.
# GM_INTEROP_SETUP_ONLY=1: the artifacts only, no check (bench/interop.sh).
# Exit 0 when everything holds; the first failure prints its command and output.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$root/$BUILD" ;; esac
G="$BUILD/grothmpi"
WORK=${GM_INTEROP_DIR:-$BUILD/interop}
SJ="node $here/node_modules/snarkjs/build/cli.cjs"
TOOLS="node $here/tools.mjs"
SEED=000000000000000000000000000000000000000000000000000000000000abcd
MSG="grothmpi interop: sha256 of a message of exactly 64 bytes. 01234"
# msg_of CIRCUIT: its message, MSG repeated to the circuit's length (sha256_N: N bytes)
msg_of() {
    case "$1" in sha256_*) n=${1#sha256_} ;; *) n=64 ;; esac
    m=""
    while [ ${#m} -lt "$n" ]; do m="$m$MSG"; done
    echo "$m"
}
SALT=987654321
[ -x "$G" ] || { echo "interop: $G not built"; exit 1; }
command -v node >/dev/null || { echo "interop: node is not installed"; exit 1; }
mkdir -p "$WORK"

if [ ! -f "$here/node_modules/.package-lock.json" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
    echo "interop: npm ci in $here"
    (cd "$here" && npm ci --no-audit --no-fund >/dev/null)
fi

fail() { echo "interop: FAIL: $*"; exit 1; }
# run CMD...: must succeed; output kept in $WORK/last.log
run() { "$@" >"$WORK/last.log" 2>&1 || { cat "$WORK/last.log"; fail "$*"; }; }
# reject CMD...: must fail
reject() { if "$@" >"$WORK/last.log" 2>&1; then cat "$WORK/last.log"; fail "accepted: $*"; fi; }
now() { date +%s.%N; }

# power_of CIRCUIT: its ptau's power (the domain holds nConstraints + nPublic + 1)
power_of() {
    case "$1" in
    multiplier) echo 4 ;; poseidon) echo 12 ;; poseidon_*) echo "${1#poseidon_}" ;;
    sha256) echo 16 ;; sha256_192) echo 17 ;; sha256_448) echo 18 ;; sha256_960) echo 19 ;; sha256_1984) echo 20 ;;
    esac
}

ptau() { # ptau POWER CURVE -> path
    p="$WORK/dev_$1.ptau"
    [ "$2" = bls12381 ] || p="$WORK/dev_$2_$1.ptau"
    [ -f "$p" ] || run "$G" snarkjs ptau --curve "$2" --power "$1" --seed "$SEED" "$p"
    echo "$p"
}

# dir_of CIRCUIT CURVE: its work directory (bls12381's as before the bn128 runs existed)
dir_of() { if [ "$2" = bls12381 ]; then echo "$WORK/$1"; else echo "$WORK/$1_$2"; fi; }

setup() { # setup CIRCUIT CURVE: compile, setup, witness (cached)
    c=$1; cv=$2; d=$(dir_of "$c" "$cv"); mkdir -p "$d"
    # the key: the circuit, the templates it includes from circuits/, the lock, the inputs
    inc=$(sed -n 's/^include "\([a-z0-9_]*\.circom\)";$/\1/p' "$here/circuits/$c.circom")
    key=$( (cat "$here/circuits/$c.circom" $(for f in $inc; do echo "$here/circuits/$f"; done) "$here/package-lock.json"
            echo "$SEED $(msg_of "$c") $SALT $cv v1") | sha256sum | cut -c1-16)
    if [ -f "$d/key" ] && [ "$(cat "$d/key")" = "$key" ]; then return 0; fi
    rm -rf "$d"; mkdir -p "$d"
    t0=$(now)
    run npx --prefix "$here" circom2 "$here/circuits/$c.circom" --r1cs --wasm --prime "$cv" -o "$d"
    pt=$(ptau "$(power_of "$c")" "$cv")
    if [ "${c%%_*}" = sha256 ]; then
        run $TOOLS sha-input "$(msg_of "$c")" "$SALT" "$d/input.json"
    else
        cp "$here/circuits/${c%%_*}.input.json" "$d/input.json"
    fi
    run $SJ wtns calculate "$d/${c}_js/$c.wasm" "$d/input.json" "$d/$c.wtns"
    run $SJ wtns check "$d/$c.r1cs" "$d/$c.wtns"
    if [ "$c" = poseidon ]; then
        run $SJ groth16 setup "$d/$c.r1cs" "$pt" "$d/${c}_0.zkey"
        run $SJ zkey contribute "$d/${c}_0.zkey" "$d/$c.zkey" --name=interop -e="grothmpi interop entropy"
        rm -f "$d/${c}_0.zkey"
    else
        run $SJ groth16 setup "$d/$c.r1cs" "$pt" "$d/$c.zkey"
    fi
    run $SJ zkey export verificationkey "$d/$c.zkey" "$d/verification_key.json"
    echo "$key" >"$d/key"
    echo "interop: $c ($cv): compiled and set up in $(awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.0f", b - a}') s"
}

check() { # check CIRCUIT CURVE
    c=$1; cv=$2; d=$(dir_of "$c" "$cv"); vk="$d/verification_key.json"
    run "$G" snarkjs check "$d/$c.r1cs" "$d/$c.wtns"
    # 1. grothmpi proves, both verify.
    run "$G" snarkjs prove "$d/$c.zkey" "$d/$c.wtns" "$d/g_proof.json" "$d/g_public.json" --r1cs "$d/$c.r1cs"
    run $SJ groth16 verify "$vk" "$d/g_public.json" "$d/g_proof.json"
    grep -q "OK!" "$WORK/last.log" || fail "$c: snarkjs did not print OK! for grothmpi's proof"
    run "$G" snarkjs verify "$vk" "$d/g_public.json" "$d/g_proof.json"
    # 1b. the emulated device (gpu/'s kernels on the host) proves the CPU's
    # bytes for the same --proof-seed, unlimited and on 8 MiB (sha256's
    # bases stream in chunks; a transform that does not fit is made again
    # on the CPU); snarkjs accepts it.
    run "$G" snarkjs prove --backend cpu --proof-seed 5 "$d/$c.zkey" "$d/$c.wtns" "$d/c_proof.json" "$d/c_public.json"
    for mem in "" 8M; do
        run env GROTHMPI_EMU_MEM=$mem "$G" snarkjs prove --backend emulate --proof-seed 5 "$d/$c.zkey" "$d/$c.wtns" \
            "$d/e_proof.json" "$d/e_public.json"
        cmp -s "$d/e_proof.json" "$d/c_proof.json" || fail "$c: the emulated device's proof (memory '$mem') differs"
        run $SJ groth16 verify "$vk" "$d/e_public.json" "$d/e_proof.json"
        grep -q "OK!" "$WORK/last.log" || fail "$c: snarkjs did not print OK! for the emulated device's proof"
    done
    # 2. snarkjs proves, both verify.
    run $SJ groth16 prove "$d/$c.zkey" "$d/$c.wtns" "$d/s_proof.json" "$d/s_public.json"
    run "$G" snarkjs verify "$vk" "$d/s_public.json" "$d/s_proof.json"
    run $SJ groth16 verify "$vk" "$d/s_public.json" "$d/s_proof.json"
    # 3. altered proofs and inputs fail in both verifiers.
    for who in g s; do
        for kind in pi_a_x swap_ac neg_c; do
            run $TOOLS tamper "$kind" "$d/${who}_proof.json" "$d/bad_proof.json" "$cv"
            reject $SJ groth16 verify "$vk" "$d/${who}_public.json" "$d/bad_proof.json"
            reject "$G" snarkjs verify "$vk" "$d/${who}_public.json" "$d/bad_proof.json"
        done
        run $TOOLS tamper public0 "$d/${who}_public.json" "$d/bad_public.json" "$cv"
        reject $SJ groth16 verify "$vk" "$d/bad_public.json" "$d/${who}_proof.json"
        reject "$G" snarkjs verify "$vk" "$d/bad_public.json" "$d/${who}_proof.json"
    done
    # 4. the files themselves.
    cmp -s "$d/g_public.json" "$d/s_public.json" || fail "$c: public.json differs from snarkjs's"
    $TOOLS mask "$d/g_proof.json" >"$d/g_mask"
    $TOOLS mask "$d/s_proof.json" >"$d/s_mask"
    cmp -s "$d/g_mask" "$d/s_mask" || { diff "$d/g_mask" "$d/s_mask"; fail "$c: proof.json layout differs"; }
    [ "${c%%_*}" != sha256 ] || run $TOOLS sha-check "$(msg_of "$c")" "$SALT" "$d/g_public.json"
    echo "interop: $c ($cv): ok (grothmpi -> snarkjs, snarkjs -> grothmpi, 8 tampered variants rejected by both)"
}

circuits=${*:-multiplier poseidon sha256 multiplier@bn128 poseidon@bn128}
for cc in $circuits; do
    c=${cc%@*}; cv=bls12381
    [ "$c" = "$cc" ] || cv=${cc#*@}
    [ -f "$here/circuits/$c.circom" ] || fail "no circuit $c"
    case "$cv" in bls12381|bn128) ;; *) fail "$cc: the curve is bls12381 or bn128" ;; esac
    setup "$c" "$cv"
    [ "${GM_INTEROP_SETUP_ONLY:-0}" = 1 ] || check "$c" "$cv"
done
if [ "${GM_INTEROP_SETUP_ONLY:-0}" = 1 ]; then echo "interop: set up (not checked)"; else echo "interop: all passed"; fi
