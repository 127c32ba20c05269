#!/usr/bin/env bash
# collscope across hosts, on a virtual cluster (vcluster.sh): 4 hosts as
# network namespaces with their own host names, joined by a bridge, 2 ranks on
# each, Open MPI over TCP launched from h1 through an rsh agent. Checks: the
# cluster comes up and goes away without a trace (also over the leftovers of a
# crashed run), topo sees the 4 hosts, links names nothing on equal links and
# names h4 alone once h4's link is limited to 200 Mbit/s with tbf (and prints
# how much longer it took: the time budgets keep it within about 2x),
# one fault class chosen at random (inject.sh: a host's egress, ingress or
# both, a pair of hosts both ways or one way, a rack's uplink) with a random
# culprit is named with its kind, direction and culprit (the whole matrix,
# several culprits each, is tests/cluster/classes.sh), allreduce runs every
# variant across the hosts without a wrong element and its busbw falls when
# h4 is slowed; a traced ring names no hop on equal links and the hop 3->4
# alone once the link h2 -> h3 (one direction) is slowed, and when a rank is
# stopped inside a traced ring the hang's flight record names it and the
# peers that wait on it.
#
# Needs root (network namespaces); prints a SKIP line and passes otherwise.
# Every collscope run here has 8 ranks on this machine's cores: on a small
# machine their timings are the scheduler's as much as the network's, so the
# links verdicts get up to $TRIES measurements each (each one printed), and the
# figures the checks compare are 10x apart.
set -u
export PATH=$PATH:/usr/sbin:/sbin
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
. "$HERE/inject.sh"
VC=$HERE/vcluster.sh
check() { python3 "$HERE/check_cluster.py" "$@"; }
# A prefix of its own, with this run's pid: a cluster made by hand (prefix
# csvc) and a suite running beside this one are left alone.
export VC_PREFIX=${VC_PREFIX:-csvct$$}
NET=${VC_NET:-10.213.0}
HOSTS=4
PER_HOST=2
NP=$((HOSTS * PER_HOST))
SLOW=h$HOSTS
RATE=200mbit
TRIES=${TRIES:-3}
# 2 MiB windows: the limited link needs ~80 ms for one, the others under 10.
# The budgets: a link 30x slower costs about 0.2 s a direction, not 30x.
LINKS=(-q -n 300 -w 30 --bw-iters 3 --bw-warmup 0 --bw-bytes 256K --window 8 --bw-time 0.2
	--lat-time 0.05)
# the fault class: one rank a host (two of a host only add loopback noise)
CLASS_LINKS=(-q -n 300 -w 30 --bw-iters 5 --bw-warmup 0 --bw-bytes 256K --window 8 --bw-time 0.2
	--lat-time 0.05 --pattern both --fail-on-suspect)
CLASS_RATE=${CLASS_RATE:-50mbit}
AR=(-q -b 1M -e 4M -f 4 -n 3 -w 1)
# 1 MiB: at 200 Mbit/s already 40 ms a MiB on h4's link, far from the
# others' (4 MiB cost 15 s a run of every variant there, 1 MiB 4)
AR_SLOW=(-q -b 1M -e 1M -n 3 -w 1)
AR_BYTES=1048576

