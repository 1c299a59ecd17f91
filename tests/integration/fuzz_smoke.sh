#!/bin/sh
# gm-test: heavy
# tests/integration/fuzz_smoke.sh — a short libFuzzer round of every harness
# in fuzz/ (docs/reliability.md): builds them with clang into build-fuzz/ when
# needed (make fuzz-build), then runs each for FUZZ_SECONDS seconds (default
# 10; two at a time on a 2-core machine, so about 80 s for the 16 harnesses
# plus the first build) on a copy of its seed corpus. Exit 0 = no crash,
# hang, leak, sanitizer report or broken property; otherwise the table names
# the harness, and the input and report are in build-fuzz/findings/<name>/.
# BUILD (the normal build directory) is not used: the harnesses have their own.
set -u
FUZZ_SECONDS=${FUZZ_SECONDS:-10}
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
command -v clang >/dev/null 2>&1 || { echo "fuzz_smoke: clang is not installed (make deps installs it)"; exit 1; }
# A recursive make inside `make test` must not inherit its jobserver or goals.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} --no-print-directory -j"$(nproc 2>/dev/null || echo 1)" \
        FUZZ_BUILD="$FUZZ_BUILD" fuzz-build >"${TMPDIR:-/tmp}/fuzz_smoke_build.$$" 2>&1; then
    echo "fuzz_smoke: make fuzz-build failed:"
    tail -30 "${TMPDIR:-/tmp}/fuzz_smoke_build.$$"
    rm -f "${TMPDIR:-/tmp}/fuzz_smoke_build.$$"
    exit 1
fi
rm -f "${TMPDIR:-/tmp}/fuzz_smoke_build.$$"
rm -rf "$FUZZ_BUILD/findings"
FUZZ_BUILD="$FUZZ_BUILD" FUZZ_SECONDS="$FUZZ_SECONDS" FUZZ_KEEP_CORPUS=0 sh fuzz/run.sh
