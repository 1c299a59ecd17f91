#!/bin/sh
# tests/integration/porep_seal_kill.sh — an interrupted `grothmpi porep seal`
# leaves no temporary files behind, and sealing again gives a correct sector:
#  1. SIGKILL during the column hashes (tree-d.dat and labels.dat then exist
#     only as "<name>.tmp.<pid>" temporaries): they stay (nothing can remove
#     them then); sealing again into the directory removes them but not the
#     temporary of a live process, and its C1 verifies; a C1 writer likewise
#     removes a dead process's temporary of its output.
#  2. SIGTERM and SIGINT during the column hashes: the temporaries are gone
#     at once, stderr has one line naming the signal and the directory, and
#     the process ends by that signal.
# 8 MiB sectors (about 10 s of CPU in all); skipped with GM_POREP_QUICK=1 (the
# sanitizer build), where a 2 KiB seal is too quick to interrupt. Exit 0 = pass.
set -u
BUILD=${BUILD:-build}
BIN="$BUILD/grothmpi"
[ -x "$BIN" ] || { echo "porep_seal_kill: $BIN is not built"; exit 1; }
if [ "${GM_POREP_QUICK:-0}" = 1 ]; then
    echo "porep_seal_kill: skipped (GM_POREP_QUICK=1)"
    exit 0
fi
dir=$(mktemp -d) || exit 1
live=""
trap '[ -n "$live" ] && kill "$live" 2>/dev/null; rm -rf "$dir"' EXIT
fail=0
bad() { echo "porep_seal_kill: FAIL: $*"; fail=1; }
temps() { find "$1" -name '*.tmp.*' | sort; }

# Starts an 8 MiB seal into $1 in the background and waits (up to 10 min)
# until labels.dat's temporary exists, i.e. the seal is in its column
# hashes; sets $pid. Fails if the seal ends first.
start_seal() {
    "$BIN" porep seal --sector-size 8MiB --seed kill --out "$1" --quiet >"$1.out" 2>"$1.err" &
    pid=$!
    n=0
    while [ ! -e "$1/labels.dat.tmp.$pid" ]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            bad "the seal into $1 ended before it could be interrupted: $(cat "$1.err")"
            return 1
        fi
        n=$((n + 1))
        [ "$n" -lt 6000 ] || { bad "no labels.dat.tmp.$pid after 10 min"; kill -KILL "$pid"; return 1; }
        sleep 0.1
    done
    return 0
}

# --- 1. SIGKILL, then seal again ----------------------------------------------------------
s="$dir/k"
if start_seal "$s"; then
    kill -KILL "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" -eq 137 ] || bad "killed seal: exit $rc, want 137"
    dead=$pid
    [ -n "$(temps "$s")" ] || bad "SIGKILL left no temporary: the test did not interrupt a write"
    [ -e "$s/seal.json" ] && bad "a killed seal left a seal.json"
    sleep 600 &
    live=$!
    : >"$s/tree-c.dat.tmp.$live"  # a live writer's temporary: never removed
    "$BIN" porep seal --sector-size 8MiB --seed kill --out "$s" --quiet >"$dir/rerun.out" 2>&1 ||
        bad "seal again: $(cat "$dir/rerun.out")"
    left=$(temps "$s")
    [ "$left" = "$s/tree-c.dat.tmp.$live" ] || bad "after sealing again, temporaries: '$left' (want only the live one)"
    kill "$live"; wait "$live" 2>/dev/null; live=""
    rm -f "$s/tree-c.dat.tmp."*
    : >"$dir/c1.json.tmp.$dead"   # a dead C1 writer's leftover
    "$BIN" porep c1 "$s" --seed 7 --out "$dir/c1.json" >"$dir/c1.out" 2>&1 || bad "c1: $(cat "$dir/c1.out")"
    [ -e "$dir/c1.json.tmp.$dead" ] && bad "c1 left the dead writer's c1.json.tmp.$dead"
    "$BIN" porep verify-c1 "$dir/c1.json" >"$dir/v.out" 2>&1 || bad "verify-c1 after the rerun: $(cat "$dir/v.out")"
    grep -q "OK" "$dir/v.out" || bad "verify-c1 printed no OK"
fi

# --- 2. SIGTERM and SIGINT ----------------------------------------------------------------
for sig in TERM INT; do
    s="$dir/$sig"
    start_seal "$s" || continue
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    want=$([ "$sig" = TERM ] && echo 143 || echo 130)
    [ "$rc" -eq "$want" ] || bad "SIG$sig: exit $rc, want $want ($(cat "$s.err"))"
    left=$(temps "$s")
    [ -z "$left" ] || bad "SIG$sig left: $left"
    grep -q "grothmpi porep seal: interrupted by SIG$sig: removed the temporary files; $s has no seal.json" "$s.err" ||
        bad "SIG$sig message: '$(cat "$s.err")'"
    [ "$(wc -l <"$s.err")" -eq 1 ] || bad "SIG$sig: more than one line on stderr: $(cat "$s.err")"
done
exit $fail
