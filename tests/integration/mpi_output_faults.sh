#!/bin/sh
# tests/integration/mpi_output_faults.sh — the output directory fails:
#  - read-only (a read-only mount: as root, permission bits stop nothing):
#    rank 0 refuses before any rank proves, one line naming the directory,
#    on 1 and 2 ranks;
#  - a path through a regular file: one line naming it;
#  - full (a 40 KiB tmpfs, "No space left on device" while writing a proof):
#    one line naming the file, exit 1, no temporary left, the journal holds
#    only complete units whose files match; after the file system grows
#    (remount) the rerun resumes exactly the journaled units and completes,
#    and every proof verifies.
# Needs root and mount namespaces (unshare -m); skips otherwise.
set -eu
. "$(dirname "$0")/lib/common.sh"
need mpirun
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (mounts)"; exit 0; }
unshare -m true 2>/dev/null || { echo "SKIP: no mount namespaces"; exit 0; }
gm_tmp outfault
cd "$T"
N=24
"$BIN" setup --circuit test-mul --out params --seed 00000000000000000000000000000000000000000000000000000000000000d4 > /dev/null
campaign() { # NAME OUTPUT
  cat > "$1.json" <<JSON
{ "name": "$1", "circuit": "test-mul", "params": "params", "setup": "never",
  "sectors": {"count": $N}, "batch_size": 2, "output": "$2",
  "resources": {"threads": 1}, "progress_interval": 0 }
JSON
}
# one_line ERRFILE PATTERN: exactly one grothmpi line, matching
one_line() {
  n=$(grep -c '^grothmpi: ' "$1" || true)
  [ "$n" -eq 1 ] || { cat "$1"; fail "$1: $n error lines, expected 1"; }
  grep -q -- "$2" "$1" || { cat "$1"; fail "$1: message does not match '$2'"; }
  echo "ok: $(grep '^grothmpi: ' "$1")"
}

# 1. read-only output directory, 1 and 2 ranks: refused before proving
mkdir ro
campaign ro ro
unshare -m sh -c "mount -t tmpfs -o size=1m tmpfs ro && mount -o remount,ro ro &&
  { timeout 60 '$BIN' prove ro.json > ro1.out 2> ro1.err; echo \$? > ro1.rc;
    timeout 60 mpirun -np 2 '$BIN' prove ro.json > ro2.out 2> ro2.err; echo \$? > ro2.rc; }"
for r in 1 2; do
  [ "$(cat ro$r.rc)" -eq 1 ] || { cat ro$r.err; fail "read-only, $r rank(s): exit $(cat ro$r.rc)"; }
  one_line ro$r.err "prove: .*/ro: output directory is not writable: Read-only file system"
  grep -q 'units done' ro$r.out && fail "read-only, $r rank(s): proving started"
done

# 2. the output path goes through a regular file
touch afile
campaign notdir afile/out
set +e; timeout 60 "$BIN" prove notdir.json > notdir.out 2> notdir.err; rc=$?; set -e
[ $rc -eq 1 ] || fail "through a file: exit $rc"
one_line notdir.err "afile/out: cannot create: Not a directory"

# 3. no space left while writing a proof, then the file system grows
mkdir full
campaign full full
unshare -m sh -c "mount -t tmpfs -o size=40k tmpfs full &&
  { timeout 120 '$BIN' prove full.json > full1.out 2> full1.err; echo \$? > full1.rc; } &&
  cp -a full full.after1 &&
  mount -o remount,size=4m full &&
  { timeout 120 '$BIN' prove full.json > full2.out 2> full2.err; echo \$? > full2.rc; } &&
  cp -a full full.after2"
[ "$(cat full1.rc)" -eq 1 ] || { cat full1.err; fail "full: exit $(cat full1.rc)"; }
one_line full1.err "prove: .*/full/\(proofs/.*\|journal\).*No space left on device"
ls full.after1 full.after1/proofs | grep -q '\.tmp\.' && fail "full: temporary file left"
# every complete journal line is backed by whole, matching files
grep '^done ' full.after1/journal > lines1 || true
while read -r _ name psha qsha rank check; do
  [ -n "$check" ] || continue # a line torn by ENOSPC: dropped by the next run
  [ "$(sha256sum < "full.after1/proofs/$name.proof" | cut -d' ' -f1)" = "$psha" ] || fail "full: $name.proof does not match"
  [ "$(sha256sum < "full.after1/proofs/$name.public.json" | cut -d' ' -f1)" = "$qsha" ] || fail "full: $name.public.json does not match"
done < lines1
d=$(grep -c '^done .* [0-9a-f]\{16\}$' full.after1/journal || true)
[ "$d" -lt $N ] || fail "full: everything fitted in 40 KiB; the test proves nothing"
echo "ok: full: $d of $N units journaled before the disk filled"
[ "$(cat full2.rc)" -eq 0 ] || { cat full2.err; fail "full: the rerun after growing failed"; }
grep -q "campaign done: $N units, $((N - d)) proved in this run, $d resumed" full2.out \
  || { grep 'campaign done' full2.out; fail "full: the rerun did not resume exactly the $d journaled units"; }
ls full.after2/proofs | grep -q '\.tmp\.' && fail "full: temporary file left after the rerun"
[ "$(grep -c '^done ' full.after2/journal)" -eq $N ] || fail "full: not $N journal lines after the rerun"
for p in full.after2/proofs/*.proof; do
  "$BIN" verify --vk params/test-mul.vk --proof "$p" --inputs "${p%.proof}.public.json" >/dev/null \
    || fail "$p does not verify"
done
echo "ok: full: rerun resumed $d, proved $((N - d)), all $N proofs verify"
echo "PASS: read-only, not-a-directory and full output directories"
