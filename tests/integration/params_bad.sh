#!/bin/sh
# tests/integration/params_bad.sh — bad parameter input: each failure is one
# error line naming the file and what is wrong, exit 1, and nothing left
# behind (no proof, no public inputs, no temporaries, no parameter file):
#  - a parameter file of the wrong size for the circuit: another circuit's
#    file under this circuit's name (a wrong count), extra bytes at the end;
#  - a truncated one: in the last section, inside the verifying key, empty;
#    `params verify` of the truncated file against the manifest; and a
#    campaign's first use of a truncated file the manifest does not list:
#    refused, its digest not recorded, so the good file copied over it is
#    then used (it was refused as "changed");
#  - a disk that fills up during setup (a 4 MiB tmpfs, root only): the free
#    space is made just what the up-front check asks for, and a little
#    more, so a write fails mid-way (the partial file, the scratch, the
#    verifying key): one line naming the file, no parameter file; the
#    partial file, journal and scratch stay (docs/groth16.md: the resume
#    rule), and once space is freed the rerun ends byte-identical to an
#    uninterrupted setup and leaves none of them; and the converted points
#    file (forced on) on that full disk: the proof is made all the same,
#    with one line saying why there is no points file;
#  - a C1 of another sector size than the parameters: prove says the
#    directory has no parameters for the C1's sector size; verify says the
#    key's public inputs do not match the C1's.
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp paramsbad
cd "$T"
S=5e7f00000000000000000000000000000000000000000000000000000000a1b2
C="--circuit test-synthetic --constraints 1024"
ID=test-synthetic-1024
"$BIN" setup $C --out ref --seed $S --quiet > /dev/null 2> ref.err || { cat ref.err; fail "reference setup failed"; }
"$BIN" setup --circuit test-synthetic --constraints 2048 --out big --seed $S --quiet > /dev/null 2> big.err \
  || { cat big.err; fail "setup of the larger circuit failed"; }
REF=ref/$ID.params

