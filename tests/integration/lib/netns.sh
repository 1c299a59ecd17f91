# tests/integration/lib/netns.sh — sourced after lib/common.sh by the tests
# that run ranks on several "hosts": network namespaces on a bridge
# (tests/integration/netns/), each with its own hostname, ranks talking TCP.
# netns_hosts N PREFIX NET skips the test without root or network namespaces
# (exit 0, a SKIP line), makes T (a new directory) and hosts PREFIX1..N at
# NET.11.., and removes both on exit; netns_mpirun runs mpirun on them.
NETNS_DIR=$(cd "$(dirname "$0")" && pwd)/netns

netns_hosts() {
  need mpirun unshare
  need_netns
  NETNS_P=$2; NETNS_NET=$3
  T=$(mktemp -d "/tmp/gm-$NETNS_P.XXXXXX")
  trap 'sh "$NETNS_DIR/netns-down.sh" $NETNS_P $NETNS_NET; rm -rf "$T"' EXIT
  sh "$NETNS_DIR/netns-down.sh" "$NETNS_P" "$NETNS_NET"   # leftovers of a killed run
  sh "$NETNS_DIR/netns-up.sh" "$1" "$NETNS_P" "$NETNS_NET"
}

# netns_mpirun SECONDS HOSTS BTL [mpirun options and command...]: mpirun
# under timeout SECONDS with ranks placed by --host HOSTS (e.g.
# gmh1:1,gmh2:2), the namespaces' rsh agent, the BTLs BTL (tcp,self: TCP
# even between ranks of one host; tcp,vader,self: shared memory within a
# host), TCP on the hosts' subnet only.
netns_mpirun() {
  ns=$1; nh=$2; nb=$3; shift 3
  timeout "$ns" mpirun --mca plm_rsh_agent "$NETNS_DIR/nsrsh" --host "$nh" --mca btl "$nb" \
    --mca btl_tcp_if_include "$NETNS_NET.0/24" --mca oob_tcp_if_include "$NETNS_NET.0/24" \
    --mca odls_base_sigkill_timeout 0 "$@"
}
