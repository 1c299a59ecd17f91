# tests/integration/lib/common.sh — the preamble the integration tests share,
# sourced right after `set -eu`: BUILD, BIN (the absolute path of the
# grothmpi under test), Open MPI allowed to run as root and oversubscribed,
# fail, need and gm_tmp.
BUILD=${BUILD:-build}
BIN=$(cd "$(dirname "$BUILD/grothmpi")" && pwd)/grothmpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
fail() { echo "FAIL: $*"; exit 1; }
# need CMD...: skips the test (exit 0, a SKIP line) when a command is missing
need() { for c; do command -v "$c" >/dev/null || { echo "SKIP: no $c"; exit 0; }; done; }
# gm_tmp NAME: T, a new directory /tmp/gm-NAME.XXXXXX, removed on exit
# porep_cache: CACHE = the absolute path of the 2 KiB PoRep parameter cache
# the PoRep tests share ($GROTHMPI_POREP_CACHE, else $BUILD/porep-cache), made.
porep_cache() { CACHE=${GROTHMPI_POREP_CACHE:-$BUILD/porep-cache}; mkdir -p "$CACHE"; CACHE=$(cd "$CACHE" && pwd); }
gm_tmp() { T=$(mktemp -d "/tmp/gm-$1.XXXXXX"); trap 'rm -rf "$T"' EXIT; }
# need_netns: skips the test without root or network namespaces (the
# several-hosts tests)
need_netns() {
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for network namespaces"; exit 0; }
  ip netns add "gm-probe.$$" 2>/dev/null || { echo "SKIP: network namespaces unavailable"; exit 0; }
  ip netns del "gm-probe.$$"
}
