#!/usr/bin/env bash
# make check's tally names every skip and why. A suite that cannot run here
# ends with a SKIP line and passes (tests/lib.sh's suite_skip), a check that
# cannot run says so (skip_check); both leave a "skip" line in the tally,
# and the Makefile's TALLY_SUM prints each before the sum, which counts them.
# Checked on a planted suite, and on the cluster suite run as another user
# than root (as root with setpriv).
#   tests/cli/tally.sh BINARY
set -u
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$HERE/../lib.sh"

# a tally another user may write to
T=$TMP/tally.d
mkdir -m 777 "$T" && : >"$T/tally" && chmod 666 "$T/tally" && chmod 755 "$TMP"
mkdir -p "$TMP/planted"
cat >"$TMP/planted/skips.sh" <<EOF
. "$ROOT/tests/lib.sh"
pass "one check"
skip_check "a check" "no frobnicator here"
suite_skip "no cluster here"
pass "never reached"
EOF
expect_exit 0 "a suite that skips passes" env COLLSCOPE_TALLY="$T/tally" bash "$TMP/planted/skips.sh"
expect_output '^  skip  a check: no frobnicator here$' "a skipped check says why"
expect_output '^planted/skips: SKIP \(no cluster here\)$' "the skipped suite says why"
expect_output '^planted/skips: 1 passed, 0 failed$' "and ends there, with its counts"
expect_exit 0 "the tally keeps both skips" grep -qx "skip planted/skips: no cluster here" "$T/tally"

nskips=2
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
	expect_exit 0 "cluster/cluster as nobody: passes" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env COLLSCOPE_TALLY="$T/tally" bash "$ROOT/tests/cluster/cluster.sh" "$BIN"
	expect_output '^cluster/cluster: SKIP \(not root' "it says why it skips"
	nskips=3
else
	skip_check "the cluster suite as another user" "not root, or no setpriv"
fi

# the sum, by the Makefile's own TALLY_SUM
# shellcheck disable=SC2016 # make's syntax
printf 'tally-print:\n\t@$(call TALLY_SUM,check)\n' >"$TMP/print.mk"
expect_exit 0 "the Makefile's tally sum" make -s --no-print-directory -C "$ROOT" -f Makefile -f "$TMP/print.mk" \
	tally-print COLLSCOPE_TALLY="$T/tally"
cp "$TMP/out" "$TMP/sum"
expect_output '^check: skipped planted/skips: a check: no frobnicator here$' "it names the skipped check and why"
expect_output '^check: skipped planted/skips: no cluster here$' "it names the skipped suite and why"
[ $nskips = 3 ] && expect_output '^check: skipped cluster/cluster: not root' "it names the cluster suite and why"
expect_output "^check: 1 passed, 0 failed, $nskips skipped \(above\)$" "its last line counts the skips"
expect_exit 0 "the sum is the last line" sh -c "tail -n 1 '$TMP/sum' | grep -q '^check: 1 passed'"

finish
