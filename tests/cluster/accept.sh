#!/usr/bin/env bash
# collscope accept across hosts, on the virtual cluster (vcluster.sh): 4 hosts,
# 2 ranks each, Open MPI over TCP. A spec derived from a clean run of the
# cluster passes a second clean run; once one host chosen at random
# (CULPRIT=hN picks it) has its link limited to 50 Mbit/s, accept fails, the
# links check with a LINK_ fault code, the all-reduce point with
# AR_BUSBW_LOW, and the culprit search names that host alone: it is the only
# failing host of the report, the JUnit file and the text.
#
# Needs root (network namespaces); prints a SKIP line and passes otherwise.
# Eight ranks on two cores: a clean accept gets up to $TRIES runs (each
# failing one printed); the spec's thresholds sit at a fifth of the clean
# run's figures and the slowed host's fall to a fortieth, so the failing runs are
# not retried. accept's links check measures with the suite's short links
# options (-n, --bw-bytes, ...), as the spec's own links run did.
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
RATE=50mbit
TRIES=${TRIES:-3}
CULPRIT=${CULPRIT:-h$((RANDOM % HOSTS + 1))}
LINKS=(-q -n 100 -w 10 --bw-iters 3 --bw-warmup 0 --bw-bytes 64K --window 8 --bw-time 0.2)
AR=(-q -a ring --sizes 256K -n 10 -w 1)

cleanup() {
	suite_end_children # tests/lib.sh: what the suite started, outside the namespaces too
	bash "$VC" down >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "cluster/accept: interrupted, removing the cluster" >&2; exit 130' INT
trap 'echo "cluster/accept: terminated, removing the cluster" >&2; exit 143' TERM
suite_needs_cluster cluster/accept

expect_exit 0 "vcluster up $HOSTS" vc up "$HOSTS" "$PER_HOST"

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
expect_exit 0 "allreduce for the spec" vmpi "$BIN" allreduce "${AR[@]}" -o "$TMP/ar.json"
expect_exit 0 "a spec derived from them" "$BIN" accept --derive "$TMP/derived.json" \
	--tolerance 80 "$TMP/topo.json" "$TMP/links.json" "$TMP/ar.json"
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

# --- one host slowed ----------------------------------------------------------------
expect_exit 0 "vcluster slow $CULPRIT $RATE" vc slow "$CULPRIT" "$RATE"
expect_exit 1 "accept fails with $CULPRIT slowed" vmpi "$BIN" accept "${LINKS[@]:1}" "$TMP/spec.json" \
	-o "$TMP/slow.json" --junit "$TMP/slow.xml"
cp "$TMP/out" "$TMP/slow.out"
grep -E "^(FAIL|SEARCH|HOST|accept:)" "$TMP/slow.out" | sed 's/^/        /'
expect_output "^FAIL +LINK_[A-Z_]+ " "the links check fails with a LINK_ fault code"
expect_output "^FAIL +AR_BUSBW_LOW +job +allreduce ring 256 KiB busbw" "the all-reduce point fails with AR_BUSBW_LOW"
expect_output "^SEARCH +allreduce ring 256 KiB busbw: culprit $CULPRIT \(" "the culprit search names $CULPRIT"
expect_output "^HOST +$CULPRIT +FAIL" "the host line of $CULPRIT says FAIL"
expect_output "^accept: FAIL: .*$CULPRIT" "the summary names $CULPRIT"
expect_exit 0 "the report: $CULPRIT the only failing host, every search naming it alone" \
	check accept "$TMP/slow.json" "$CULPRIT"
sed 's/^/        /' "$TMP/out"
expect_exit 0 "the JUnit file names $CULPRIT in a failure" python3 -c "
import xml.dom.minidom as m, sys
fs = m.parse('$TMP/slow.xml').getElementsByTagName('failure')
sys.exit(not any('$CULPRIT' in f.getAttribute('message') for f in fs))"

expect_exit 0 "vcluster down" vc down
if ! ip netns list | grep -q "^$VC_PREFIX-" && [ ! -e "/run/collscope-vcluster-$VC_PREFIX" ]; then
	pass "nothing is left behind"
else
	fail "nothing is left behind"
fi
finish
