#!/bin/sh
# tests/integration/params_stamp.sh — no repeated whole-file work (params/):
#  - a campaign on a cache whose files are unchanged since their stamps takes
#    the parameter digest from <id>.params.stamp and skips the shape's index
#    checks (<id>.shape.stamp); the debug lines say so;
#  - a touched parameter file (same bytes, new mtime) and a touched shape are
#    hashed / checked again, and stamped anew;
#  - --check-params hashes and checks whatever the stamps say; `params
#    verify` always hashes;
#  - `grothmpi circuit shape` writes the shape under the name setup, prove
#    and campaigns look for (porep-2048-v2.shape), and prove uses it.
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp pstamp
cd "$T"
"$BIN" setup --circuit test-synthetic --constraints 256 --out p \
  --seed 00000000000000000000000000000000000000000000000000000000000000f8 > /dev/null
P=p/test-synthetic-256.params
S=p/test-synthetic-256.shape
[ -s $P.stamp ] || fail "setup left no digest stamp"
run() { # NAME [OPTION]
  echo "{ \"name\": \"$1\", \"circuit\": \"test-synthetic\", \"constraints\": 256, \"params\": \"p\",
  \"setup\": \"never\", \"sectors\": {\"count\": 1}, \"output\": \"$1\", \"resources\": {\"threads\": 1},
  \"progress_interval\": 0 }" > "$1.json"
  GROTHMPI_LOG=debug timeout 120 "$BIN" prove "$1.json" ${2:-} > "$1.out" 2> "$1.err" \
    || { cat "$1.out" "$1.err"; fail "$1: campaign failed"; }
  pd=$(grep -c "$P: unchanged since .*$P.stamp: digest [0-9a-f]* not computed again" "$1.err" || true)
  ph=$(grep -c "$P: digest [0-9a-f]* computed" "$1.err" || true)
  ss=$(grep -c "$S: unchanged since .*$S.stamp: index checks skipped" "$1.err" || true)
  echo "$1: digest from stamp $pd, hashed $ph, shape checks skipped $ss"
}
run first
[ "$pd" -ge 1 ] && [ "$ph" -eq 0 ] && [ "$ss" -eq 1 ] || { cat first.err; fail "first: the stamps were not used"; }
touch -d '2001-01-01 00:00:00' $P $S
run second
[ "$ph" -eq 1 ] && [ "$ss" -eq 0 ] || { cat second.err; fail "second: a touched file was trusted"; }
run third
[ "$pd" -ge 1 ] && [ "$ph" -eq 0 ] && [ "$ss" -eq 1 ] || { cat third.err; fail "third: not stamped anew"; }
run fourth --check-params
# hashed once (rank 0's parameter step); the load that follows reads the stamp that hash just wrote
[ "$pd" -le 2 ] && [ "$ph" -eq 1 ] && [ "$ss" -eq 0 ] || { cat fourth.err; fail "fourth: --check-params trusted a stamp"; }
grep -q "every point checked" fourth.err || { cat fourth.err; fail "fourth: --check-params skipped the point checks"; }
"$BIN" params verify $P > verify.out || fail "params verify"

# a hand-recorded PoRep shape is found by the name prove looks for
"$BIN" circuit shape porep --sector-size 2KiB --out s > shape.out || { cat shape.out; fail "circuit shape"; }
[ -s s/porep-2048-v2.shape ] && [ -s s/porep-2048-v2.shape.stamp ] || { ls s; fail "circuit shape: not porep-2048-v2.shape"; }
set +e
GROTHMPI_LOG=debug "$BIN" prove --params s --circuit porep --sector-size 2KiB --out x.bin > px.out 2> px.err; rc=$?
set -e
[ $rc -eq 1 ] || fail "prove without parameters: exit $rc"
grep -q "s/porep-2048-v2.shape: unchanged since .*index checks skipped" px.err || { cat px.err; fail "prove did not use the shape"; }
grep -q "^grothmpi: prove: s/porep-2048-v2.params: cannot open" px.err || { cat px.err; fail "prove: not the parameters missing"; }
echo "PASS: unchanged files are not hashed or walked again; changed ones and --check-params are; circuit shape feeds prove"
