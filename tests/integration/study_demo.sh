#!/bin/sh
# tests/integration/study_demo.sh — a 2-axis study (threads {1,2} x batch
# {1,2}, 3 repetitions) on a tiny test-synthetic campaign, and a
# pipeline_depth {0, 2} study of the same campaign: every file is
# written (study.json, .csv, .txt, plots), the CSV and the table agree with
# the JSON (every run and every median), the medians are the medians of the
# runs, and the counters plot says "not available" when the runs had none.
# Then `grothmpi report compare` on two of the runs' reports, a domains
# {1, 2} study run here on a campaign that describes this machine as 2 L3
# domains of 1 core (resources.topology; the axis sets resources.domains,
# the prepare pools, not the thread count), and planning mode on the
# synthetic 7995WX (12 L3 domains, nothing runs).
set -eu
. "$(dirname "$0")/lib/common.sh"
need python3
gm_tmp study

cat > "$T/study.json" <<JSON
{
  "name": "it",
  "campaign": {"circuit": "test-synthetic", "constraints": 64, "params": "params",
               "setup_seed": "00000000000000000000000000000000000000000000000000000000000000b2",
               "sectors": {"count": 4}, "output": "unused", "verify": "rank"},
  "axes": {"threads": [1, 2], "batch_size": [1, 2]},
  "repetitions": 3,
  "output": "out"
}
JSON
(cd "$T" && timeout 85 "$BIN" study study.json > log 2>&1) || { cat "$T/log"; fail "study run"; }
for f in study.json study.csv study.txt plots/throughput-vs-threads.svg plots/throughput-vs-batch_size.svg \
         plots/stages.svg plots/counters.svg; do
    [ -s "$T/out/$f" ] || fail "missing $f"
done
grep -q "point 4/4 repetition 3/3" "$T/log" || { cat "$T/log"; fail "no progress line"; }
python3 - "$T/out" <<'PY' || fail "files disagree"
import csv, json, math, sys
d = sys.argv[1]
j = json.load(open(d + "/study.json"))
assert j["format"] == "grothmpi-study" and j["version"] == 1
assert j["topology"]["l3_domains"] >= 1 and j["versions"]["compiler"]
assert [a["name"] for a in j["axes"]] == ["threads", "batch_size"]
pts = j["points"]
assert len(pts) == 4, len(pts)
rows = list(csv.DictReader(open(d + "/study.csv")))
assert len(rows) == 4 * 4, len(rows)
def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-9)
stages = j["stages"]
for p in pts:
    runs = p["runs"]
    assert len(runs) == 3
    pph = sorted(r["proofs_per_hour"] for r in runs)
    assert all(x > 0 for x in pph)
    m = p["median"]["proofs_per_hour"]
    assert close(m["median"], pph[1], 1e-12) and m["min"] == pph[0] and m["max"] == pph[2]
    for r in runs:
        assert r["threads"] == p["params"]["threads"], (r["threads"], p["params"])
        rep = json.load(open(r["report"]))
        assert close(rep["run"]["proofs_per_hour"], r["proofs_per_hour"], 1e-12)
        assert rep["campaign"]["batch_size"] == p["params"]["batch_size"]
        assert rep["run"]["proved"] == 4
    for st in stages:
        v = sorted(r["stages"][st] for r in runs)
        assert close(p["median"]["stages"][st], v[1], 1e-12), st
    prow = [r for r in rows if r["point"] == str(p["index"])]
    assert [r["rep"] for r in prow] == ["0", "1", "2", "median"]
    for r, jr in zip(prow[:3], runs):
        assert int(r["threads"]) == p["params"]["threads"] and int(r["batch_size"]) == p["params"]["batch_size"]
        assert close(float(r["proofs_per_hour"]), jr["proofs_per_hour"], 1e-8)
        for st in stages:
            assert close(float(r[st + "_s"]), jr["stages"][st], 1e-8), st
        assert r["prove_ipc"] == ("NA" if p["median"]["ipc"]["prove"] is None else r["prove_ipc"])
    med = prow[3]
    assert close(float(med["proofs_per_hour"]), m["median"], 1e-8)
    assert close(float(med["spread_pct"]), m["spread_pct"], 1e-8)
# the text table: one line per point with the median, min and max to 0.1
lines = open(d + "/study.txt").read().splitlines()
hdr = [i for i, l in enumerate(lines) if l.split()[:1] == ["point"]][0]
for p in pts:
    cols = lines[hdr + 1 + p["index"]].split()
    assert int(cols[0]) == p["index"] and int(cols[1]) == p["params"]["threads"] and int(cols[2]) == p["params"]["batch_size"]
    m = p["median"]["proofs_per_hour"]
    for k, key in zip((4, 5, 6), ("median", "min", "max")):
        assert abs(float(cols[k]) - m[key]) <= 0.051, (cols, m)
    for k, st in enumerate(stages):
        assert abs(float(cols[9 + k]) - p["median"]["stages"][st]) <= 0.0006, (st, cols)
# counters: on a machine without a PMU the plot says so
if pts[0]["median"]["ipc"]["prove"] is None:
    assert "not available" in open(d + "/plots/counters.svg").read()
    assert "n/a" in open(d + "/study.txt").read()
print("consistent:", len(pts), "points,", len(rows), "csv rows")
PY

