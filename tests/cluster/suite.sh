# Sourced by the suites of the virtual cluster (cluster.sh, accept.sh,
# classes.sh) after tests/lib.sh, with VC set: running commands so that a
# signal reaches the suite's trap at once, and the suite's SKIP when this
# machine cannot make namespace hosts.

# ip -n and tc -n as vcluster.sh runs them (nsenter where ip netns exec cannot run)
. "$(dirname "${BASH_SOURCE[0]}")/nsexec.sh"

# Long commands run in the background, so that a signal runs the trap at once.
in_bg() {
	"$@" &
	wait $!
}
vc() { in_bg timeout 120 bash "$VC" "$@"; }
# mpirun across the cluster's hosts with NP ranks
vmpi() { in_bg timeout 300 bash "$VC" mpirun --bind-to none -np "$NP" "$@"; }

# suite_needs_cluster NAME: prints NAME's SKIP line and ends the suite (exit 0)
# when not root or when the namespaces cannot be made.
suite_needs_cluster() {
	local why
	[ "$(id -u)" = 0 ] || suite_skip "not root: network namespaces need root"
	why=$(bash "$VC" probe 2>&1) || suite_skip "${why##*vcluster: }"
	# what the probe had to say (nsenter instead of ip netns exec, and why)
	[ -z "$why" ] || echo "  note  ${why#vcluster: }"
}
