#!/bin/sh
# tests/integration/mpi_netns.sh — a campaign across 3 "hosts" (network
# namespaces on a bridge), ranks talking TCP: 1 rank on
# gmh1, 2 on gmh2, 1 on gmh3 (4 ranks). Every proof verifies and the report
# names the three hosts. Skips (exit 0, with a message) without root or
# network namespaces.
set -eu
. "$(dirname "$0")/lib/common.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
P=gmh; NET=10.78.0
need mpirun
need_netns
need unshare
T=$(mktemp -d /tmp/gm-netns.XXXXXX)
cleanup() { sh "$HERE/netns/netns-down.sh" $P $NET; rm -rf "$T"; }
trap cleanup EXIT
sh "$HERE/netns/netns-down.sh" $P $NET   # leftovers of a killed run
sh "$HERE/netns/netns-up.sh" 3 $P $NET
cd "$T"
cat > c.json <<JSON
{ "name": "netns", "circuit": "test-synthetic", "constraints": 64, "params": "params",
  "setup_seed": "00000000000000000000000000000000000000000000000000000000000000c3",
  "sectors": {"count": 6}, "partitions": 2, "batch_size": 2, "output": "out", "verify": "both",
  "resources": {"threads": 1}, "progress_interval": 0 }
JSON
timeout 150 mpirun --mca plm_rsh_agent "$HERE/netns/nsrsh" --host ${P}1:1,${P}2:2,${P}3:1 -np 4 \
  --mca btl tcp,vader,self --mca btl_tcp_if_include $NET.0/24 --mca oob_tcp_if_include $NET.0/24 \
  --mca odls_base_sigkill_timeout 0 "$BIN" prove c.json > run.log 2>&1 || { cat run.log; fail "mpirun"; }
grep -q "campaign done: 12 units, 12 proved" run.log || { cat run.log; fail "no summary"; }
for h in ${P}1 ${P}2 ${P}3; do
  grep -q "\"host\": \"$h\"" out/report.json || fail "report.json does not name host $h"
done
for p in out/proofs/*.proof; do
  "$BIN" verify --vk params/test-synthetic-64.vk --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null \
    || fail "$p does not verify"
done
grep -A6 '^per rank' run.log
echo "PASS: 4 ranks on 3 network-namespace hosts over TCP, 12 valid proofs"
