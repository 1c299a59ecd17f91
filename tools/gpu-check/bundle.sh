#!/bin/sh
# tools/gpu-check/bundle.sh BUILD DEST — what `make gpu-bundle` runs: makes
# DEST a folder that runs the device check on a GPU host with no build tools,
# no package registry and none of our dependencies (docs/gpu.md, "The device
# check"):
#   bin/grothmpi, bin/gpu_check   from BUILD, debug info stripped;
#   lib/                          every shared library they, and the Open MPI
#                                 components below, load, except what every
#                                 glibc host has (libc, libm, libdl, librt,
#                                 libpthread, libresolv, ld.so), the C++
#                                 runtime (libstdc++, libgcc_s) and the
#                                 driver (libcuda);
#   lib/openmpi3, lib/pmix        Open MPI's and PMIx's components, but those
#                                 for fabrics (UCX, libfabric, PSM, verbs):
#                                 a singleton grothmpi needs none of them;
#   share/openmpi                 Open MPI's help texts (its error messages);
#   run.sh                        the check script (a copy of
#                                 tools/gpu-check/run.sh);
#   env.sh                        the environment the binaries run in;
#   MANIFEST                      commit, the device code's architectures,
#                                 the newest glibc and
#                                 libstdc++ symbol versions each binary needs.
# Fails when a library cannot be resolved here or DEST would pass 50 MiB.
set -eu
BUILD=$1
DEST=$2
here=$(cd "$(dirname "$0")" && pwd)
for b in grothmpi gpu_check; do
    [ -x "$BUILD/$b" ] || { echo "bundle.sh: $BUILD/$b missing (make all gpu-check first)"; exit 1; }
done
rm -rf "$DEST"
mkdir -p "$DEST/bin" "$DEST/lib/openmpi3" "$DEST/lib/pmix" "$DEST/share/openmpi"
for b in grothmpi gpu_check; do
    strip --strip-debug -o "$DEST/bin/$b" "$BUILD/$b"
done
cp "$here/run.sh" "$DEST/run.sh"
# How to run the binaries: sourced by run.sh (and the bundle's test) with B
# set to the bundle's absolute path. Open MPI relocated into the bundle: its
# help texts under OPAL_PREFIX/share/openmpi, its components and PMIx's
# where the bundle keeps them, and a singleton that starts no orted (there
# is none on the GPU host).
cat >"$DEST/env.sh" <<'ENV'
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OPAL_PREFIX="$B"
export OMPI_MCA_mca_base_component_path="$B/lib/openmpi3"
export PMIX_MCA_mca_base_component_path="$B/lib/pmix"
export OMPI_MCA_ess_singleton_isolated=1
ENV

# Left to the host: glibc's own libraries, the C++ runtime, the driver.
host_libs='^(linux-vdso|libc\.so|libm\.so|libdl\.so|librt\.so|libpthread\.so|libresolv\.so|ld-linux|libstdc\+\+\.so|libgcc_s\.so|libcuda\.so)'
# Components for fabrics: their libraries are large, and a singleton on one
# host uses shared memory and TCP at most.
fabric='lib(ucp|uct|ucs|ucm|fabric|psm|psm2|psm_infinipath|ibverbs|rdmacm|efa|infinipath|nl-)'

ompi_pkglib=$(ompi_info --parsable --path pkglibdir | sed 's/^path:pkglibdir://')
ompi_data=$(ompi_info --parsable --path pkgdatadir | sed 's/^path:pkgdatadir://')
for c in "$ompi_pkglib"/*.so; do
    ldd "$c" | grep -Eq "$fabric" && continue
    cp "$c" "$DEST/lib/openmpi3/"
done
# PMIx's own components sit beside the libpmix that Open MPI's links.
pmix_lib=$(ldd "$ompi_pkglib/mca_pmix_ext3x.so" | awk '$1 ~ /^libpmix\.so/ {print $3}')
[ -n "$pmix_lib" ] || { echo "bundle.sh: no libpmix behind $ompi_pkglib/mca_pmix_ext3x.so"; exit 1; }
for c in "$(dirname "$(readlink -f "$pmix_lib")")"/pmix/*.so; do
    [ -e "$c" ] && cp "$c" "$DEST/lib/pmix/"
done
cp "$ompi_data"/help-*.txt "$DEST/share/openmpi/"

# The libraries, to a fixed point (a component's library may need another).
missing=$(ldd "$DEST"/bin/* "$DEST"/lib/openmpi3/*.so "$DEST"/lib/pmix/*.so 2>/dev/null | grep 'not found' | sort -u || true)
[ -z "$missing" ] || { echo "bundle.sh: unresolved here: $missing"; exit 1; }
ldd "$DEST"/bin/* "$DEST"/lib/openmpi3/*.so "$DEST"/lib/pmix/*.so 2>/dev/null |
    awk '/=>/ && $3 ~ /^\// {print $1, $3}' | grep -Ev "$host_libs" | sort -u |
    while read -r name path; do
        cp -L "$path" "$DEST/lib/$name"
    done

# What the host must have: the newest symbol versions asked for.
newest() { # newest PATTERN FILE...: the highest version of PATTERN_x.y the files ask for
    p=$1; shift
    for f in "$@"; do objdump -T "$f" 2>/dev/null; done | grep -o "$p"'_[0-9.]*' | sort -uV | tail -1
}
{
    echo "commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "built $(date -u +%Y-%m-%dT%H:%MZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "device code: $(grep -o 'code=[a-z]*_[0-9]*' "$BUILD/gpu/nvflags" 2>/dev/null | sed 's/code=//' |
        tr '\n' ' ' || true)(the nvcc flags of $BUILD)"
    echo "gpu_check needs $(newest GLIBC "$DEST/bin/gpu_check" $(LD_LIBRARY_PATH="$DEST/lib" ldd "$DEST/bin/gpu_check" |
        awk -v d="$DEST/lib/" 'index($3, d) == 1 {print $3}')) $(newest GLIBCXX "$DEST/bin/gpu_check")"
    echo "grothmpi needs $(newest GLIBC "$DEST"/bin/grothmpi "$DEST"/lib/*.so* "$DEST"/lib/openmpi3/*.so "$DEST"/lib/pmix/*.so) $(newest GLIBCXX "$DEST"/bin/* "$DEST"/lib/*.so*)"
} >"$DEST/MANIFEST"
size=$(du -sm "$DEST" | cut -f1)
[ "$size" -le 50 ] || { echo "bundle.sh: $DEST is $size MiB, over 50"; exit 1; }
echo "bundle.sh: $DEST: $size MiB, $(ls "$DEST/lib" | grep -c '\.so') libraries, $(ls "$DEST/lib/openmpi3" | wc -l) Open MPI components"
sed 's/^/bundle.sh: /' "$DEST/MANIFEST"
