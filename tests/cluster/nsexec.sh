# shellcheck shell=bash
# Sourced by vcluster.sh and suite.sh. `ip -n NS` and `tc -n NS` enter
# namespace NS as `ip netns exec` does: they make / a slave mount first,
# which fails where / is not a mount point (some containers: '"mount
# --make-rslave /" failed: Invalid argument'). With NSEXEC=nsenter
# (vcluster.sh's choice, kept in its state directory) these two functions
# enter the namespace with nsenter instead, which needs no mount.

# vc_nsexec: ip or nsenter, how the cluster of VC_PREFIX enters its hosts.
vc_nsexec() {
	[ -n "${NSEXEC:-}" ] && echo "$NSEXEC" && return
	cat "/run/collscope-vcluster-${VC_PREFIX:-csvc}/nsexec" 2>/dev/null || echo ip
}
# ns_tool TOOL ARGS...: TOOL (ip or tc), with -n NS through nsenter when chosen.
ns_tool() {
	local tool=$1 ns
	shift
	if [ "${1:-}" = -n ] && [ $# -ge 2 ] && [ "$(vc_nsexec)" = nsenter ]; then
		ns=$2
		shift 2
		nsenter "--net=/run/netns/$ns" -- "$tool" "$@"
	else
		command "$tool" "$@"
	fi
}
ip() { ns_tool ip "$@"; }
tc() { ns_tool tc "$@"; }
