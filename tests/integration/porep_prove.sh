#!/bin/sh
# gm-test: heavy
# tests/integration/porep_prove.sh — a 2 KiB PoRep partition end to end:
# `grothmpi setup --circuit porep --sector-size 2KiB` (2.69 M constraints,
# minutes on two cores, so its parameters are cached in $BUILD/porep-cache
# and paid once per build directory), then
#   - a proof of the random consistent witness (--circuit porep) verifies
#     against its public inputs, and fails with one input changed;
#   - a sector sealed with `grothmpi porep seal` and its C1 (`porep c1`):
#     `prove --c1` writes a 192-byte sector proof that `verify --c1` accepts,
#     with the public inputs derived from the C1 (replica_id, comm_d, comm_r,
#     the challenges from the seed and their graph parents);
#   - the same proof is rejected against a C1 whose comm_r or seed was
#     changed (tampered public inputs), and bad options fail with one line.
# Exit 0 = pass. BUILD names the build directory (default: build).
set -u
BUILD=${BUILD:-build}
BIN="$BUILD/grothmpi"
[ -x "$BIN" ] || { echo "porep_prove: $BIN is not built"; exit 1; }
CACHE=${GROTHMPI_POREP_CACHE:-$BUILD/porep-cache}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "porep_prove: FAIL: $*"; fail=1; }

# --- the parameters (cached) -------------------------------------------------------
mkdir -p "$CACHE" || exit 1
if ! "$BIN" setup --circuit porep --sector-size 2KiB --out "$CACHE" --verbose >"$dir/setup.out" 2>"$dir/setup.err"; then
    echo "porep_prove: setup failed: $(cat "$dir/setup.err")"; exit 1
fi
cat "$dir/setup.out"
VK="$CACHE/porep-2048-v2.vk"
[ -s "$VK" ] && [ -s "$CACHE/porep-2048-v2.params" ] && [ -s "$CACHE/porep-2048-v2.shape" ] || {
    echo "porep_prove: the cache lacks porep-2048-v2.{params,vk,shape}"; exit 1; }

# --- the random consistent witness ------------------------------------------------------
if "$BIN" prove --params "$CACHE" --circuit porep --sector-size 2KiB --out "$dir/r.bin" --trust-params \
        --verbose >"$dir/r.out" 2>"$dir/r.err"; then
    cat "$dir/r.out"
    [ "$(wc -c <"$dir/r.bin")" -eq 192 ] || bad "random witness: proof is $(wc -c <"$dir/r.bin") bytes"
    "$BIN" verify --vk "$VK" --proof "$dir/r.bin" --inputs "$dir/r.bin.public.json" >/dev/null 2>&1 ||
        bad "random witness: the proof does not verify"
    # one public input changed: the first digit of the replica_id
    sed '2s/"\([0-9]\)/"9\1/' "$dir/r.bin.public.json" >"$dir/r.bad.json"
    cmp -s "$dir/r.bin.public.json" "$dir/r.bad.json" && bad "tamper: sed changed nothing"
    "$BIN" verify --vk "$VK" --proof "$dir/r.bin" --inputs "$dir/r.bad.json" >/dev/null 2>&1 &&
        bad "random witness: a tampered input verifies"
else
    bad "prove --circuit porep: $(cat "$dir/r.err")"
fi

# --- a sealed sector and its C1 ------------------------------------------------------------
"$BIN" porep seal --sector-size 2KiB --seed 11 --out "$dir/sector" >/dev/null 2>"$dir/seal.err" ||
    { bad "porep seal: $(cat "$dir/seal.err")"; exit 1; }
"$BIN" porep c1 "$dir/sector" --seed 12 --out "$dir/c1.json" >/dev/null 2>"$dir/c1.err" ||
    { bad "porep c1: $(cat "$dir/c1.err")"; exit 1; }
if "$BIN" prove --params "$CACHE" --c1 "$dir/c1.json" --out "$dir/s.bin" --trust-params --verbose \
        >"$dir/s.out" 2>"$dir/s.err"; then
    cat "$dir/s.out"
    [ "$(wc -c <"$dir/s.bin")" -eq 192 ] || bad "c1: sector proof is $(wc -c <"$dir/s.bin") bytes"
    "$BIN" verify --vk "$VK" --c1 "$dir/c1.json" --proof "$dir/s.bin" >"$dir/v.out" 2>&1 ||
        bad "verify --c1: $(cat "$dir/v.out")"
    "$BIN" verify --vk "$VK" --c1 "$dir/c1.json" --partition 0 --proof "$dir/s.bin" >/dev/null 2>&1 ||
        bad "verify --c1 --partition 0 rejects the proof"
    # the same inputs through the JSON file prove writes
    "$BIN" verify --vk "$VK" --inputs "$dir/s.bin.public.json" --proof "$dir/s.bin" >/dev/null 2>&1 ||
        bad "verify --inputs <out>.public.json rejects the C1 proof"
    # tampered public inputs: comm_r's first byte, then the seed's
    b0=$(sed -n 's/.*"comm_r":\[\([0-9]*\),.*/\1/p' "$dir/c1.json")
    sed "s/\"comm_r\":\[$b0,/\"comm_r\":[$(((b0 + 1) % 256)),/" "$dir/c1.json" >"$dir/c1.comm_r.json"
    cmp -s "$dir/c1.json" "$dir/c1.comm_r.json" && bad "tamper: comm_r unchanged"
    "$BIN" verify --vk "$VK" --c1 "$dir/c1.comm_r.json" --proof "$dir/s.bin" >/dev/null 2>&1 &&
        bad "verify --c1 accepts a C1 with another comm_r"
    "$BIN" porep c1 "$dir/sector" --seed 13 --out "$dir/c1.seed.json" >/dev/null 2>&1 || bad "porep c1 --seed 13"
    "$BIN" verify --vk "$VK" --c1 "$dir/c1.seed.json" --proof "$dir/s.bin" >/dev/null 2>&1 &&
        bad "verify --c1 accepts the proof for another seed's challenges"
else
    bad "prove --c1: $(cat "$dir/s.err")"
fi

# --- errors: one line, non-zero exit, no output ----------------------------------------
expect_error() { # what-to-find-in-stderr command args...
    want=$1; shift
    rm -f "$dir/x.bin"
    if "$@" >"$dir/stdout" 2>"$dir/stderr"; then bad "'$*' exited 0"; return; fi
    grep -q -- "$want" "$dir/stderr" || bad "'$*': stderr lacks '$want': $(cat "$dir/stderr")"
    [ ! -e "$dir/x.bin" ] || bad "'$*' wrote its output"
}
expect_error "--partition" "$BIN" prove --params "$CACHE" --c1 "$dir/c1.json" --partition 1 --out "$dir/x.bin"
expect_error "--partition" "$BIN" prove --params "$CACHE" --circuit porep --sector-size 2KiB --partition 0 \
    --out "$dir/x.bin"
expect_error "nope.json" "$BIN" prove --params "$CACHE" --c1 "$dir/nope.json" --out "$dir/x.bin"
expect_error "--batch" "$BIN" prove --params "$CACHE" --c1 "$dir/c1.json" --batch 2 --out "$dir/x.bin"
expect_error "192" "$BIN" verify --vk "$VK" --c1 "$dir/c1.json" --proof "$dir/r.bin.public.json"

exit $fail
