#!/bin/sh
# tests/integration/gpu_ranks.sh — several ranks on one node share its
# devices (docs/gpu.md, "Several ranks per node"), through emulated devices
# (GROTHMPI_EMU_DEVICES = the node's device count): 2 ranks on a node of 2
# devices open one each (rank 0 device 0, rank 1 device 1), of 4 devices
# two each (0 1 and 2 3), of 1 device both device 0; each campaign's proofs
# verify, and the report's per-GPU rows say which rank opened which device.
# resources.gpus beyond a rank's share is refused naming the file, the rank
# and its devices.
set -eu
. "$(dirname "$0")/lib/common.sh"
gm_tmp gpuranks
need mpirun

mk() { # mk NAME GPUS
cat > "$T/$1.json" <<JSON
{
  "name": "ranks", "circuit": "test-synthetic", "constraints": 512,
  "params": "params", "setup": "auto",
  "sectors": {"count": 4}, "partitions": 1, "batch_size": 1, "backend": "emulate",
  "output": "out$1", "verify": "rank", "resources": {"threads": 1, "gpus": $2}, "progress_interval": 0
}
JSON
}
# run NAME DEVICES: the campaign NAME on 2 ranks of one node of DEVICES emulated devices
run() {
  (cd "$T" && GROTHMPI_EMU_DEVICES=$2 timeout 300 mpirun -np 2 -x GROTHMPI_EMU_DEVICES "$BIN" prove "$1.json" \
    > "log.$1" 2>&1) || { cat "$T/log.$1"; fail "2 ranks, $2 emulated devices: the campaign failed"; }
  grep -q 'campaign done: 4 units, 4 proved in this run, 0 resumed, every proof verified' "$T/log.$1" ||
    { cat "$T/log.$1"; fail "2 ranks, $2 emulated devices: not every proof verified"; }
}
# opened NAME: "rank:device" for each per-GPU row of the report, sorted
opened() {
  sed -n '/^per GPU/,/^$/p' "$T/log.$1" | awk '$2 ~ /^emulate:/ {print $1 ":" substr($2, 9)}' | sort | tr '\n' ' '
}
mk share 0
run share 2
[ "$(opened share)" = "0:0 1:1 " ] || { cat "$T/log.share"; fail "2 devices: ranks opened $(opened share), not 0:0 1:1"; }
rm -rf "$T/outshare"
run share 4
[ "$(opened share)" = "0:0 0:1 1:2 1:3 " ] || { cat "$T/log.share"; fail "4 devices: ranks opened $(opened share)"; }
rm -rf "$T/outshare"
run share 1
[ "$(opened share)" = "0:0 1:0 " ] || { cat "$T/log.share"; fail "1 device: ranks opened $(opened share)"; }

mk over 3
st=0
(cd "$T" && GROTHMPI_EMU_DEVICES=4 timeout 120 mpirun -np 2 -x GROTHMPI_EMU_DEVICES "$BIN" prove over.json \
  > log.over 2>&1) || st=$?
[ "$st" -ne 0 ] || { cat "$T/log.over"; fail "resources.gpus 3 with a share of 2 was accepted"; }
grep -q 'over.json: resources.gpus: 3, rank [01] has 2 of the 4 emulated devices of its node (2 ranks share them: devices [02]\.\.[13] are its own)' \
  "$T/log.over" || { cat "$T/log.over"; fail "resources.gpus beyond the share: message"; }
echo "PASS: 2 ranks on one node share 2, 4 and 1 emulated devices as docs/gpu.md says; more than a share is refused"
