#!/bin/sh
# gm-test: heavy
# tests/integration/mpi_porep.sh — a real PoRep campaign on 2 ranks: two 2 KiB
# sectors sealed with `grothmpi porep seal`, one given as its sealed
# directory (the campaign derives its C1 with the sector's seed) and one as a
# C1 file (`grothmpi porep c1`). Both partition proofs are written, and each
# verifies with `grothmpi verify --c1` (public inputs derived from the C1 and
# the graph, not from the campaign's public.json). The parameters come from
# the cache $BUILD/porep-cache that porep_prove.sh uses (GROTHMPI_POREP_CACHE
# overrides); when it is empty the campaign's "setup": "auto" fills it, so a
# CI run pays the 2 KiB setup (minutes on two cores) once, whichever test
# runs first. Exit 0 = pass.
set -eu
. "$(dirname "$0")/lib/common.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
need mpirun
porep_cache
gm_tmp mpiporep

"$BIN" porep seal --sector-size 2KiB --seed 21 --out "$T/sa" >"$T/seal.log" 2>&1 || { cat "$T/seal.log"; fail "seal a"; }
"$BIN" porep seal --sector-size 2KiB --seed 22 --out "$T/sb" >"$T/seal.log" 2>&1 || { cat "$T/seal.log"; fail "seal b"; }
"$BIN" porep c1 "$T/sb" --seed 5 --out "$T/b.c1.json" >"$T/c1.log" 2>&1 || { cat "$T/c1.log"; fail "c1 b"; }
# The C1 the campaign derives for sector a ("seed": 7), made the CLI's way, to verify against.
"$BIN" porep c1 "$T/sa" --seed 7 --out "$T/a.c1.json" >"$T/c1.log" 2>&1 || { cat "$T/c1.log"; fail "c1 a"; }

# A setup seed only matters when the cache is empty; trust_params: the cache is
# this CI run's own (docs/campaign.md, "Parameters the campaign made").
cat > "$T/c.json" <<JSON
{
  "name": "porep-mpi", "circuit": "porep", "sector_size": "2KiB",
  "params": "$CACHE", "setup": "auto",
  "setup_seed": "00000000000000000000000000000000000000000000000000000000000000b2",
  "trust_params": true,
  "sectors": [{"id": "a", "sealed": "sa", "seed": 7}, {"id": "b", "c1": "b.c1.json"}],
  "batch_size": 1, "output": "out", "verify": "both",
  "progress_interval": 10
}
JSON
(cd "$T" && timeout 1500 mpirun -np 2 "$BIN" prove c.json > log 2>&1) || { cat "$T/log"; fail "2-rank porep campaign"; }
cat "$T/log"
grep -q "campaign done: 2 units, 2 proved" "$T/log" || fail "no 'campaign done: 2 units, 2 proved' line"
[ "$(grep -c '^done ' "$T/out/journal")" -eq 2 ] || fail "journal has not 2 done lines"
VK="$CACHE/porep-2048-v2.vk"
for s in a b; do
    p="$T/out/proofs/$s-p0.proof"
    [ "$(stat -c %s "$p")" -eq 192 ] || fail "$p: not 192 bytes"
    "$BIN" verify --vk "$VK" --c1 "$T/$s.c1.json" --proof "$p" >"$T/v.log" 2>&1 || { cat "$T/v.log"; fail "sector $s: verify --c1"; }
    "$BIN" verify --vk "$VK" --proof "$p" --inputs "$T/out/proofs/$s-p0.public.json" >/dev/null 2>&1 ||
        fail "sector $s: verify --inputs public.json"
done
# The proofs are not interchangeable: a's proof against b's C1 is rejected.
"$BIN" verify --vk "$VK" --c1 "$T/b.c1.json" --proof "$T/out/proofs/a-p0.proof" >/dev/null 2>&1 &&
    fail "sector a's proof verifies against sector b's C1"
# A bad sector names the campaign file, the sector and the key.
cat > "$T/bad.json" <<JSON
{ "circuit": "porep", "sector_size": "2KiB", "params": "$CACHE", "output": "out2",
  "sectors": [{"id": "b", "c1": "b.c1.json", "seed": 3}] }
JSON
(cd "$T" && "$BIN" prove bad.json > bad.log 2>&1) && fail "a seed on a C1 sector was accepted"
grep -q "bad.json: sectors\[0\].seed: only for test circuits and \"sealed\" sectors" "$T/bad.log" ||
    { cat "$T/bad.log"; fail "bad seed: message"; }

# The same partition proved split over both ranks ("split": 2, one group):
# its witness is compact (PoRep units are), which the split prover expands.
cat > "$T/split.json" <<JSON
{ "name": "porep-split", "circuit": "porep", "sector_size": "2KiB", "params": "$CACHE", "trust_params": true,
  "split": 2, "sectors": [{"id": "b", "c1": "b.c1.json"}], "output": "out-split", "verify": "both" }
JSON
(cd "$T" && timeout 1500 mpirun -np 2 "$BIN" prove split.json > split.log 2>&1) ||
    { cat "$T/split.log"; fail "2-rank split porep campaign"; }
grep -q "campaign done: 1 units, 1 proved" "$T/split.log" || { cat "$T/split.log"; fail "split: not 1 unit proved"; }
"$BIN" verify --vk "$VK" --c1 "$T/b.c1.json" --proof "$T/out-split/proofs/b-p0.proof" >"$T/v.log" 2>&1 ||
    { cat "$T/v.log"; fail "split proof of sector b: verify --c1"; }
echo "mpi_porep: OK (2 sectors, 2 ranks, and one partition split over both; every proof verified with verify --c1)"
