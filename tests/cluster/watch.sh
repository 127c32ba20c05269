#!/usr/bin/env bash
# collscope watch on the virtual cluster (issue 34): 4 hosts, one rank each,
# what each host receives held at $RATE (tbf on its bridge port), so every
# link runs at the same rate.
#   - a clean watch of $CLEAN_ROUNDS rounds finds no change on any link;
#   - a watch during which h2 -> h3 is slowed to $SLOW (htb on h2's eth0, one
#     way) after $BASE_ROUNDS rounds and restored $HOLD_ROUNDS rounds later finds
#     two changes on the link series: link:h2->h3 slower, dated between the
#     start of the fault's command and two rounds after its return, named by the classifier as the link
#     h2 -> h3; then faster, dated the same way after the restore, named the same.
# The report of -o is valid and renders as a page with the changes marked.
# The times of the faults and of the changes are printed; changes of the
# all-reduce series are printed, not judged (4 ranks on 2 shared cores: the
# 8-byte all-reduce moves between levels as other work comes and goes).
# Nothing is timed: the rounds are counted from the watch's own lines. Each
# watch gets up to $TRIES tries. Needs root; prints a SKIP line otherwise.
set -u
export PATH=$PATH:/usr/sbin:/sbin
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
. "$HERE/suite.sh"
VC=$HERE/vcluster.sh
export VC_PREFIX=${VC_PREFIX:-csvw$$}
NP=4
RATE=${RATE:-200mbit}
SLOW=${SLOW:-20mbit}
TRIES=${TRIES:-2}
BASE_ROUNDS=6 HOLD_ROUNDS=7 CLEAN_ROUNDS=14
WATCH=(watch --period 0.5 --duty-percent 100 --small-iters 20 --large-bytes 256K --large-iters 3
	--lat-time 0 --iters 30 --warmup 5 --bw-time 0 --bw-iters 3 --bw-warmup 1 --bw-bytes 64K
	--window 4 --detect-window 12 --confirm 3 --min-step-percent 100 --timeout 120)

cleanup() {
	suite_end_children
	bash "$VC" down >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "cluster/watch: interrupted, removing the cluster" >&2; exit 130' INT
trap 'echo "cluster/watch: terminated, removing the cluster" >&2; exit 143' TERM
suite_needs_cluster cluster/watch

expect_exit 0 "vcluster up: 4 hosts" vc up 4 1
for h in 1 2 3 4; do vc slow-ingress "h$h" "$RATE" >/dev/null 2>&1; done
pass "what every host receives at $RATE"

rounds_in() {
	local c
	c=$(grep -c '"record":"round"' "$1" 2>/dev/null)
	echo "${c:-0}"
}
# until_round FILE N: wait for the watch's Nth round (or its end)
until_round() {
	while [ "$(rounds_in "$1")" -lt "$2" ] && kill -0 "$job" 2>/dev/null; do sleep 0.2; done
}
stop_watch() { # FILE: SIGTERM to rank 0, whose pid the start line names
	kill -TERM "$(head -1 "$1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["pid"])')"
	wait "$job"
}
now() { date +%s.%N; }

# watch_clean: $CLEAN_ROUNDS rounds, no fault
watch_clean() {
	rm -f "$TMP/clean.jsonl"
	vmpi "$BIN" "${WATCH[@]}" --jsonl "$TMP/clean.jsonl" >"$TMP/clean.out" 2>&1 &
	job=$!
	until_round "$TMP/clean.jsonl" "$CLEAN_ROUNDS"
	stop_watch "$TMP/clean.jsonl"
	python3 "$HERE/check_watch.py" "$TMP/clean.jsonl" clean >"$TMP/figures" 2>&1
}

# watch_fault: h2 -> h3 slowed after $BASE_ROUNDS rounds, restored $HOLD_ROUNDS later
watch_fault() {
	local r
	rm -f "$TMP/fault.jsonl"
	vmpi "$BIN" "${WATCH[@]}" --jsonl "$TMP/fault.jsonl" --metrics "$TMP/fault.prom" \
		-o "$TMP/fault.json" --force >"$TMP/fault.out" 2>&1 &
	job=$!
	until_round "$TMP/fault.jsonl" "$BASE_ROUNDS"
	# each fault's time is a span: from before its command to its return
	slowed=$(now)
	bash "$VC" slow-link h2 h3 "$SLOW" oneway >/dev/null 2>&1
	slowed="$slowed $(now)"
	r=$(rounds_in "$TMP/fault.jsonl")
	until_round "$TMP/fault.jsonl" $((r + HOLD_ROUNDS))
	restored=$(now)
	bash "$VC" exec h2 tc qdisc del dev eth0 root
	restored="$restored $(now)"
	r=$(rounds_in "$TMP/fault.jsonl")
	until_round "$TMP/fault.jsonl" $((r + HOLD_ROUNDS))
	stop_watch "$TMP/fault.jsonl"
	python3 "$HERE/check_watch.py" "$TMP/fault.jsonl" fault h2 h3 $slowed $restored \
		>"$TMP/figures" 2>&1
	local rc=$?
	grep '^# change' "$TMP/fault.out" >>"$TMP/figures" # what the watch printed
	return $rc
}

# attempt NAME FUNCTION: up to $TRIES tries, each failed one printed
attempt() {
	local name=$1 try rc
	for try in $(seq 1 "$TRIES"); do
		"$2"
		rc=$?
		[ $rc = 0 ] && break
		echo "  note  $name, try $try failed:"
		sed 's/^/        | /' "$TMP/figures" | head -n 12
	done
	[ $rc = 0 ] && pass "$name" || fail "$name" "$TMP/figures"
	sed 's/^/  /' "$TMP/figures"
}

attempt "a clean watch: no change on any link" watch_clean
attempt "h2 -> h3 slowed to $SLOW, then restored: two changes on link:h2->h3, at the right times, the link named" \
	watch_fault
expect_exit 0 "the metrics file is valid OpenMetrics" python3 "$HERE/../openmetrics_check.py" "$TMP/fault.prom"
check_schema "$TMP/fault.json" -- "the watch's report"
expect_exit 0 "its HTML page" "$BIN" report "$TMP/fault.json" -o "$TMP/fault.html"
expect_exit 0 "the page charts link:h2->h3 with its changes" grep -q "change (new level)" "$TMP/fault.html"
finish
