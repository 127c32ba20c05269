#!/usr/bin/env bash
# collscope congestion on a virtual cluster of two racks (issue 31): 8 hosts,
# one rank each, h1-h4 on one bridge and h5-h8 on another, the racks joined by
# an uplink (vcluster.sh --racks 2). Every host's link and the uplink run at
# $RATE, so one flow alone gets the same bandwidth inside a rack and across
# it, and two flows across the uplink share it.
#   - packed groups (h1-h4, h5-h8) never cross the uplink: at 1 MiB neither
#     victim is degraded (factor about 1) and nothing is named;
#   - strided groups (h1 h3 h5 h7, h2 h4 h6 h8) both cross it: both are
#     degraded, and under the load each one's host x host matrix names the
#     segment between its hosts of the two racks, which alone it does not;
#   - a victim beside an aggressor running the alltoall congestor (the split
#     given as a list) is degraded, and the same segment is named. (shift's
#     bursts, one partner a round, left the matrix's cells under the load
#     uneven: 2 of 2 tries named no segment in one CI run; alltoall keeps
#     flows across the uplink every round.)
# The figures of each run are printed. Eight ranks on two cores: the 8-byte
# point is slowed by sharing the cores whatever the split, so only the
# largest size is judged; each run gets up to $TRIES tries (each failed one
# printed). Needs root (network namespaces); prints a SKIP line and passes
# otherwise.
set -u
export PATH=$PATH:/usr/sbin:/sbin
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
. "$HERE/suite.sh"
VC=$HERE/vcluster.sh
export VC_PREFIX=${VC_PREFIX:-csvcg$$}
NP=8
RATE=${RATE:-100mbit}
TRIES=${TRIES:-2}
RUN=(congestion --sizes 1M --time-per-size 0.25)

cleanup() {
	suite_end_children
	bash "$VC" down >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "cluster/congestion: interrupted, removing the cluster" >&2; exit 130' INT
trap 'echo "cluster/congestion: terminated, removing the cluster" >&2; exit 143' TERM
suite_needs_cluster cluster/congestion

expect_exit 0 "vcluster up: 8 hosts, 2 racks" vc up 8 1 --racks 2
for h in 1 2 3 4 5 6 7 8; do vc slow "h$h" "$RATE" >/dev/null; done
expect_exit 0 "every host and the uplink at $RATE" vc slow-uplink 1 "$RATE"

# run NAME EXPECT ARGS...: congestion with ARGS, judged by check_congestion.py EXPECT
run() {
	local name=$1 expect=$2 try rc
	shift 2
	for try in $(seq 1 "$TRIES"); do
		vmpi "$BIN" "${RUN[@]}" "$@" --force -o "$TMP/$name.json" >"$TMP/out" 2>&1
		rc=$?
		[ $rc = 0 ] && python3 "$HERE/check_congestion.py" "$TMP/$name.json" $expect >"$TMP/figures" 2>&1 && break
		echo "  note  $name, try $try: exit $rc"
		sed 's/^/        | /' "$TMP/figures" 2>/dev/null | head -n 8
		rc=1
	done
	[ $rc = 0 ] && pass "$name" || fail "$name" "$TMP/out"
	sed 's/^/  /' "$TMP/figures"
}

run "packed groups, one a rack: no interference at 1 MiB" none --split packed
run "strided groups across the uplink: both degraded, the uplink's segment named" \
	"uplink h1,h2,h3,h4 h5,h6,h7,h8" --split strided
run "a victim beside an alltoall aggressor: degraded, the uplink's segment named" \
	"uplink h1,h2,h3,h4 h5,h6,h7,h8" --split 0,1,0,1,0,1,0,1 --aggressors 1 --congestor alltoall
check_all_schemas
finish
