#!/bin/sh
# tests/integration/serve_resident.sh — several circuit shapes resident at
# once under the memory budget: jobs of two shapes interleaved (one batch
# each) load each shape once and find it resident on its second visit (the
# receipts' "setup", the status file's loads per shape and rank); a
# --mem-budget that holds one shape but not both evicts, so every visit
# loads again, and every proof still verifies against its own key. And
# servers/ID.jobs.csv rotates at --jobs-csv-max into ID.jobs.csv.1, each
# with its header, no row lost. Exit 0 = pass.
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp serveres
. "$(dirname "$0")/lib/serve.sh"
cd "$T"
for n in 2048 4096; do
  "$BIN" setup --circuit test-synthetic --constraints $n --out params --seed $SERVE_SETUP_SEED > /dev/null
done
# submit_mixed SPOOL N: jobs 1..N alternating 2048 (odd) and 4096 (even) constraints
submit_mixed() {
  i=1
  while [ $i -le "$2" ]; do
    n=2048; [ $((i % 2)) -eq 0 ] && n=4096
    echo "{\"circuit\": \"test-synthetic\", \"constraints\": $n, \"seed\": $i}" > job.json
    "$BIN" submit "$1" job.json --name "j$i" > /dev/null || fail "submit j$i"
    i=$((i + 1))
  done
}
setup_of() { sed -n 's/.*"setup": "\([a-z]*\)".*/\1/p' "$1/done/$2.receipt.json"; }
verify_mixed() { # SPOOL N
  i=1
  while [ $i -le "$2" ]; do
    vk=params/test-synthetic-2048.vk; [ $((i % 2)) -eq 0 ] && vk=params/test-synthetic-4096.vk
    "$BIN" verify --vk $vk --proof "$1/done/j$i.proof" --inputs "$1/done/j$i.public.json" > /dev/null ||
      fail "$1: j$i does not verify against $vk"
    i=$((i + 1))
  done
}
# the shape's "bytes" and "loads" in the status file
shape_field() { # SPOOL CIRCUIT KEY
  tr -d ' \n' < "$(ls "$1"/servers/*.json | grep -v 'report\.json$' | head -1)" |
    sed -n "s/.*\"circuit\":\"$2\",[^}]*\"$3\":\([0-9]*\).*/\1/p"
}
# 1. a budget that holds both: the second visit of each shape is resident
S="$T/both"
mkdir -p "$S/incoming"
submit_mixed "$S" 4
timeout 120 "$BIN" serve "$S" --params params --batch 1 --max-wait 0 --poll 0.05 --threads 1 --exit-when-idle 0.5 \
  > both.log 2>&1 || { cat both.log; fail "both: the server failed"; }
got="$(setup_of "$S" j1) $(setup_of "$S" j2) $(setup_of "$S" j3) $(setup_of "$S" j4)"
[ "$got" = "loaded loaded resident resident" ] || { cat both.log; fail "both: set-ups '$got'"; }
for c in test-synthetic-2048 test-synthetic-4096; do
  [ "$(shape_field "$S" $c loads)" = 1 ] || fail "both: $c loaded $(shape_field "$S" $c loads) times, expected 1"
done
grep -q '"load_s": 0\.0*[1-9]' "$S"/servers/*.report.json || fail "both: no rank's load time in the server report"
verify_mixed "$S" 4
echo "ok: two shapes resident together: $got"
small=$(shape_field "$S" test-synthetic-2048 bytes)
big=$(shape_field "$S" test-synthetic-4096 bytes)
[ -n "$small" ] && [ -n "$big" ] || fail "both: no shape sizes in the status file"
# 2. a budget for the larger shape and half the smaller: each load evicts the other
budget=$((big + small / 2))
S="$T/one"
mkdir -p "$S/incoming"
submit_mixed "$S" 8
timeout 120 "$BIN" serve "$S" --params params --batch 1 --max-wait 0 --poll 0.05 --threads 1 --exit-when-idle 0.5 \
  --mem-budget "$budget" --jobs-csv-max 1KiB > one.log 2>&1 || { cat one.log; fail "one: the server failed"; }
for i in 1 2 3 4 5 6 7 8; do
  [ "$(setup_of "$S" j$i)" = loaded ] || { cat one.log; fail "one: j$i's set-up was $(setup_of "$S" j$i) with a budget of $budget bytes"; }
done
[ "$(shape_field "$S" test-synthetic-4096 loads)" = 4 ] || fail "one: test-synthetic-4096 not loaded 4 times"
verify_mixed "$S" 8
echo "ok: a budget of $budget bytes (shapes of $small and $big) evicts: every visit loads"
# 3. the jobs' rows: rotated at 1 KiB, both files whole, all 8 rows there once
cur=$(ls "$S"/servers/*.jobs.csv) prev=$(ls "$S"/servers/*.jobs.csv.1)
for f in "$cur" "$prev"; do
  head -1 "$f" | grep -q '^job,status,' || fail "$f: no header"
  [ "$(wc -c < "$f")" -le 1024 ] || fail "$f: $(wc -c < "$f") bytes, over --jobs-csv-max 1KiB"
done
rows=$(cat "$cur" "$prev" | grep -c '^j[0-9],done,' || true)
# rotation keeps one previous file: the oldest rows may be gone, never the newest
grep -q '^j8,done,' "$cur" || fail "rotation: the last row is not in $cur"
[ "$rows" -ge 4 ] && [ "$rows" -le 8 ] || fail "rotation: $rows rows in the two files"
[ "$(cat "$cur" "$prev" | grep '^j[0-9]' | cut -d, -f1 | sort | uniq -d)" = "" ] || fail "rotation: a row twice"
# 4. serve status of a live server: each rank's loads, each shape's batches and loads
S="$T/live"
mkdir -p "$S/incoming"
submit_mixed "$S" 3
serve_start "$S" live.log 0 --batch 1 --max-wait 0
wait_receipts "$S" 3
# the status file is rewritten after the last batch's receipts
i=0
while [ $i -lt 100 ]; do
  "$BIN" serve status "$S" > status.txt || fail "live: serve status failed"
  grep -q '^    shape test-synthetic-2048: 2 batches' status.txt && break
  sleep 0.1; i=$((i + 1))
done
grep -q '^    rank 0 ([^)]*): 3 jobs, backend [a-z]*, 2 parameter loads in [0-9.]* s$' status.txt ||
  { cat status.txt; fail "live: no rank line with 2 parameter loads"; }
grep -q '^    shape test-synthetic-2048: 2 batches, 1 load in [0-9.]* s, [0-9.]* MiB per rank$' status.txt ||
  { cat status.txt; fail "live: no line for test-synthetic-2048 with 2 batches and 1 load"; }
# the server itself, not timeout's process group: timeout passes a SIGTERM
# to its whole group, where a singleton's Open MPI helper may die first and
# take the server down by a signal before it drains
kill -TERM "$(pgrep -P $SP -x grothmpi)"
set +e; wait $SP; rc=$?; set -e
[ $rc -eq 75 ] || { cat live.log; fail "live: SIGTERM ended the server with $rc, expected 75"; }
echo "ok: serve status: $(grep -c '^    shape ' status.txt) shapes, rank 0's and each shape's loads"
echo "serve_resident: OK (shapes resident under the budget, LRU eviction, load times, jobs.csv rotation)"
