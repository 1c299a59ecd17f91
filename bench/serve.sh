#!/bin/sh
# bench/serve.sh — `make bench-serve`: the proving service against its goals
# (docs/serve.md), measured, never asserted. COUNT 2 KiB PoRep C2 jobs (the
# first argument, default 200; C1s of the demo's sealed sectors with
# distinct seeds) on RANKS ranks (default 2):
#  1. the campaign of the same COUNT units (`grothmpi prove`, batch_size 1):
#     its proving wall (report.json run.wall_s) and the whole command's;
#  2. the service: a server on RANKS ranks, one warm-up job proved first so
#     the parameters are resident, then 4 concurrent submitters hand in the
#     COUNT jobs as fast as `grothmpi submit` goes. From the receipts and the
#     server's report:
#     - the stream's throughput: COUNT / (last receipt written - first job
#       submitted), and its ratio to the campaign's (COUNT / run.wall_s);
#     - the per-job overhead over the proof itself: what the batches took
#       (a batch's start to its last receipt: the campaign file, the
#       campaign's set-up with the parameters resident, proof, public inputs
#       and receipt writes, the moves) beyond the proving (the batches'
#       run.wall_s), as a % of the proving; the claims (rename, the job
#       file's parse) apart, in submission to claim (median and minimum:
#       it also holds the poll interval and any wait behind a running
#       batch); and the whole stream's wall against the campaign's proving
#       wall (batching waits and all);
#     - latency (submission to receipt): median, p95, max.
#   BUILD=build RANKS=2 sh bench/serve.sh [COUNT]
# The parameters are the demo's (/tmp/grothmpi-params, made on the first run
# by the campaign's "setup": "auto"; GM_BENCH_PARAMS to use another cache);
# the sealed sectors too (/tmp/grothmpi-demo-sectors, sealed when missing).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case "$BUILD" in /*) ;; *) BUILD="$root/$BUILD" ;; esac
G="$BUILD/grothmpi"
N=${1:-200}
RANKS=${RANKS:-2}
PARAMS=${GM_BENCH_PARAMS:-/tmp/grothmpi-params}
SECTORS=/tmp/grothmpi-demo-sectors
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
W=$(mktemp -d /tmp/gm-bench-serve.XXXXXX)
trap 'rm -rf "$W"' EXIT
echo "bench serve: $N 2 KiB PoRep jobs, $RANKS ranks, 4 submitters; load at start: $(cut -d' ' -f1-3 /proc/loadavg)"

mkdir -p "$SECTORS" "$W/c1"
for s in 1 2 3 4; do
    [ -f "$SECTORS/s$s/seal.json" ] || "$G" porep seal --sector-size 2KiB --seed $s --out "$SECTORS/s$s" --quiet >/dev/null
done
i=0
while [ $i -le "$N" ]; do # job 0: the warm-up
    "$G" porep c1 "$SECTORS/s$((i % 4 + 1))" --seed $((1000 + i)) --out "$W/c1/j$i.json" >/dev/null
    i=$((i + 1))
done

# 1. the campaign of the same units
{
    printf '{"name": "bench-serve", "circuit": "porep", "sector_size": "2KiB", "params": "%s",\n' "$PARAMS"
    printf ' "setup": "auto", "setup_seed": "6772f0746d7069206465d06d6f20736565642c206e6f74206120636572656d6f",\n'
    printf ' "batch_size": 1, "verify": "rank", "output": "%s/campaign", "progress_interval": 0,\n' "$W"
    printf ' "sectors": ['
    i=1
    while [ $i -le "$N" ]; do
        [ $i -gt 1 ] && printf ','
        printf '\n  {"id": "j%d", "c1": "%s/c1/j%d.json"}' $i "$W" $i
        i=$((i + 1))
    done
    printf '\n]}\n'
} >"$W/campaign.json"
t0=$(date +%s.%N)
mpirun -np "$RANKS" "$G" prove "$W/campaign.json" >"$W/campaign.log" 2>&1 || { cat "$W/campaign.log"; exit 1; }
t1=$(date +%s.%N)
echo "$t0 $t1" >"$W/campaign.wall"
echo "bench serve: the campaign took $(echo "$t1 - $t0" | bc) s"

