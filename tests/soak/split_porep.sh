#!/bin/sh
# tests/soak/split_porep.sh (not in `make test`: about 4 minutes on two
# shared cores, even with the parameters cached; run it by hand,
# `BUILD=build sh tests/soak/split_porep.sh`) — one 2 KiB PoRep partition (2,687,921
# constraints, a 2^22 domain, seeded witness) proved with --split on 1, 2, 3 and 4
# ranks gives the bytes of the unsplit proof with the same --proof-seed, and
# it verifies. The parameters come from the cache the PoRep tests share
# ($BUILD/porep-cache, GROTHMPI_POREP_CACHE overrides), generated here with
# their seed when missing (minutes on two cores).
set -eu
. "$(dirname "$0")/../integration/lib/common.sh"
need mpirun
porep_cache
gm_tmp splitporep
if [ ! -s "$CACHE/porep-2048-v2.params" ]; then
  "$BIN" setup --circuit porep --sector-size 2KiB --out "$CACHE" --quiet \
    --seed 00000000000000000000000000000000000000000000000000000000000000b2 > "$T/setup.log" 2>&1 \
    || { cat "$T/setup.log"; fail "2 KiB setup"; }
fi
P="--params $CACHE --circuit porep --sector-size 2KiB --witness-seed 3 --proof-seed 8 --trust-params"
"$BIN" prove $P --out "$T/ref.proof" > "$T/ref.log" 2>&1 || { cat "$T/ref.log"; fail "unsplit"; }
for r in 1 2 3 4; do
  timeout 900 mpirun -np $r "$BIN" prove $P --threads 1 --split --out "$T/s$r.proof" > "$T/s$r.log" 2>&1 \
    || { cat "$T/s$r.log"; fail "--split on $r ranks"; }
  cmp -s "$T/ref.proof" "$T/s$r.proof" || fail "--split on $r ranks: the proof differs from the unsplit one"
done
"$BIN" verify --vk "$CACHE/porep-2048-v2.vk" --proof "$T/s3.proof" --inputs "$T/s3.proof.public.json" > /dev/null \
  || fail "the split proof does not verify"
echo "PASS: a 2 KiB PoRep partition on 1, 2, 3 and 4 ranks gives the unsplit proof's bytes"
