#!/bin/sh
# tests/integration/gpu_bundle.sh — the device check's bundle runs where none
# of our libraries is installed (docs/gpu.md, "The device check"): it packs
# $BUILD's grothmpi and gpu_check (tools/gpu-check/bundle.sh), then, in a
# private mount namespace where the system's copies of every bundled library,
# Criterion, Open MPI's and PMIx's folders, orted and mpirun are hidden
# (empty files and folders mounted over them):
#  - every library the binaries and the Open MPI components load resolves
#    inside the bundle or to the host's glibc, libstdc++ and libgcc_s (ldd);
#  - the bundle's run.sh stops at its no-GPU line, exit 2 (a machine with a
#    GPU: it must pass the probe instead, exit other than 2);
#  - gpu_check --emulate passes its equality checks on an emulated device;
#  - the bundled grothmpi, alone (MPI singleton, no orted), proves a
#    2-unit campaign on the emulate backend, every proof verified.
# Needs root and unshare (SKIP otherwise, and under the sanitizer build).
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp gpubundle
need unshare ldd
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for bind mounts"; exit 0; }
# The bundle is made from an optimized build (the sanitizers' runtime would
# travel in it, and a make here would not know the SAN flags).
[ "${GM_SAN:-0}" = 1 ] && { echo "SKIP: the sanitizer build is not bundled"; exit 0; }
unshare -m true 2>/dev/null || { echo "SKIP: no mount namespaces"; exit 0; }
# A recursive make inside `make test` must not inherit its jobserver or goals.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} --no-print-directory BUILD="$BUILD" "$BUILD/gpu_check" \
    >"$T/make.log" 2>&1 || { cat "$T/make.log"; fail "make $BUILD/gpu_check"; }
B=$T/bundle
sh tools/gpu-check/bundle.sh "$BUILD" "$B" >"$T/bundle.log" 2>&1 || { cat "$T/bundle.log"; fail "bundle.sh"; }
for f in bin/grothmpi bin/gpu_check run.sh env.sh MANIFEST lib/libmpi.so.40 lib/openmpi3/mca_ess_singleton.so; do
    [ -e "$B/$f" ] || fail "the bundle has no $f"
done

# What the namespace hides: every bundled library's system copy (its
# symlink's target too, by the mount), Criterion, and Open MPI's places.
ompi_lib=$(ompi_info --parsable --path pkglibdir | sed 's/^path:pkglibdir://')
ompi_data=$(ompi_info --parsable --path pkgdatadir | sed 's/^path:pkgdatadir://')
pmix_dir=$(dirname "$(readlink -f "$(ldd "$ompi_lib/mca_pmix_ext3x.so" | awk '$1 ~ /^libpmix/ {print $3}')")")
libs=""
for l in "$B"/lib/*.so* libcriterion.so.3; do
    n=${l##*/}
    for d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64 /usr/local/lib; do
        [ -e "$d/$n" ] && libs="$libs $d/$n"
    done
done
[ -n "$libs" ] || fail "no system copy of any bundled library found to hide"
dirs="$ompi_lib $ompi_data $pmix_dir"
for d in /etc/openmpi /usr/lib/x86_64-linux-gnu/hwloc; do [ -d "$d" ] && dirs="$dirs $d"; done
bins=""
for c in orted orterun mpirun mpiexec ompi_info; do
    p=$(command -v $c 2>/dev/null) && bins="$bins $(readlink -f "$p")"
done
: >"$T/empty"
mkdir "$T/emptydir"
cat >"$T/campaign.json" <<JSON
{ "name": "bundle", "circuit": "test-synthetic", "constraints": 1024, "params": "$T/params", "setup": "auto",
  "sectors": {"count": 2}, "partitions": 1, "batch_size": 1, "backend": "emulate",
  "output": "$T/out", "verify": "both", "resources": {"threads": 1}, "progress_interval": 0 }
JSON

