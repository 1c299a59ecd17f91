#!/bin/sh
# tests/integration/mpi_check.sh — a campaign in "mode": "check": no
# parameters are read or made; on 1 and 2 ranks every unit is checked once
# (CS_CHECK) and check.json lists them all with their counts and peaks; a
# 2 KiB PoRep sector from a synthetic C1 holds; the same C1 with another
# comm_r fails and the error names the unit; a bad mode is refused.
set -eu
. "$(dirname "$0")/lib/common.sh"
need python3
gm_tmp check

cat > "$T/t.json" <<'JSON'
{"name": "chk", "mode": "check", "circuit": "test-synthetic", "constraints": 256,
 "sectors": {"count": 3}, "partitions": 2, "output": "out", "progress_interval": 0}
JSON
(cd "$T" && timeout 60 "$BIN" prove t.json > log1 2>&1) || { cat "$T/log1"; fail "check, 1 rank"; }
grep -q "check done: 6 units" "$T/log1" || { cat "$T/log1"; fail "no summary"; }
[ ! -e "$T/params" ] || fail "a check made parameters"
[ ! -e "$T/out/journal" ] && [ ! -e "$T/out/proofs" ] || fail "a check wrote proofs or a journal"
if command -v mpirun >/dev/null; then
  rm -rf "$T/out"
  (cd "$T" && timeout 60 mpirun -np 2 "$BIN" prove t.json > log2 2>&1) || { cat "$T/log2"; fail "check, 2 ranks"; }
fi
python3 - "$T/out/check.json" <<'PY' || fail "check.json"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "grothmpi-check" and j["version"] == 1
u = j["units"]
assert sorted(x["unit"] for x in u) == sorted(f"s0{s}-p{p}" for s in (1, 2, 3) for p in (0, 1)), u
for x in u:
    assert x["ok"] and x["error"] is None and x["constraints"] == 254 and x["aux"] > 0
    assert x["alloc_peak_bytes"] > 0 and x["rss_peak_bytes"] > 0 and x["cpu_s"] >= 0
if j["ranks"] == 2:
    assert {x["rank"] for x in u} == {0, 1}
PY

# PoRep: a synthetic 2 KiB C1 holds; with another comm_r it does not
"$BIN" porep synthetic --sector-size 2KiB --seed 5 --out "$T/c1.json" > /dev/null || fail "synthetic C1"
b0=$(sed -n 's/.*"comm_r":\[\([0-9]*\),.*/\1/p' "$T/c1.json")
sed "s/\"comm_r\":\[$b0,/\"comm_r\":[$(((b0 + 1) % 256)),/" "$T/c1.json" > "$T/bad.json"
cmp -s "$T/c1.json" "$T/bad.json" && fail "tamper: comm_r unchanged"
for x in "good c1.json" "bad bad.json"; do
  set -- $x
  cat > "$T/p-$1.json" <<JSON
{"name": "chk-$1", "mode": "check", "circuit": "porep", "sector_size": "2KiB",
 "sectors": [{"id": "sec", "c1": "$2"}], "output": "out-$1", "progress_interval": 0}
JSON
done
(cd "$T" && timeout 120 "$BIN" prove p-good.json > log.good 2>&1) || { cat "$T/log.good"; fail "2 KiB check"; }
grep -q "sec-p0 .* ok$" "$T/log.good" || { cat "$T/log.good"; fail "2 KiB: no ok line"; }
(cd "$T" && timeout 120 "$BIN" prove p-bad.json > log.bad 2>&1) && { cat "$T/log.bad"; fail "a C1 with another comm_r holds"; }
grep -q "grothmpi: prove: check: sec-p0 (rank 0):" "$T/log.bad" || { cat "$T/log.bad"; fail "the error does not name the unit"; }
python3 -c "import json,sys; u=json.load(open(sys.argv[1]))['units'][0]; assert not u['ok'] and u['error']" \
  "$T/out-bad/check.json" || fail "check.json of the bad C1"

sed 's/"mode": "check"/"mode": "witness"/' "$T/t.json" > "$T/m.json"
(cd "$T" && "$BIN" prove m.json > log.m 2>&1) && fail "mode witness accepted"
grep -q "m.json: mode: 'witness' is not \"prove\" or \"check\"" "$T/log.m" || { cat "$T/log.m"; fail "bad mode message"; }
echo "PASS: check mode on 1 and 2 ranks, a 2 KiB C1 holds, a tampered one fails naming its unit"
