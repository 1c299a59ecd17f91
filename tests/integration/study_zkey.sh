#!/bin/sh
# tests/integration/study_zkey.sh — a study whose base campaign proves
# snarkjs zkey units of both curves (the committed BLS12-381 and bn128
# multipliers): a threads {1, 2} axis, 2 repetitions. Every run's report
# counts the 4 units proved and verified, every run wrote each unit's proof
# in its curve's length (192 bytes BLS12-381, 256 bytes bn128) with the
# public inputs, and `grothmpi snarkjs verify` accepts every run's
# proof.json of both curves with the committed keys.
set -eu
. "$(dirname "$0")/lib/common.sh"
need python3
gm_tmp study-zkey
V=$(cd "$(dirname "$0")/../vectors/snarkjs" && pwd)
cp "$V/multiplier.zkey" "$V/multiplier.wtns" "$V/multiplier_bn128.zkey" "$V/multiplier_bn128.wtns" "$T/"
cat > "$T/study.json" <<JSON
{"name": "zk", "repetitions": 2, "output": "out",
 "axes": {"threads": [1, 2]},
 "campaign": {"name": "zk", "circuit": "snarkjs", "output": "unused", "verify": "rank",
   "sectors": [{"id": "m1", "zkey": "multiplier.zkey", "wtns": "multiplier.wtns"},
               {"id": "b1", "zkey": "multiplier_bn128.zkey", "wtns": "multiplier_bn128.wtns"},
               {"id": "m2", "zkey": "multiplier.zkey", "wtns": "multiplier.wtns"},
               {"id": "b2", "zkey": "multiplier_bn128.zkey", "wtns": "multiplier_bn128.wtns"}]}}
JSON
(cd "$T" && timeout 120 "$BIN" study study.json > log 2>&1) || { cat "$T/log"; fail "study of zkey units"; }
python3 - "$T/out" > "$T/dirs" <<'PY' || fail "study runs"
import json, os, sys
d = sys.argv[1]
j = json.load(open(d + "/study.json"))
assert len(j["points"]) == 2, len(j["points"])
for p in j["points"]:
    assert len(p["runs"]) == 2
    for r in p["runs"]:
        assert r["threads"] == p["params"]["threads"]
        rep = json.load(open(r["report"]))
        assert rep["run"]["proved"] == 4 and rep["run"]["proofs_per_hour"] > 0, rep["run"]
        pd = os.path.join(os.path.dirname(r["report"]), "proofs")
        for u, n in (("m1", 192), ("m2", 192), ("b1", 256), ("b2", 256)):
            b = open(os.path.join(pd, u + "-p0.proof"), "rb").read()
            assert len(b) == n, (u, len(b))
            assert os.path.getsize(os.path.join(pd, u + "-p0.public.json")) > 0
        print(pd)
PY
while read -r pd; do
    for u in b1 b2 m1 m2; do
        case $u in b*) vk=verification_key_bn128.json ;; *) vk=verification_key.json ;; esac
        "$BIN" snarkjs verify "$V/$vk" "$pd/$u-p0.public.json" "$pd/$u-p0.proof.json" > "$T/v.log" 2>&1 ||
            { cat "$T/v.log"; fail "snarkjs verify of $pd/$u-p0.proof.json"; }
    done
done < "$T/dirs"
[ "$(wc -l < "$T/dirs")" -eq 4 ] || fail "not 4 runs"
echo "study_zkey: 2 points x 2 repetitions of 4 zkey units (2 curves), proofs verified"
