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

# --- Memory: a report's parsed tree may take at most 8 times its size (or 2 GiB).
# measured CMD...: "rc peak_kb" of CMD (its output in $TMP/out), from the kernel's rusage of the child.
measured() {
	python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    rc = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
' "$TMP/out" "$@"
}
kb_of() { echo $(($(stat -c %s "$1") / 1024)); }
read -r _ base_kb < <(measured "$BIN" --version)
# Two bytes a value: 32 Mi values in 64 MiB, about 2.5 GiB once parsed. Refused before parsing.
python3 -c 'import sys; sys.stdout.write("{\"schema_version\": 1, \"command\": \"allreduce\", \"results\": [], \"x\": [" + "1," * (32 << 20) + "1]}")' >"$TMP/dense.json"
read -r rc peak_kb < <(measured "$BIN" report -o "$TMP/dense.html" "$TMP/dense.json")
if [ "$rc" = 2 ]; then pass "a report of 64 MiB that would take 2.5 GiB: exit 2"; else fail "a dense report: exit $rc, expected 2" "$TMP/out"; fi
expect_output "dense.json' \(64.0 MiB\): its [0-9]+ values would take about [0-9]+ MiB of memory once parsed, over the limit of 8 times the file's size" "the file, its size and the limit are named"
limit_kb=$((3 * $(kb_of "$TMP/dense.json") + base_kb))
if [ "$peak_kb" -le "$limit_kb" ]; then pass "refused before parsing: peak $peak_kb KiB (at most $limit_kb)"; else fail "refused before parsing: peak $peak_kb KiB, more than $limit_kb" "$TMP/out"; fi
# collscope's own density (17-digit samples): read, and the peak stays within 9 times the input.
fake allreduce "$TMP/big_a.json" --n 100000 --seed 5
fake allreduce "$TMP/big_b.json" --n 100000 --seed 6
read -r rc peak_kb < <(measured "$BIN" compare -q "$TMP/big_a.json" "$TMP/big_b.json")
if [ "$rc" = 0 ] || [ "$rc" = 1 ]; then pass "two reports of $(kb_of "$TMP/big_a.json") KiB compare"; else fail "big reports: exit $rc" "$TMP/out"; fi
limit_kb=$((9 * ($(kb_of "$TMP/big_a.json") + $(kb_of "$TMP/big_b.json")) + base_kb))
if [ "$peak_kb" -le "$limit_kb" ]; then pass "compare's peak $peak_kb KiB is within 9 times its input (at most $limit_kb)"; else fail "compare's peak $peak_kb KiB, more than $limit_kb" "$TMP/out"; fi
rm -f "$TMP"/dense.json "$TMP"/big_?.json

# --- Out of memory while parsing: said as such, exit 5 (not "not valid json", exit 2).
# under_limit KB CMD...: CMD with its address space limited to KB KiB (RLIMIT_AS); its exit code.
under_limit() {
	python3 -c '
import resource, subprocess, sys
kb = int(sys.argv[1])
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (kb * 1024, kb * 1024))
with open(sys.argv[2], "wb") as out:
    sys.exit(subprocess.run(sys.argv[3:], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=limit).returncode)
' "$@"
}
# The least address space in which collscope starts at all (its libraries), by bisection.
lo=1024 hi=$((4 * 1024 * 1024))
while [ $((hi - lo)) -gt 1024 ]; do
	mid=$(((lo + hi) / 2))
	if under_limit "$mid" "$TMP/out" "$BIN" --version; then hi=$mid; else lo=$mid; fi
done
fake allreduce "$TMP/mem.json" --n 60000 --seed 7
# Room for the text (12 MiB) but not for its tree (about 60 MiB).
under_limit $((hi + 40 * 1024)) "$TMP/out" "$BIN" report -o "$TMP/mem.html" "$TMP/mem.json"
rc=$?
if [ "$rc" = 5 ]; then pass "out of memory while reading a report: exit 5"; else fail "out of memory: exit $rc, expected 5" "$TMP/out"; fi
expect_output "mem.json': out of memory" "it says out of memory and names the file"
if grep -q "not valid json" "$TMP/out"; then fail "no 'not valid json' for lack of memory" "$TMP/out"; else pass "no 'not valid json' for lack of memory"; fi
expect_exit 0 "with room, the same report renders" "$BIN" report -q -o "$TMP/mem.html" "$TMP/mem.json"
rm -f "$TMP/mem.json"

