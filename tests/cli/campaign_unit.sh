#!/usr/bin/env bash
# The fault-injection campaign's pure half (tests/cluster/campaign.py, issue 39):
# its generator of draws, its scorer and its figures, by Python's unittest
# (tests/cluster/test_campaign.py), each test a line of this suite. No cluster,
# no MPI: the campaign itself runs on the virtual cluster (make campaign).
set -u
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"

(cd "$HERE/../cluster" && PYTHONDONTWRITEBYTECODE=1 python3 -m unittest -v test_campaign) >"$TMP/log" 2>&1
rc=$?
# "test_host (test_campaign.Scorer.test_host) ... ok": one check each
while read -r name verdict; do
	if [ "$verdict" = ok ]; then pass "campaign: $name"; else fail "campaign: $name" "$TMP/log"; fi
done < <(sed -n 's/^\(test_[a-z_0-9]*\) (\([A-Za-z_.]*\)) \.\.\. \(.*\)$/\2 \3/p' "$TMP/log" |
	sed 's/^.*test_campaign\.//')
# a module that does not load runs no test: that is a failure too
grep -q '^Ran [1-9]' "$TMP/log" || fail "campaign: the unit tests load and run" "$TMP/log"
[ $rc = 0 ] || grep -q '\.\.\. \(FAIL\|ERROR\)' "$TMP/log" || fail "campaign: unittest exited $rc" "$TMP/log"
finish
