#!/bin/sh
# tests/integration/mpi_netns.sh — a campaign across 3 "hosts" (network
# namespaces on a bridge), ranks talking TCP: 1 rank on
# gmh1, 2 on gmh2, 1 on gmh3 (4 ranks). Every proof verifies and the report
# names the three hosts. Skips (exit 0, with a message) without root or
# network namespaces.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/netns.sh"
P=gmh
netns_hosts 3 $P 10.78.0
cd "$T"
cat > c.json <<JSON
{ "name": "netns", "circuit": "test-synthetic", "constraints": 64, "params": "params",
  "setup_seed": "00000000000000000000000000000000000000000000000000000000000000c3",
  "sectors": {"count": 6}, "partitions": 2, "batch_size": 2, "output": "out", "verify": "both",
  "resources": {"threads": 1}, "progress_interval": 0 }
JSON
netns_mpirun 150 ${P}1:1,${P}2:2,${P}3:1 tcp,vader,self -np 4 "$BIN" prove c.json > run.log 2>&1 \
  || { cat run.log; fail "mpirun"; }
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