# --- Only regular files, and '-' for standard input: a FIFO without a writer does not hang.
mkfifo "$TMP/fifo"
expect_exit 2 "a FIFO without a writer: refused, not waited on" timeout 20 "$BIN" compare "$TMP/base.json" "$TMP/fifo"
expect_output "fifo': it is a FIFO \(named pipe\), not a regular file" "the FIFO is named as such"
expect_exit 2 "/dev/zero: refused at once" timeout 20 "$BIN" report -o "$TMP/zero.html" /dev/zero
expect_output "'/dev/zero': it is a character device, not a regular file" "the device is named as such"
expect_exit 2 "process substitution is a pipe: refused" "$BIN" compare "$TMP/base.json" <(cat "$TMP/base.json")
expect_output "it is a FIFO .*give '-'" "the way out ('-') is named"
if "$BIN" compare "$TMP/base.json" - <"$TMP/base.json" >"$TMP/out" 2>&1; then pass "compare BASE - reads standard input"; else fail "compare BASE - reads standard input" "$TMP/out"; fi
if cat "$TMP/base.json" | "$BIN" report -q -o "$TMP/stdin.html" - >"$TMP/out" 2>&1; then pass "report - reads a pipe on standard input"; else fail "report - reads a pipe" "$TMP/out"; fi
if timeout 20 "$BIN" report -o "$TMP/z.html" - </dev/zero >"$TMP/out" 2>&1; then rc=0; else rc=$?; fi
if [ "$rc" = 2 ]; then pass "/dev/zero on standard input: exit 2"; else fail "/dev/zero on standard input: exit $rc" "$TMP/out"; fi
expect_output "NUL byte at byte offset 0" "refused at its first byte, not after 1 GiB"
expect_exit 2 "compare - -: exit 2" "$BIN" compare - -
expect_output "only one of BASELINE and CURRENT can be '-'" "it says why"
expect_exit 2 "report - -: exit 2" "$BIN" report -o "$TMP/two.html" - -
expect_output "only one FILE can be '-'" "it says why"

# --- Terminal escapes from a report are printed escaped, in messages and in compare's table.
no_raw_controls() { # NAME: $TMP/out holds no ESC, BEL or C1 CSI byte
	if LC_ALL=C grep -q "$(printf '[\033\007\233]')" "$TMP/out"; then fail "$1" "$TMP/out"; else pass "$1"; fi
}
printf '{"schema_version": 1, "command": "\\u001b]0;pwned\\u0007\\u001b[2J", "results": []}' >"$TMP/esc_cmd.json"
expect_exit 2 "a command holding terminal escapes: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/esc_cmd.json"
expect_output 'cannot compare .\\x1b\]0;pwned\\x07\\x1b\[2J. reports' "the escapes are printed as \\x1b"
no_raw_controls "no raw escape reaches stderr"
printf '{%s, "results": [], "k\\u001b[31m": 1, "k\\u001b[31m": 2}' "$V" >"$TMP/esc_key.json"
expect_exit 2 "a duplicate key holding an escape: exit 2" "$BIN" report -o "$TMP/esc.html" "$TMP/esc_key.json"
expect_output 'duplicate key .k\\x1b\[31m.' "the key is printed escaped"
no_raw_controls "no raw escape in the message"
fake links "$TMP/esc_links.json" --ranks 3 --hosts 2 --host "$(printf 'evil\033[2J\302\233')"
expect_exit 0 "compare of links whose host name holds escapes" "$BIN" compare "$TMP/esc_links.json" "$TMP/esc_links.json"
expect_output 'evil\\x1b\[2J\\u009b' "the table shows the host name escaped"
no_raw_controls "no raw escape in the table on stdout"

# --- Many host suspects: the links page's work grows with suspects plus pairs, not their
# product (each suspect once walked every pair: 1e5 suspects took 14 s). Counted in
# instructions (callgrind: the same count on a busy machine), from 240 pairs and 2000
# suspects to 4x both: linear is 4x (3.7 measured), the product 16x (7.1 measured before
# the host index, the reading and the rest of the page being linear).
instructions() { # REPORT: the instructions of rendering it, on stdout
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" report -q --force \
		-o "$TMP/many.html" "$1" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
if command -v valgrind >/dev/null; then
	fake links "$TMP/many1.json" --ranks 16 --hosts 4 --host-suspects 2000
	fake links "$TMP/many4.json" --ranks 32 --hosts 8 --host-suspects 8000
	i1=$(instructions "$TMP/many1.json") i4=$(instructions "$TMP/many4.json")
	ratio=$(awk -v a="$i1" -v b="$i4" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a }')
	if [ -n "$ratio" ] && awk -v r="$ratio" 'BEGIN { exit !(r < 5) }'; then
		pass "the links page: 4x pairs and suspects cost ${ratio}x the instructions (linear: 4x)"
	else
		echo "instructions: $i1 and $i4 (ratio '$ratio', must be under 5)" >"$TMP/out"
		fail "the links page: 4x pairs and suspects, linear work" "$TMP/out"
	fi
else
	skip_check "the links page's work with many suspects" "no valgrind"
fi

finish
