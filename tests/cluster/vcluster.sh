#!/usr/bin/env bash
# A virtual cluster on one machine, for the cluster tests and by hand.
#
# K hosts h1 .. hK, each a network namespace with its own host name (every
# command runs in a fresh UTS namespace named after its host, so that
# gethostname and MPI_Get_processor_name differ), an interface eth0 with an
# address of a private /24 that exists only inside these namespaces, and
# loopback up. Each eth0 is one end of a veth pair whose other end, vhN, is a
# port of the bridge br0, which lives in a namespace of its own: nothing of
# the cluster appears in the machine's own network namespace, and nothing is
# routed out of it. Open MPI is launched from h1; agent.sh, its rsh agent,
# enters the namespace of the host it is asked to reach.
#
#   vcluster.sh up [K] [SLOTS] [--racks R]
#                                create K hosts (default 4) with SLOTS slots each
#                                (default 2); removes the leftovers of an earlier
#                                run of the same prefix first. With R racks (default
#                                1) the hosts are dealt in blocks of consecutive hosts
#                                to R bridges br0 .. br(R-1), and rack r > 0 reaches
#                                rack 0 through a veth pair of its own (its uplink,
#                                upr on br0, dnr on brr)
#   vcluster.sh down             kill every process inside the namespaces, remove
#                                them with their veths and the state directory
#   vcluster.sh slow HOST RATE   limit HOST's link to RATE (tc units: 200mbit) with
#                                a token bucket (tbf) at both ends of its veth
#   vcluster.sh slow-egress HOST RATE    only what HOST sends (tbf on its eth0)
#   vcluster.sh slow-ingress HOST RATE   only what HOST receives (tbf on its bridge port)
#   vcluster.sh slow-link A B RATE [both|oneway]
#                                limit the traffic from host A to host B (and, with
#                                both, the default, from B to A) to RATE: an htb on
#                                the sender's eth0 whose slow class a u32 filter on
#                                the destination address chooses; other traffic
#                                goes through an unlimited class
#   vcluster.sh classful HOST... give each HOST's eth0 the htb that slow-link
#                                adds, without a slow class: on an unshaped veth
#                                the qdisc alone costs its host 20-40% of what it
#                                sends (2 cores), so a suite that slows one link
#                                among unshaped hosts puts it on every host first
#   vcluster.sh slow-uplink [RACK] RATE  limit rack RACK's uplink (default 1) to RATE,
#                                both ways (tbf at both ends of its veth pair)
#   vcluster.sh fast HOST        remove HOST's limits (its eth0 and its bridge port)
#   vcluster.sh heal             remove every limit: hosts and uplinks
#   vcluster.sh run CMD...       run CMD on h1, where mpirun is started
#   vcluster.sh exec HOST CMD... run CMD on HOST
#   vcluster.sh mpirun ARGS...   mpirun on h1 across the hosts (hostfile, agent,
#                                TCP on the subnet: see cmd_mpirun), then ARGS,
#                                e.g. -np 8 build/collscope topo
#   vcluster.sh with K CMD...    up K, run CMD here (not in a host; $VCLUSTER is
#                                this script, for the subcommands above), then
#                                down, also when CMD fails or is interrupted;
#                                exits with CMD's status
#   vcluster.sh status           hosts, addresses, limits and processes
#   vcluster.sh probe            exit 0 when namespaces can be made here, else 77
#   vcluster.sh hostfile         the path of the hostfile (IP addresses, slots)
#   vcluster.sh slurm SUB ...    Slurm on the hosts (tests/cluster/slurm.sh):
#                                slurm up, slurm down, slurm run CMD (srun,
#                                salloc, sbatch on h1), slurm status, slurm conf
#
# Environment: VC_PREFIX (default csvc; every namespace is named PREFIX-...),
# VC_NET (default 10.213.0: the first three octets of the /24), VC_BURST (tbf
# bucket, default 64kb), VC_NSEXEC (ip or nsenter: see ns_cmd). Needs root
# (CAP_SYS_ADMIN and CAP_NET_ADMIN), ip (iproute2), tc, unshare and nsenter
# (util-linux).
#
# Exit status: 0 ok, 2 bad usage, 5 the cluster could not be made (with the
# reason), 77 namespaces cannot be made or entered here (the reason: the
# failing step's own error). Other statuses are those of the command run.
set -u

