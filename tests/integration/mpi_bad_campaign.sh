#!/bin/sh
# tests/integration/mpi_bad_campaign.sh — bad campaigns fail fast on rank 0
# with one clear message naming the file, key and value, on 1 and 2 ranks,
# and no rank hangs (every run is under a timeout).
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
gm_tmp bad
cd "$T"

# expect NAME NP PATTERN: the run fails, stderr has exactly one grothmpi line matching PATTERN
expect() {
  if [ "$2" -eq 1 ]; then
    timeout 60 "$BIN" prove "$1.json" > "$1.out" 2> "$1.err" && fail "$1: succeeded"
  else
    timeout 60 mpirun -np "$2" "$BIN" prove "$1.json" > "$1.out" 2> "$1.err" && fail "$1: succeeded"
  fi
  rc=$?
  [ "$rc" -ne 124 ] || fail "$1 on $2 ranks: hung (timeout)"
  n=$(grep -c '^grothmpi: ' "$1.err" || true)
  [ "$n" -eq 1 ] || { cat "$1.err"; fail "$1 on $2 ranks: $n error lines, expected 1"; }
  grep -q -- "$3" "$1.err" || { cat "$1.err"; fail "$1: message does not match '$3'"; }
  echo "ok: $1 ($2 ranks): $(grep '^grothmpi: ' "$1.err")"
}
good='"circuit": "test-mul", "params": "params", "sectors": {"count": 2}, "output": "out"'
echo "{ $good, \"batchsize\": 2 }" > unknown.json
expect unknown 2 'unknown.json: batchsize: unknown key'
echo "{ $good, \"batch_size\": 0 }" > range.json
expect range 1 'range.json: batch_size: 0 is not an integer in 1..64'
echo '{ "circuit": "porep", "sector_size": "2KiB", "params": "params", "output": "out",
  "sectors": [{"id": "a", "c1": "missing-c1.json"}] }' > missing.json
expect missing 2 "missing.json: sectors\[0\].c1: '.*missing-c1.json': No such file"
echo '{ "circuit": "porep", "sector_size": "3KiB", "params": "params", "output": "out",
  "sectors": [{"id": "a", "c1": "x"}] }' > sector.json
expect sector 2 "sector.json: sector_size: '3KiB' is not a registered sector size"
echo '{ "circuit": "test-mul", "params": "params", "output": "out", "sectors": {"count": 2} ' > syntax.json
expect syntax 2 'syntax.json: line'
expect nofile 2 'nofile.json: cannot open'
# unreadable parameters: a cache whose .params is corrupt, on every rank
mkdir -p bad
"$BIN" setup --circuit test-mul --out bad > /dev/null
# (its last point overwritten: the layout stays whole, so the digest is
# recorded and the ranks' load fails; a broken layout is refused before
# that, params_bad.sh)
printf 'garbage' | dd of=bad/test-mul.params bs=1 seek=$(( $(wc -c < bad/test-mul.params) - 50 )) conv=notrunc 2> /dev/null
rm bad/manifest.json # as a cache from before manifests: the digest is recorded, the load fails (params_manifest.sh has the digest check)
echo '{ "circuit": "test-mul", "params": "bad", "setup": "never", "output": "out", "sectors": {"count": 2} }' > params.json
expect params 2 "rank 0: .*bad/test-mul.params"
chmod 000 bad/test-mul.vk
if [ "$(id -u)" -ne 0 ]; then expect params 2 "test-mul.vk"; fi
# the journal of another campaign is never overwritten
mkdir -p other/proofs; echo "grothmpi-journal 1 circuit=test-synthetic-8 vk=00" > other/journal
"$BIN" setup --circuit test-mul --out params > /dev/null
echo '{ "circuit": "test-mul", "params": "params", "output": "other", "sectors": {"count": 1} }' > journal.json
expect journal 2 "other/journal: belongs to another campaign"
grep -q 'test-synthetic-8' other/journal || fail "foreign journal modified"
# a memory budget that cannot hold parameters + scratch + a batch: refused
# before proving, with the bytes needed, what they are made of, and the fix
echo '{ "circuit": "test-synthetic", "constraints": 4096, "params": "params", "output": "mem", "batch_size": 4,
  "sectors": {"count": 4}, "resources": {"mem_budget": "1MiB"} }' > mem.json
expect mem 2 "rank 0: resources.mem_budget: 1.0 MiB per rank is below the [0-9]* bytes (.* MiB) this campaign needs: parameters .* MiB + prover scratch .* MiB + a batch of 4 units .* MiB (witness .* + h .* each) + one witness ahead .* MiB; give at least [0-9]* MiB (--mem-budget or resources.mem_budget), or fewer ranks per node, or a smaller batch_size"
grep -q 'units done' mem.out && fail "mem: proving started"
echo "PASS: bad campaigns fail fast with one message"
