#!/bin/sh
# tests/integration/slurm_split.sh — `grothmpi campaign info | split | status`
# without Slurm (no root needed): the split's task files (contiguous sector
# shares, every other key kept, per-task output, one shared setup seed), its
# determinism (a second identical split rewrites the same files and keeps the
# seed), its refusals (a different split without --force, more tasks than
# sectors, a bad campaign), --force with stale task files removed, and status
# counting the journal lines whose check holds (mpi/'s journal reader).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
BIN=$BUILD/grothmpi
T=$(mktemp -d /tmp/gm-split-test.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL slurm_split: $*"
    exit 1
}
[ -x "$BIN" ] || fail "$BIN is missing"
command -v python3 >/dev/null || { echo "SKIP slurm_split: python3 is missing (it writes the journals)"; exit 0; }
cd "$T" || fail "cd $T"

cat >c.json <<'EOF'
{"name": "sp", "circuit": "test-mul", "params": "params", "sectors": {"count": 7, "prefix": "x"},
 "partitions": 3, "batch_size": 2, "output": "out", "verify": "both"}
EOF
[ "$("$BIN" campaign info --key units c.json)" = 21 ] || fail "info: units is not 21"
[ "$("$BIN" campaign info --key output c.json)" = "$T/out" ] || fail "info: output is not $T/out"
"$BIN" campaign info --key nope c.json 2>/dev/null && fail "info accepted --key nope"

"$BIN" campaign split c.json --tasks 3 --out parts >split.log 2>&1 || { cat split.log; fail "split failed"; }
grep -q "21 units in 3 tasks of 2..3 sectors" split.log || { cat split.log; fail "split summary"; }
grep -q "sbatch --array=0-2 slurm/grothmpi.sbatch parts" split.log || { cat split.log; fail "split submit line"; }
[ "$(ls parts | tr '\n' ' ')" = "split.json task-0000.json task-0001.json task-0002.json " ] ||
    fail "split wrote: $(ls parts)"
# Sectors: 7 over 3 tasks, contiguous: x01-x02, x03-x04, x05-x07.
ids() { grep -o '"id": "[^"]*"' "$1" | cut -d'"' -f4 | tr '\n' ' '; }
[ "$(ids parts/task-0000.json)" = "x01 x02 " ] || fail "task 0 sectors: $(ids parts/task-0000.json)"
[ "$(ids parts/task-0001.json)" = "x03 x04 " ] || fail "task 1 sectors: $(ids parts/task-0001.json)"
[ "$(ids parts/task-0002.json)" = "x05 x06 x07 " ] || fail "task 2 sectors: $(ids parts/task-0002.json)"
for i in 0 1 2; do
    f=parts/task-000$i.json
    [ "$("$BIN" campaign info --key output $f)" = "$T/out/task-000$i" ] || fail "$f: output"
    [ "$("$BIN" campaign info --key params $f)" = "$T/params" ] || fail "$f: params"
    [ "$("$BIN" campaign info --key partitions $f)" = 3 ] || fail "$f: partitions"
    [ "$("$BIN" campaign info --key batch_size $f)" = 2 ] || fail "$f: batch_size"
    grep -q '"verify": "both"' $f || fail "$f: verify is not kept"
done
seed=$(grep -o '"setup_seed": "[0-9a-f]*"' parts/task-0000.json)
[ -n "$seed" ] || fail "no setup_seed in task 0"
for i in 1 2; do grep -q "$seed" parts/task-000$i.json || fail "task $i has another setup seed"; done

# The same split again: the same files, the same seed.
cp -r parts parts.before
"$BIN" campaign split c.json --tasks 3 --out parts >/dev/null 2>&1 || fail "the same split again failed"
diff -r parts.before parts >/dev/null || fail "the same split again changed the files"
# A different split is refused, and names the directory; --force replaces it.
"$BIN" campaign split c.json --tasks 2 --out parts >split2.log 2>&1 && fail "a different split was accepted"
grep -q "holds a different split" split2.log || { cat split2.log; fail "refusal message"; }
"$BIN" campaign split c.json --sectors-per-task 4 --out parts --force >/dev/null 2>&1 || fail "--force failed"
[ "$(ls parts | tr '\n' ' ')" = "split.json task-0000.json task-0001.json " ] || fail "--force left: $(ls parts)"
"$BIN" campaign split c.json --tasks 8 --out p8 >/dev/null 2>&1
[ $? -eq 2 ] || fail "8 tasks for 7 sectors accepted"
echo '{"circuit": "test-mul"}' >bad.json
"$BIN" campaign split bad.json --tasks 2 --out pbad >bad.log 2>&1 && fail "a bad campaign was split"
grep -q "bad.json: params" bad.log || { cat bad.log; fail "the error does not name file and key"; }

# status: journals with "done" lines (a duplicate counts once, a line whose check fails not at all).
"$BIN" campaign status parts >st.log 2>&1 && fail "status says done with no journal"
grep -q "0 of 21 units done" st.log || { cat st.log; fail "status before"; }
mkdir -p out/task-0000 out/task-0001
# done_lines RANK UNIT...: journal lines in mpi/resume.c's format, each with its FNV-1a 64 check
done_lines() {
  python3 - "$@" <<'PY'
import sys
rank, units = sys.argv[1], sys.argv[2:]
for u in units:
    body = "done %s %s %s %s" % (u, "a" * 64, "b" * 64, rank)
    h = 0xcbf29ce484222325
    for c in body.encode():
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    print("%s %016x" % (body, h))
PY
}
{ echo "grothmpi-journal 1 circuit=test-mul vk=0"; done_lines 0 x01-p0 x01-p1 x01-p2 x02-p0 x02-p1 x02-p2 \
    x03-p0 x03-p1 x03-p2 x04-p0 x04-p1 x04-p2 x01-p0; echo "done x05-p0 a b 0 c"; } >out/task-0000/journal
"$BIN" campaign status parts >st.log 2>&1 && fail "status says done with task 1 missing"
grep -q "12 of 21 units done" st.log || { cat st.log; fail "status counts"; }
{ echo "grothmpi-journal 1 circuit=test-mul vk=0"; done_lines 1 x05-p0 x05-p1 x05-p2 x06-p0 x06-p1 x06-p2 \
    x07-p0 x07-p1 x07-p2; } >out/task-0001/journal
"$BIN" campaign status parts >st.log 2>&1 || { cat st.log; fail "status: not done when every unit is"; }
grep -q "21 of 21 units done" st.log || { cat st.log; fail "status counts at the end"; }
echo "ok: info, split (shares, keys, seed, determinism, refusals, --force), status"
exit 0
