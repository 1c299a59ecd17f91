#!/bin/sh
# tests/integration/mpi_domains.sh — resources.domains: one prepare pool per
# L3 domain. This VM has one L3 domain of 2 cores, so the campaign describes
# the machine as 2 domains of 1 core (resources.topology, synthetic,
# unpinned) and proves the same units with domains 1, 2 and 0 (= all, 2),
# on one rank and (domains 2) on 2 ranks; every run gives the same 8 units
# with the same public inputs, every proof verifies, and report.json lists
# one `prepare` entry per domain used whose units add up to the rank's
# units. The machine's own topology (1 domain) with domains 0 works too; a
# campaign asking more domains than the node has, or an unknown topology
# form, is refused naming file, key and value. (Role claiming and the
# domain count check: tests/unit/test_report.c, suite pipeline.)
set -eu
. "$(dirname "$0")/lib/common.sh"
need python3
gm_tmp dom
. "$(cd "$(dirname "$0")" && pwd)/lib/journal.sh"
SPLIT='synthetic:pack:1 l3:2 core:1 pu:1'

mk() { # mk NAME OUTDIR DOMAINS TOPOLOGY
cat > "$T/$1.json" <<JSON
{
  "name": "dom", "circuit": "test-synthetic", "constraints": 64,
  "params": "params", "setup_seed": "00000000000000000000000000000000000000000000000000000000000000b3",
  "sectors": {"count": 4}, "partitions": 2, "batch_size": 2, "pipeline_depth": 2,
  "output": "$2", "verify": "both", "progress_interval": 0,
  "resources": {"threads": 1, "domains": $3, "topology": "$4"}
}
JSON
}
mk d1 out1 1 "$SPLIT"; mk d2 out2 2 "$SPLIT"; mk d0 out0 0 "$SPLIT"; mk r2 outr 2 "$SPLIT"
mk this outt 0 this; mk big outb 3 "$SPLIT"; mk big1 outb1 2 this; mk badt outbt 1 lstopo
runs="d1 d2 d0 this"
for d in $runs; do
  (cd "$T" && timeout 120 "$BIN" prove $d.json > log.$d 2>&1) || { cat "$T/log.$d"; fail "$d"; }
done
dirs="out1 out2 out0 outt"
if command -v mpirun >/dev/null; then
  (cd "$T" && timeout 120 mpirun -np 2 "$BIN" prove r2.json > log.r2 2>&1) || { cat "$T/log.r2"; fail "2 ranks"; }
  dirs="$dirs outr"
else
  echo "note: no mpirun, 2-rank case skipped"
fi
same_proofs "$T/params/test-synthetic-64.vk" 8 $(for d in $dirs; do echo "$T/$d"; done)
# report.json: per rank, prepare_domains and one prepare entry per domain
# used (domain index, threads = the domain's cores, units adding up to the
# rank's units), and the topology the rank planned on.
nd=$("$BIN" topo | sed -n 's/.* \([0-9]*\) L3 domains\{0,1\},.*/\1/p')
[ -n "$nd" ] || fail "grothmpi topo does not say how many L3 domains this machine has"
for x in "out1 1 1" "out2 2 1" "out0 2 1" "outt $nd 0" "outr 2 1"; do
  set -- $x
  [ -f "$T/$1/report.json" ] || continue
  python3 - "$T/$1/report.json" "$2" "$3" <<'PY' || fail "$1: report.json prepare domains"
import json, sys
rep, n, thr = json.load(open(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
for rk in rep["ranks"]:
    pd = rk["prepare"]
    assert rk["prepare_domains"] == n == len(pd), (rk["prepare_domains"], n, len(pd))
    assert [p["domain"] for p in pd] == list(range(n)), pd
    # thr 0: this machine's domains, whose sizes the test does not know
    assert thr == 0 or all(p["threads"] == thr for p in pd), pd
    assert thr == 0 or rk["prepare_threads"] == n * thr, rk["prepare_threads"]
    assert sum(p["units"] for p in pd) == rk["units"], (pd, rk["units"])
    assert all(p["units"] == 0 or p["cpu_s"] > 0 for p in pd), pd
    assert rk["topology"] in ("this", "synthetic:pack:1 l3:2 core:1 pu:1"), rk["topology"]
print(sys.argv[1].split("/")[-2], [(p["domain"], p["units"]) for rk in rep["ranks"] for p in rk["prepare"]])
PY
done
grep -q "prepare domains" "$T/log.d2" || { cat "$T/log.d2"; fail "the text report lacks the prepare domains"; }
(cd "$T" && timeout 120 "$BIN" prove big.json > log.big 2>&1) && fail "domains 3 of 2 was accepted"
grep -q "big.json: resources.domains: 3 exceeds the 2 L3 domains of rank 0's node" "$T/log.big" \
  || { cat "$T/log.big"; fail "domains 3 message"; }
if [ "$nd" -lt 2 ]; then
  (cd "$T" && timeout 120 "$BIN" prove big1.json > log.big1 2>&1) && fail "domains 2 on this 1-domain machine was accepted"
  grep -q "big1.json: resources.domains: 2 exceeds the 1 L3 domain of rank 0's node .* (topology this)" "$T/log.big1" \
    || { cat "$T/log.big1"; fail "domains 2 on this machine: message"; }
fi
(cd "$T" && timeout 120 "$BIN" prove badt.json > log.badt 2>&1) && fail "topology 'lstopo' was accepted"
grep -q "badt.json: resources.topology: 'lstopo' is not" "$T/log.badt" || { cat "$T/log.badt"; fail "topology message"; }
echo "PASS: domains 1, 2 and 0 on a 2-domain description (and 2 on 2 ranks, 0 on this machine) give the same 8 valid proofs"
