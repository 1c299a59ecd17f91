#!/bin/sh
# tests/integration/params_shape_format.sh — a shape cache file in the older
# format 1 (read into memory by earlier builds; format 2 is mapped):
#  - `grothmpi prove --params` refuses it in one line naming the file and
#    saying how to record it again;
#  - a campaign records it again by itself (note on the progress line),
#    keeps the parameters (same digest) and proves; the file is format 2
#    afterwards, and the next run loads it without recording.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
gm_tmp shapefmt
cd "$T"
"$BIN" setup --circuit test-synthetic --constraints 256 --out p \
  --seed 00000000000000000000000000000000000000000000000000000000000000f8 > /dev/null
S=p/test-synthetic-256.shape
[ "$(head -c 8 $S)" = GMSHAPE2 ] || fail "setup did not write format 2"
old_format() { printf '1' | dd of=$S bs=1 seek=7 conv=notrunc status=none; }
P=$(sha256sum < p/test-synthetic-256.params)

old_format
set +e; "$BIN" prove --params p --circuit test-synthetic --constraints 256 --out x.proof --threads 1 \
  > cli.out 2> cli.err; rc=$?; set -e
[ $rc -ne 0 ] && [ "$(wc -l < cli.err)" -eq 1 ] || { cat cli.err; fail "prove: rc $rc or not one line"; }
grep -q "$S: magic: shape format 1, this build reads format 2: record it again" cli.err \
  || { cat cli.err; fail "prove: message"; }

run() { # NAME
  echo "{ \"name\": \"$1\", \"circuit\": \"test-synthetic\", \"constraints\": 256, \"params\": \"p\", \"setup\": \"never\",
  \"sectors\": {\"count\": 2}, \"output\": \"$1\", \"resources\": {\"threads\": 1}, \"progress_interval\": 0 }" > "$1.json"
  timeout 120 mpirun -np 1 "$BIN" prove "$1.json" > "$1.out" 2> "$1.err" \
    || { cat "$1.out" "$1.err"; fail "$1: campaign failed"; }
  [ "$(ls "$1"/proofs/*.proof | wc -l)" -eq 2 ] || fail "$1: not 2 proofs"
}
run first
grep -q "setup: .*$S is in an older format; recording it again" first.out || { cat first.out; fail "first: no note"; }
[ "$(head -c 8 $S)" = GMSHAPE2 ] || fail "first: not re-recorded"
[ "$(sha256sum < p/test-synthetic-256.params)" = "$P" ] || fail "first: the parameters changed"
run second
! grep -q "recording it again" second.out || fail "second: recorded again"
for f in first/proofs/*.proof second/proofs/*.proof; do
  "$BIN" verify --vk p/test-synthetic-256.vk --proof "$f" --inputs "${f%.proof}.public.json" > /dev/null || fail "$f does not verify"
done
echo "PASS: format-1 shape refused by prove, re-recorded by a campaign with the parameters kept"
