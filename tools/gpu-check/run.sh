#!/bin/sh
# tools/gpu-check/run.sh — the whole device check, one command, on a GPU host
# that may have nothing but a driver (docs/gpu.md, "The device check"):
#
#   sh tools/gpu-check/run.sh [OUTDIR]      (default: $OUT, else gpu-check-out)
#
# It runs the binaries of the bundle `make gpu-bundle` made (BUNDLE, default
# the folder this script is in when it holds bin/gpu_check, else
# build/gpu-bundle beside it in the tree) with the bundle's libraries and
# Open MPI components, so the host needs no package. Without a bundle it
# builds one with the host's tools (nvcc, the -dev packages) into
# build-gpu/, as a fallback.
#
# Every figure goes to OUTDIR/results.md the moment it is measured (each step
# also leaves its log there), so a run stopped by a time-out keeps the
# figures so far. Steps, the most important first, each with its own time
# limit and skipped (saying so) when less is left of BUDGET (seconds, 470):
#   0. the device, or nothing: gpu_check probe; no usable device -> one line,
#      exit 2;
#   1. versions: nvidia-smi, the bundle's MANIFEST, host cores and memory;
#   2. correctness: every kernel against ec/ and ntt/ on random inputs
#      (gpu_check check: MSM 2^10..2^22, NTT 2^10..2^24, h, a whole proof);
#   3. G1 MSM 2^20, 2^22, 2^24 and NTT 2^20, 2^24, 2^27 against their bounds;
#   4. the device time of a 2 KiB and of a 32 GiB partition (synthetic data;
#      the 32 GiB one when the host has 64 GiB of memory);
#   5. a 2 KiB PoRep campaign on the cuda backend, every proof verified;
#   6. the CUDA fault paths: a campaign under GROTHMPI_GPU_FAULT=oom, error
#      and corrupt falls back to the CPU and writes only verified proofs;
#   7. ncu's counters for the MSM's bucket kernels (when ncu can profile).
# Exit status: 0 every step passed, 1 one failed or was skipped for time,
# 2 no usable GPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUTDIR=${1:-${OUT:-gpu-check-out}}
BUDGET=${BUDGET:-470}
mkdir -p "$OUTDIR" || exit 1
OUTDIR=$(cd "$OUTDIR" && pwd)
RES=$OUTDIR/results.md
T0=$(date +%s)
left() { echo $((BUDGET - ($(date +%s) - T0))); }
say() { echo "$*" | tee -a "$RES"; }
status=0

# The binaries: a bundle, or a build here.
if [ -z "${BUNDLE:-}" ]; then
    if [ -x "$here/bin/gpu_check" ]; then BUNDLE=$here; else BUNDLE=$here/../../build/gpu-bundle; fi
fi
if [ -x "$BUNDLE/bin/gpu_check" ]; then
    B=$(cd "$BUNDLE" && pwd)
    BIN=$B/bin
    . "$B/env.sh"
    from="bundle $B"
else
    root=$here/../..
    command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
    echo "run.sh: no bundle at $BUNDLE: building in $root/build-gpu (-j$(nproc))"
    if ! make -C "$root" -j"$(nproc)" BUILD=build-gpu all gpu-check >"$OUTDIR/build.log" 2>&1; then
        tail -20 "$OUTDIR/build.log"
        say "- build: FAILED (see build.log)"
        exit 1
    fi
    BIN=$root/build-gpu
    from="build $BIN"
fi

# 0. A usable device, or nothing. gpu_check's own open of device 0 answers,
# so a host whose driver, libraries or architecture this build cannot use
# stops here too.
probe=$(timeout 60 "$BIN/gpu_check" probe 2>&1)
st=$?
if [ $st -ne 0 ]; then
    line=$(echo "$probe" | grep -m1 'no usable device' || echo "$probe" | tail -1)
    echo "run.sh: no usable GPU: ${line:-gpu_check exit $st}: nothing checked"
    echo "run.sh: no usable GPU: ${line:-gpu_check exit $st}" >>"$RES"
    [ $st -eq 2 ] && exit 2
    exit 1
fi

# 1. Versions.
{
    echo
    echo "### tools/gpu-check/run.sh, $(date -u +%Y-%m-%d\ %H:%MZ), $from"
    echo
    echo '```'
    echo "$probe" | grep -m1 '^gpu_check: '
    command -v nvidia-smi >/dev/null 2>&1 &&
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1 | head -5
    [ -f "${B:-/nonexistent}/MANIFEST" ] && cat "$B/MANIFEST"
    echo "host: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo) of memory," \
        "glibc $(getconf GNU_LIBC_VERSION 2>/dev/null | cut -d' ' -f2)"
    echo '```'
    echo
} >>"$RES"

# step NAME LIMIT CMD...: runs CMD under min(LIMIT, time left - 10) seconds,
# its output in OUTDIR/NAME.log, and returns its status; a step with under
# 20 s left is skipped, returning 125.
step() {
    name=$1 lim=$2
    shift 2
    l=$(($(left) - 10))
    [ "$lim" -lt "$l" ] || lim=$l
    if [ "$lim" -lt 20 ]; then
        say "- $name: skipped, $(left) s of the budget left"
        status=1
        return 125
    fi
    echo "run.sh: $name (up to $lim s, $(left) s left)"
    t=$(date +%s)
    timeout "$lim" "$@" >"$OUTDIR/$name.log" 2>&1
    rc=$?
    case $rc in
        0) ;;
        124) say "- $name: stopped after $lim s (the figures so far are above)" ;;
        *) say "- $name: exit $rc ($name.log)" ;;
    esac
    [ $rc -eq 0 ] || status=1
    echo "run.sh: $name: exit $rc in $(($(date +%s) - t)) s"
    return $rc
}