# report compare on two runs of the study
A=$(python3 -c "import json,sys;j=json.load(open('$T/out/study.json'));print(j['points'][0]['runs'][0]['report'])")
B=$(python3 -c "import json,sys;j=json.load(open('$T/out/study.json'));print(j['points'][3]['runs'][0]['report'])")
"$BIN" report compare "$A" "$B" > "$T/cmp" || fail "report compare"
grep -q "^msm      time_s" "$T/cmp" || { cat "$T/cmp"; fail "no msm row"; }
grep -q "proofs_per_hour" "$T/cmp" || fail "no throughput row"
"$BIN" report "$A" > /dev/null || fail "report FILE still works"
"$BIN" report compare "$A" 2>/dev/null && fail "compare with one file accepted"

# the pipeline_depth axis: depth 0 (no overlap) and 2, batch 2, one
# repetition each: every run proves the 4 units, its report and the study's
# depth column say the depth the campaign ran with
sed -e 's|"output": "out"|"output": "depth-out"|' -e 's|"repetitions": 3|"repetitions": 1|' \
    -e 's|"axes": {"threads": \[1, 2\], "batch_size": \[1, 2\]}|"axes": {"batch_size": [2], "pipeline_depth": [0, 2]}|' \
    "$T/study.json" > "$T/depth.json"
grep -q '"pipeline_depth": \[0, 2\]' "$T/depth.json" || fail "depth study file not made"
(cd "$T" && timeout 60 "$BIN" study depth.json > depth.log 2>&1) || { cat "$T/depth.log"; fail "depth study"; }
python3 - "$T/depth-out" <<'PY' || fail "depth study files disagree"
import csv, json, sys
d = sys.argv[1]
j = json.load(open(d + "/study.json"))
assert [a["name"] for a in j["axes"]] == ["batch_size", "pipeline_depth"], j["axes"]
rows = [r for r in csv.DictReader(open(d + "/study.csv")) if r["rep"] != "median"]
assert len(rows) == 2, rows
for p, r in zip(j["points"], rows):
    want = p["params"]["pipeline_depth"]
    rep = json.load(open(p["runs"][0]["report"]))
    assert rep["run"]["proved"] == 4
    assert rep["ranks"][0]["pipeline_depth"] == want and rep["ranks"][0]["pipeline_depth_wanted"] == want
    assert int(r["depth"]) == want and int(r["pipeline_depth"]) == want, r
print("depth axis: 0 and 2 ran as asked")
PY

# the domains axis, run here: the base campaign splits this machine into 2
# L3 domains of 1 core (unpinned); domains 1 and 2 each prove the 4 units,
# each run's campaign has resources.domains = the point's value and the
# MSM pool's threads untouched (1), and its report has one prepare entry
# per domain whose units add up to 4
sed -e 's|"output": "out"|"output": "dom-out"|' -e 's|"repetitions": 3|"repetitions": 1|' \
    -e 's|"verify": "rank"}|"verify": "rank", "resources": {"threads": 1, "topology": "synthetic:pack:1 l3:2 core:1 pu:1"}}|' \
    -e 's|"axes": {"threads": \[1, 2\], "batch_size": \[1, 2\]}|"axes": {"domains": [1, 2], "batch_size": [2]}|' \
    "$T/study.json" > "$T/dom.json"
grep -q '"domains": \[1, 2\]' "$T/dom.json" && grep -q 'l3:2 core:1' "$T/dom.json" || fail "domains study file not made"
(cd "$T" && timeout 60 "$BIN" study dom.json > dom.log 2>&1) || { cat "$T/dom.log"; fail "domains study"; }
python3 - "$T/dom-out" <<'PY' || fail "domains study: runs disagree with the axis"
import json, os, sys
d = sys.argv[1]
j = json.load(open(d + "/study.json"))
assert [a["name"] for a in j["axes"]] == ["domains", "batch_size"], j["axes"]
assert len(j["points"]) == 2
for p in j["points"]:
    want = p["params"]["domains"]
    rep = json.load(open(p["runs"][0]["report"]))
    camp = json.load(open(os.path.join(os.path.dirname(os.path.dirname(p["runs"][0]["report"])),
                                       os.path.basename(os.path.dirname(p["runs"][0]["report"])) + ".json")))
    assert camp["resources"]["domains"] == want and camp["resources"]["threads"] == 1, camp["resources"]
    rk = rep["ranks"][0]
    assert rep["run"]["proved"] == 4
    assert rk["threads"] == 1, rk["threads"]
    assert rk["prepare_domains"] == want == len(rk["prepare"]), rk
    assert sum(x["units"] for x in rk["prepare"]) == 4, rk["prepare"]
print("domains axis: 1 and 2 prepare domains, 4 proofs each")
PY

# planning mode on the 7995WX: 12 domains listed, nothing runs
S='synthetic:pack:1 numa:1(memory=256GiB) l3:12(size=32MiB) l2:8(size=1MiB) l1d:1(size=32KiB) l1i:1(size=32KiB) core:1 pu:2(indexes=2*96:1*2)'
sed -e "s|\"output\": \"out\"|\"output\": \"plan-out\", \"topology\": \"$S\"|" \
    -e 's|"threads": \[1, 2\]|"domains": [1, 12]|' "$T/study.json" > "$T/plan.json"
(cd "$T" && "$BIN" study plan.json > plan.txt 2>&1) || { cat "$T/plan.txt"; fail "plan"; }
grep -q "12 L3 domains" "$T/plan.txt" || { cat "$T/plan.txt"; fail "plan: not 12 domains"; }
[ "$(grep -c '^  domain ' "$T/plan.txt")" = 12 ] || fail "plan: domain list"
grep -q "prepare: 12 of 12 L3 domains" "$T/plan.txt" || fail "plan: 12-domain point"
grep -q "prepare: 1 of 12 L3 domains" "$T/plan.txt" || fail "plan: 1-domain point"
[ ! -e "$T/plan-out" ] || fail "plan wrote output"
echo "PASS"