# ip and tc live in sbin, which a non-login shell may not have in its PATH.
export PATH=$PATH:/usr/sbin:/sbin
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VC_PREFIX=${VC_PREFIX:-csvc}
VC_NET=${VC_NET:-10.213.0}
VC_BURST=${VC_BURST:-64kb}
STATE=/run/collscope-vcluster-$VC_PREFIX
BR_NS=$VC_PREFIX-br
# ip -n and tc -n: through nsenter where ip netns exec cannot run (see ns_cmd)
. "$HERE/nsexec.sh"

say() { printf 'vcluster: %s\n' "$*" >&2; }
die() {
	say "$2"
	exit "$1"
}

case $VC_PREFIX in
*[!a-z0-9]* | '') die 2 "bad VC_PREFIX '$VC_PREFIX': lowercase letters and digits only" ;;
esac
case $VC_NET in
10.* | 192.168.* | 172.1[6-9].* | 172.2[0-9].* | 172.3[01].*) ;;
*) die 2 "bad VC_NET '$VC_NET': three octets of a private range, such as 10.213.0" ;;
esac

# rack_of I K R: the rack (0 .. R-1) of host I of K, dealt in consecutive blocks.
rack_of() { echo $(((($1 - 1) * $3) / $2)); }

# host_index HOST: N for hN (1 .. 200), empty otherwise.
host_index() {
	case $1 in
	h[1-9] | h[1-9][0-9] | h1[0-9][0-9] | h200) echo "${1#h}" ;;
	esac
}
host_ip() { echo "$VC_NET.$((10 + $1))"; }

# How a command enters a host's network namespace (ns_cmd). ip netns exec
# first makes / a slave mount and mounts the namespace's own sysfs: where /
# is not a mount point (some containers) that step fails, '"mount
# --make-rslave /" failed: Invalid argument', and nsenter, which enters the
# network namespace alone (all the cluster needs), runs the hosts instead.
# VC_NSEXEC=ip or nsenter chooses; else can_netns does, and up keeps its
# choice in $STATE/nsexec for every later command (and agent.sh).
NSEXEC=${VC_NSEXEC:-}
case $NSEXEC in '' | ip | nsenter) ;; *) die 2 "bad VC_NSEXEC '$NSEXEC': ip or nsenter" ;; esac
[ -z "$NSEXEC" ] && [ -f "$STATE/nsexec" ] && NSEXEC=$(cat "$STATE/nsexec")
# ns_cmd NS: NSCMD is the command prefix that runs a command in namespace NS.
ns_cmd() {
	if [ "${NSEXEC:-ip}" = nsenter ]; then
		NSCMD=(nsenter "--net=/run/netns/$1" --)
	else
		NSCMD=(ip netns exec "$1")
	fi
}

# can_netns: namespaces may be made here (probes with a throw-away one, with
# each way in of ns_cmd until one works, which NSEXEC keeps); when not, WHY
# says why, with the error of the step that failed.
WHY=
can_netns() {
	local probe="$VC_PREFIX-probe$$" t m err errs='' rc=1
	for t in ip tc unshare nsenter; do
		command -v $t >/dev/null 2>&1 || {
			WHY="'$t' not found (Debian packages iproute2, util-linux)"
			return 1
		}
	done
	if ! err=$(ip netns add "$probe" 2>&1); then
		WHY="cannot make a network namespace (ip netns add: ${err:-failed}): needs root with CAP_SYS_ADMIN"
		return 1
	fi
	# VC_NSEXEC alone restricts the choice (not what a running cluster chose)
	for m in ${VC_NSEXEC:-ip nsenter}; do
		NSEXEC=$m ns_cmd "$probe"
		if err=$("${NSCMD[@]}" unshare --uts true 2>&1); then
			[ -n "$errs" ] && say "ip netns exec cannot run here (${errs#ip: }): entering the hosts' namespaces with nsenter"
			NSEXEC=$m
			rc=0
			break
		fi
		errs="$errs${errs:+; }$m: $(echo "${err:-failed}" | tr '\n' ' ' | sed 's/ *$//')"
	done
	ip netns del "$probe" 2>/dev/null
	[ $rc = 0 ] || WHY="cannot run a command in a network namespace ($errs)"
	return $rc
}

