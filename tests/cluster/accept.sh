#!/usr/bin/env bash
# collscope accept across hosts, on the virtual cluster (vcluster.sh): 4 hosts,
# 2 ranks each, Open MPI over TCP. A spec derived from clean runs of the
# cluster (the all-reduce from 3, so its thresholds allow for their spread)
# passes a second clean run. Then, under a background load (load.sh: CPU
# burners and bursty traffic inside the cluster's namespaces, killed on
# exit), $LOADED_RUNS more clean runs must name no host (they may fail, or be
# INCONCLUSIVE: noise, but never accuse): the suite prints the count of false
# accusations, and of runs where a host's own links failure did not reproduce
# when measured again (INCONCLUSIVE: in CI of d17a662, before that rule, 2 of 3
# loaded runs failed a healthy host on its one same-host pair). Once one host chosen at random (CULPRIT=hN picks it) has its
# link limited to 20 Mbit/s, still under load, accept fails, the links check
# with a LINK_ fault code, the all-reduce point with AR_BUSBW_LOW, and the
# culprit search names that host alone, on its evidence: it is the only
# failing host of the report, the JUnit file and the text.
#
# Needs root (network namespaces); prints a SKIP line and passes otherwise.
# Every host's link is shaped to LINK_RATE (1gbit): unshaped veths carry what 8 ranks and the
# load on 2 cores copy through the kernel, so cross-host 'bandwidth' was the scheduler's, and a
# host both of whose NICs carried the load's streams was named now and then (3 of 150 clean
# links runs under this load, 1 of 60 loaded accepts; shaped: 0 of 150 links runs).
# Eight ranks on two cores: a clean accept gets up to $TRIES runs (each
# failing one printed); the spec's thresholds sit at a fifth of the clean
# runs' bound (below their spread) and the slowed host's figures fall to
# about a hundredth (20 Mbit/s); the slowed run gets up to $TRIES runs too, as
# noise under load may leave its search inconclusive (each such run printed).
# ACCEPT_KEEP=DIR keeps the report and output of a clean loaded run that accused a host.
# accept's links check measures with the suite's short links options (-n,
# --bw-bytes, ...), as the spec's own links run did.
set -u
export PATH=$PATH:/usr/sbin:/sbin
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
. "$HERE/suite.sh"
VC=$HERE/vcluster.sh
check() { python3 "$HERE/check_cluster.py" "$@"; }
export VC_PREFIX=${VC_PREFIX:-csvca$$}
HOSTS=4
PER_HOST=2
NP=$((HOSTS * PER_HOST))
RATE=20mbit
LINK_RATE=${LINK_RATE:-1gbit}
TRIES=${TRIES:-3}
LOADED_RUNS=${LOADED_RUNS:-3}
LOAD=$HERE/load.sh
CULPRIT=${CULPRIT:-h$((RANDOM % HOSTS + 1))}
LINKS=(-q -n 100 -w 10 --bw-iters 3 --bw-warmup 0 --bw-bytes 64K --window 8 --bw-time 0.2)
AR=(-q -a ring --sizes 256K -n 20 -w 2)
AR_RUNS=${AR_RUNS:-5}

