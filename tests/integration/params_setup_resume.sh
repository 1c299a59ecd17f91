#!/bin/sh
# tests/integration/params_setup_resume.sh — a setup stopped at any point
# resumes from its journal and ends byte-identical to an uninterrupted run:
#  - stopped after N journal records (GROTHMPI_SETUP_STOP_AFTER, tests only)
#    for several N, then run again WITHOUT --seed (the journal's seed is
#    used): .partial/.journal/.scratch stay between, no .params appears early;
#  - killed by SIGKILL at a random moment, then run again;
#  - a memory budget small enough for several QAP passes: the same bytes;
#  - a journal for another seed: a line says so and the setup starts over;
#  - a scratch file removed under its journal: the QAP is computed again;
#  - a file system too small (tmpfs): one line naming the parameter file,
#    the bytes needed and free, non-zero exit, no parameter file;
#  - a write that fails mid-way (a file size limit: EFBIG): one line naming
#    the partial file, non-zero exit, the partial and journal kept; the
#    rerun completes with the same bytes.
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp setupresume
cd "$T"
S=5e7f00000000000000000000000000000000000000000000000000000000a1b2
S2=5e7f00000000000000000000000000000000000000000000000000000000a1b3
C="--circuit test-sha256 --compressions 2"
ID=test-sha256-2
"$BIN" setup $C --out ref --seed $S > ref.out 2> ref.err || { cat ref.err; fail "reference setup failed"; }
REF=ref/$ID.params
[ -f "$REF" ] && [ ! -e "$REF.journal" ] && [ ! -e "$REF.scratch" ] || fail "reference: journal or scratch left behind"
grep -q 'setup: plan: .* 1 pass(es)' ref.err || { cat ref.err; fail "reference: no plan line with one pass"; }

for n in 1 2 3 5; do
  rc=0
  GROTHMPI_SETUP_STOP_AFTER=$n "$BIN" setup $C --out s$n --seed $S > s$n.out 2> s$n.err || rc=$?
  [ "$rc" -ne 0 ] || fail "stop after $n: exit 0"
  grep -q "stopped after $n journal records" s$n.err || { cat s$n.err; fail "stop after $n: no stop line"; }
  [ ! -e s$n/$ID.params ] || fail "stop after $n: the parameter file appeared early"
  [ -f s$n/$ID.params.journal ] || fail "stop after $n: no journal"
  "$BIN" setup $C --out s$n > s$n.out2 2> s$n.err2 || { cat s$n.err2; fail "resume after $n failed"; }
  grep -q 'continuing the interrupted setup with the seed' s$n.err2 || { cat s$n.err2; fail "resume after $n: journal seed not used"; }
  grep -q 'setup: resuming from' s$n.err2 || { cat s$n.err2; fail "resume after $n: no resume line"; }
  cmp "$REF" s$n/$ID.params || fail "resume after $n: parameters differ from an uninterrupted run"
  cmp ref/$ID.vk s$n/$ID.vk || fail "resume after $n: vk differs"
  [ ! -e s$n/$ID.params.journal ] && [ ! -e s$n/$ID.params.scratch ] && [ ! -e s$n/$ID.params.partial ] \
    || fail "resume after $n: files left behind"
  echo "stop after $n records, resumed: identical"
done

# SIGKILL at a random moment (0.1 .. 1.5 s), then the rerun.
ms=$(( $(od -An -N2 -tu2 /dev/urandom) % 1400 + 100 ))
"$BIN" setup $C --out k --seed $S > k.out 2> k.err &
pid=$!
sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
kill -9 $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
"$BIN" setup $C --out k --seed $S > k.out2 2> k.err2 || { cat k.err2; fail "resume after SIGKILL failed"; }
cmp "$REF" k/$ID.params || fail "SIGKILL after $ms ms: parameters differ"
echo "SIGKILL after $ms ms, resumed: identical"

