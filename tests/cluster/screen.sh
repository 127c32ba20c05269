#!/usr/bin/env bash
# Screening against all pairs on the virtual cluster (issue 28, item 6):
# HOSTS namespace hosts (default 24) in 2 racks, one rank each. All pairs
# and screening on the clean cluster, then screening alone with a slowed
# host NIC (both ways), a link slowed one way and a rack's uplink slowed:
# each must be named with its kind, direction and culprit (check_cluster.py
# verdict), nothing on the clean cluster. Prints the time and the rounds of
# every run (re-tests counted as rounds: each is a pair alone) and screening's
# share of all pairs' time; the goal is at most a third, not asserted (no
# timed assertions: on 2 shared cores time is the scheduler's too).
#
#   bash tests/cluster/screen.sh [build/collscope]
# Every host gets the htb a slowed link is made with (vcluster.sh classful)
# first: on an unshaped veth that qdisc alone cost its host 22% of what it sent
# to everyone at 2 hosts and 43% at 24 (2 cores), so a "link" fault was read,
# rightly, as a host slow to send 0.57x (2026-12-07). (Every host shaped to
# 300mbit instead: one run missed a host at 50mbit in both tries, not looked into.)
# Environment: HOSTS (24), RATE (50mbit), TRIES (2) measurements per verdict;
# SEGMENT_PAIRS=1 also runs all pairs on the slowed uplink (about 140 s more: every
# round crosses it; make check leaves it out and compares the clean runs).
# Needs root (network namespaces); prints a SKIP line and passes otherwise.
set -u
export PATH=$PATH:/usr/sbin:/sbin
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
. "$HERE/inject.sh"
VC=$HERE/vcluster.sh
. "$HERE/suite.sh"
export VC_PREFIX=${VC_PREFIX:-csvcs$$}
HOSTS=${HOSTS:-24}
RATE=${RATE:-50mbit}
TRIES=${TRIES:-2}
SEGMENT_PAIRS=${SEGMENT_PAIRS:-0}
INJ_RACKS=2
LINKS=(-q -n 300 -w 30 --bw-iters 5 --bw-warmup 0 --bw-bytes 256K --window 8 --bw-time 0.2
	--lat-time 0.05 --fail-on-suspect)

