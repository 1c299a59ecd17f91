#!/bin/sh
# tests/soak/porep_32g.sh (not in `make test`: hours on a 2-core node; `make
# soak-32g`) — a real 32 GiB PoRep partition (130,278,541 constraints, a 2^27
# domain) on one node whose memory is smaller than its 44 GiB of parameters:
#   1. the synthetic C1s of two 32 GiB sectors (`porep synthetic`);
#   2. the parameters, set up once (about 90 minutes and 1.7 GiB of memory on
#      2 cores) or reused from the cache: GROTHMPI_32G_CACHE, default
#      /var/tmp/grothmpi-32g (47.4 GB of parameters and 8.9 GB of shape);
#   3. partition 0 of the first sector proved with `prove --c1` (the
#      parameters streamed from the file, each base read once per MSM),
#      verified with `verify --c1`, and the proof with one bit flipped refused;
#   4. a campaign of partition 0 of both sectors on one rank ("units": 2),
#      both proofs verified with `verify --c1`, the report printed.
# Each step prints its wall time, CPU seconds, peak RSS and bytes read
# (GNU time and --verbose); the outputs stay in GROTHMPI_32G_WORK (default
# /var/tmp/grothmpi-32g-soak) for bench/README.md. Needs about 62 GB of disk
# for the cache and 24 GiB of memory. Exit 0 = pass.
set -eu
. "$(dirname "$0")/../integration/lib/common.sh"
need /usr/bin/time
CACHE=${GROTHMPI_32G_CACHE:-/var/tmp/grothmpi-32g}
W=${GROTHMPI_32G_WORK:-/var/tmp/grothmpi-32g-soak}
SEED=${GROTHMPI_32G_SEED:-00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff}
mkdir -p "$CACHE" "$W"
CACHE=$(cd "$CACHE" && pwd)
W=$(cd "$W" && pwd)
ID=porep-34359738368-v2

# timed NAME CMD...: runs CMD with GNU time into $W/NAME.{out,err,time}, prints
# its figures, fails on a non-zero exit
timed() {
  name=$1; shift
  if ! /usr/bin/time -f '%e %U %S %M' -o "$W/$name.time" "$@" >"$W/$name.out" 2>"$W/$name.err"; then
    tail -5 "$W/$name.err"; fail "$name"
  fi
  read -r wall user sys rss <"$W/$name.time"
  awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v r="$rss" 'BEGIN {
    printf "porep_32g: %-10s wall %8.1f s  cpu %8.1f s  peak rss %5.2f GiB\n", n, w, u + s, r / 1048576 }'
}

echo "porep_32g: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)"
timed c1 "$BIN" porep synthetic --sector-size 32GiB --seed 1 --out "$W/a.json"
"$BIN" porep synthetic --sector-size 32GiB --seed 2 --out "$W/b.json" >/dev/null
timed setup "$BIN" setup --circuit porep --sector-size 32GiB --out "$CACHE" --seed "$SEED"
cat "$W/setup.out"

# --- one partition, end to end ----------------------------------------------------------
timed prove "$BIN" prove --params "$CACHE" --c1 "$W/a.json" --partition 0 --out "$W/a-p0.proof" --verbose
cat "$W/prove.out"
grep -E 'streamed|points' "$W/prove.err" || true
timed verify "$BIN" verify --vk "$CACHE/$ID.vk" --proof "$W/a-p0.proof" --c1 "$W/a.json" --partition 0
cp "$W/a-p0.proof" "$W/flip.proof"
# one bit of C's x coordinate (byte 150 of 192)
b=$(od -An -tu1 -j150 -N1 "$W/flip.proof" | tr -d ' ')
printf "\\$(printf %o $((b ^ 1)))" | dd of="$W/flip.proof" bs=1 seek=150 count=1 conv=notrunc 2>/dev/null
cmp -s "$W/a-p0.proof" "$W/flip.proof" && fail "the bit flip changed nothing"
if "$BIN" verify --vk "$CACHE/$ID.vk" --proof "$W/flip.proof" --c1 "$W/a.json" --partition 0 >"$W/flip.out" 2>&1; then
  fail "a proof with one bit flipped verifies"
fi
echo "porep_32g: one bit flipped: refused ($(tail -1 "$W/flip.out"))"

# --- a campaign: partition 0 of two sectors --------------------------------------------------
# The budget leaves room beside the planner's count for the 8.9 GB shape,
# which is mapped (page cache) while a/b/c are computed.
cat >"$W/c.json" <<EOF
{
  "name": "porep-32g-trial",
  "circuit": "porep", "sector_size": "32GiB",
  "params": "$CACHE", "setup": "never",
  "sectors": [{"id": "a", "c1": "$W/a.json"}, {"id": "b", "c1": "$W/b.json"}],
  "units": 2,
  "resources": {"mem_budget": "16GiB"},
  "output": "$W/campaign",
  "verify": "rank",
  "progress_interval": 60
}
EOF
rm -rf "$W/campaign"
timed campaign "$BIN" campaign run "$W/c.json"
tail -40 "$W/campaign.out"
for s in a b; do
  "$BIN" verify --vk "$CACHE/$ID.vk" --proof "$W/campaign/proofs/$s-p0.proof" --c1 "$W/$s.json" --partition 0 \
    >/dev/null || fail "campaign: the proof of sector $s does not verify"
done
echo "PASS: a 32 GiB partition proved and verified on $(nproc) cores; two more in a campaign, both verified"