# Several QAP passes under a small budget.
"$BIN" setup $C --out b --seed $S --mem-budget 3MiB > b.out 2> b.err || { cat b.err; fail "small budget failed"; }
passes=$(sed -n 's/.*QAP at tau in \([0-9]*\) pass(es).*/\1/p' b.err)
[ "${passes:-0}" -gt 1 ] || { cat b.err; fail "budget 3MiB: expected several passes, got '$passes'"; }
cmp "$REF" b/$ID.params || fail "$passes passes: parameters differ from one pass"
echo "$passes QAP passes: identical"
# ... and a resume that changes the budget between the passes.
rc=0
GROTHMPI_SETUP_STOP_AFTER=2 "$BIN" setup $C --out b2 --seed $S --mem-budget 3MiB > /dev/null 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "budget stop: exit 0"
"$BIN" setup $C --out b2 --seed $S --mem-budget 5MiB > /dev/null 2> b2.err || { cat b2.err; fail "budget resume failed"; }
cmp "$REF" b2/$ID.params || fail "resume under another budget: parameters differ"

# A scratch file removed under a journal that records its columns: computed again.
GROTHMPI_SETUP_STOP_AFTER=3 "$BIN" setup $C --out x --seed $S > /dev/null 2>&1 || true
rm -f x/$ID.params.scratch
"$BIN" setup $C --out x --seed $S > /dev/null 2> x.err || { cat x.err; fail "lost scratch: failed"; }
grep -q 'lacks the QAP columns' x.err || { cat x.err; fail "lost scratch: no line"; }
cmp "$REF" x/$ID.params || fail "lost scratch: parameters differ"

# A journal for another seed is discarded, with a line.
GROTHMPI_SETUP_STOP_AFTER=3 "$BIN" setup $C --out o --seed $S > /dev/null 2>&1 || true
"$BIN" setup $C --out o --seed $S2 > o.out 2> o.err || { cat o.err; fail "other seed failed"; }
grep -q 'is for another seed: starting over' o.err || { cat o.err; fail "other seed: no start-over line"; }
"$BIN" setup $C --out o2 --seed $S2 > /dev/null 2>&1
cmp o/$ID.params o2/$ID.params || fail "other seed: differs from an uninterrupted run"

# A write that fails mid-way: a file size limit (SIGXFSZ ignored, so write gets EFBIG).
# (the shape and the QAP scratch, a few MB, are made first without a limit;
# the parameter file, about 20 MB, then passes 8 MiB: 16384 blocks of 512 bytes)
GROTHMPI_SETUP_STOP_AFTER=1 "$BIN" setup $C --out f --seed $S > /dev/null 2>&1 || true
[ -f f/$ID.params.scratch ] || fail "file size limit: no scratch after the first record"
rc=0
( trap '' XFSZ; ulimit -f 16384; exec "$BIN" setup $C --out f --seed $S ) > f.out 2> f.err || rc=$?
[ "$rc" -ne 0 ] || fail "file size limit: exit 0"
grep -q "f/$ID.params.partial: cannot write points at byte [0-9]*: File too large" f.err \
  || { cat f.err; fail "file size limit: no line naming the partial file"; }
[ ! -e f/$ID.params ] && [ -f f/$ID.params.partial ] && [ -f f/$ID.params.journal ] \
  || fail "file size limit: expected the partial and journal kept, no parameter file"
"$BIN" setup $C --out f --seed $S > /dev/null 2> f.err2 || { cat f.err2; fail "resume after the write error failed"; }
cmp "$REF" f/$ID.params || fail "resume after the write error: parameters differ"
echo "write error mid-way: one line, resumed: identical"

# A file system too small: refused up front with one line.
if [ "$(id -u)" -eq 0 ] && mkdir -p small && mount -t tmpfs -o size=4m tmpfs small 2>/dev/null; then
  rc=0
  "$BIN" setup $C --out small/c --seed $S > small.out 2> small.err || rc=$?
  umount_ok() { umount small 2>/dev/null || true; }
  [ "$rc" -ne 0 ] || { umount_ok; fail "tmpfs: exit 0"; }
  if ! grep -q "small/c/$ID.params: not enough disk space: [0-9]* bytes needed (parameters [0-9]*, scratch [0-9]*), [0-9]* free" small.err; then
    cat small.err; umount_ok; fail "tmpfs: no line naming the file, bytes needed and free"
  fi
  [ ! -e small/c/$ID.params ] || { umount_ok; fail "tmpfs: a parameter file appeared"; }
  umount_ok
  echo "tmpfs too small: refused up front"
else
  echo "SKIP (part): no tmpfs mount (needs root)"
fi
echo "params_setup_resume: ok"
