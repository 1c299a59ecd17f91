#!/bin/sh
# tests/integration/netns/netns-down.sh PREFIX NET — removes what netns-up.sh
# made for PREFIX: the namespaces, the bridge and the /etc/hosts lines.
P=${1:-gmh}; NET=${2:-10.78.0}
for ns in $(ip netns list | awk -v p="^$P[0-9]+$" '$1 ~ p {print $1}'); do ip netns del "$ns"; done
# A namespace whose link was cut (mpi_node_lost.sh) outlives "ip netns del"
# while the kernel still retransmits on its orphaned TCP sockets; deleting
# the root side of each veth frees the names for the next run at once.
for l in $(ip -o link show | awk -F': ' -v p="^v-$P[0-9]+@" '$2 ~ p {sub(/@.*/, "", $2); print $2}'); do
  ip link del "$l" 2>/dev/null
done
ip link del "br-$P" 2>/dev/null
esc=$(echo "$NET" | sed 's/\./\\./g')
sed -i "/^$esc\./d" /etc/hosts
exit 0
