#!/usr/bin/env bash
# Text from outside reaches the terminal escaped (cmd_print, report_escape_text):
# a spec's name holding a right-to-left override (U+202E) and terminal
# escapes, in accept --check-spec's line and in the measuring accept's
# header; a host name holding an escape sequence and a bidirectional
# control, in topo's tables (as root: the host name is set in a UTS
# namespace of the job's own). Nothing a terminal acts on may be printed as
# it is; the escapes must be there instead.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

# raw_free FILE ESCAPE...: no ESC, BEL, C1 CSI or bidirectional control in
# FILE as it is, and each ESCAPE (such as \x1b) there instead.
raw_free() {
	python3 -c '
import sys
out = open(sys.argv[1], "rb").read()
bad = [b for b in (b"\x1b", b"\x07", "\u009b".encode(), "\u202e".encode(), "\u2067".encode()) if b in out]
missing = [e for e in sys.argv[2:] if e.encode() not in out]
print("printed as it is:", bad, "escapes missing:", missing)
sys.exit(bool(bad or missing))' "$@"
}

printf '{"schema_version": 1, "command": "accept-spec", "spec_version": 1, "name": "%s", "checks": %s}\n' \
	'evil \u202e exe.txt \u001b]0;title\u0007 \u001b[2J' '{"verify": {"variants": ["ring"]}}' >"$TMP/spec.json"
expect_exit 0 "accept --check-spec of a spec with a hostile name" "$BIN" accept --check-spec "$TMP/spec.json"
expect_output "named 'evil \\\\u202e exe.txt \\\\x1b\]0;title\\\\x07 \\\\x1b\[2J'" "its line shows the name escaped"
cp "$TMP/out" "$TMP/check.out"
expect_exit 0 "nothing of it printed as it is" raw_free "$TMP/check.out" "\\u202e" "\\x1b" "\\x07"

expect_exit 0 "accept measuring that spec at 2 ranks" mpi 2 accept "$TMP/spec.json"
grep '^# collscope accept' "$TMP/out" >"$TMP/header"
expect_exit 0 "its header names the spec, escaped" raw_free "$TMP/header" "\\u202e" "\\x1b" "\\x07"

# topo on a host whose name holds an escape sequence and a bidirectional
# control. Open MPI's mpirun refuses such a name unless its node list is
# passed as it is (regx naive: the others parse names as ranges).
if [ "$(id -u)" = 0 ] && unshare --uts true 2>/dev/null; then
	regx=()
	[ "$COLLSCOPE_MPI" = openmpi ] && regx=(--mca regx naive)
	# shellcheck disable=SC2016,SC2086 # a program for the namespace; the launcher's flags
	expect_exit 0 "topo at 2 ranks on a host named with terminal escapes" unshare --uts bash -c '
		python3 -c "import socket; socket.sethostname(\"n\x1b]0;t\x07\u2067x\")" || exit 9
		bin=$1
		shift
		exec timeout 300 "$@" -n 2 "$bin" topo' bash "$BIN" "$MPIRUN" $MPIRUN_FLAGS "${regx[@]}"
	cp "$TMP/out" "$TMP/topo.out"
	expect_output '^  n\\x1b\]0;t\\x07\\u2067x +[0-9]' "its host table shows the name escaped"
	expect_exit 0 "nothing of it printed as it is" raw_free "$TMP/topo.out" "\\x1b" "\\x07" "\\u2067"
else
	skip_check "topo on a host named with terminal escapes" "needs root and a UTS namespace"
fi

finish