cleanup() {
	bash "$VC" down >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "cluster/screen: interrupted, removing the cluster"; exit 130' INT
trap 'echo "cluster/screen: terminated, removing the cluster"; exit 143' TERM

suite_needs_cluster cluster/screen

# rounds FILE: the rounds the run measured, re-tests counted as rounds (each is one pair alone),
# and the seconds from the plan to the verdict (the launch of 24 hosts left out)
rounds() {
	python3 -c "import json,sys
s=json.load(open(sys.argv[1]))['summary']; c=s['coverage']
print(c['rounds'] + s['remeasured_pairs'], '%.1f' % c['elapsed_s'])" "$1"
}

# verdict NAME PATTERN WANT_EXIT KIND DIR CULPRIT: up to $TRIES runs until one
# exits WANT_EXIT and names KIND DIR CULPRIT; its time into LAST_S, rounds into LAST_ROUNDS.
verdict() {
	local name=$1 pattern=$2 want=$3 i rc crc t0 t1 ok=0
	shift 3
	for i in $(seq 1 "$TRIES"); do
		rm -f "$TMP/links.json"
		t0=$(date +%s.%N)
		in_bg timeout 900 bash "$VC" mpirun --bind-to none -np "$HOSTS" "$BIN" links "${LINKS[@]}" \
			--pattern "$pattern" -o "$TMP/links.json" >"$TMP/run" 2>&1
		rc=$?
		t1=$(date +%s.%N)
		python3 "$HERE/check_cluster.py" verdict "$TMP/links.json" "$@" >"$TMP/verdict" 2>&1
		crc=$?
		[ $crc = 0 ] && exit_is "$rc" "$want" && ok=1 && break
		echo "collscope links exited $rc, expected $want" >>"$TMP/verdict"
		[ "$i" -lt "$TRIES" ] && printf '  note  %s: measurement %d of %d was off\n' "$name" "$i" "$TRIES" &&
			sed 's/^/        | /' "$TMP/verdict"
	done
	LAST_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	read -r LAST_ROUNDS LAST_IN < <(rounds "$TMP/links.json" 2>/dev/null || echo "0 0")
	if [ $ok = 1 ]; then
		pass "$name: $LAST_S s ($LAST_IN s measuring), $LAST_ROUNDS rounds$([ "$i" -gt 1 ] && echo " (measurement $i)")"
		sed 's/^/        /' "$TMP/verdict"
	else
		fail "$name" "$TMP/verdict"
	fi
}

expect_exit 0 "vcluster up $HOSTS 1 --racks $INJ_RACKS" in_bg timeout 300 bash "$VC" up "$HOSTS" 1 \
	--racks "$INJ_RACKS"

# heal: no fault, every host with the same htb (a slowed host replaces its own)
heal() {
	bash "$VC" heal >/dev/null 2>&1 && bash "$VC" classful $(seq -f 'h%g' 1 "$HOSTS") >/dev/null
}
expect_exit 0 "every host with an htb" heal

# Clean: no bandwidth suspect (check_cluster.py verdict none). Exit 1 is let
# through there: on 2 cores shared by 24 hosts a descheduled rank's
# ping-pongs take milliseconds, and a latency suspect fails --fail-on-suspect.
verdict "all pairs, clean: nothing named" pairs "0|1" none
PAIRS_S=$LAST_S PAIRS_ROUNDS=$LAST_ROUNDS PAIRS_IN=$LAST_IN
verdict "screening, clean: nothing named" screen "0|1" none
CLEAN_S=$LAST_S CLEAN_IN=$LAST_IN

# A link between two hosts shows only when its pair is measured: screening
# measures 81 of the 276 host pairs of 24 hosts (summary.coverage says which
# share, and rules_out what it covers), so the slowed link is one of a pair
# every plan measures, the first doubling round's h(2i+1)-h(2i+2) (rank r runs
# on h(r+1)), one way, in a random direction. A host's NIC and a rack's uplink
# are seen through any of their pairs: their culprits are random.
inject_measured_link() {
	local i a b
	i=$(($(rand $((HOSTS / 2))) - 1))
	a=$((2 * i + 1)) b=$((2 * i + 2))
	[ "$(rand 2)" = 2 ] && { local t=$a; a=$b; b=$t; }
	INJ_KIND=link INJ_DIR=oneway INJ_CULPRIT=h$a,h$b
	bash "$VC" slow-link "h$a" "h$b" "$RATE" oneway
}

for class in host-both link-oneway segment; do
	if [ "$class" = link-oneway ]; then
		inject_measured_link >"$TMP/inject" 2>&1 || { fail "inject $class" "$TMP/inject"; continue; }
	else
		inject "$class" "$HOSTS" >"$TMP/inject" 2>&1 || { fail "inject $class" "$TMP/inject"; continue; }
	fi
	verdict "screening, $class: $INJ_KIND $INJ_DIR $INJ_CULPRIT" screen 1 "$INJ_KIND" "$INJ_DIR" "$INJ_CULPRIT"
	eval "S_${class//-/_}=\$LAST_S I_${class//-/_}=\$LAST_IN"
	# all pairs on the same fault, for the heaviest one: every round crosses the uplink
	if [ "$class" = segment ] && [ "$SEGMENT_PAIRS" = 1 ]; then
		verdict "all pairs, segment: $INJ_CULPRIT" pairs 1 "$INJ_KIND" "$INJ_DIR" "$INJ_CULPRIT"
		SEG_PAIRS_S=$LAST_S SEG_PAIRS_IN=$LAST_IN
	fi
	heal
done
echo "  links on $HOSTS hosts, wall (measuring): all pairs $PAIRS_S s ($PAIRS_IN s) clean," \
	"${SEG_PAIRS_S:-?} s (${SEG_PAIRS_IN:-?} s) with the segment; screening $CLEAN_S s ($CLEAN_IN s) clean," \
	"${S_host_both:-?} s (${I_host_both:-?} s) host, ${S_link_oneway:-?} s (${I_link_oneway:-?} s) link," \
	"${S_segment:-?} s (${I_segment:-?} s) segment"
share() { awk -v s="$2" -v p="$3" 'BEGIN { if (p > 0) printf "  %s: screening is %.2f of all pairs\n", ARGV[1], s / p }' "$1"; }
share "clean, wall" "$CLEAN_S" "$PAIRS_S"
share "clean, measuring" "$CLEAN_IN" "$PAIRS_IN"
share "segment, wall" "${S_segment:-0}" "${SEG_PAIRS_S:-0}"
share "segment, measuring" "${I_segment:-0}" "${SEG_PAIRS_IN:-0}"
finish
