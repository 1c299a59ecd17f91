#!/bin/sh
# tests/integration/netns/netns-up.sh N PREFIX NET — N "hosts" PREFIX1..PREFIXN,
# each a network namespace with a veth on bridge br-PREFIX, addresses
# NET.1X/24 (the root namespace is NET.1), and /etc/hosts lines for them.
# (Parametrised so that tests of different folders do not collide.) Needs
# root. Example: netns-up.sh 3 gmh 10.78.0
set -e
N=${1:-3}; P=${2:-gmh}; NET=${3:-10.78.0}
ip link add "br-$P" type bridge 2>/dev/null || true
ip addr add "$NET.1/24" dev "br-$P" 2>/dev/null || true
ip link set "br-$P" up
for i in $(seq 1 "$N"); do
  ns=$P$i
  ip netns add "$ns"
  ip link add "v-$ns" type veth peer name eth0 netns "$ns"
  ip link set "v-$ns" master "br-$P" up
  ip -n "$ns" addr add "$NET.1$i/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
  grep -q "^$NET.1$i " /etc/hosts || echo "$NET.1$i $ns" >> /etc/hosts
done