# A copy of the reference cache with its parameter file replaced by stdin,
# without the converted points (written when the disk keeps 10 % free: a
# copy of them is "changed since it was written", one more line).
cache_with() { rm -rf w; cp -r ref w; rm -f w/*.points w/*.points.stamp; cat > w/$ID.params; }

# no_output DIR: no proof, public inputs or temporary left in DIR.
no_output() {
  [ ! -e "$1/p.bin" ] && [ ! -e "$1/p.bin.public.json" ] || { ls "$1"; fail "$2: output left behind"; }
  if ls -a "$1" | grep -q '\.tmp\.'; then ls -a "$1"; fail "$2: a temporary left behind"; fi
}

# bad_prove WHAT PATTERN [ARGS]: prove from w exits 1; its last line is the
# one error, matching "grothmpi: prove: PATTERN", and nothing else is an error.
bad_prove() {
  what=$1 pat=$2
  shift 2
  rc=0
  "$BIN" prove $C --params w --out w/p.bin "$@" > out 2> err || rc=$?
  [ "$rc" -eq 1 ] || { cat err; fail "$what: exit $rc, expected 1"; }
  tail -1 err | grep -q "^grothmpi: prove: $pat\$" || { cat err; fail "$what: last line is not '$pat'"; }
  [ "$(grep -v ': every point checked: digest .* is not vouched for' err | wc -l)" -eq 1 ] \
    || { cat err; fail "$what: more than the one error line"; }
  no_output w "$what"
  echo "ok: $what: $(tail -1 err)"
}

# ---- the wrong size for the circuit -------------------------------------------------------
cache_with < big/test-synthetic-2048.params
bad_prove "another circuit's parameters" "w/$ID.params: section h: 2047 points, the circuit needs 1023"
bad_prove "another circuit's parameters, --trust-params" \
  "w/$ID.params: section h: 2047 points, the circuit needs 1023" --trust-params
{ cat $REF; printf 'xyz'; } | cache_with
bad_prove "3 bytes too many" "w/$ID.params: 3 trailing bytes after section b_g2"

# ---- truncated ---------------------------------------------------------------------------------
size=$(wc -c < $REF)
head -c $((size - 1000)) $REF | cache_with
bad_prove "1000 bytes short" \
  "w/$ID.params: section b_g2: truncated: [0-9]* points need [0-9]* bytes from byte [0-9]*, the file has [0-9]*"
rc=0
"$BIN" params verify w/$ID.params > pv.out 2> pv.err || rc=$?
[ "$rc" -ne 0 ] || { cat pv.out pv.err; fail "params verify: a truncated file passed"; }
grep -q "w/$ID.params" pv.err || { cat pv.out pv.err; fail "params verify: the line does not name the file"; }
echo "ok: params verify of the truncated file: $(tail -1 pv.err)"
# A truncated file the manifest does not list yet (a campaign's first use of
# it): refused with the truncation, and its digest not recorded, so that the
# good file copied over it afterwards is used, not refused as "changed".
head -c $((size - 1000)) $REF | cache_with
rm w/manifest.json
cat > camp.json <<EOF
{"name": "bad", "circuit": "test-synthetic", "constraints": 1024, "params": "w", "setup": "never",
 "sectors": {"count": 1, "prefix": "s"}, "partitions": 1, "batch_size": 1, "output": "camp",
 "resources": {"threads": 1}}
EOF
rc=0
"$BIN" campaign run camp.json > out 2> err || rc=$?
[ "$rc" -eq 1 ] && grep -q "^grothmpi: campaign run: .*w/$ID.params: section b_g2: truncated: " err \
  || { cat err; fail "campaign on a truncated file: exit $rc, or no line naming the truncation"; }
! grep -qs "$ID.params" w/manifest.json || { cat w/manifest.json; fail "campaign: the truncated file's digest was recorded"; }
echo "ok: campaign on a truncated file (first use): $(grep 'truncated' err)"
cp $REF w/$ID.params
"$BIN" campaign run camp.json > out 2> err || { cat err; fail "campaign on the replaced good file failed"; }
echo "ok: campaign on the good file copied over it: proved"
head -c 100 $REF | cache_with
bad_prove "truncated in the verifying key" "w/$ID.params: section vk: truncated: 100 bytes, at least [0-9]* needed"
cache_with < /dev/null
bad_prove "empty" "w/$ID.params: section vk: truncated: 0 bytes, at least [0-9]* needed"

# ---- a disk that fills up during setup ------------------------------------------------------------
if [ "$(id -u)" -eq 0 ] && mkdir -p small && mount -t tmpfs -o size=4m tmpfs small 2>/dev/null; then
  umount_ok() { umount small 2>/dev/null || true; }
  trap 'umount_ok; rm -rf "$T"' EXIT
  avail() { echo $(( $(stat -f -c '%a * %S' small) )); }
  page=4096
  # How much the setup asks for: refused up front on a nearly full disk.
  head -c $(( $(avail) - 16 * page )) /dev/zero > small/fill
  rc=0
  "$BIN" setup $C --out small/c --seed $S > s0.out 2> s0.err || rc=$?
  need=$(sed -n 's/.*not enough disk space: \([0-9]*\) bytes needed.*/\1/p' s0.err)
  [ "$rc" -ne 0 ] && [ -n "$need" ] || { cat s0.err; umount_ok; fail "tmpfs: not refused up front"; }
  rm small/fill
  need_pages=$(( (need + page - 1) / page ))
  midway=0
  for extra in 0 1 2 3; do
    rm -rf small/c small/fill
    "$BIN" setup $C --out small/c --seed $S --quiet > /dev/null 2>&1 || true # the shape, cached
    rm -f small/c/$ID.params* small/c/$ID.vk small/c/$ID.setup small/c/manifest.json
    head -c $(( $(avail) - (need_pages + extra) * page )) /dev/zero > small/fill
    rc=0
    "$BIN" setup $C --out small/c --seed $S > s.out 2> s.err || rc=$?
    if [ "$rc" -eq 0 ]; then
      cmp -s $REF small/c/$ID.params || { umount_ok; fail "tmpfs +$extra pages: a setup that succeeded wrote other bytes"; }
      echo "ok: tmpfs, $((need_pages + extra)) pages free: setup fits"
      continue
    fi
    midway=$((midway + 1))
    [ "$rc" -eq 1 ] || { cat s.err; umount_ok; fail "tmpfs +$extra pages: exit $rc"; }
    line=$(grep '^grothmpi: ' s.err) || true
    [ "$(echo "$line" | wc -l)" -eq 1 ] && echo "$line" | grep -q "^grothmpi: setup: small/c/$ID\.[a-z.]*: .*No space left on device" \
      || { cat s.err; umount_ok; fail "tmpfs +$extra pages: not one line naming the file and the full disk"; }
    [ ! -e small/c/$ID.params ] || { umount_ok; fail "tmpfs +$extra pages: a parameter file appeared"; }
    if ls -a small/c | grep -q '\.tmp\.'; then ls -a small/c; umount_ok; fail "tmpfs +$extra pages: a temporary left behind"; fi
    [ -f small/c/$ID.params.partial ] && [ -f small/c/$ID.params.journal ] \
      || { ls -a small/c; umount_ok; fail "tmpfs +$extra pages: the partial file and journal are not kept for the rerun"; }
    echo "ok: tmpfs, $((need_pages + extra)) pages free: $line"
    rm small/fill
    "$BIN" setup $C --out small/c > r.out 2> r.err || { cat r.err; umount_ok; fail "tmpfs +$extra pages: the rerun failed"; }
    cmp -s $REF small/c/$ID.params || { umount_ok; fail "tmpfs +$extra pages: the rerun wrote other bytes"; }
    for f in partial journal scratch; do
      [ ! -e small/c/$ID.params.$f ] || { umount_ok; fail "tmpfs +$extra pages: .$f left after the rerun"; }
    done
  done
  [ "$midway" -gt 0 ] || { umount_ok; fail "tmpfs: no write failed mid-way"; }

  # The converted points file (forced on) on a disk without room for it:
  # the proof is made all the same, one line says why there is no points
  # file, and no temporary of it is left.
  rm -rf small/c small/fill small/p.bin*
  cp -r ref small/c
  rm -f small/c/$ID.params.points*
  head -c $(( $(avail) - 64 * page )) /dev/zero > small/fill
  GROTHMPI_POINTS_CACHE=on "$BIN" prove $C --params small/c --out small/p.bin > pp.out 2> pp.err \
    || { cat pp.err; umount_ok; fail "points file on a full disk: prove failed"; }
  [ -s small/p.bin ] && [ ! -e small/c/$ID.params.points ] || { ls -a small small/c; umount_ok; fail "points file on a full disk: no proof, or a points file"; }
  if ls -a small/c | grep -q '\.tmp\.'; then ls -a small/c; umount_ok; fail "points file on a full disk: a temporary left behind"; fi
  grep -q "points.*No space left on device" pp.err || { cat pp.err; umount_ok; fail "points file on a full disk: no line saying so"; }
  echo "ok: points file on a full disk: $(grep 'No space left' pp.err)"
  umount_ok
else
  echo "SKIP (part): no tmpfs mount (needs root)"
fi

# ---- a C1 of another sector size ------------------------------------------------------------------
"$BIN" porep synthetic --sector-size 8MiB --seed 1 --out c1.json > /dev/null 2> c1.err || { cat c1.err; fail "synthetic C1"; }
rm -rf w; cp -r ref w
rc=0
"$BIN" prove --params w --c1 c1.json --out w/p.bin > out 2> err || rc=$?
[ "$rc" -eq 1 ] || { cat err; fail "C1 of 8MiB: exit $rc"; }
want="c1.json: a StackedDrg8MiBV1_1 C1 (sector size 8388608 bytes): w has no parameters for it"
want="$want (w/porep-8388608-v2.params: No such file or directory)"
[ "$(wc -l < err)" -eq 1 ] && grep -qF "grothmpi: prove: $want" err \
  || { cat err; fail "C1 of 8MiB: not one line naming the C1, its sector size and the missing parameters"; }
no_output w "C1 of 8MiB"
echo "ok: C1 of another sector size: $(cat err)"
"$BIN" prove $C --params ref --out p.bin > /dev/null 2> p.err || { cat p.err; fail "prove with the reference"; }
rc=0
"$BIN" verify --vk ref/$ID.vk --c1 c1.json --proof p.bin > out 2> err || rc=$?
[ "$rc" -eq 1 ] && grep -q "^grothmpi: verify: c1.json: [0-9]* public inputs per partition, the verifying key has [0-9]*$" err \
  || { cat out err; fail "verify --c1 with another circuit's key: exit $rc"; }
echo "ok: verify --c1 with another key: $(cat err)"
echo "params_bad: ok"