our_namespaces() {
	ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$VC_PREFIX-(br|h[0-9]+|probe[0-9]+)\$"
}

# pids_inside: every process in one of our namespaces, but not this script or
# its parents (a `down` typed inside the cluster must finish its work).
pids_inside() {
	local ns p self=" $$ $PPID ${BASHPID:-} "
	for ns in $(our_namespaces); do
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			case $self in *" $p "*) continue ;; esac
			echo "$p"
		done
	done
}

cmd_down() {
	local pids ns tries=0
	pids=$(pids_inside)
	if [ -n "$pids" ]; then
		# shellcheck disable=SC2086
		kill -TERM $pids 2>/dev/null
		while [ -n "$(pids_inside)" ] && [ $tries -lt 50 ]; do
			sleep 0.1
			tries=$((tries + 1))
		done
		pids=$(pids_inside)
		# shellcheck disable=SC2086
		[ -n "$pids" ] && kill -KILL $pids 2>/dev/null && sleep 0.2
	fi
	# Deleting a host's namespace destroys its veth pair, both ends.
	for ns in $(our_namespaces); do
		ip netns del "$ns" 2>/dev/null || say "could not remove namespace $ns"
	done
	# With the hosts, hostfile and Open MPI's session directories.
	rm -rf "$STATE"
	[ -z "$(our_namespaces)" ]
}

cmd_up() {
	local k=4 slots=2 racks=1 i r ns pos=0
	while [ $# -gt 0 ]; do
		case $1 in
		--racks)
			[ $# -ge 2 ] || die 2 "--racks needs a count"
			racks=$2
			shift 2
			;;
		*)
			case $pos in 0) k=$1 ;; 1) slots=$1 ;; *) die 2 "unexpected argument '$1'" ;; esac
			pos=$((pos + 1))
			shift
			;;
		esac
	done
	case $k$slots$racks in *[!0-9]*) die 2 "bad host, slot or rack count '$k' '$slots' '$racks'" ;; esac
	[ "$k" -ge 1 ] && [ "$k" -le 200 ] || die 2 "bad host count '$k': 1 to 200"
	[ "$slots" -ge 1 ] || die 2 "bad slot count '$slots'"
	[ "$racks" -ge 1 ] && [ "$racks" -le "$k" ] || die 2 "bad rack count '$racks': 1 to the host count"
	can_netns || die 77 "$WHY"
	cmd_down || die 5 "could not remove the leftovers of an earlier run"
	trap 'cmd_down; exit 130' INT TERM
	mkdir -p "$STATE/tmp" && echo "$NSEXEC" >"$STATE/nsexec" || die 5 "cannot create $STATE/tmp"
	{
		ip netns add "$BR_NS" &&
			ip -n "$BR_NS" link set lo up &&
			ip -n "$BR_NS" link add br0 type bridge stp_state 0 forward_delay 0 &&
			ip -n "$BR_NS" link set br0 up &&
			echo "$racks" >"$STATE/racks"
	} || {
		cmd_down
		die 5 "cannot create the bridge namespace $BR_NS"
	}
	for r in $(seq 1 $((racks - 1))); do
		{
			ip -n "$BR_NS" link add "br$r" type bridge stp_state 0 forward_delay 0 &&
				ip -n "$BR_NS" link set "br$r" up &&
				ip -n "$BR_NS" link add "up$r" type veth peer name "dn$r" &&
				ip -n "$BR_NS" link set "up$r" master br0 &&
				ip -n "$BR_NS" link set "dn$r" master "br$r" &&
				ip -n "$BR_NS" link set "up$r" up &&
				ip -n "$BR_NS" link set "dn$r" up
		} || {
			cmd_down
			die 5 "cannot create rack $r (bridge br$r and its uplink)"
		}
	done
	for i in $(seq 1 "$k"); do
		ns=$VC_PREFIX-h$i
		{
			ip netns add "$ns" &&
				ip -n "$BR_NS" link add "vh$i" type veth peer name eth0 netns "$ns" &&
				ip -n "$BR_NS" link set "vh$i" master "br$(rack_of "$i" "$k" "$racks")" &&
				ip -n "$BR_NS" link set "vh$i" up &&
				ip -n "$ns" link set lo up &&
				ip -n "$ns" addr add "$(host_ip "$i")/24" dev eth0 &&
				ip -n "$ns" link set eth0 up &&
				echo "h$i $(host_ip "$i") $ns $(rack_of "$i" "$k" "$racks")" >>"$STATE/hosts" &&
				echo "$(host_ip "$i") slots=$slots" >>"$STATE/hostfile"
		} || {
			cmd_down
			die 5 "cannot create host h$i (namespace $ns)"
		}
	done
	trap - INT TERM
	say "up: $k hosts h1..h$k on $VC_NET.0/24, $slots slots each, $racks rack(s); hostfile $STATE/hostfile"
}

