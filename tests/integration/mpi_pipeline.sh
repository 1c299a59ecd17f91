#!/bin/sh
# tests/integration/mpi_pipeline.sh — pipeline_depth: the same campaign with
# depth 0 (no overlap), 1 and 3 (singleton) and 3 on 2 ranks gives the same
# units with the same public inputs, every proof verifies, and the report
# says the depth used; a bad depth is refused naming file, key and value.
# (How the memory budget lowers the depth: tests/unit/test_report.c, suite
# pipeline.)
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp pipe
. "$(cd "$(dirname "$0")" && pwd)/lib/journal.sh"

mk() { # mk NAME OUTDIR DEPTH
cat > "$T/$1.json" <<JSON
{
  "name": "pipe", "circuit": "test-synthetic", "constraints": 64,
  "params": "params", "setup_seed": "00000000000000000000000000000000000000000000000000000000000000b2",
  "sectors": {"count": 4}, "partitions": 2, "batch_size": 2, "pipeline_depth": $3,
  "output": "$2", "verify": "both", "resources": {"threads": 1}, "progress_interval": 0
}
JSON
}
mk d0 out0 0; mk d1 out1 1; mk d3 out3 3; mk r3 outr 3; mk bad outb 65
for d in d0 d1 d3; do
  (cd "$T" && timeout 120 "$BIN" prove $d.json > log.$d 2>&1) || { cat "$T/log.$d"; fail "$d"; }
done
if command -v mpirun >/dev/null; then
  (cd "$T" && timeout 120 mpirun -np 2 "$BIN" prove r3.json > log.r3 2>&1) || { cat "$T/log.r3"; fail "2 ranks"; }
  dirs="out0 out1 out3 outr"
else
  echo "note: no mpirun, 2-rank case skipped"
  dirs="out0 out1 out3"
fi
same_proofs "$T/params/test-synthetic-64.vk" 8 $(for d in $dirs; do echo "$T/$d"; done)
# the depth used is in report.json, per rank
for x in "out0 0" "out1 1" "out3 3"; do
  set -- $x
  grep -q "\"pipeline_depth\": $2," "$T/$1/report.json" || fail "$1: report.json does not say pipeline_depth $2"
done
(cd "$T" && timeout 120 "$BIN" prove bad.json > log.bad 2>&1) && fail "pipeline_depth 65 was accepted"
grep -q "bad.json: pipeline_depth: 65 is not an integer in 0..64" "$T/log.bad" || { cat "$T/log.bad"; fail "bad depth message"; }
echo "PASS: pipeline depth 0, 1, 3 (and 3 on 2 ranks) give the same 8 valid proofs"
