#!/bin/sh
# tests/integration/campaign_run.sh — `grothmpi campaign run CAMPAIGN`, the
# campaign form, on a small test-circuit campaign on 2 ranks: every proof
# written, journaled and verifiable, its lines prefixed "campaign run:"; the
# alias `grothmpi prove CAMPAIGN` (and `--campaign FILE`) runs the same
# campaign with "prove:" lines and resumes from the first run's journal; and
# `campaign run` without a file, with two files, with a missing file or an
# option that is not its own gives one error line and a non-zero exit.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
gm_tmp campaign-run

cat > "$T/c.json" <<JSON
{
  "name": "run", "circuit": "test-synthetic", "constraints": 64,
  "params": "params", "setup_seed": "00000000000000000000000000000000000000000000000000000000000000b7",
  "sectors": {"count": 2}, "partitions": 2, "batch_size": 2,
  "output": "out", "resources": {"threads": 1}, "progress_interval": 0
}
JSON

(cd "$T" && timeout 120 mpirun -np 2 "$BIN" campaign run c.json > run.out 2> run.err) \
  || { cat "$T/run.out" "$T/run.err"; fail "campaign run on 2 ranks"; }
grep -q "^campaign run: campaign done: 4 units, 4 proved in this run, 0 resumed, every proof verified" "$T/run.out" \
  || { cat "$T/run.out"; fail "campaign run: no summary line"; }
grep -q "cluster report: campaign run, circuit test-synthetic-64, 2 ranks" "$T/run.out" \
  || { cat "$T/run.out"; fail "campaign run: no report"; }
[ ! -s "$T/run.err" ] || { cat "$T/run.err"; fail "campaign run: stderr not empty"; }
[ "$(grep -c '^done ' "$T/out/journal")" -eq 4 ] || fail "campaign run: the journal has not 4 done lines"
for p in "$T"/out/proofs/*.proof; do
  "$BIN" verify --vk "$T/params/test-synthetic-64.vk" --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null \
    || fail "$p does not verify"
done

# the alias: the same run, resumed from the journal campaign run wrote
(cd "$T" && timeout 120 "$BIN" prove c.json > alias.out 2>&1) || { cat "$T/alias.out"; fail "prove CAMPAIGN"; }
grep -q "^prove: campaign done: 4 units, 0 proved in this run, 4 resumed" "$T/alias.out" \
  || { cat "$T/alias.out"; fail "prove CAMPAIGN: not resumed from campaign run's journal"; }
(cd "$T" && timeout 120 "$BIN" prove --threads 1 --campaign c.json > alias2.out 2>&1) \
  || { cat "$T/alias2.out"; fail "prove --campaign FILE"; }
grep -q "^prove: campaign done: 4 units, 0 proved in this run, 4 resumed" "$T/alias2.out" \
  || { cat "$T/alias2.out"; fail "prove --campaign FILE: no summary line"; }

# expect STATUS PATTERN ARGS...: `grothmpi ARGS` exits STATUS with one line
# on stderr that matches PATTERN, and prints nothing on stdout
expect() {
  want=$1 pat=$2; shift 2
  rc=0; (cd "$T" && timeout 60 "$BIN" "$@" > e.out 2> e.err) || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$T/e.out" "$T/e.err"; fail "$*: exit $rc, expected $want"; }
  [ "$(wc -l < "$T/e.err")" -eq 1 ] && grep -q "$pat" "$T/e.err" || { cat "$T/e.err"; fail "$*: not one line '$pat'"; }
  [ ! -s "$T/e.out" ] || { cat "$T/e.out"; fail "$*: stdout not empty"; }
}
expect 2 "^grothmpi: campaign run: one campaign file, please (grothmpi campaign run CAMPAIGN)$" campaign run
expect 2 "^grothmpi: campaign run: one campaign file, please" campaign run c.json c.json
expect 1 "^grothmpi: campaign run: .*nope.json" campaign run nope.json
expect 1 "^grothmpi: prove: .*nope.json" prove nope.json
expect 2 "^grothmpi: campaign run: --mem-budget: 'lots'" campaign run c.json --mem-budget lots
# an argument the single-circuit form cannot take names the campaign forms
expect 2 "^grothmpi: prove: 'c.json' is not an option; a campaign file goes first" prove --threads 1 c.json
"$BIN" campaign run --help | grep -q "^usage: \[mpirun -np N\] grothmpi campaign run CAMPAIGN" \
  || fail "campaign run --help"
"$BIN" campaign --help | grep -q "grothmpi campaign run CAMPAIGN" || fail "campaign --help: no run form"
"$BIN" prove --help | grep -q "alias of .grothmpi campaign run CAMPAIGN" || fail "prove --help: no alias"
echo "PASS: campaign run proves, prove CAMPAIGN is its alias, bad invocations give one line"
