#!/bin/sh
# bench/interop.sh — `make bench-interop`: grothmpi and `snarkjs groth16 prove`
# on the same zkey and witness, side by side: wall time of the whole command
# (process start, reading the zkey and witness, proving, writing proof.json and
# public.json), median and min of RUNS runs each, and the ratio of medians.
# Circuits: circomlib SHA-256 of 64, 192 and 448 bytes (2^16, 2^17 and 2^18
# domains) and 7 chained Poseidon (3.6 k, 2^12); artifacts from tests/interop/run.sh (set up
# on the first run, cached in $BUILD/interop). Both use every CPU (snarkjs's
# wasm workers, grothmpi's pool). Benchmarks measure, never assert.
#   BUILD=build RUNS=5 sh bench/interop.sh [sha256] [sha256_192] [sha256_448] [poseidon]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$root/$BUILD" ;; esac
RUNS=${RUNS:-5}
G="$BUILD/grothmpi"
WORK=${GM_INTEROP_DIR:-$BUILD/interop}
SJ="node $root/tests/interop/node_modules/snarkjs/build/cli.cjs"
circuits=${*:-sha256 sha256_192 sha256_448 poseidon}

# Artifacts (and the interop check itself) first.
BUILD="$BUILD" GM_INTEROP_DIR="$WORK" sh "$root/tests/interop/run.sh" $circuits >/dev/null

# median_min CMD...: runs CMD $RUNS times; prints "median-wall min-wall
# median-cpu" in seconds (cpu = user + system of the process and its threads,
# which on a shared machine says more than the wall time).
median_min() {
    : >"$WORK/times"
    : >"$WORK/cpus"
    i=0
    while [ $i -lt "$RUNS" ]; do
        /usr/bin/time -f "%e %U %S" -o "$WORK/one" "$@" >/dev/null 2>&1
        awk '{print $1}' "$WORK/one" >>"$WORK/times"
        awk '{print $2 + $3}' "$WORK/one" >>"$WORK/cpus"
        i=$((i + 1))
    done
    med='{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m}'
    printf '%s %s %s\n' "$(sort -g "$WORK/times" | awk "$med")" "$(sort -g "$WORK/times" | head -1)" \
        "$(sort -g "$WORK/cpus" | awk "$med")"
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "bench-interop: $cpu, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $RUNS runs each, $(date -u +%Y-%m-%d)"
echo "bench-interop: grothmpi $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?'), snarkjs $(node -p "require('$root/tests/interop/node_modules/snarkjs/package.json').version")"
printf '%-9s %9s %9s %9s %11s %11s %11s %7s %7s\n' circuit "gm med" "gm min" "gm cpu" "snarkjs med" "snarkjs min" \
    "snarkjs cpu" ratio "cpu rat"
for c in $circuits; do
    d="$WORK/$c"
    set -- $(median_min "$G" snarkjs prove "$d/$c.zkey" "$d/$c.wtns" "$d/b_proof.json" "$d/b_public.json")
    gmed=$1 gmin=$2 gcpu=$3
    set -- $(median_min $SJ groth16 prove "$d/$c.zkey" "$d/$c.wtns" "$d/b_sproof.json" "$d/b_spublic.json")
    smed=$1 smin=$2 scpu=$3
    ratio=$(awk -v a="$smed" -v b="$gmed" 'BEGIN {print a / b}')
    cratio=$(awk -v a="$scpu" -v b="$gcpu" 'BEGIN {print a / b}')
    printf '%-9s %9s %9s %9s %11s %11s %11s %6.1fx %6.1fx\n' "$c" "$gmed" "$gmin" "$gcpu" "$smed" "$smin" "$scpu" \
        "$ratio" "$cratio"
done
echo "bench-interop: grothmpi stages of the last circuit (one run, --verbose):"
"$G" snarkjs prove --verbose "$d/$c.zkey" "$d/$c.wtns" "$d/b_proof.json" "$d/b_public.json" | sed 's/^/  /'
