#!/usr/bin/env bash
# The smoke campaign (issue 39): the fault-injection campaign's runner on the
# virtual cluster with its fixed draws (tests/cluster/campaign.py smoke_draws:
# a clean run of links, two gross faults, a host and one direction of a link at
# 90% less bandwidth, a clean run beside another job's TCP stream, and a traced
# ring with one link 35% slower one way: a suspect hop, measured again, and a
# no-change compare --paired under CPU burners: a build gate's false alarm),
# about 2 minutes. Asserts floors that are honest lower bounds, not timings: every
# draw ran, no clean draw accuses a healthy host or link (beside the stream:
# its hosts are busy, not broken), the traced draw accuses nothing healthy (whether
# it found the link is printed), at least one gross fault is found; prints the campaign's table, and
# collscope report renders the result. The full campaign is make campaign.
#
#   bash tests/cluster/campaign.sh [build/collscope]
# Needs root (network namespaces); prints a SKIP line and passes otherwise.
set -u
export PATH=$PATH:/usr/sbin:/sbin
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
VC=$HERE/vcluster.sh
. "$HERE/suite.sh"
export VC_PREFIX=${VC_PREFIX:-csvcs$$}
cleanup() {
	suite_end_children # tests/lib.sh: what the suite started, outside the namespaces too
	bash "$VC" down >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "cluster/campaign: interrupted, removing the cluster"; exit 130' INT
trap 'echo "cluster/campaign: terminated, removing the cluster"; exit 143' TERM

suite_needs_cluster cluster/campaign

RESULT=$TMP/smoke.json
expect_exit 0 "the smoke campaign runs its draws" \
	in_bg timeout 300 python3 "$HERE/campaign_run.py" --smoke --bin "$BIN" -o "$RESULT"
sed 's/^/        /' "$TMP/out"
python3 "$HERE/campaign.py" floors "$RESULT" >"$TMP/floors" 2>&1
rc=$?
sed 's/^/        /' "$TMP/floors"
if [ $rc = 0 ]; then
	pass "its floors hold: nothing healthy accused in the clean draws, a gross fault found"
else
	fail "its floors hold" "$TMP/floors"
fi
expect_exit 0 "collscope report renders the campaign's result" "$BIN" report -q "$RESULT" -o "$TMP/page.html"
expect_exit 0 "the page has the campaign's confusion table" grep -q 'Verdicts against the truth' "$TMP/page.html"
finish
