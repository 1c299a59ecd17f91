#!/bin/sh
# fuzz/run.sh — runs every built harness (FUZZ_BUILD/fuzz_<name>) for
# FUZZ_SECONDS seconds each, FUZZ_JOBS at a time, on a copy of its seed
# corpus fuzz/corpus/<name>/ (with fuzz/<name>.dict when present), and prints
# one table row per harness: seconds, executions, corpus size at the end,
# findings. Exit status 0 when no harness found anything, 1 otherwise; each
# finding's input is kept in FUZZ_BUILD/findings/<name>/ with its report.
#
# Environment: FUZZ_BUILD (build-fuzz), FUZZ_SECONDS (20), FUZZ_JOBS (nproc),
# FUZZ_ONLY (space-separated harness names; default all), FUZZ_KEEP_CORPUS=1
# (keep the grown corpus in FUZZ_BUILD/corpus/<name>/ and start from it next
# time: the release run), FUZZ_STATS (a file that receives the table),
# FUZZ_ARGS (more libFuzzer flags, e.g. -malloc_limit_mb=8192 to look past a
# known allocation finding while exploring).
# Nothing is written outside FUZZ_BUILD and a mktemp directory.
set -u
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
FUZZ_JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
FUZZ_KEEP_CORPUS=${FUZZ_KEEP_CORPUS:-0}
names=${FUZZ_ONLY:-$(for f in "$FUZZ_BUILD"/fuzz_*; do [ -x "$f" ] && basename "$f" | sed 's/^fuzz_//'; done)}
[ -n "$names" ] || { echo "fuzz/run.sh: no harness in $FUZZ_BUILD (make fuzz-build)"; exit 1; }

# The harnesses write (and the shape harness fsyncs) a file per input: use
# tmpfs when there is one.
base=${TMPDIR:-/tmp}
[ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
work=$(mktemp -d "$base/grothmpi-fuzz-run.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
# Harness temp files go under the run's own directory (tmpfs when there is one).
mkdir -p "$work/tmp"

run_one() { # name
    n=$1
    bin="$FUZZ_BUILD/fuzz_$n"
    if [ "$FUZZ_KEEP_CORPUS" = 1 ]; then corpus="$FUZZ_BUILD/corpus/$n"; else corpus="$work/corpus/$n"; fi
    mkdir -p "$corpus" "$work/art/$n"
    [ -d "fuzz/corpus/$n" ] && cp -n fuzz/corpus/"$n"/* "$corpus"/ 2>/dev/null
    dict=""; [ -f "fuzz/$n.dict" ] && dict="-dict=fuzz/$n.dict"
    # -timeout: one input running 10 s is a hang; -rss_limit_mb: 2 GiB is an OOM.
    TMPDIR="$work/tmp" ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
        "$bin" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/art/$n/" $dict ${FUZZ_ARGS:-} "$corpus" >"$work/$n.log" 2>&1
    echo $? >"$work/$n.rc"
}

# Run FUZZ_JOBS harnesses at a time.
set -- $names
while [ $# -gt 0 ]; do
    i=0
    while [ $# -gt 0 ] && [ $i -lt "$FUZZ_JOBS" ]; do
        run_one "$1" &
        shift; i=$((i + 1))
    done
    wait
done

fail=0
table="| harness | seconds | execs | corpus (files) | findings |
|---|---|---|---|---|"
for n in $names; do
    log="$work/$n.log"
    rc=$(cat "$work/$n.rc" 2>/dev/null || echo 99)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    secs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    if [ "$FUZZ_KEEP_CORPUS" = 1 ]; then c="$FUZZ_BUILD/corpus/$n"; else c="$work/corpus/$n"; fi
    files=$(ls "$c" 2>/dev/null | wc -l)
    found=$(ls "$work/art/$n" 2>/dev/null)
    if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
        fail=1
        rm -rf "$FUZZ_BUILD/findings/$n"
        mkdir -p "$FUZZ_BUILD/findings/$n"
        cp "$work/art/$n"/* "$FUZZ_BUILD/findings/$n/" 2>/dev/null
        cp "$log" "$FUZZ_BUILD/findings/$n/report.txt"
        what=$(grep -m1 -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|property broken|deadly signal|out-of-memory|timeout' "$log" | cut -c1-120)
        finding="FOUND (rc $rc): ${what:-see report}; input in $FUZZ_BUILD/findings/$n/"
    else
        finding="none"
    fi
    table="$table
| $n | $FUZZ_SECONDS | ${execs:-?} (${secs:-?}/s) | $files | $finding |"
done
echo "$table"
[ -n "${FUZZ_STATS:-}" ] && echo "$table" >"$FUZZ_STATS"
if [ "$fail" -ne 0 ]; then
    for n in $names; do
        [ -d "$FUZZ_BUILD/findings/$n" ] || continue
        [ "$(cat "$work/$n.rc")" -ne 0 ] || [ -n "$(ls "$work/art/$n")" ] || continue
        echo "---- $n: last 40 lines of the report"
        tail -40 "$work/$n.log"
    done
fi
exit "$fail"
