#!/bin/sh
# tests/integration/serve_batching.sh — the order and the latency bound of
# batches: jobs are proved by priority, then earliest deadline, then age;
# a batch short of its K jobs waits --max-wait for them and then goes; a
# job whose deadline is nearer than --max-wait does not wait. Exit 0 = pass.
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp servebatch
. "$(dirname "$0")/lib/serve.sh"
cd "$T"
serve_params
job() { # SPOOL NAME SEED EXTRA: one job, EXTRA its more keys
  echo "{\"circuit\": \"test-synthetic\", \"constraints\": 1024, \"seed\": $3$4}" > job.json
  "$BIN" submit "$1" job.json --name "$2" > /dev/null
}
# 1. order: one job per batch, all queued before the server starts
S="$T/order"
mkdir -p "$S/incoming"
now=$(date +%s)
job "$S" plain1 1 ''
job "$S" late 2 ", \"deadline\": $((now + 5000))"
job "$S" urgent 3 ", \"priority\": 10"
job "$S" soon 4 ", \"deadline\": $((now + 3000))"
job "$S" plain2 5 ''
job "$S" low 6 ", \"priority\": -1"
timeout 120 "$BIN" serve "$S" --params params --batch 1 --poll 0.05 --threads 1 --exit-when-idle 0.5 > order.log 2>&1 ||
  { cat order.log; fail "order: the server failed"; }
got=$(sed -n 's/^serve: proved \([a-z0-9]*\) .*/\1/p' order.log | tr '\n' ' ')
[ "$got" = "urgent soon late plain1 plain2 low " ] || fail "order: proved as '$got'"
echo "ok: order: $got"
# 2. max_wait: 2 jobs for a batch of 4 wait 1.5 s, then go together
S="$T/wait"
mkdir -p "$S/incoming"
job "$S" w1 1 ''
job "$S" w2 2 ''
timeout 120 "$BIN" serve "$S" --params params --batch 4 --max-wait 1.5 --poll 0.05 --threads 1 --exit-when-idle 0.5 \
  > wait.log 2>&1 || { cat wait.log; fail "wait: the server failed"; }
[ "$(grep -c '^serve: proved w[12] (batch 1,' wait.log)" -eq 2 ] || { cat wait.log; fail "wait: not one batch of 2"; }
for w in w1 w2; do
  bw=$(sed -n 's/.*"batch_wait_s": \([0-9.eE+-]*\).*/\1/p' "$S/done/$w.receipt.json")
  awk -v b="$bw" 'BEGIN { exit !(b >= 1.4 && b < 5) }' || fail "wait: $w waited $bw s for its batch, expected about 1.5"
done
echo "ok: max_wait: 2 jobs of a batch of 4 went together after $bw s"
# 3. a deadline nearer than max_wait: no wait
S="$T/due"
mkdir -p "$S/incoming"
job "$S" due 1 ", \"deadline\": $(($(date +%s) + 2))"
timeout 120 "$BIN" serve "$S" --params params --batch 4 --max-wait 30 --poll 0.05 --threads 1 --exit-when-idle 0.5 \
  > due.log 2>&1 || { cat due.log; fail "due: the server failed"; }
bw=$(sed -n 's/.*"batch_wait_s": \([0-9.eE+-]*\).*/\1/p' "$S/done/due.receipt.json")
awk -v b="$bw" 'BEGIN { exit !(b < 1) }' || fail "due: waited $bw s with its deadline 2 s away"
echo "ok: a deadline 2 s away did not wait ($bw s)"
# 4. two shapes in turn: each batch one shape, the resident set-up changing
# shape every batch, every proof against its own key
S="$T/mixed"
mkdir -p "$S/incoming"
for i in 1 2 3 4 5; do
  if [ $((i % 2)) -eq 0 ]; then echo "{\"circuit\": \"test-mul\", \"seed\": $i}" > job.json
  else echo "{\"circuit\": \"test-synthetic\", \"constraints\": 1024, \"seed\": $i}" > job.json; fi
  "$BIN" submit "$S" job.json --name "m$i" > /dev/null
done
timeout 120 "$BIN" serve "$S" --params params --setup auto --batch 2 --max-wait 0 --poll 0.05 --threads 1 \
  --exit-when-idle 0.5 > mixed.log 2>&1 || { cat mixed.log; fail "mixed: the server failed"; }
for i in 1 2 3 4 5; do
  vk=params/test-synthetic-1024.vk; [ $((i % 2)) -eq 0 ] && vk=params/test-mul.vk
  "$BIN" verify --vk $vk --proof "$S/done/m$i.proof" --inputs "$S/done/m$i.public.json" > /dev/null ||
    fail "mixed: m$i does not verify against $vk"
done
echo "serve_batching: OK (priority, deadline, age; max_wait bounds a short batch; a near deadline goes at once; shapes in turn)"
