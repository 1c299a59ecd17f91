# tests/integration/lib/serve.sh — what the proving service's tests share
# (tests/integration/serve_*.sh, tests/soak/serve.sh), sourced after
# common.sh and gm_tmp, in $T: test parameters, job files, and the checks
# that every job is done exactly once with a proof that verifies.
SERVE_SETUP_SEED=00000000000000000000000000000000000000000000000000000000000000d5
# serve_params: a test-synthetic-1024 parameter cache in $T/params
serve_params() {
  "$BIN" setup --circuit test-synthetic --constraints 1024 --out "$T/params" --seed $SERVE_SETUP_SEED > /dev/null
  VK="$T/params/test-synthetic-1024.vk"
}
# submit_jobs SPOOL N PREFIX: N jobs of test-synthetic-1024 named PREFIX1 ..
submit_jobs() {
  i=1
  while [ $i -le "$2" ]; do
    echo "{\"circuit\": \"test-synthetic\", \"constraints\": 1024, \"seed\": $i}" > "$T/job.json"
    "$BIN" submit "$1" "$T/job.json" --name "$3$i" > /dev/null || fail "submit $3$i"
    i=$((i + 1))
  done
}
# serve_start SPOOL LOG NP [OPTIONS...]: a server in the background (pid in $SP)
serve_start() {
  sp=$1 log=$2 np=$3; shift 3
  if [ "$np" -eq 0 ]; then
    timeout 600 "$BIN" serve "$sp" --params "$T/params" --max-wait 0.2 --poll 0.05 --threads 1 "$@" > "$log" 2>&1 &
  else
    timeout 600 mpirun -np "$np" "$BIN" serve "$sp" --params "$T/params" --max-wait 0.2 --poll 0.05 --threads 1 "$@" \
      > "$log" 2>&1 &
  fi
  SP=$!
}
# nreceipts SPOOL: receipts in done/
nreceipts() { ls "$1/done" 2>/dev/null | grep -c '\.receipt\.json$' || true; }
# wait_receipts SPOOL N: until N receipts (60 s at most)
wait_receipts() {
  i=0
  while [ "$(nreceipts "$1")" -lt "$2" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  [ "$(nreceipts "$1")" -ge "$2" ] || fail "$1: fewer than $2 receipts after 60 s"
}
# all_done SPOOL N LOGS...: N receipts, nothing left in incoming/ or active/,
# no temporary, every proof verifies, and no job's "proved" line appears
# twice in all the servers' logs together (a server SIGKILLed between a
# receipt and its line leaves none)
all_done() {
  sp=$1 n=$2; shift 2
  [ "$(nreceipts "$sp")" -eq "$n" ] || fail "$sp: $(nreceipts "$sp") receipts, expected $n"
  [ -z "$(ls "$sp/incoming" | grep '\.json$')" ] || fail "$sp: jobs left in incoming/: $(ls "$sp/incoming")"
  [ -z "$(find "$sp/active" -name '*.json')" ] || fail "$sp: claims left in active/: $(find "$sp/active" -name '*.json')"
  for r in "$sp"/done/*.receipt.json; do
    j=$(basename "$r" .receipt.json)
    [ -f "$sp/done/$j.json" ] || fail "$j: receipt without the job file in done/"
    "$BIN" verify --vk "$VK" --proof "$sp/done/$j.proof" --inputs "$sp/done/$j.public.json" > /dev/null ||
      fail "$j: the proof does not verify"
    c=$(cat "$@" | grep -c "^serve: proved $j " || true)
    [ "$c" -le 1 ] || fail "$j: proved $c times"
  done
  [ -z "$(find "$sp/done" -name '*.tmp.*')" ] || fail "$sp: temporaries left in done/"
}
