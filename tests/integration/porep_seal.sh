#!/bin/sh
# tests/integration/porep_seal.sh — `grothmpi porep seal | c1 | synthetic |
# verify-c1` end to end: a zero 2 KiB sector has the published comm_d (lotus
# zerocomm, rust-fil-proofs pieces.rs); sealed 2 KiB (both API versions) and
# 8 MiB sectors give C1 files that verify; a one-bit change in a label, a path
# and a column of the JSON is rejected with the challenge and check named; a
# synthetic 32 GiB C1 (10 partitions x 18 challenges) verifies natively; bad
# input gives one line on stderr and a non-zero exit.
# GM_POREP_QUICK=1 skips the 8 MiB seal and the 32 GiB synthetic (about 20 s
# of CPU together). Exit 0 = pass. BUILD names the build directory.
set -u
BUILD=${BUILD:-build}
BIN="$BUILD/grothmpi"
[ -x "$BIN" ] || { echo "porep_seal: $BIN is not built"; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "porep_seal: FAIL: $*"; fail=1; }
run() { # expect-rc args...
    want=$1; shift
    "$BIN" "$@" >"$dir/stdout" 2>"$dir/stderr"; rc=$?
    [ "$rc" -eq "$want" ] || bad "grothmpi $*: exit $rc, want $want: $(cat "$dir/stderr")"
}

# --- known answer: the zero 2 KiB piece ------------------------------------------------
run 0 porep seal --sector-size 2KiB --seed 1 --zero --out "$dir/z2k" --quiet
grep -q "comm_d:      fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833" "$dir/stdout" ||
    bad "zero 2KiB comm_d: $(grep comm_d "$dir/stdout")"

# --- sealed sectors verify ---------------------------------------------------------------
for api in 1.0 1.1; do
    run 0 porep seal --sector-size 2KiB --api $api --seed "s$api" --out "$dir/s$api" --quiet
    run 0 porep c1 "$dir/s$api" --seed "chain randomness" --out "$dir/c1-$api.json"
    run 0 porep verify-c1 "$dir/c1-$api.json"
    grep -q "OK" "$dir/stdout" || bad "verify-c1 --api $api printed no OK"
done
grep -q '"registered_proof":"StackedDrg2KiBV1"' "$dir/c1-1.0.json" || bad "API 1.0 C1 registered_proof"
left=$(find "$dir" -name '*.tmp.*' | wc -l)
[ "$left" -eq 0 ] || bad "temporary files left"

# --- one-bit changes in the JSON ---------------------------------------------------------
c1="$dir/c1-1.1.json"
flip() { # name python-path-expression expected-message
    python3 - "$c1" "$dir/$1.json" "$2" <<'PY' || exit 1
import json, sys
src, dst, expr = sys.argv[1], sys.argv[2], sys.argv[3]
j = json.load(open(src))
p = j["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]
arr = eval(expr)
arr[0] ^= 1
json.dump(j, open(dst, "w"), separators=(",", ":"))
PY
    run 1 porep verify-c1 "$dir/$1.json"
    grep -q "$3" "$dir/stderr" || bad "$1: message '$(cat "$dir/stderr")' lacks '$3'"
    grep -q "StackedDrg2KiBV1\[0\]\[1\] (challenge" "$dir/stderr" || bad "$1: challenge not named"
}
if command -v python3 >/dev/null 2>&1; then
    flip label 'p["labeling_proofs"][1]["parents"][5]' "labeling_proofs\[1\].parents\[5\]: does not match"
    flip path 'p["comm_d_proofs"]["data"]["Single"]["path"]["path"][2]["hashes"][0]' \
        "comm_d_proofs: path does not hash to its root"
    flip column 'p["replica_column_proofs"]["exp_parents"][3]["column"]["rows"][1]' \
        "exp_parents\[3\]: column hash is not the leaf"
fi

# --- bad input ---------------------------------------------------------------------------
echo '{"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":{"StackedDrg2KiBV1":[]}}' >"$dir/bad.json"
run 1 porep verify-c1 "$dir/bad.json"
grep -q "vanilla_proofs.StackedDrg2KiBV1: expected 1 partitions, got 0" "$dir/stderr" || bad "bad.json: $(cat "$dir/stderr")"
[ "$(wc -l <"$dir/stderr")" -eq 1 ] || bad "bad.json: more than one line on stderr"
run 2 porep seal --sector-size 32GiB --seed 1 --out "$dir/big" --quiet
run 2 porep seal --sector-size 2KiB --out "$dir/noseed"
run 2 porep c1 --seed 1 --out "$dir/x.json"
run 1 porep c1 "$dir/missing" --seed 1 --out "$dir/x.json"
[ -e "$dir/x.json" ] && bad "c1 of a missing directory wrote output"

# --- 8 MiB seal and 32 GiB synthetic ------------------------------------------------------
if [ "${GM_POREP_QUICK:-0}" != 1 ]; then
    run 0 porep seal --sector-size 8MiB --seed 8 --out "$dir/s8m" --quiet
    run 0 porep c1 "$dir/s8m" --seed 9 --out "$dir/c1-8m.json"
    run 0 porep verify-c1 "$dir/c1-8m.json"
    rm -rf "$dir/s8m"
    run 0 porep synthetic --sector-size 32GiB --seed 32 --out "$dir/syn32.json" --quiet
    run 0 porep verify-c1 "$dir/syn32.json" --quiet
    grep -q "10 partition(s) x 18 challenges" "$dir/stdout" || bad "32GiB synthetic: $(cat "$dir/stdout")"
fi
exit $fail