cat >"$T/inside.sh" <<'EOF'
set -u
T=$1 B=$2
shift 2
for f in $HIDE_FILES; do mount --bind "$T/empty" "$f" || exit 90; done
for d in $HIDE_DIRS; do mount --bind "$T/emptydir" "$d" || exit 90; done
# 1. Every library resolves inside the bundle or to the host's C and C++ runtime.
LD_LIBRARY_PATH=$B/lib ldd "$B"/bin/* "$B"/lib/openmpi3/*.so "$B"/lib/pmix/*.so "$B"/lib/*.so* >"$T/ldd.txt" 2>&1
grep -v "^$B/\|=> $B/lib/\|linux-vdso\|ld-linux\|lib\(c\|m\|dl\|rt\|pthread\|resolv\|stdc++\|gcc_s\)\.so" "$T/ldd.txt" \
    | grep . >"$T/ldd.bad" && { echo "resolved outside the bundle:"; cat "$T/ldd.bad"; exit 91; }
# A system copy is out of reach: the unbundled binary no longer loads.
"$SYS_GROTHMPI" --help >/dev/null 2>&1 && { echo "the system's libraries are not hidden"; exit 92; }
# 2. run.sh without a GPU.
sh "$B/run.sh" "$T/check" >"$T/run.log" 2>&1
echo "run.sh exit $?" >>"$T/run.log"
# 3. gpu_check on an emulated device; 4. a campaign.
. "$B/env.sh"
"$B/bin/gpu_check" --emulate --max-msm 10 --max-ntt 10 --proof-log 8 --out "$T/emu.md" check msm:10 ntt:10 \
    >"$T/emu.log" 2>&1 || { cat "$T/emu.log"; exit 93; }
"$B/bin/grothmpi" prove "$T/campaign.json" >"$T/prove.log" 2>&1 || { cat "$T/prove.log"; exit 94; }
exit 0
EOF
st=0
HIDE_FILES="$libs $bins" HIDE_DIRS="$dirs" SYS_GROTHMPI="$BIN" unshare -m sh "$T/inside.sh" "$T" "$B" || st=$?
case $st in
    0) ;;
    90) fail "could not hide the system's libraries (bind mounts)" ;;
    91) fail "a library resolves outside the bundle" ;;
    92) fail "the system's libraries were not hidden" ;;
    93) fail "gpu_check --emulate with the system's libraries hidden" ;;
    94) fail "the bundled grothmpi with the system's libraries hidden" ;;
    *) fail "inside the namespace: exit $st" ;;
esac
if grep -q 'run.sh exit 2' "$T/run.log"; then
    [ "$(grep -c . "$T/run.log")" -eq 2 ] || { cat "$T/run.log"; fail "run.sh without a GPU: more than one line"; }
    grep -q '^run.sh: no usable GPU: gpu_check: no usable device: gpu: ' "$T/run.log" ||
        { cat "$T/run.log"; fail "run.sh without a GPU: its line"; }
else
    grep -q 'gpu_check: .*cc [0-9]' "$T/check/results.md" || { cat "$T/run.log"; fail "run.sh with a GPU: no probe"; }
    echo "note: a GPU answered: run.sh ran the device check (its results in $T/check are not kept)"
fi
grep -q '^PASS msm g1 2^10 random' "$T/emu.log" || { cat "$T/emu.log"; fail "gpu_check --emulate: no MSM check"; }
grep -q '^PASS groth16 proof test-synthetic' "$T/emu.log" || { cat "$T/emu.log"; fail "gpu_check --emulate: no proof"; }
grep -q '^FAIL' "$T/emu.log" && { cat "$T/emu.log"; fail "gpu_check --emulate failed a check"; }
grep -q '| pass | groth16 proof' "$T/emu.md" || fail "gpu_check --out has no proof row"
grep -q 'campaign done: 2 units, 2 proved in this run, 0 resumed, every proof verified' "$T/prove.log" ||
    { cat "$T/prove.log"; fail "the bundled campaign"; }
grep -q '"backend": "emulate"' "$T/out/report.json" || fail "the bundled campaign's report does not say emulate"
echo "PASS: the bundle ($(du -sm "$B" | cut -f1) MiB, $(sed -n 's/^grothmpi needs //p' "$B/MANIFEST")) runs with the system's libraries hidden: ldd inside, run.sh's no-GPU exit, gpu_check --emulate, a campaign"
