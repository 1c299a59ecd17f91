#!/bin/sh
# tests/integration/split_netns.sh — `grothmpi prove --split` across 2
# "hosts" (network namespaces on a bridge, lib/netns.sh), every byte over
# TCP (btl tcp,self: no shared memory, not even between the ranks of one
# host): on 2 ranks (1 per host) and 4 (2 per host) the proof has the bytes
# of the unsplit proof with the same --proof-seed and verifies; each host's
# first rank checks the parameter file's digest (MPI_COMM_TYPE_SHARED
# follows the hosts), and a file unlike its manifest fails all 4 ranks with
# one line naming it, no proof written. Skips (exit 0, with a message)
# without root or network namespaces.
set -eu
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/netns.sh"
P=gms
netns_hosts 2 $P 10.79.0
cd "$T"
N=1024
"$BIN" setup --circuit test-synthetic --constraints $N --out params --threads 1 --quiet \
  --seed 00000000000000000000000000000000000000000000000000000000000000c9 > setup.log 2>&1 \
  || { cat setup.log; fail "setup"; }
A="--params params --circuit test-synthetic --constraints $N --witness-seed 3 --proof-seed 11 --threads 1"
"$BIN" prove $A --out ref.proof > ref.log 2>&1 || { cat ref.log; fail "unsplit prove"; }
for r in 2 4; do
  per=$((r / 2))
  netns_mpirun 60 ${P}1:$per,${P}2:$per tcp,self -np $r "$BIN" prove $A --split --out s$r.proof --json \
    > s$r.log 2>&1 || { cat s$r.log; fail "--split on $r ranks over 2 hosts"; }
  cmp -s ref.proof s$r.proof || fail "--split on $r ranks over TCP: the proof differs from the unsplit one"
  cmp -s ref.proof.public.json s$r.proof.public.json || fail "--split on $r ranks: the public inputs differ"
  "$BIN" verify --vk params/test-synthetic-$N.vk --proof s$r.proof --inputs s$r.proof.public.json > /dev/null \
    || fail "--split on $r ranks: the proof does not verify"
  # the all-to-alls went through the network: every rank sent NTT bytes
  [ "$(grep -A2 '"ntt"' s$r.log | grep '"sent"' | grep -vc '"sent": 0')" -eq $r ] \
    || { cat s$r.log; fail "$r ranks: not every rank sent its all-to-all share"; }
done
# the parameter file changed after its manifest entry: both hosts' checks
# see it, every rank stops before reading a slice
printf '\001' | dd of=params/test-synthetic-$N.params bs=1 seek=200 conv=notrunc 2>/dev/null
rm -f bad.proof
if netns_mpirun 60 ${P}1:2,${P}2:2 tcp,self -np 4 "$BIN" prove $A --split --out bad.proof > bad.log 2>&1; then
  cat bad.log; fail "a parameter file unlike its manifest was accepted"; fi
[ "$(grep -c "^grothmpi: prove: --split: rank 0: params/test-synthetic-$N.params: BLAKE2b digest" bad.log)" -eq 1 ] \
  || { cat bad.log; fail "the digest mismatch's line"; }
[ -e bad.proof ] && fail "a proof was written with a changed parameter file"
echo "PASS: --split on 2 and 4 ranks over 2 namespace hosts (TCP only) gives the unsplit proof's bytes"
