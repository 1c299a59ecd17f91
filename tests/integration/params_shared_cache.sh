#!/bin/sh
# tests/integration/params_shared_cache.sh — two campaigns started together
# on one parameter cache with "setup": "auto" and no setup_seed (two Slurm
# array tasks of one campaign, as slurm_array.sh runs them): the cache's lock
# (params_cache_lock) makes one generate the parameters and the other wait
# for them, so both finish, exactly one setup runs, the manifest lists the
# file that is there, and every proof of both verifies with the cache's vk.
# Before the lock, both generated with different seeds and one was refused
# ("changed since its digest was checked"), or proved against a replaced file.
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp shared
cd "$T"
for i in 1 2; do
  cat > c$i.json <<JSON
{ "name": "shared$i", "circuit": "test-synthetic", "constraints": 16384, "params": "params",
  "sectors": {"count": 2, "prefix": "t${i}s"}, "partitions": 1, "output": "out$i",
  "resources": {"threads": 1}, "progress_interval": 0 }
JSON
done
timeout 300 "$BIN" prove c1.json > c1.log 2>&1 & P1=$!
timeout 300 "$BIN" prove c2.json > c2.log 2>&1 & P2=$!
r1=0; r2=0; wait $P1 || r1=$?; wait $P2 || r2=$?
[ $r1 -eq 0 ] || { cat c1.log; fail "campaign 1 exited $r1"; }
[ $r2 -eq 0 ] || { cat c2.log; fail "campaign 2 exited $r2"; }
n=$(cat c1.log c2.log | grep -c "setup: generating test parameters" || true)
[ "$n" -eq 1 ] || { cat c1.log c2.log; fail "$n setups ran, expected 1"; }
w=$(cat c1.log c2.log | grep -c "waiting for another process's setup" || true)
"$BIN" params verify params/test-synthetic-16384.params > verify.log 2>&1 || { cat verify.log; fail "params verify"; }
for p in out1/proofs/*.proof out2/proofs/*.proof; do
  "$BIN" verify --vk params/test-synthetic-16384.vk --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null \
    || fail "$p does not verify with the cache's vk"
done
echo "PASS: two campaigns on one cache: one setup ($w waited for it), both complete, 4 proofs verify"
