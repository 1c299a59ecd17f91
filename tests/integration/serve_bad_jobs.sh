#!/bin/sh
# tests/integration/serve_bad_jobs.sh — bad jobs go to failed/ with one
# clear line and the service keeps proving the good ones: not JSON, an
# unknown key, an unknown circuit, a missing C1, a C1 of an unregistered
# sector size, a JSON object that is no job, and real 2 KiB PoRep C1s whose
# parameters are not in the cache (a failed batch: each job is then tried
# alone, each fails alone with the cache's line). A writer's temporary in
# incoming/ is never claimed. A spool on a read-only mount, or through a
# regular file, or a missing parameter cache, stops the server before it
# starts, with one line.
# Exit 0 = pass.
set -eu
. "$(dirname "$0")/lib/common.sh"
export OMPI_MCA_mpi_yield_when_idle=1
need mpirun
gm_tmp servebad
. "$(dirname "$0")/lib/serve.sh"
cd "$T"
serve_params
S="$T/spool"
mkdir -p "$S/incoming"
N=6
submit_jobs "$S" $N j
bad() { # NAME TEXT: a bad job
  printf '%s\n' "$2" > "$1.json"
  "$BIN" submit "$S" "$1.json" --name "$1" > /dev/null || fail "submit $1"
}
bad notjson 'this is not JSON'
bad badkey '{"circuit": "test-synthetic", "seed": 1, "colour": "red"}'
bad badcircuit '{"circuit": "test-nope", "seed": 1}'
bad noc1 '{"c1": "missing.c1.json"}'
bad nojob '{"hello": "world"}'
"$BIN" porep seal --sector-size 2KiB --seed 21 --out sa > seal.log 2>&1 || { cat seal.log; fail "seal"; }
"$BIN" porep c1 sa --seed 5 --out a.c1.json > c1.log 2>&1 || { cat c1.log; fail "c1"; }
sed 's/StackedDrg2KiBV1_1/StackedDrg4KiBV1_1/' a.c1.json > size.c1.json
"$BIN" submit "$S" size.c1.json --name badsize > /dev/null
"$BIN" submit "$S" a.c1.json --name noparams1 > /dev/null
echo '{"c1": "a.c1.json", "priority": 5}' > p2.json
"$BIN" submit "$S" p2.json --name noparams2 > /dev/null
echo 'half a job' > "$S/incoming/torn.json.tmp.99999"
timeout 300 mpirun -np 2 "$BIN" serve "$S" --params "$T/params" --batch 4 --max-wait 0.2 --poll 0.05 --threads 1 \
  --exit-when-idle 1 > serve.log 2>&1 || { cat serve.log; fail "the server stopped"; }
all_done "$S" $N serve.log
reason() { # NAME PATTERN
  [ -f "$S/failed/$1.json" ] || fail "$1: not in failed/"
  [ "$(wc -l < "$S/failed/$1.reason")" -eq 1 ] || fail "$1: not one line"
  grep -q -- "$2" "$S/failed/$1.reason" || { cat "$S/failed/$1.reason"; fail "$1: reason"; }
  echo "ok: $1: $(cat "$S/failed/$1.reason")"
}
reason notjson "^incoming/notjson.json: not JSON: line 1 column 4"
reason badkey "^incoming/badkey.json: colour: unknown key"
reason badcircuit "^incoming/badcircuit.json: circuit: .*unknown circuit 'test-nope'"
reason noc1 "^incoming/noc1.json: c1 .$T/missing.c1.json.: cannot read: No such file or directory"
reason nojob "^incoming/nojob.json: .*registered_proof"
reason badsize "^incoming/badsize.json: .*StackedDrg4KiBV1_1"
reason noparams1 "^incoming/noparams1.json: not proved: .*params: .*porep-2048-v2.params.: No such file"
reason noparams2 "^incoming/noparams2.json: not proved: .*params: .*porep-2048-v2.params.: No such file"
[ "$(ls "$S/failed" | wc -l)" -eq 16 ] || fail "failed/: $(ls "$S/failed")"
[ -f "$S/incoming/torn.json.tmp.99999" ] || fail "a writer's temporary was claimed"
grep -q "^serve: failed noparams1: " serve.log || fail "no 'failed' line in the log"

# A spool the server cannot write: one line, exit 1, before any rank works.
touch afile
set +e
timeout 60 mpirun -np 2 "$BIN" serve afile/spool --params "$T/params" > f.out 2> f.err; rc=$?
set -e
[ $rc -eq 1 ] || { cat f.out f.err; fail "a spool through a file: exit $rc"; }
grep -q "^grothmpi: serve: .*afile/spool: not writable: cannot create: Not a directory" f.err || { cat f.err; fail "through a file: message"; }
[ "$(grep -c '^grothmpi: ' f.err)" -eq 1 ] || { cat f.err; fail "through a file: not one line"; }
set +e
timeout 60 "$BIN" serve "$S" --params nowhere > np.out 2> np.err; rc=$?
set -e
[ $rc -eq 1 ] || { cat np.out np.err; fail "a missing parameter cache: exit $rc"; }
grep -q "^grothmpi: serve: --params nowhere: not a parameter cache directory (No such file or directory)" np.err ||
  { cat np.err; fail "a missing parameter cache: message"; }
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
  mkdir ro
  unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs ro && mkdir ro/incoming && mount -o remount,ro ro &&
    { timeout 60 '$BIN' serve ro --params '$T/params' > ro.out 2> ro.err; echo \$? > ro.rc; }"
  [ "$(cat ro.rc)" -eq 1 ] || { cat ro.out ro.err; fail "read-only spool: exit $(cat ro.rc)"; }
  grep -q "^grothmpi: serve: $T/ro: not writable: .*Read-only file system" ro.err || { cat ro.err; fail "read-only: message"; }
  [ "$(grep -c '^grothmpi: ' ro.err)" -eq 1 ] || { cat ro.err; fail "read-only: not one line"; }
  echo "ok: read-only spool: $(cat ro.err)"
else
  echo "note: no root or mount namespaces: the read-only spool case is skipped"
fi
echo "serve_bad_jobs: OK (8 bad jobs in failed/ with one line each, $N good ones proved; unwritable spools refused)"