# ns_of HOST: the namespace of a host of the running cluster.
ns_of() {
	local i
	i=$(host_index "$1")
	[ -n "$i" ] && [ -f "$STATE/hosts" ] && grep -q "^$1 " "$STATE/hosts" ||
		die 2 "no host '$1' in the cluster (is it up? see: vcluster.sh status)"
	echo "$VC_PREFIX-h$i"
}

cmd_exec() {
	local host=$1 ns
	shift
	[ $# -gt 0 ] || die 2 "exec $host: no command"
	ns=$(ns_of "$host") || exit $?
	ns_cmd "$ns"
	exec "${NSCMD[@]}" unshare --uts -- sh -c 'hostname "$0" && exec "$@"' "$host" "$@"
}

cmd_slow() {
	local host=$1 rate=$2 i ns
	ns=$(ns_of "$host") || exit $?
	i=$(host_index "$host")
	# Both directions: tbf shapes what leaves an interface, so one bucket on
	# the host's eth0 (its sends) and one on the bridge's port (its receives).
	tc -n "$ns" qdisc replace dev eth0 root tbf rate "$rate" burst "$VC_BURST" latency 50ms &&
		tc -n "$BR_NS" qdisc replace dev "vh$i" root tbf rate "$rate" burst "$VC_BURST" latency 50ms ||
		die 5 "cannot limit $host to '$rate'"
	say "slow: $host limited to $rate both ways"
}

tbf() { tc "$@" root tbf rate "$RATE" burst "$VC_BURST" latency 50ms; }

cmd_slow_egress() {
	local ns
	ns=$(ns_of "$1") || exit $?
	RATE=$2
	tbf -n "$ns" qdisc replace dev eth0 || die 5 "cannot limit what $1 sends to '$2'"
	say "slow-egress: what $1 sends limited to $2"
}

cmd_slow_ingress() {
	local i
	ns_of "$1" >/dev/null || exit $?
	i=$(host_index "$1")
	RATE=$2
	tbf -n "$BR_NS" qdisc replace dev "vh$i" || die 5 "cannot limit what $1 receives to '$2'"
	say "slow-ingress: what $1 receives limited to $2"
}

# htb_root NS: an htb root on NS's eth0 whose default class is unlimited (kept if there)
htb_root() {
	tc -n "$1" qdisc show dev eth0 | grep -q '^qdisc htb 1: root' && return 0
	tc -n "$1" qdisc replace dev eth0 root handle 1: htb default 1 &&
		tc -n "$1" class add dev eth0 parent 1: classid 1:1 htb rate 32gbit quantum 60000
}

cmd_classful() {
	local h ns
	for h in "$@"; do
		ns=$(ns_of "$h") || exit $?
		htb_root "$ns" || die 5 "cannot put an htb on $h's eth0"
	done
	say "classful: an htb on the eth0 of $*"
}

# route_slow FROM TO RATE: on FROM's eth0 (htb_root), a class 1:(100 + TO's
# index) at RATE takes the packets to TO's address; class 1:1 everything else.
route_slow() {
	local ns ip
	ns=$(ns_of "$1") || exit $?
	ns_of "$2" >/dev/null || exit $?
	ip=$(host_ip "$(host_index "$2")")
	htb_root "$ns" || return 1
	# one slow class per destination, numbered after its host
	local id=$((100 + $(host_index "$2")))
	tc -n "$ns" class replace dev eth0 parent 1: classid "1:$id" htb rate "$3" ceil "$3" burst "$VC_BURST" &&
		tc -n "$ns" filter replace dev eth0 parent 1: protocol ip prio 1 handle "800::$id" u32 \
			match ip dst "$ip/32" flowid "1:$id"
}

cmd_slow_link() {
	local a=$1 b=$2 rate=$3 how=${4:-both}
	case $how in both | oneway) ;; *) die 2 "slow-link: bad direction '$how': both or oneway" ;; esac
	[ "$a" != "$b" ] || die 2 "slow-link: two different hosts, not '$a' twice"
	route_slow "$a" "$b" "$rate" || die 5 "cannot limit $a -> $b to '$rate'"
	if [ "$how" = both ]; then
		route_slow "$b" "$a" "$rate" || die 5 "cannot limit $b -> $a to '$rate'"
	fi
	say "slow-link: $a -> $b$([ "$how" = both ] && echo " and back") limited to $rate"
}

