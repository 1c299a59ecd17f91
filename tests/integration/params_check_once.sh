#!/bin/sh
# tests/integration/params_check_once.sh — the parameter points are checked
# (subgroup checks) once per node, not once per rank, and once per file
# (params_load's policy, params/params.h):
#  - `grothmpi setup` made the points, so it writes <id>.params.checked
#    (digest, size) itself: the first campaign skips the subgroup checks on
#    every rank and says so;
#  - without that stamp (a file copied in by hand), 3 ranks on one node: the
#    node's first rank checks every point, the two others load after it
#    without subgroup checks, and the stamp is written; a rerun uses it;
#  - another file in its place (a different setup, manifest entry removed as
#    for a cache from before manifests): its digest does not match the stamp
#    (nor the converted points file's), so every point is checked again and a
#    new stamp written; with the manifest entry still there the campaign
#    refuses it outright.
# The ranks' debug lines (GROTHMPI_LOG=debug) say which load each rank did.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
gm_tmp checkonce
cd "$T"
"$BIN" setup --circuit test-synthetic --constraints 256 --out p \
  --seed 00000000000000000000000000000000000000000000000000000000000000f6 > /dev/null
"$BIN" setup --circuit test-synthetic --constraints 256 --out q \
  --seed 00000000000000000000000000000000000000000000000000000000000000f7 > /dev/null
P=p/test-synthetic-256.params
campaign() { # NAME
  echo "{ \"name\": \"$1\", \"circuit\": \"test-synthetic\", \"constraints\": 256, \"params\": \"p\", \"setup\": \"never\",
  \"sectors\": {\"count\": 3}, \"output\": \"$1\", \"resources\": {\"threads\": 1}, \"progress_interval\": 0 }" > "$1.json"
}
run3() { # NAME
  campaign "$1"
  GROTHMPI_LOG=debug timeout 120 mpirun -np 3 "$BIN" prove "$1.json" > "$1.out" 2> "$1.err" \
    || { cat "$1.out" "$1.err"; fail "$1: campaign failed"; }
  full=$(grep -c ': every point checked$' "$1.err" || true)
  node=$(grep -c "checked by this node's first rank: no subgroup checks" "$1.err" || true)
  stamp=$(grep -c 'digest matches the check stamp: no subgroup checks' "$1.err" || true)
  echo "$1: full checks $full, after the node's first rank $node, by stamp $stamp"
}
D=$(sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p' p/manifest.json)

[ "$(cat $P.checked)" = "grothmpi-params-checked 1 digest=$D size=$(stat -c %s $P) level=subgroup" ] \
  || { cat $P.checked; fail "setup wrote no check stamp"; }
run3 first
[ "$full" -eq 0 ] && [ "$node" -eq 2 ] && [ "$stamp" -eq 1 ] || { cat first.err; fail "first: setup's stamp was not used"; }
grep -q "prove: params: digest $D passed every point check before" first.out || fail "first: not said"

rm $P.checked
run3 second
[ "$full" -eq 1 ] && [ "$node" -eq 2 ] && [ "$stamp" -eq 0 ] || { cat second.err; fail "second: not once per node"; }
grep -q "prove: params: every point checked; recorded in .*$P.checked" second.out || fail "second: no stamp line"
[ "$(cat $P.checked)" = "grothmpi-params-checked 1 digest=$D size=$(stat -c %s $P) level=subgroup" ] \
  || { cat $P.checked; fail "stamp content"; }

run3 third
[ "$full" -eq 0 ] && [ "$node" -eq 2 ] && [ "$stamp" -eq 1 ] || { cat third.err; fail "third: the stamp was not used"; }

# another file in its place, manifest entry kept: refused before any load
cp q/test-synthetic-256.params $P
campaign changed
set +e; timeout 60 mpirun -np 3 "$BIN" prove changed.json > changed.out 2> changed.err; rc=$?; set -e
[ $rc -eq 1 ] && grep -q "^grothmpi: prove: .*$P: BLAKE2b digest" changed.err || { cat changed.err; fail "changed: a changed file passed"; }
# ... and with the manifest gone (an old cache): recorded, then every point checked again
rm p/manifest.json
run3 fourth
[ "$full" -eq 1 ] && [ "$node" -eq 2 ] && [ "$stamp" -eq 0 ] || { cat fourth.err; fail "fourth: a new file was trusted by an old stamp"; }
grep -q "digest=$D " $P.checked && fail "fourth: the stamp still names the old digest"
echo "PASS: parameters checked once per node and once per file; a changed file is refused or checked again"
