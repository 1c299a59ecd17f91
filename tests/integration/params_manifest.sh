#!/bin/sh
# tests/integration/params_manifest.sh — parameter digests (Filecoin's:
# BLAKE2b-512, first 32 hex digits) and the cache's manifest.json:
#  - grothmpi setup records the digest, which agrees with coreutils' b2sum;
#  - grothmpi params verify passes with our manifest and with a
#    Filecoin-format parameters.json; one flipped byte fails it with one line
#    naming the file and both digests; a campaign then refuses on rank 0
#    before any proving (1 and 2 ranks); with the byte restored both pass;
#  - a cache without a manifest (made before manifests existed): the campaign
#    records the digest once, says so, and refuses a changed file afterwards.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
gm_tmp manifest
cd "$T"
"$BIN" setup --circuit test-mul --out p --seed 00000000000000000000000000000000000000000000000000000000000000e5 > setup.out
P=p/test-mul.params
[ -f p/manifest.json ] || fail "setup wrote no manifest.json"
D=$(sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p' p/manifest.json)
if command -v b2sum >/dev/null; then
  [ "$(b2sum "$P" | cut -c1-32)" = "$D" ] || fail "manifest digest $D is not b2sum's $(b2sum "$P" | cut -c1-32)"
  echo "ok: digest $D = b2sum (BLAKE2b-512), first 32 hex digits"
fi
grep -q "\"size\": $(stat -c %s "$P")" p/manifest.json || fail "manifest size"
"$BIN" params verify "$P" > v1.out || fail "params verify of an untouched file"
grep -q "digest $D matches" v1.out || fail "params verify output"
printf '{"test-mul.params": {"cid": "QmNotARealCidButTheKeyIsIgnored", "digest": "%s", "sector_size": 2048}}\n' "$D" > parameters.json
"$BIN" params verify "$P" --manifest parameters.json > /dev/null || fail "params verify with a Filecoin parameters.json"
echo "ok: params verify passes (manifest.json and Filecoin parameters.json)"

campaign() { # NAME PARAMS_DIR
  echo "{ \"name\": \"$1\", \"circuit\": \"test-mul\", \"params\": \"$2\", \"setup\": \"never\",
  \"sectors\": {\"count\": 2}, \"output\": \"$1\", \"resources\": {\"threads\": 1}, \"progress_interval\": 0 }" > "$1.json"
}
campaign good p
timeout 60 "$BIN" prove good.json > good.out 2>&1 || { cat good.out; fail "campaign with the right file"; }

# one flipped byte
cp "$P" params.orig
size=$(stat -c %s "$P")
printf '\001' | dd of="$P" bs=1 seek=$((size - 10)) conv=notrunc 2>/dev/null
cmp -s "$P" params.orig && printf '\002' | dd of="$P" bs=1 seek=$((size - 10)) conv=notrunc 2>/dev/null
set +e; "$BIN" params verify "$P" > v2.out 2> v2.err; rc=$?; set -e
[ $rc -eq 1 ] || fail "params verify of a changed file: exit $rc"
[ "$(grep -c '^grothmpi: ' v2.err)" -eq 1 ] || { cat v2.err; fail "params verify: not one line"; }
grep -q "^grothmpi: params verify: $P: BLAKE2b digest [0-9a-f]\{32\}, but p/manifest.json lists $D for test-mul.params" v2.err \
  || { cat v2.err; fail "params verify message"; }
echo "ok: $(cat v2.err)"
set +e; "$BIN" params verify "$P" --manifest parameters.json 2> v3.err; rc=$?; set -e
[ $rc -eq 1 ] && grep -q "parameters.json lists $D" v3.err || { cat v3.err; fail "Filecoin manifest: changed file passed"; }
for np in 1 2; do
  campaign bad$np p
  set +e
  if [ $np -eq 1 ]; then timeout 60 "$BIN" prove bad$np.json > bad$np.out 2> bad$np.err
  else timeout 60 mpirun -np 2 "$BIN" prove bad$np.json > bad$np.out 2> bad$np.err; fi
  rc=$?; set -e
  [ $rc -eq 1 ] || { cat bad$np.err; fail "campaign with a changed file on $np rank(s): exit $rc"; }
  [ "$(grep -c '^grothmpi: ' bad$np.err)" -eq 1 ] || { cat bad$np.err; fail "campaign: not one line"; }
  grep -q "^grothmpi: prove: .*p/test-mul.params: BLAKE2b digest [0-9a-f]\{32\}, but .*p/manifest.json lists $D" bad$np.err \
    || { cat bad$np.err; fail "campaign message on $np rank(s)"; }
  grep -q 'units done' bad$np.out && fail "campaign on $np rank(s): proving started with a changed file"
  [ -e bad$np/journal ] && fail "campaign on $np rank(s): output written with a changed file"
  echo "ok: $np rank(s): $(grep "^grothmpi: " bad$np.err)"
done

# restored: both pass again
cp params.orig "$P"
"$BIN" params verify "$P" > /dev/null || fail "params verify after restoring"
campaign good2 p
timeout 60 mpirun -np 2 "$BIN" prove good2.json > good2.out 2>&1 || { cat good2.out; fail "campaign after restoring"; }
echo "ok: restored file passes both"

# a cache without a manifest: recorded on first use, then enforced
mkdir old && cp p/test-mul.params p/test-mul.vk p/test-mul.shape old/
campaign first old
timeout 60 "$BIN" prove first.json > first.out 2>&1 || { cat first.out; fail "first use of an old cache"; }
grep -q "prove: params: .*old/test-mul.params was not in .*old/manifest.json: recorded its digest $D" first.out \
  || { cat first.out; fail "first use: not said"; }
[ "$(grep -c 'recorded its digest' first.out)" -eq 1 ] || fail "first use: said more than once"
printf '\001' | dd of=old/test-mul.params bs=1 seek=$((size - 10)) conv=notrunc 2>/dev/null
campaign second old
set +e; timeout 60 "$BIN" prove second.json > second.out 2> second.err; rc=$?; set -e
[ $rc -eq 1 ] && grep -q "old/test-mul.params: BLAKE2b digest" second.err || { cat second.err; fail "old cache: changed file passed"; }
echo "ok: an old cache's digest is recorded on first use and enforced after"
echo "PASS: parameter digests and manifests"
