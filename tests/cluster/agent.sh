#!/bin/sh
# Open MPI's rsh agent for the virtual cluster of vcluster.sh (--mca
# plm_rsh_agent /path/agent.sh): called as ssh would be, `agent.sh [-opts]
# HOST WORDS...`, it looks HOST (a host name such as h3 or its address) up in
# the cluster's host table, enters that host's network namespace and a UTS
# namespace named after it, and runs WORDS there as ssh runs a remote command:
# joined by spaces and given to a shell.
# Environment: VC_PREFIX (default csvc), as for vcluster.sh.
PATH=$PATH:/usr/sbin:/sbin
prefix=${VC_PREFIX:-csvc}
table=/run/collscope-vcluster-$prefix/hosts

while [ $# -gt 0 ]; do
	case $1 in
	-*) shift ;; # ssh-style options: nothing to do here
	*) break ;;
	esac
done
if [ $# -lt 2 ]; then
	echo "agent.sh: usage: agent.sh HOST COMMAND..." >&2
	exit 255
fi
target=$1
shift
# The table's lines: NAME ADDRESS NAMESPACE.
line=$(awk -v t="$target" '$1 == t || $2 == t { print; exit }' "$table" 2>/dev/null)
if [ -z "$line" ]; then
	echo "agent.sh: unknown host '$target' (not in $table)" >&2
	exit 255
fi
set -- "$(echo "$line" | awk '{print $1}')" "$(echo "$line" | awk '{print $3}')" "$*"
# entered as vcluster.sh's ns_cmd does: nsenter where ip netns exec cannot run
if [ "$(cat "${table%/hosts}/nsexec" 2>/dev/null)" = nsenter ]; then
	exec nsenter "--net=/run/netns/$2" -- unshare --uts -- sh -c 'hostname "$0" && exec sh -c "$1"' "$1" "$3"
fi
exec ip netns exec "$2" unshare --uts -- sh -c 'hostname "$0" && exec sh -c "$1"' "$1" "$3"