# 2-4. gpu_check: correctness first, then the benchmarks, then partitions.
step check 150 "$BIN/gpu_check" --out "$RES" check
step bench 100 "$BIN/gpu_check" --out "$RES" msm:20 msm:22 msm:24 ntt:20 ntt:24 ntt:27
memg=$(awk '/MemTotal/ {printf "%d", $2 / 1048576}' /proc/meminfo)
if [ "$memg" -ge 64 ]; then
    step partition 150 "$BIN/gpu_check" --out "$RES" partition:2KiB partition:32GiB
else
    say "- partition 32GiB: skipped, ${memg} GiB of host memory (64 needed)"
    step partition 60 "$BIN/gpu_check" --out "$RES" partition:2KiB
fi

# grothmpi carries Open MPI, whose libevent asks for a newer glibc than
# gpu_check does: say so rather than fail on the loader's message.
need=$(sed -n 's/^grothmpi needs GLIBC_\([0-9.]*\).*/\1/p' "${B:-/nonexistent}/MANIFEST" 2>/dev/null)
have=$(getconf GNU_LIBC_VERSION 2>/dev/null | cut -d' ' -f2)
campaigns=yes
if [ -n "$need" ] && [ -n "$have" ] &&
    [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" != "$need" ]; then
    say "- campaign, faults: skipped: the bundled grothmpi needs glibc $need, this host has $have"
    campaigns=no
    status=1
fi

# A campaign file: campaign NAME CIRCUIT_JSON BACKEND.
campaign() {
    cat >"$OUTDIR/$1.json" <<JSON
{ "name": "$1", $2, "params": "$OUTDIR/params", "setup": "auto",
  "partitions": 1, "batch_size": 1, "backend": "$3",
  "output": "$OUTDIR/$1.out", "verify": "both", "progress_interval": 0 }
JSON
}

# 5. A 2 KiB PoRep campaign on cuda (its parameters made here, once).
[ $campaigns = yes ] && {
campaign porep2k '"circuit": "porep", "sector_size": "2KiB", "sectors": {"count": 2}' cuda
t=$(date +%s)
step porep2k 200 "$BIN/grothmpi" prove "$OUTDIR/porep2k.json"
rc=$?
if [ $rc -eq 0 ]; then
    say "- 2 KiB PoRep campaign, backend cuda: 2 sectors proved and verified in $(($(date +%s) - t)) s" \
        "(setup included); bound on the device's busy time per unit: 31 ms (docs/gpu.md, \"Bounds\"). Per GPU:"
    sed -n '/^per GPU/,/^$/p' "$OUTDIR/porep2k.log" | grep . | sed 's/^/    /' >>"$RES"
elif [ $rc -ne 125 ]; then
    say "- 2 KiB PoRep campaign, backend cuda: **FAILED** (porep2k.log)"
    tail -5 "$OUTDIR/porep2k.log"
fi

# 6. The fault paths on the real device: each injected fault falls back to
# the CPU, counts it, and every proof written verifies.
for f in oom error corrupt; do
    campaign "fault-$f" '"circuit": "test-synthetic", "constraints": 4096, "sectors": {"count": 2}' cuda
    step "fault-$f" 60 env GROTHMPI_GPU_FAULT=$f "$BIN/grothmpi" prove "$OUTDIR/fault-$f.json"
    rc=$?
    if [ $rc -eq 0 ]; then
        n=$(grep -o '"gpu_fallbacks": [0-9]*' "$OUTDIR/fault-$f.out/report.json" | grep -o '[0-9]*$')
        if [ "${n:-0}" -ge 1 ]; then
            say "- fault $f on cuda: $n fallback(s) to the CPU, every proof verified"
        else
            say "- fault $f on cuda: **FAILED**: no fallback counted (fault-$f.log)"
            status=1
        fi
    elif [ $rc -ne 125 ]; then
        say "- fault $f on cuda: **FAILED** (fault-$f.log)"
    fi
done
}

# 7. ncu on the MSM's bucket accumulation, when the host lets it profile.
if command -v ncu >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/ncu ]; then
    NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    step ncu 90 "$NCU" --kernel-name-base demangled --kernel-name 'regex:gpu_sum_fn' --launch-count 3 \
        --metrics sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,smsp__warps_eligible.avg.per_cycle_active,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
        "$BIN/gpu_check" msm:20
    rc=$?
    if [ $rc -eq 0 ] && ! grep -q 'No kernels were profiled' "$OUTDIR/ncu.log"; then
        say "- ncu, the MSM's bucket kernels (gpu_sum_fn) at 2^20:"
        grep -E 'gpu_sum_fn|sm__|dram__|smsp__|launch__' "$OUTDIR/ncu.log" | head -40 | sed 's/^/    /' >>"$RES"
    elif [ $rc -ne 125 ]; then
        say "- ncu: could not profile (ncu.log; profiling may be reserved to administrators)"
    fi
else
    say "- ncu: not on this host"
fi

say "- not measured here: a 32 GiB sector of 10 real partitions (needs its 32 GiB parameters)"
echo "run.sh: done in $(($(date +%s) - T0)) s, exit $status, results in $RES"
exit $status
