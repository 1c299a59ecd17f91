#!/bin/sh
# tests/integration/study_ranks.sh — the two multi-rank ways to run a study:
# a ranks axis {1, 2} (the study runs alone and starts one
# `mpirun -np R grothmpi prove` per run: each run's report has R ranks), and
# `mpirun -np 2 grothmpi study` (every rank runs every point in process, MPI
# kept up between runs: each report has 2 ranks, only rank 0 writes). Also
# the study's errors: an unknown axis and the depth hint, one line each.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
need python3
gm_tmp study-ranks

mk() { # mk FILE AXES
cat > "$T/$1" <<JSON
{"name": "rk", "campaign": {"circuit": "test-synthetic", "constraints": 64, "params": "params",
 "setup_seed": "00000000000000000000000000000000000000000000000000000000000000b3",
 "sectors": {"count": 4}, "output": "unused", "resources": {"threads": 1}},
 "axes": $2, "repetitions": 2, "output": "out-$1"}
JSON
}
mk ranks.json '{"ranks": [1, 2]}'
(cd "$T" && timeout 120 "$BIN" study ranks.json > log1 2>&1) || { cat "$T/log1"; fail "ranks axis"; }
mk inproc.json '{"batch_size": [1, 2]}'
(cd "$T" && timeout 120 mpirun -np 2 "$BIN" study inproc.json > log2 2>&1) || { cat "$T/log2"; fail "mpirun -np 2 study"; }
[ "$(grep -c '^study: point' "$T/log2")" = 4 ] || { cat "$T/log2"; fail "progress printed by more than rank 0"; }
python3 - "$T" <<'PY' || fail "ranks in the reports"
import json, sys
d = sys.argv[1]
j = json.load(open(d + "/out-ranks.json/study.json"))
for p in j["points"]:
    for r in p["runs"]:
        assert r["ranks"] == p["params"]["ranks"], (r["ranks"], p["params"])
        assert json.load(open(r["report"]))["run"]["proved"] == 4
j = json.load(open(d + "/out-inproc.json/study.json"))
assert len(j["points"]) == 2
for p in j["points"]:
    for r in p["runs"]:
        assert r["ranks"] == 2 and json.load(open(r["report"]))["campaign"]["batch_size"] == p["params"]["batch_size"]
print("ok")
PY
[ -s "$T/out-ranks.json/runs/p001-r0.log" ] || fail "no mpirun log"

mk bad1.json '{"colour": [1]}'
"$BIN" study "$T/bad1.json" > "$T/e1" 2>&1 && fail "unknown axis accepted"
grep -q "bad1.json: axes.colour: unknown axis" "$T/e1" || { cat "$T/e1"; fail "unknown axis message"; }
mk bad2.json '{"depth": [1, 2]}'
"$BIN" study "$T/bad2.json" > "$T/e2" 2>&1 && fail "depth accepted"
# the axis is pipeline_depth; the message lists it
grep -q "bad2.json: axes.depth: unknown axis (known: .*pipeline_depth)" "$T/e2" || { cat "$T/e2"; fail "depth message"; }
[ "$(wc -l < "$T/e2")" = 1 ] || fail "more than one line"
echo "PASS"
