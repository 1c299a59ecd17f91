#!/bin/sh
# bench/interop.sh — `make bench-interop`: grothmpi and `snarkjs groth16 prove`
# (and rapidsnark, when RAPIDSNARK names its prover) on the same zkey and
# witness, side by side: wall time of the whole command (process start,
# reading the zkey and witness, proving, writing proof.json and public.json),
# median and min of RUNS runs each, the median CPU time, the peak resident
# memory, and the ratios of medians (wall and CPU; RSS against rapidsnark).
# Circuits (default: sha256 on BLS12-381, then all of BN254's): circomlib
# SHA-256 of 64, 192, 448, 960 and 1984 bytes (sha256, sha256_192, ...,
# sha256_1984: the 2^16 to 2^20 domains) and Poseidon chains filling them
# (poseidon_16 to poseidon_20; poseidon, 7 hashes, 2^12), on BLS12-381 (NAME)
# or BN254 (NAME@bn128, circom's default curve); artifacts from
# tests/interop/run.sh (set up on the first run: the 2^20 ones take about an
# hour; cached in $GM_INTEROP_DIR, default $BUILD/interop). All use every CPU
# (snarkjs's wasm workers, rapidsnark's thread pool, grothmpi's pool).
# Benchmarks measure, never assert.
#   BUILD=build RUNS=5 [GM_INTEROP_DIR=dir] [RAPIDSNARK=/path/to/prover] sh bench/interop.sh [sha256_960@bn128] ...
# rapidsnark proves bn128 only; build it from its public source
# (github.com/iden3/rapidsnark, `make host`), never into this repository.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$root/$BUILD" ;; esac
RUNS=${RUNS:-5}
RAPIDSNARK=${RAPIDSNARK:-}
G="$BUILD/grothmpi"
WORK=${GM_INTEROP_DIR:-$BUILD/interop}
SJ="node $root/tests/interop/node_modules/snarkjs/build/cli.cjs"
bn="sha256 sha256_192 sha256_448 sha256_960 sha256_1984 poseidon_16 poseidon_17 poseidon_18 poseidon_19 poseidon_20"
circuits=${*:-sha256 $(for c in $bn; do printf '%s@bn128 ' "$c"; done)}

# Artifacts first (set up once; the interop check is `make test`'s, and
# every timed proof below is verified by snarkjs).
BUILD="$BUILD" GM_INTEROP_DIR="$WORK" GM_INTEROP_SETUP_ONLY=1 sh "$root/tests/interop/run.sh" $circuits >/dev/null

# stats CMD...: runs CMD $RUNS times; prints "median-wall min-wall
# median-cpu max-rss-MiB" (cpu = user + system of the process and its
# threads, which on a shared machine says more than the wall time).
stats() {
    : >"$WORK/times"
    : >"$WORK/cpus"
    : >"$WORK/rss"
    i=0
    while [ $i -lt "$RUNS" ]; do
        /usr/bin/time -f "%e %U %S %M" -o "$WORK/one" "$@" >/dev/null 2>&1
        awk '{print $1}' "$WORK/one" >>"$WORK/times"
        awk '{print $2 + $3}' "$WORK/one" >>"$WORK/cpus"
        awk '{print $4 / 1024}' "$WORK/one" >>"$WORK/rss"
        i=$((i + 1))
    done
    med='{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m}'
    printf '%s %s %s %s\n' "$(sort -g "$WORK/times" | awk "$med")" "$(sort -g "$WORK/times" | head -1)" \
        "$(sort -g "$WORK/cpus" | awk "$med")" "$(sort -g "$WORK/rss" | tail -1 | awk '{printf "%.0f", $1}')"
}

# verified WHO PREFIX: snarkjs verifies the proof WHO left in $d/PREFIXproof.json
verified() {
    $SJ groth16 verify "$d/verification_key.json" "$d/${2}public.json" "$d/${2}proof.json" >/dev/null ||
        echo "bench-interop: $cc: $1's proof does not verify"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "bench-interop: $cpu, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $RUNS runs each, $(date -u +%Y-%m-%d)"
echo "bench-interop: grothmpi $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), snarkjs $(node -p "require('$root/tests/interop/node_modules/snarkjs/package.json').version")${RAPIDSNARK:+, rapidsnark $RAPIDSNARK}"
echo "bench-interop: seconds (median / min / median CPU), peak RSS in MiB; ratios = peer / grothmpi,"
echo "bench-interop: of the median wall / median CPU times, and of the peak RSS (rss x r.)"
row='%-18s %11s %6s  %-25s %-27s %-13s %-25s %-13s %s\n'
printf "$row" circuit constraints domain grothmpi snarkjs "x snarkjs" rapidsnark "x rapidsn." "rss x r."
for cc in $circuits; do
    c=${cc%@*}
    if [ "$c" = "$cc" ]; then d="$WORK/$c" cv=bls12381; else d="$WORK/${c}_${cc#*@}" cv=${cc#*@}; fi
    n=$("$G" snarkjs info "$d/$c.r1cs" | sed -n 's/.* \([0-9]*\) constraints,.*/\1/p')
    dom=$("$G" snarkjs info "$d/$c.zkey" | sed -n 's/.*domainSize \(2^[0-9]*\),.*/\1/p')
    set -- $(stats "$G" snarkjs prove "$d/$c.zkey" "$d/$c.wtns" "$d/b_proof.json" "$d/b_public.json")
    g="$1 / $2 / $3, $4" gw=$1 gc=$3 gm=$4
    verified grothmpi b_
    set -- $(stats $SJ groth16 prove "$d/$c.zkey" "$d/$c.wtns" "$d/b_sproof.json" "$d/b_spublic.json")
    s="$1 / $2 / $3, $4" sr="$(ratio "$1" "$gw")/$(ratio "$3" "$gc")"
    r="-" rr="-" rm="-"
    if [ -n "$RAPIDSNARK" ] && [ "$cv" = bn128 ]; then
        set -- $(stats "$RAPIDSNARK" "$d/$c.zkey" "$d/$c.wtns" "$d/b_rproof.json" "$d/b_rpublic.json")
        r="$1 / $2 / $3, $4" rr="$(ratio "$1" "$gw")/$(ratio "$3" "$gc")" rm=$(ratio "$4" "$gm")
        verified rapidsnark b_r
    fi
    printf "$row" "$cc" "$n" "$dom" "$g" "$s" "$sr" "$r" "$rr" "$rm"
done
echo "bench-interop: grothmpi stages of the last circuit (one run, --verbose):"
"$G" snarkjs prove --verbose "$d/$c.zkey" "$d/$c.wtns" "$d/b_proof.json" "$d/b_public.json" | sed 's/^/  /'