cmd_slow_uplink() {
	local r=1 racks
	[ $# = 2 ] && r=$1 && shift
	racks=$(cat "$STATE/racks" 2>/dev/null || echo 1)
	case $r in *[!0-9]* | '') die 2 "bad rack '$r'" ;; esac
	[ "$r" -ge 1 ] && [ "$r" -lt "$racks" ] || die 2 "no uplink of rack '$r' (racks 1 .. $((racks - 1)) have one)"
	RATE=$1
	tbf -n "$BR_NS" qdisc replace dev "up$r" && tbf -n "$BR_NS" qdisc replace dev "dn$r" ||
		die 5 "cannot limit the uplink of rack $r to '$1'"
	say "slow-uplink: rack $r's uplink limited to $1 both ways"
}

cmd_fast() {
	local host=$1 i ns
	ns=$(ns_of "$host") || exit $?
	i=$(host_index "$host")
	tc -n "$ns" qdisc del dev eth0 root 2>/dev/null
	tc -n "$BR_NS" qdisc del dev "vh$i" root 2>/dev/null
	return 0
}

cmd_heal() {
	local name ip ns rack r
	[ -f "$STATE/hosts" ] || die 2 "the cluster is not up"
	while read -r name ip ns rack; do
		cmd_fast "$name"
	done <"$STATE/hosts"
	for r in $(seq 1 $(($(cat "$STATE/racks" 2>/dev/null || echo 1) - 1))); do
		tc -n "$BR_NS" qdisc del dev "up$r" root 2>/dev/null
		tc -n "$BR_NS" qdisc del dev "dn$r" root 2>/dev/null
	done
	return 0
}

cmd_mpirun() {
	local bin prefix
	[ -f "$STATE/hostfile" ] || die 2 "the cluster is not up (vcluster.sh up K)"
	bin=$(command -v mpirun) || die 5 "mpirun not found"
	prefix=$(dirname "$(dirname "$(readlink -f "$bin")")")
	# --prefix: the remote orted and the libraries are found where the local
	# ones are; plm_rsh_no_tree_spawn: only mpirun calls the agent; pml ob1 and
	# btl tcp,self: TCP between all ranks, also two of one host (no shared
	# memory, no UCX); both interfaces limited to the cluster's subnet; gds
	# hash: PMIx keeps its data in the daemons, not in shared-memory files;
	# session directories in the state directory, which down removes (in
	# /tmp they would be named after h1, h2, ... for every cluster).
	# setsid: the orteds of h2.. daemonize into sessions of their own, and with
	# the kernel's autogroup a session is a scheduling group; without it h1's
	# ranks would share their CPU with whatever else runs in the caller's
	# session (make, the CI runner) and h1 would look slow. setsid forks only
	# when called as a process-group leader (an interactive shell's job), and
	# --wait then keeps the exit status (Ctrl-C then stops the wait, not
	# mpirun: `vcluster.sh down` ends it).
	cmd_exec h1 setsid --wait env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		PMIX_MCA_gds=hash VC_PREFIX="$VC_PREFIX" \
		"$bin" --prefix "$prefix" --hostfile "$STATE/hostfile" \
		--mca plm_rsh_agent "$HERE/agent.sh" --mca plm_rsh_no_tree_spawn 1 \
		--mca pml ob1 --mca btl tcp,self \
		--mca btl_tcp_if_include "$VC_NET.0/24" --mca oob_tcp_if_include "$VC_NET.0/24" \
		--mca gds hash --mca orte_tmpdir_base "$STATE/tmp" \
		--oversubscribe --mca mpi_yield_when_idle 1 "$@"
}

