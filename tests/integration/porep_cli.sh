#!/bin/sh
# tests/integration/porep_cli.sh — `grothmpi porep parent-cache` end to end:
# the 2 KiB caches of both API versions hash to rust-fil-proofs' published
# digests (storage-proofs-porep/parent_cache.json), nothing temporary is left,
# and bad options give one line on stderr, a non-zero exit and no file.
# Exit 0 = pass. BUILD names the build directory (default: build).
set -u
BUILD=${BUILD:-build}
BIN="$BUILD/grothmpi"
[ -x "$BIN" ] || { echo "porep_cli: $BIN is not built"; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "porep_cli: FAIL: $*"; fail=1; }

# --- the published digests ---------------------------------------------------------
check_cache() { # api digest
    out="$dir/cache-$1"
    if ! "$BIN" porep parent-cache --sector-size 2KiB --api "$1" --out "$out" --quiet >"$dir/stdout" 2>"$dir/stderr"; then
        bad "--api $1 exited non-zero: $(cat "$dir/stderr")"; return
    fi
    got=$(sha256sum "$out" | cut -d' ' -f1)
    [ "$got" = "$2" ] || bad "--api $1: sha256 $got, want $2"
    [ "$(wc -c <"$out")" -eq 3584 ] || bad "--api $1: size $(wc -c <"$out"), want 3584"
    grep -q "$2" "$dir/stdout" || bad "--api $1: digest not printed"
}
check_cache 1.0 3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d
check_cache 1.1 840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97
left=$(ls -A "$dir" | grep -c '\.tmp\.')
[ "$left" -eq 0 ] || bad "temporary files left: $(ls -A "$dir")"

# --- errors: one line naming the option, non-zero exit, no output file --------------
expect_error() { # what-to-find-in-stderr args...
    want=$1; shift
    rm -f "$dir/x"
    if "$BIN" porep parent-cache "$@" >"$dir/stdout" 2>"$dir/stderr"; then
        bad "'$*' exited 0"; return
    fi
    [ "$(wc -l <"$dir/stderr")" -eq 1 ] || bad "'$*': stderr is not one line: $(cat "$dir/stderr")"
    grep -q -- "$want" "$dir/stderr" || bad "'$*': stderr lacks '$want': $(cat "$dir/stderr")"
    [ ! -e "$dir/x" ] || bad "'$*' created its output"
}
expect_error "--sector-size" --sector-size 4KiB --api 1.1 --out "$dir/x"
expect_error "--sector-size" --sector-size 2KB --api 1.1 --out "$dir/x"
expect_error "--api" --sector-size 2KiB --api 7 --out "$dir/x"
expect_error "--api" --sector-size 2KiB --api 1.2 --out "$dir/x"
expect_error "--out" --sector-size 2KiB --api 1.1
expect_error "$dir/nodir/x" --sector-size 2KiB --api 1.1 --out "$dir/nodir/x"
expect_error "unknown option" --sector-size 2KiB --api 1.1 --out "$dir/x" --frobnicate
[ ! -e "$dir/nodir" ] || bad "created a directory"

# a failed run leaves an existing target untouched
echo keep >"$dir/keep"
"$BIN" porep parent-cache --sector-size 2KiB --api 9 --out "$dir/keep" >/dev/null 2>&1
[ "$(cat "$dir/keep")" = keep ] || bad "a failed run changed the existing target"

[ "$fail" -eq 0 ] && echo "porep_cli: ok"
exit "$fail"
