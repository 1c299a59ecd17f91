#!/bin/sh
# tests/integration/gpu_plan.sh — `grothmpi gpu plan`: the device memory
# plan of a 32 GiB PoRep partition (its real counts, from the circuit) on
# 16, 24, 48, 80 and 141 GB cards. For each card the JSON plan must hold
# its invariants (every region the sum of its parts, the phases sharing the
# arena, the total within the card less the reserve, resident sets before
# streamed ones, a larger card never keeping fewer sets resident); a 16 GB
# card streams every set and a 141 GB card keeps them all; the table names
# every region. Absurd sizes (1 MB, 0, garbage) get one clear line and a
# non-zero exit.
set -eu
. "$(dirname "$0")/lib/common.sh"
need jq
last=-1
for card in 16GB 24GB 48GB 80GB 141GB; do
  j=$("$BIN" gpu plan --sector-size 32GiB --device-memory "$card" --json) || fail "$card: no plan"
  ok=$(echo "$j" | jq '
    ([.sets[] | select(.streamed | not) | .bytes] | add // 0) as $res
    | ([.sets[] | .streamed] as $s | [range(1; $s | length) | select($s[. - 1] and ($s[.] | not))] | length == 0) as $prefix
    | (.log_domain == 27) and (.sets | length == 4)
      and ([.sets[] | select(.streamed | not) | .bytes == .points * 96] | all)
      and ([.sets[] | select(.streamed) | .bytes == 0] | all)
      and .bases_bytes == $res and $prefix
      and .msm_phase == .chunk_bytes + .scalar_bytes + .workspace_bytes + .sort_bytes
      and .h_phase == .ntt_bytes + .table_bytes
      and .ntt_bytes >= .ntt_vectors * 32 * 134217728
      and .arena == ([.msm_phase, .h_phase] | max)
      and .total == .bases_bytes + .arena
      and .total <= .device_bytes - .reserve
      and (if any(.sets[]; .streamed) then .chunk >= 65536 and .chunk_bytes >= .chunk * 96 else .chunk == 0 end)
      and .scalar_bytes >= .scalar_buffers * .msm_points * 32')
  [ "$ok" = true ] || { echo "$j"; fail "$card: the plan breaks an invariant"; }
  nres=$(echo "$j" | jq '[.sets[] | select(.streamed | not)] | length')
  [ "$nres" -ge "$last" ] || fail "$card: $nres sets resident, fewer than on a smaller card"
  last=$nres
  case $card in
    16GB) [ "$nres" -eq 0 ] || fail "16GB: a 12 GiB set cannot stay resident beside its workspace" ;;
    141GB) [ "$nres" -eq 4 ] || fail "141GB: every set fits resident" ;;
  esac
  echo "$card: $nres of 4 sets resident, h $(echo "$j" | jq -r .h), total $(echo "$j" | jq .total) bytes"
done
t=$("$BIN" gpu plan --sector-size 32GiB --device-memory 24GiB) || fail "24GiB: no table"
for r in "bases A" "bases H" "chunk buffer" "MSM scalars" "MSM workspace" "sort scratch" "NTT vectors" \
         "NTT tables" "arena" "total"; do
  echo "$t" | grep -q "^  $r " || { echo "$t"; fail "the table has no '$r' row"; }
done
for bad in 1MB 0 garbage 12X; do
  if out=$("$BIN" gpu plan --sector-size 32GiB --device-memory "$bad" 2>&1); then
    fail "--device-memory $bad was accepted"
  fi
  [ "$(echo "$out" | wc -l)" -eq 1 ] || { echo "$out"; fail "$bad: not one line"; }
  echo "$out" | grep -q "^grothmpi: gpu plan: " || { echo "$out"; fail "$bad: not a grothmpi line"; }
  echo "$bad: $out"
done
if out=$("$BIN" gpu plan --sector-size 3GiB --device-memory 80GB 2>&1); then fail "3GiB was accepted"; fi
echo "$out" | grep -q "sector size" || fail "a bad sector size is not named: $out"
echo "PASS: gpu plan: 32 GiB on 16, 24, 48, 80, 141 GB cards holds its invariants; absurd sizes refused"
