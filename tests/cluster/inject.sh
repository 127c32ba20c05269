# Fault injection on the virtual cluster, sourced by cluster.sh and classes.sh.
#
# inject CLASS HOSTS: slows one randomly chosen culprit of CLASS on the running
# cluster of HOSTS hosts (vcluster.sh, $VC) at $RATE, and sets what links is
# expected to say: INJ_KIND, INJ_DIR and INJ_CULPRIT, as check_cluster.py
# verdict takes them. CLASS is one of
#   host-send     a host's egress: tbf on its own eth0
#   host-receive  a host's ingress: tbf on its bridge port
#   host-both     both
#   link-both     one pair of hosts, both ways: htb + u32 on both senders
#   link-oneway   one pair of hosts, one way: htb + u32 on one sender
#   segment       a rack's uplink (the cluster must be up with --racks R):
#                 RACK (1 .. R-1) chosen at random, from $INJ_RACKS racks
# Only the namespaces of the cluster are touched. Returns vcluster.sh's status.
INJECT_CLASSES="host-send host-receive host-both link-both link-oneway segment"

# rand N: a number from 1 to N.
rand() { echo $((RANDOM % $1 + 1)); }

# rack_hosts R K RACKS: the hosts of rack R, comma-separated (as vcluster.sh deals them).
rack_hosts() {
	local r=$1 k=$2 racks=$3 i out=
	for i in $(seq 1 "$k"); do
		[ $((((i - 1) * racks) / k)) = "$r" ] && out=$out${out:+,}h$i
	done
	echo "$out"
}

inject() {
	local class=$1 k=$2 h a b r rest i
	h=h$(rand "$k")
	a=$(rand "$k")
	b=$(((a + $(rand $((k - 1))) - 1) % k + 1))
	case $class in
	host-send) INJ_KIND=host INJ_DIR=send INJ_CULPRIT=$h; bash "$VC" slow-egress "$h" "$RATE" ;;
	host-receive) INJ_KIND=host INJ_DIR=receive INJ_CULPRIT=$h; bash "$VC" slow-ingress "$h" "$RATE" ;;
	host-both) INJ_KIND=host INJ_DIR=both INJ_CULPRIT=$h; bash "$VC" slow "$h" "$RATE" ;;
	link-both) INJ_KIND=link INJ_DIR=both INJ_CULPRIT=h$a,h$b; bash "$VC" slow-link "h$a" "h$b" "$RATE" both ;;
	link-oneway) INJ_KIND=link INJ_DIR=oneway INJ_CULPRIT=h$a,h$b; bash "$VC" slow-link "h$a" "h$b" "$RATE" oneway ;;
	segment)
		r=$(rand $((INJ_RACKS - 1)))
		rest=
		for i in $(seq 0 $((INJ_RACKS - 1))); do
			[ "$i" = "$r" ] || rest=$rest${rest:+,}$(rack_hosts "$i" "$k" "$INJ_RACKS")
		done
		INJ_KIND=segment INJ_DIR=both INJ_CULPRIT="$rest|$(rack_hosts "$r" "$k" "$INJ_RACKS")"
		bash "$VC" slow-uplink "$r" "$RATE"
		;;
	*) echo "inject: unknown class '$class'" >&2; return 2 ;;
	esac
}
