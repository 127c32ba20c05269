#!/usr/bin/env bash
# Hostile input to compare and report (issue 20): what a crafted report, a
# special file or a signal must not do. Each check fails without its fix.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
FAKE_PY=$(dirname "$0")/fake_reports.py
fake() { python3 "$FAKE_PY" "$@" >"$TMP/fake.out" 2>&1 || fail "fake_reports.py $*" "$TMP/fake.out"; }

fake allreduce "$TMP/base.json" --seed 1
V='"schema_version": 1, "command": "allreduce"'

# --- Invalid UTF-8 and numbers JSON does not have: refused with the byte offset.
printf '{%s, "results": [], "x": "caf\xe9"}' "$V" >"$TMP/latin1.json"
expect_exit 2 "invalid UTF-8 in a report: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/latin1.json"
expect_output "latin1.json.*invalid UTF-8 \(byte 0xe9\) in a string.*byte offset 70" "the byte and its offset are named"
printf '{%s, "results": [], "x": 01}' "$V" >"$TMP/zero.json"
expect_exit 2 "01 in a report: exit 2" "$BIN" report -o "$TMP/zero.html" "$TMP/zero.json"
expect_output "zero.json.*leading zero.*byte offset 66" "the leading zero is named with its offset"
printf '{%s, "results": [], "x": 1.}' "$V" >"$TMP/dot.json"
expect_exit 2 "1. in a report: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/dot.json"
expect_output "dot.json.*no digit after its decimal point.*byte offset 66" "the bare decimal point is named"
# A command line in another encoding is written as U+FFFD: the output is JSON that readers accept.
cp "$TMP/base.json" "$TMP/caf$(printf '\xe9').json"
expect_exit 0 "compare -o with a Latin-1 file name" "$BIN" compare -q -o "$TMP/cmp.json" "$TMP/base.json" "$TMP/caf$(printf '\xe9').json"
if python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); assert "caf\ufffd.json" in d["config"]["current"], d["config"]' "$TMP/cmp.json" >"$TMP/py" 2>&1; then
	pass "compare -o output is valid UTF-8 JSON"
else
	fail "compare -o output is valid UTF-8 JSON" "$TMP/py"
fi
expect_exit 0 "and collscope reads it back" "$BIN" report -q -o "$TMP/cmp.html" "$TMP/cmp.json"

finish
