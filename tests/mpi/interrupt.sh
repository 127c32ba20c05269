#!/usr/bin/env bash
# A Ctrl-C ends a suite and everything it started: a suite runs in a session
# of its own, as under a terminal; once its ranks run, SIGINT goes to its
# process group (what a terminal's Ctrl-C does). The suite must end within
# 15 s, and no process it started may remain: no timeout, mpirun, orted or
# collscope rank. Its processes carry a marker in their environment, which
# names them without mistaking another job's ranks on this machine for them.
#   tests/mpi/interrupt.sh BINARY [SUITE...]   (default: tests/mpi/verify.sh)
set -u
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
shift
SUITES=("$@")
[ ${#SUITES[@]} -gt 0 ] || SUITES=("$HERE/verify.sh")

# marked MARK: pid and command of every process whose environment holds MARK.
marked() {
	local f pid
	for f in $(grep -lzx "COLLSCOPE_INTERRUPT_MARK=$1" /proc/[0-9]*/environ 2>/dev/null); do
		pid=${f#/proc/}
		pid=${pid%/environ}
		echo "$pid $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-120)"
	done
}

for suite in "${SUITES[@]}"; do
	name=$(basename "$(dirname "$suite")")/$(basename "$suite" .sh)
	mark=$$-$RANDOM
	# a session and process group of its own, as a terminal's job, and SIGINT
	# not ignored (bash ignores it in what it starts in the background)
	COLLSCOPE_INTERRUPT_MARK=$mark COLLSCOPE_TALLY='' python3 -c '
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.setsid()
os.execvp("bash", ["bash"] + sys.argv[1:])' "$suite" "$BIN" >"$TMP/suite.out" 2>&1 &
	sid=$!
	ranks=0
	for _ in $(seq 600); do
		ranks=$(marked "$mark" | awk -v b="$BIN" '$2 == b' | wc -l)
		[ "$ranks" -ge 1 ] && break
		kill -0 $sid 2>/dev/null || break
		sleep 0.1
	done
	if [ "$ranks" -lt 1 ]; then
		fail "$name: no ranks seen running within 60 s" "$TMP/suite.out"
		kill -KILL -- -$sid 2>/dev/null
		continue
	fi
	marked "$mark" >"$TMP/before"
	pass "$name: running, $(wc -l <"$TMP/before") processes ($ranks ranks): Ctrl-C"
	kill -INT -- -$sid
	for _ in $(seq 150); do
		kill -0 $sid 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $sid 2>/dev/null; then
		fail "$name: still running 15 s after the Ctrl-C" "$TMP/suite.out"
	else
		pass "$name: ended after the Ctrl-C"
	fi
	sleep 0.5
	marked "$mark" >"$TMP/left"
	if [ -s "$TMP/left" ]; then
		cp "$TMP/left" "$TMP/out"
		fail "$name: nothing it started remains ($(wc -l <"$TMP/left") do)" "$TMP/out"
		awk '{print $1}' "$TMP/left" | xargs -r kill -KILL 2>/dev/null
	else
		pass "$name: nothing it started remains (no timeout, mpirun, orted or rank)"
	fi
	kill -KILL -- -$sid 2>/dev/null
done

finish