# 2. the service
S="$W/spool"
mkdir -p "$S/incoming"
mpirun -np "$RANKS" "$G" serve "$S" --params "$PARAMS" --max-wait 0.5 --poll 0.05 --exit-when-idle 5 \
    >"$W/serve.log" 2>&1 &
SRV=$!
"$G" submit "$S" "$W/c1/j0.json" --name warmup --wait --timeout 600 >/dev/null ||
    { cat "$W/serve.log"; echo "bench serve: the warm-up job failed"; exit 1; }
# the server's report is rewritten after the receipts of each batch
while ! ls "$S"/servers/*.report.json >/dev/null 2>&1; do sleep 0.1; done
cp "$S"/servers/*.report.json "$W/warmup.report.json"
echo "bench serve: the warm-up job (a parameter load) took $(echo "$(date +%s.%N) - $t1" | bc) s"
per=$((N / 4))
for s in 1 2 3 4; do
    lo=$(((s - 1) * per + 1)) hi=$((s * per))
    [ $s -eq 4 ] && hi=$N
    (i=$lo; while [ $i -le $hi ]; do "$G" submit "$S" "$W/c1/j$i.json" --name "j$i" >/dev/null; i=$((i + 1)); done) &
done
wait_n=$((N + 1))
while [ "$(ls "$S/done" | grep -c '\.receipt\.json$' || true)" -lt $wait_n ]; do
    kill -0 $SRV 2>/dev/null || { tail -20 "$W/serve.log"; echo "bench serve: the server ended early"; exit 1; }
    [ "$(ls "$S/failed" | grep -c '\.json$' || true)" -eq 0 ] ||
        { cat "$S"/failed/*.reason; echo "bench serve: a job failed"; exit 1; }
    sleep 0.5
done
wait $SRV || true

python3 - "$W" "$N" "$RANKS" <<'EOF'
import glob, json, statistics, sys
w, n, ranks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
camp = json.load(open(w + "/campaign/report.json"))
c0, c1 = map(float, open(w + "/campaign.wall").read().split())
cw = camp["run"]["wall_s"]
rec = [json.load(open(f)) for f in glob.glob(w + "/spool/done/j*.receipt.json")]
assert len(rec) == n, len(rec)
first = min(r["submitted"] for r in rec)
last = max(r["written"] for r in rec)
stream = last - first
srv = json.load(open(glob.glob(w + "/spool/servers/*.report.json")[0]))
warm = json.load(open(w + "/warmup.report.json"))
prove_wall = srv["run"]["wall_s"] - warm["run"]["wall_s"]
batches = {}
for r in rec:
    b = batches.setdefault(r["batch"], [1e300, 0, 0, r["setup"]])
    b[0] = min(b[0], r["claimed"] + r["timings"]["batch_wait_s"])
    b[1] = max(b[1], r["written"])
    b[2] += 1
span = sum(b[1] - b[0] for b in batches.values())
loaded = sum(1 for b in batches.values() if b[3] != "resident")
lat = sorted(r["timings"]["total_s"] for r in rec)
p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
print(f"campaign: {n} units on {ranks} ranks: proving {cw:.2f} s ({n / cw * 3600:.0f} proofs/h), "
      f"whole command {c1 - c0:.2f} s")
print(f"serve: {n} jobs in {len(batches)} batches ({loaded} with a parameter load) on {ranks} ranks: "
      f"stream {stream:.2f} s ({n / stream * 3600:.0f} proofs/h), the batches' proving {prove_wall:.2f} s")
print(f"throughput, stream / campaign: {cw / stream:.3f} (against the campaign's whole command: "
      f"{(c1 - c0) / stream:.3f})")
print(f"per-job overhead over the proof: {100 * (span - prove_wall) / prove_wall:.2f} % "
      f"({(span - prove_wall) / n * 1000:.1f} ms per job: batch spans {span:.2f} s - proving {prove_wall:.2f} s); "
      f"over the whole stream against the campaign's proving: {100 * (stream - cw) / cw:.2f} %")
q = sorted(r["timings"]["queue_s"] for r in rec)
print(f"claim: submission to claim, median {statistics.median(q) * 1000:.1f} ms, min {q[0] * 1000:.1f} ms "
      f"(includes the poll interval and waiting behind a running batch)")
print(f"latency, submission to receipt: median {statistics.median(lat):.2f} s, p95 {p95:.2f} s, max {lat[-1]:.2f} s")
EOF
echo "bench serve: load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