# Whatever happens, the cluster goes: on success, failure and interrupt.
cleanup() {
	suite_end_children # tests/lib.sh: what the suite started, outside the namespaces too
	bash "$VC" down >/dev/null 2>&1
	VC_PREFIX=${VC_PREFIX%r}r bash "$VC" down >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
# (fd 3: the suite's stdout, also while a command's output goes to a file)
exec 3>&1
trap 'echo "cluster/cluster: interrupted, removing the cluster" >&3; exit 130' INT
trap 'echo "cluster/cluster: terminated, removing the cluster" >&3; exit 143' TERM

. "$HERE/suite.sh"
suite_needs_cluster cluster/cluster
# The leftovers of crashed runs of this suite: clusters whose run is gone.
for p in $({
	ip netns list | awk '{print $1}' | sed -n 's/^\(csvct[0-9][0-9]*[wr]\{0,1\}\)-.*/\1/p'
	ls -d /run/collscope-vcluster-csvct* 2>/dev/null | sed 's|^/run/collscope-vcluster-||'
} | sort -u); do
	pid=${p#csvct}
	pid=${pid%[wr]}
	kill -0 "$pid" 2>/dev/null || VC_PREFIX=$p bash "$VC" down
done

# --- the cluster itself -------------------------------------------------------
leftover() { ip netns pids "$VC_PREFIX-h2" 2>/dev/null | head -n 1; }
expect_exit 0 "vcluster up $HOSTS" vc up "$HOSTS" "$PER_HOST"
expect_exit 0 "each host has its own name" bash -c \
	'for i in $(seq 1 "$1"); do [ "$(bash "$0" exec h$i hostname)" = h$i ] || exit 1; done' "$VC" "$HOSTS"
expect_exit 0 "the hosts reach each other on the private subnet" bash "$VC" exec h1 \
	python3 -c 'import socket, sys
for a in sys.argv[1:]:
    s = socket.socket(); s.settimeout(2)
    # a refused connection is an answer: the address is there
    s.connect_ex((a, 9)) in (0, 111) or exit("no answer from " + a)' $(seq -f "$NET.%g" 12 $((10 + HOSTS)))
if ip -o addr show | grep -qF " $NET."; then
	fail "the cluster's addresses exist only inside its namespaces"
else
	pass "the cluster's addresses exist only inside its namespaces"
fi
# A crashed run leaves namespaces and processes behind: the next up clears them.
bash "$VC" exec h2 sleep 600 >/dev/null 2>&1 &
for _ in 1 2 3 4 5 6 7 8 9 10; do STRAY=$(leftover) && [ -n "$STRAY" ] && break; sleep 0.2; done
expect_exit 0 "vcluster up over the leftovers of a crashed run" vc up "$HOSTS" "$PER_HOST"
wait 2>/dev/null # reaps the stray, our child
if [ -n "$STRAY" ] && [ ! -e "/proc/$STRAY" ] && [ "$(ip netns list | grep -c "^$VC_PREFIX-")" = $((HOSTS + 1)) ]; then
	pass "the leftover process is gone, the cluster is whole again"
else
	fail "the leftover process is gone, the cluster is whole again"
fi
# The one-shot form tears down after an interrupt.
VC_PREFIX=${VC_PREFIX}w timeout --preserve-status -s INT 3 bash "$VC" with 2 sleep 60 >"$TMP/out" 2>&1
rc=$?
if [ $rc = 130 ] && ! ip netns list | grep -q "^${VC_PREFIX}w-" &&
	[ ! -e "/run/collscope-vcluster-${VC_PREFIX}w" ]; then
	pass "vcluster with: an interrupt leaves nothing behind"
else
	echo "exit $rc; namespaces: $(ip netns list | grep "^${VC_PREFIX}w-" | tr '\n' ' ')" >>"$TMP/out"
	fail "vcluster with: an interrupt leaves nothing behind" "$TMP/out"
	VC_PREFIX=${VC_PREFIX}w bash "$VC" down
fi

# --- where / is not a mount point (some containers) -----------------------------
# ip netns exec first makes / a slave mount, which fails there ("mount
# --make-rslave /" failed: Invalid argument): the cluster enters its hosts
# with nsenter instead, and the reason a probe gives is that step's error.
# in_plain_root CMD...: CMD chrooted into a plain directory holding the
# whole tree (bound in a private mount namespace, gone with it).
in_plain_root() {
	local r rc
	r=$(mktemp -d /tmp/collscope-plain-root.XXXXXX) || return 5
	unshare --mount --propagation private bash -c '
		r=$1
		shift
		for d in /*; do
			if [ -L "$d" ]; then
				cp -P "$d" "$r/"
			elif [ -d "$d" ] && [ "$d" != /tmp ]; then
				mkdir "$r$d" && mount --rbind "$d" "$r$d" || exit 5
			fi
		done
		# /tmp, which holds the root itself, without what is mounted below it
		mkdir "$r/tmp" && mount --bind /tmp "$r/tmp" || exit 5
		cd / && exec chroot "$r" "$@"' bash "$r" "$@"
	rc=$?
	# only what this made: empty folders and links, never across a mount
	find "$r" -xdev -depth \( -type d -empty -delete \) -o \( -type l -delete \)
	rmdir "$r" 2>/dev/null
	return $rc
}
expect_exit 77 "where / is not a mount point, ip netns exec cannot run (VC_NSEXEC=ip): probe exits 77" \
	in_plain_root env VC_NSEXEC=ip bash "$VC" probe
expect_output 'mount --make-rslave /.* failed' "it names the failing step, the mount"
cp "$TMP/out" "$TMP/probe.out"
expect_exit 1 "it does not blame CAP_SYS_ADMIN" grep -q CAP_SYS_ADMIN "$TMP/probe.out"
expect_exit 0 "there, by default: probe passes (nsenter)" in_plain_root bash "$VC" probe
expect_output 'ip netns exec cannot run here .*mount --make-rslave.*nsenter' "it says why it uses nsenter"
expect_exit 0 "there, a cluster of 2 hosts: each named, mpirun across them (agent.sh with nsenter)" \
	in_plain_root env VC_PREFIX="${VC_PREFIX}w" bash "$VC" with 2 bash -c \
	'[ "$(bash "$VCLUSTER" exec h2 hostname)" = h2 ] && bash "$VCLUSTER" mpirun --bind-to none -np 4 "$0" topo -q -o "$1"' \
	"$BIN" "$TMP/plain.json"
expect_exit 0 "its topo report: ranks on h1 and h2" python3 -c "
import json,sys; h=sorted(x['name'] for x in json.load(open('$TMP/plain.json'))['context']['hosts']); print(h)
sys.exit(h != ['h1', 'h2'])"

# With the kernel's autogroup a session is a scheduling group: h1's ranks in
# the suite's own session would share a CPU share with make and the CI runner,
# and look slow beside the other hosts' ranks, which run under daemonized orteds.
MYSID=$(ps -o sid= -p $$ | tr -d ' ')
vmpi sh -c 'ps -o sid= -p $$' >"$TMP/sids" 2>&1
# the ranks' session ids, one a line; mpirun's own warnings (a setpgid race of its rsh
# launcher: "[h1:11844] plm:rsh: Warning: setpgid(...)") are not ranks
if [ "$(grep -cx ' *[0-9][0-9]*' "$TMP/sids")" = "$NP" ] && ! grep -qx " *$MYSID" "$TMP/sids"; then
	pass "no rank runs in the suite's own session"
else
	echo "the suite's session: $MYSID" >>"$TMP/sids"
	fail "no rank runs in the suite's own session" "$TMP/sids"
fi

# --- topo ---------------------------------------------------------------------
expect_exit 0 "topo across $HOSTS hosts" vmpi "$BIN" topo -o "$TMP/topo.json"
expect_output "$NP ranks on $HOSTS hosts" "topo says $NP ranks on $HOSTS hosts"
expect_exit 0 "topo report: $HOSTS hosts, $PER_HOST ranks each, with their host names" \
	check topo "$TMP/topo.json" "$HOSTS" "$PER_HOST"
sed 's/^/        /' "$TMP/out"

# links_verdict NAME WANT_EXIT EXPECT: up to $TRIES runs of links, until one
# exits WANT_EXIT and its report passes `check_cluster.py links ... EXPECT`;
# the runs that did not are printed as notes.
links_verdict() {
	local name=$1 want=$2 expect=$3 i rc crc ok=0 t0
	for i in $(seq 1 "$TRIES"); do
		rm -f "$TMP/links.json"
		t0=$(date +%s.%N)
		vmpi "$BIN" links "${LINKS[@]}" --fail-on-suspect -o "$TMP/links.json" >"$TMP/run" 2>&1
		rc=$?
		LAST_S=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
		check links "$TMP/links.json" "$HOSTS" "$PER_HOST" "$expect" >"$TMP/verdict" 2>&1
		crc=$?
		if [ $crc = 0 ] && [ $rc = "$want" ]; then
			ok=1
			break
		fi
		{
			echo "collscope links exited $rc, expected $want; its last lines:"
			tail -n 6 "$TMP/run"
		} >>"$TMP/verdict"
		if [ "$i" -lt "$TRIES" ]; then
			printf '  note  %s: measurement %d of %d was off\n' "$name" "$i" "$TRIES"
			sed 's/^/        | /' "$TMP/verdict"
		fi
	done
	if [ $ok = 1 ]; then
		pass "$name$([ "$i" -gt 1 ] && echo " (measurement $i)")"
		sed 's/^/        /' "$TMP/verdict"
	else
		fail "$name" "$TMP/verdict"
	fi
	cp "$TMP/run" "$TMP/out"
}

# --- equal links ----------------------------------------------------------------
links_verdict "links with equal links names nothing" 0 none
CLEAN_S=$LAST_S
expect_output '^# suspects: none' "links prints that it suspects nobody"
expect_output '^# rules out: a cross_host link [0-9]+% slower than the median' \
	"links says what it rules out across hosts"

# --- one fault class, one culprit, both chosen at random -------------------------
# class_verdict NP: up to $TRIES runs of links until one names the injection.
class_verdict() {
	local np=$1 i rc crc ok=0
	for i in $(seq 1 "$TRIES"); do
		rm -f "$TMP/links.json"
		in_bg timeout 300 bash "$VC" mpirun --bind-to none --map-by node -np "$np" "$BIN" links \
			"${CLASS_LINKS[@]}" -o "$TMP/links.json" >"$TMP/run" 2>&1
		rc=$?
		check verdict "$TMP/links.json" "$INJ_KIND" "$INJ_DIR" "$INJ_CULPRIT" >"$TMP/verdict" 2>&1
		crc=$?
		[ $crc = 0 ] && [ $rc = 1 ] && ok=1 && break
		echo "collscope links exited $rc, expected 1" >>"$TMP/verdict"
		[ "$i" -lt "$TRIES" ] && printf '  note  measurement %d of %d was off\n' "$i" "$TRIES" &&
			sed 's/^/        | /' "$TMP/verdict"
	done
	if [ $ok = 1 ]; then
		pass "links names the $CLASS culprit: $INJ_KIND $INJ_DIR $INJ_CULPRIT$([ "$i" -gt 1 ] && echo " (measurement $i)")"
		sed 's/^/        /' "$TMP/verdict"
	else
		fail "links names the $CLASS culprit: $INJ_KIND $INJ_DIR $INJ_CULPRIT" "$TMP/verdict"
	fi
}
set -- $INJECT_CLASSES
CLASS=$(eval echo "\${$(rand $#)}")
CLASS=${FAULT_CLASS:-$CLASS}
if [ "$CLASS" = segment ]; then
	# a cluster of 2 racks of 2 hosts beside this one (a prefix of its own), a rank each
	FLAT_PREFIX=$VC_PREFIX
	export VC_PREFIX=${VC_PREFIX}r
	INJ_RACKS=2
	expect_exit 0 "vcluster up 4 1 --racks 2" vc up 4 1 --racks 2
	RATE=$CLASS_RATE inject segment 4 >"$TMP/inject" 2>&1 &&
		pass "inject segment: $INJ_CULPRIT at $CLASS_RATE" || fail "inject segment" "$TMP/inject"
	class_verdict 4
	expect_exit 0 "vcluster down (the racks)" vc down
	export VC_PREFIX=$FLAT_PREFIX
else
	RATE=$CLASS_RATE inject "$CLASS" "$HOSTS" >"$TMP/inject" 2>&1 &&
		pass "inject $CLASS: $INJ_KIND $INJ_DIR $INJ_CULPRIT at $CLASS_RATE" ||
		fail "inject $CLASS" "$TMP/inject"
	class_verdict "$HOSTS"
	expect_exit 0 "vcluster heal: every limit goes" bash "$VC" heal
fi
expect_exit 0 "allreduce across the hosts, every variant" vmpi "$BIN" allreduce "${AR[@]}" -o "$TMP/ar-fast.json"
expect_exit 0 "allreduce report: every variant, no wrong element" \
	check allreduce "$TMP/ar-fast.json" "$NP" "$(all_variants)"
sed 's/^/        /' "$TMP/out"
# shm across hosts: rails of same-index ranks when every host has as many
# ranks (8 = 4 x 2), the hosts' first ranks when not (7: h4 has one); small
# MPI calls on the rails exercise the slicing of big counts; from 1 MiB
# (300007 elements of float32 and int64: 2 and 3 segments, the last one short)
# the leaders' pipeline, whose chunks of 4 hosts do not divide evenly
SHM_VERIFY=(verify -a shm -d float32,int64,bfloat16 --counts 0,1,6,7,8,9,1031,65539,300007 --mpi-max-count 1000)
expect_exit 0 "verify shm across $HOSTS hosts of $PER_HOST ranks (rails)" vmpi "$BIN" "${SHM_VERIFY[@]}"
expect_exit 0 "verify shm across hosts of 2, 2, 2 and 1 ranks (first ranks)" \
	in_bg timeout 300 bash "$VC" mpirun --bind-to none -np $((NP - 1)) "$BIN" "${SHM_VERIFY[@]}"

# --- per-hop tracing (issue 14) ---------------------------------------------------
# slow_link FROM TO RATE: what FROM sends to TO's address goes at RATE, the other
# direction untouched: an htb qdisc on FROM's eth0 (unclassified traffic passes
# unshaped) with one class at RATE, fed by a u32 filter on the destination.
# (A helper for this is on its way into vcluster.sh; the lead merges the two.)
slow_link() {
	local ns=$VC_PREFIX-$1 ip=$NET.$((10 + ${2#h}))
	tc -n "$ns" qdisc replace dev eth0 root handle 1: htb &&
		tc -n "$ns" class add dev eth0 parent 1: classid 1:10 htb rate "$3" burst 64kb &&
		tc -n "$ns" filter add dev eth0 parent 1: protocol ip prio 1 u32 match ip dst "$ip/32" flowid 1:10
}
fast_link() { tc -n "$VC_PREFIX-$1" qdisc del dev eth0 root 2>/dev/null; }

# traced_verdict NAME EXPECT ARGS...: up to $TRIES traced rings (8 ranks on 2
# cores: a starved rank makes its hop slow for a run) until one's report passes
# `check_cluster.py hops ... EXPECT`; the others are printed as notes.
traced_verdict() {
	local name=$1 expect=$2 i rc ok=0
	shift 2
	for i in $(seq 1 "$TRIES"); do
		rm -f "$TMP/hops.json"
		vmpi "$BIN" allreduce -a ring --trace -q -o "$TMP/hops.json" "$@" >"$TMP/run" 2>&1
		rc=$?
		if [ $rc = 0 ] && check hops "$TMP/hops.json" "$expect" >"$TMP/verdict" 2>&1; then
			ok=1
			break
		fi
		{
			echo "collscope allreduce exited $rc; its last lines:"
			tail -n 4 "$TMP/run"
		} >>"$TMP/verdict"
		if [ "$i" -lt "$TRIES" ]; then
			printf '  note  %s: measurement %d of %d was off\n' "$name" "$i" "$TRIES"
			sed 's/^/        | /' "$TMP/verdict"
		fi
	done
	if [ $ok = 1 ]; then
		pass "$name$([ "$i" -gt 1 ] && echo " (measurement $i)")"
		sed 's/^/        /' "$TMP/verdict"
	else
		fail "$name" "$TMP/verdict"
	fi
	cp "$TMP/run" "$TMP/out"
}

# Equal links: 20 iterations, so that one starved rank's moment does not make its hop.
# Up to 6 rings, not $TRIES: with 8 ranks on 2 cores a rank the scheduler starves for a whole
# run is slow in every re-measurement too, and the judge names its hop or the rank ("its
# progress"), rightly for what it measured. On 2026-12-06 that happened in 8 of 14 clean runs of
# c465b05 and 8 of 14 of 341456b (alternating), and in 8 of 16 with --timing barrier: 3 tries
# fail about one CI run in 6 (they did on d626e21's). What is asserted is that a clean ring can
# pass: 6 failing runs in a row would be chance about once in 36 at that rate.
TRIES=6 traced_verdict "a traced ring on equal links names no hop" none -b 1M -e 1M -n 20 -w 2
expect_output '^# slow hops: none' "allreduce --trace prints that no hop is slow"
# 10 Mbit/s from h2 to h3, the ring's hop 3->4 (ranks 2, 3 on h2; 4, 5 on h3): at
# 256 KiB its messages of 32 KiB take ~26 ms, 20-100x the other cross-host hops on
# this machine (at 1 MiB the run took 8 s, now 2).
expect_exit 0 "slow the link h2 -> h3 alone to 10 Mbit/s" slow_link h2 h3 10mbit
if tc -n "$VC_PREFIX-h2" filter show dev eth0 | grep -q 'match 0a' &&
	! tc -n "$VC_PREFIX-h3" qdisc show dev eth0 | grep -q htb; then
	pass "the limit is on h2's side only, for h3's address"
else
	fail "the limit is on h2's side only, for h3's address"
fi
traced_verdict "a traced ring names the hop 3->4 (h2 -> h3) and no other" 3-4 -b 256K -e 256K -n 3 -w 1
expect_output '^# slow hop: ring, 262144 bytes: 3->4 \(h2 -> h3\) ' "allreduce --trace prints the slow hop with its hosts"
expect_exit 0 "the link h2 -> h3 at full speed again" fast_link h2

# A rank stopped inside a traced ring: the watchdog's flight record names it and
# the peers that wait on it. (Stopped between two iterations, the others wait in
# the barrier instead, without a peer: then once more.)
flight_verdict() {
	local try rc pid victim=5
	for try in 1 2 3; do
		rm -f "$TMP/flight.json"
		in_bg timeout 120 bash "$VC" mpirun --bind-to none -np "$NP" "$BIN" allreduce -a ring --trace \
			-b 1M -e 1M -n 100000 -w 1 --timeout 3 -q -o "$TMP/flight.json" >"$TMP/out" 2>&1 &
		local job=$!
		for _ in $(seq 300); do [ -s "$TMP/flight.json" ] && break; sleep 0.1; done
		sleep 2
		pid=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['context']['ranks'][$victim]['pid'])" "$TMP/flight.json")
		kill -STOP "$pid"
		wait $job
		rc=$?
		kill -KILL "$pid" 2>/dev/null
		if [ $rc = 4 ] && check flight "$TMP/flight.json" $victim >"$TMP/verdict" 2>&1; then
			pass "a stopped rank in a traced ring: exit 4, the flight record names it and its waiting peers$([ $try -gt 1 ] && echo " (try $try)")"
			sed 's/^/        /' "$TMP/verdict"
			return
		fi
		echo "  note  flight record, try $try: exit $rc"
		sed 's/^/        | /' "$TMP/verdict" 2>/dev/null | tail -n 5
	done
	fail "a stopped rank in a traced ring: the flight record" "$TMP/out"
}
flight_verdict
expect_output "flight record: .*not answering: rank 5 .*rank 6 waits to receive from rank 5 at step [0-9]+.*the waits lead to rank 5 \(not answering\)" \
	"the hang's message names rank 5 and its successor waiting on it"

# --- h4 slowed ------------------------------------------------------------------
expect_exit 0 "vcluster slow $SLOW $RATE" vc slow "$SLOW" "$RATE"
if [ "$(tc -n "$VC_PREFIX-$SLOW" qdisc show dev eth0 | grep -c 'tbf.*rate 200Mbit')" = 1 ] &&
	[ "$(tc -n "$VC_PREFIX-br" qdisc show dev "vh${SLOW#h}" | grep -c 'tbf.*rate 200Mbit')" = 1 ]; then
	pass "tbf at both ends of $SLOW's veth"
else
	fail "tbf at both ends of $SLOW's veth"
fi
links_verdict "links names $SLOW (or its links) and nothing else" 1 "$SLOW"
echo "  note  links took $CLEAN_S s with equal links, $LAST_S s with $SLOW at $RATE: $(awk -v a="$CLEAN_S" -v b="$LAST_S" 'BEGIN { printf "%.2fx", b / a }') (the budgets' goal: at most 2x)"
expect_output "host $SLOW is slow (both ways|to send|to receive): .* at 0\.[0-9]+x the reference|link [0-9]+(->|<->)[0-9]+ .*bandwidth" \
	"links prints the accusation with its evidence"
expect_exit 0 "allreduce with $SLOW slowed, every variant" vmpi "$BIN" allreduce "${AR_SLOW[@]}" -o "$TMP/ar-slow.json"
expect_exit 0 "allreduce report with $SLOW slowed: no wrong element" \
	check allreduce "$TMP/ar-slow.json" "$NP" "$(all_variants)"
sed 's/^/        /' "$TMP/out"
expect_exit 0 "busbw at 1 MiB falls for every variant when $SLOW is slowed, by half on average" \
	check busbw "$TMP/ar-fast.json" "$TMP/ar-slow.json" "$AR_BYTES"
sed 's/^/        /' "$TMP/out"

# --- teardown -------------------------------------------------------------------
bash "$VC" exec h3 sleep 600 >/dev/null 2>&1 &
for _ in 1 2 3 4 5 6 7 8 9 10; do STRAY=$(ip netns pids "$VC_PREFIX-h3" | head -n 1) && [ -n "$STRAY" ] && break; sleep 0.2; done
expect_exit 0 "vcluster down" vc down
wait 2>/dev/null
if ! ip netns list | grep -q "^$VC_PREFIX-" && [ ! -e "/run/collscope-vcluster-$VC_PREFIX" ] &&
	[ -n "$STRAY" ] && [ ! -e "/proc/$STRAY" ]; then
	pass "nothing is left behind: namespaces and their veths, processes, state"
else
	fail "nothing is left behind: namespaces and their veths, processes, state"
fi

finish