cmd_with() {
	local k=$1 pid='' rc
	shift
	cmd_up "$k" || exit $?
	# CMD runs in the background, so that INT and TERM reach the trap at once
	# and not when CMD is done; down kills what it left inside the namespaces.
	trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; cmd_down; exit 130' INT
	trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; cmd_down; exit 143' TERM
	VC_PREFIX=$VC_PREFIX VCLUSTER="$HERE/vcluster.sh" "$@" 0<&0 &
	pid=$!
	wait "$pid"
	rc=$?
	trap - INT TERM
	cmd_down
	return $rc
}

cmd_status() {
	local name ip ns i
	[ -f "$STATE/hosts" ] || {
		echo "down"
		[ -z "$(our_namespaces)" ] || echo "leftover namespaces: $(our_namespaces | tr '\n' ' ')"
		return 0
	}
	while read -r name ip ns rack; do
		i=$(host_index "$name")
		printf '%-5s %-15s %-10s rack %-2s processes %-3s sends: %s; receives: %s\n' "$name" "$ip" "$ns" \
			"$rack" "$(ip netns pids "$ns" 2>/dev/null | wc -l)" \
			"$(tc -n "$ns" qdisc show dev eth0 | awk '$2 == "tbf" {print "limited to", $8; n++} $2 == "htb" {print "limited to some hosts (htb)"; n++} END {if (!n) print "no limit"}')" \
			"$(tc -n "$BR_NS" qdisc show dev "vh$i" | awk '$2 == "tbf" {print "limited to", $8; n++} END {if (!n) print "no limit"}')"
	done <"$STATE/hosts"
	echo "bridge: $BR_NS br0; hostfile: $STATE/hostfile"
}

usage() {
	sed -n '/^#   vcluster.sh/,/^#$/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
up) [ $# -le 4 ] || usage; cmd_up "$@" ;;
down) command -v ip >/dev/null 2>&1 || exit 0; cmd_down ;;
slow) [ $# = 2 ] || usage; cmd_slow "$@" ;;
fast) [ $# = 1 ] || usage; cmd_fast "$@" ;;
slow-egress) [ $# = 2 ] || usage; cmd_slow_egress "$@" ;;
slow-ingress) [ $# = 2 ] || usage; cmd_slow_ingress "$@" ;;
slow-link) [ $# = 3 ] || [ $# = 4 ] || usage; cmd_slow_link "$@" ;;
classful) [ $# -ge 1 ] || usage; cmd_classful "$@" ;;
slow-uplink) [ $# = 1 ] || [ $# = 2 ] || usage; cmd_slow_uplink "$@" ;;
heal) [ $# = 0 ] || usage; cmd_heal ;;
run) [ $# -ge 1 ] || usage; cmd_exec h1 "$@" ;;
exec) [ $# -ge 2 ] || usage; cmd_exec "$@" ;;
mpirun) cmd_mpirun "$@" ;;
with) [ $# -ge 2 ] || usage; cmd_with "$@" ;;
status) cmd_status ;;
probe) can_netns || die 77 "$WHY" ;;
hostfile) [ -f "$STATE/hostfile" ] || die 2 "the cluster is not up"; echo "$STATE/hostfile" ;;
slurm) . "$HERE/slurm.sh" && slurm_main "$@" ;;
-h | --help | help) usage ;;
*) say "unknown subcommand '$cmd'"; usage ;;
esac