cleanup() {
	bash "$LOAD" stop >/dev/null 2>&1
	suite_end_children # tests/lib.sh: what the suite started, outside the namespaces too
	bash "$VC" down >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "cluster/accept: interrupted, removing the cluster" >&2; exit 130' INT
trap 'echo "cluster/accept: terminated, removing the cluster" >&2; exit 143' TERM
suite_needs_cluster cluster/accept

expect_exit 0 "vcluster up $HOSTS" vc up "$HOSTS" "$PER_HOST"
# every host's link at LINK_RATE, as a NIC bounds a real host's: unshaped, a veth runs as fast as
# 8 ranks and the load on 2 cores copy through the kernel, and 'bandwidth' is the scheduler's
for h in $(seq 1 "$HOSTS"); do
	vc slow "h$h" "$LINK_RATE" >/dev/null || fail "vcluster slow h$h $LINK_RATE"
done

# --- a spec from a clean run ------------------------------------------------------
expect_exit 0 "topo for the spec" vmpi "$BIN" topo -q -o "$TMP/topo.json"
# a known-good links run names no suspect: on 8 ranks over 2 cores one can, now and then
for try in $(seq 1 "$TRIES"); do
	vmpi "$BIN" links "${LINKS[@]}" --force -o "$TMP/links.json" >"$TMP/out" 2>&1
	rc=$?
	[ $rc = 0 ] && python3 -c "import json, sys; sys.exit(bool(json.load(open('$TMP/links.json'))['summary']['suspects']))" && break
	echo "  note  links for the spec, try $try: exit $rc or a suspect"
	grep -E "suspect" "$TMP/out" | sed 's/^/        | /' | head -n 3
	rc=1
done
[ $rc = 0 ] && pass "links for the spec, no suspect" || fail "links for the spec, no suspect" "$TMP/out"
ARS=()
for i in $(seq 1 "$AR_RUNS"); do
	expect_exit 0 "allreduce for the spec, run $i" vmpi "$BIN" allreduce "${AR[@]}" -o "$TMP/ar$i.json"
	ARS+=("$TMP/ar$i.json")
done
expect_exit 0 "a spec derived from them" "$BIN" accept --derive "$TMP/derived.json" \
	--tolerance 80 "$TMP/topo.json" "$TMP/links.json" "${ARS[@]}"
grep -E "note: " "$TMP/out" | sed 's/^/        /'
expect_exit 0 "the all-reduce threshold comes from the spread of $AR_RUNS runs" python3 -c "
import json
t = json.load(open('$TMP/derived.json'))['derived']['thresholds']['checks.allreduce.points[0].min_busbw_gbps']
print('busbw of the %d runs %s GB/s, log spread %.3g, bound %.3g, threshold %s' % (t['runs'], t['run_values'], t['log_spread'], t['bound'], t['threshold']))
assert t['runs'] == $AR_RUNS and not t['fragile'], t"
sed 's/^/        /' "$TMP/out"
# a point too noisy to gate is left out of the spec (a note says so): then no search runs,
# and the slowed host is judged by its own checks alone
GATED=1
python3 -c "import json, sys; sys.exit(not json.load(open('$TMP/derived.json'))['checks'].get('allreduce'))" || GATED=0
[ $GATED = 1 ] || echo "  note  the all-reduce point is too noisy to gate here: no culprit search below"
# and no verify: its whole matrix over TCP on 8 ranks costs a minute a run, and
# tests/mpi/accept.sh checks it
python3 "$HERE/../bandwidth_spec.py" "$TMP/derived.json" "$TMP/spec.json" --no-verify

for try in $(seq 1 "$TRIES"); do
	vmpi "$BIN" accept "${LINKS[@]:1}" "$TMP/spec.json" --force -o "$TMP/clean.json" >"$TMP/out" 2>&1
	rc=$?
	[ $rc = 0 ] && check accept "$TMP/clean.json" none >"$TMP/verdict" 2>&1 && break
	echo "  note  clean accept, try $try: exit $rc"
	grep -E "^(FAIL|accept:)" "$TMP/out" | sed 's/^/        | /' | head -n 6
	rc=1
done
[ $rc = 0 ] && pass "accept passes a clean run of the cluster" ||
	fail "accept passes a clean run of the cluster" "$TMP/out"
grep -E "^accept: " "$TMP/out" | sed 's/^/        /'

# --- clean runs under load: no host accused -----------------------------------------
expect_exit 0 "a background load on the cluster" bash "$LOAD" start 900 2 2
sed 's/^/        /' "$TMP/out"
accused=0 by_links=0
broken=0 unconfirmed=0
for run in $(seq 1 "$LOADED_RUNS"); do
	rm -f "$TMP/loaded.json"
	vmpi "$BIN" accept "${LINKS[@]:1}" "$TMP/spec.json" -o "$TMP/loaded.json" >"$TMP/out" 2>&1
	rc=$?
	cp "$TMP/out" "$TMP/loaded$run.out"
	grep -Eq "passed: not reproduced|: not separated" "$TMP/out" && unconfirmed=$((unconfirmed + 1))
	if [ $rc -gt 1 ] || [ ! -s "$TMP/loaded.json" ]; then
		broken=$((broken + 1))
		echo "  note  clean accept under load, run $run: exit $rc, no verdict"
		tail -n 5 "$TMP/out" | sed 's/^/        | /'
	elif ! check accept "$TMP/loaded.json" nohost >"$TMP/verdict" 2>&1; then
		# by links' suspects alone (latency under CPU load), or by anything else
		if grep -q "faults \['LINK_SUSPECT'\]; searches named none" "$TMP/verdict"; then
			by_links=$((by_links + 1))
		else
			accused=$((accused + 1))
		fi
		echo "  note  clean accept under load, run $run: a host accused"
		sed 's/^/        | /' "$TMP/verdict"
		# ACCEPT_KEEP=DIR keeps what an accusing run left, to see which rule named the host
		[ -n "${ACCEPT_KEEP:-}" ] && mkdir -p "$ACCEPT_KEEP" &&
			cp "$TMP/loaded.json" "$ACCEPT_KEEP/loaded$run.json" && cp "$TMP/out" "$ACCEPT_KEEP/loaded$run.out"
	fi
	echo "        run $run: exit $rc; $(grep -E '^accept: ' "$TMP/out")"
	grep -E "^(FAIL|SEARCH|INCONCLUSIVE)" "$TMP/out" | sed 's/^/        /'
done
echo "        false accusations under load: $((accused + by_links)) of $LOADED_RUNS clean runs, $by_links by links' suspects alone ($broken without a verdict)"
echo "        a host's own links failure not reproduced when measured again (INCONCLUSIVE): $unconfirmed of $LOADED_RUNS runs"
[ "$broken" = 0 ] && pass "clean runs under load reach a verdict ($broken of $LOADED_RUNS did not)" ||
	fail "clean runs under load reach a verdict ($broken of $LOADED_RUNS did not)" "$TMP/out"
[ "$accused" = 0 ] && pass "clean runs under load: no host accused by the all-reduce's checks or search ($accused of $LOADED_RUNS)" ||
	fail "clean runs under load: no host accused by the all-reduce's checks or search ($accused of $LOADED_RUNS)" "$TMP/out"
# Links' suspects apart: under CPU load a latency suspect used to be confirmed by its one
# re-test (the load persisted) and failed both ends' hosts; links now asks 5 re-tests and
# clears what the wait for a core explains (reports/diagnose/README.md).
[ "$by_links" = 0 ] && pass "clean runs under load: no host accused by links' suspects ($by_links of $LOADED_RUNS)" ||
	fail "clean runs under load: no host accused by links' suspects ($by_links of $LOADED_RUNS)" "$TMP/out"

# --- one host slowed, still under load ----------------------------------------------
expect_exit 0 "vcluster slow $CULPRIT $RATE" vc slow "$CULPRIT" "$RATE"
# the culprit must be named on its evidence; noise may leave a run inconclusive (each printed)
for try in $(seq 1 "$TRIES"); do
	rm -f "$TMP/slow.json" "$TMP/slow.xml"
	vmpi "$BIN" accept "${LINKS[@]:1}" "$TMP/spec.json" -o "$TMP/slow.json" \
		--junit "$TMP/slow.xml" >"$TMP/out" 2>&1
	rc=$?
	[ $rc = 1 ] && check accept "$TMP/slow.json" "$CULPRIT" >"$TMP/verdict" 2>&1 && break
	echo "  note  accept with $CULPRIT slowed, try $try: exit $rc"
	grep -E "^(SEARCH|HOST|accept:)" "$TMP/out" | sed 's/^/        | /' | head -n 6
done
[ $rc = 1 ] && pass "accept fails with $CULPRIT slowed" || fail "accept fails with $CULPRIT slowed" "$TMP/out"
cp "$TMP/out" "$TMP/slow.out"
grep -E "^(FAIL|SEARCH|HOST|accept:)" "$TMP/slow.out" | sed 's/^/        /'
expect_output "^FAIL +LINK_[A-Z_]+ " "the links check fails with a LINK_ fault code"
if [ $GATED = 1 ]; then
	expect_output "^FAIL +AR_BUSBW_LOW +job +allreduce ring 256 KiB busbw" "the all-reduce point fails with AR_BUSBW_LOW"
	expect_output "^SEARCH +allreduce ring 256 KiB busbw: culprit $CULPRIT \(its sub-test .* failed 3 of 3" \
		"the culprit search names $CULPRIT, on its evidence"
fi
expect_output "^HOST +$CULPRIT +FAIL" "the host line of $CULPRIT says FAIL"
expect_output "^accept: FAIL: .*$CULPRIT" "the summary names $CULPRIT"
expect_exit 0 "the report: $CULPRIT the only failing host, every search naming it alone" \
	check accept "$TMP/slow.json" "$CULPRIT"
sed 's/^/        /' "$TMP/out"
expect_exit 0 "the JUnit file names $CULPRIT in a failure" python3 -c "
import xml.dom.minidom as m, sys
fs = m.parse('$TMP/slow.xml').getElementsByTagName('failure')
sys.exit(not any('$CULPRIT' in f.getAttribute('message') for f in fs))"

expect_exit 0 "the load stops" bash "$LOAD" stop
expect_exit 0 "vcluster down" vc down
if ! ip netns list | grep -q "^$VC_PREFIX-" && [ ! -e "/run/collscope-vcluster-$VC_PREFIX" ]; then
	pass "nothing is left behind"
else
	fail "nothing is left behind"
fi
finish
