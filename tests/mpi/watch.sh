#!/usr/bin/env bash
# collscope watch under mpirun (issue 34): short watches at 1, 2 and 3 ranks
# leave a metrics file that passes a strict OpenMetrics check
# (tests/openmetrics_check.py), JSON lines from start to stop with every
# round, and a report valid against the schema; SIGHUP after a rotation
# reopens the lines and SIGTERM ends the watch with every round written,
# none twice; a watch of 3 days on a clock 25,000 times faster keeps its
# memory flat (printed). Nothing here is timed: the rounds' count varies.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OM="$ROOT/tests/openmetrics_check.py"
# a quick links round, small all-reduces, every round as soon as the last ends
QUICK=(--period 0.2 --duty-percent 100 --small-iters 10 --large-bytes 256K --large-iters 2
	--lat-time 0 --iters 20 --warmup 2 --bw-time 0 --bw-iters 3 --bw-warmup 1 --bw-bytes 64K)

# lines FILE... [--reason R]: the JSON lines parse, start first, stop last (reason R),
# rounds numbered 1..N once each, each with its latency and bandwidth samples.
lines() {
	python3 - "$@" >"$TMP/py" 2>&1 <<'PY'
import json, sys
args = sys.argv[1:]
reason = args[args.index("--reason") + 1] if "--reason" in args else None
files = [a for a in args if not a.startswith("--") and a != reason]
recs = [json.loads(l) for f in files for l in open(f)]
def need(c, what):
    if not c:
        sys.exit("lines: " + what)
need(recs and recs[0]["record"] == "start" and recs[-1]["record"] == "stop", "start first, stop last")
need(all(r["record"] in ("start", "sample", "event", "round", "stop") for r in recs), "record kinds")
need(sum(r["record"] == "start" for r in recs) == 1, "one start")
rounds = [r["round"] for r in recs if r["record"] == "round"]
need(rounds == list(range(1, len(rounds) + 1)) and rounds, "rounds 1..N once each: %s" % rounds)
for n in rounds:
    kinds = {r["series"] for r in recs if r["record"] == "sample" and r["round"] == n}
    need({"latency", "bandwidth"} <= kinds, "round %d has both all-reduce samples" % n)
stop = recs[-1]
need(stop["rounds"] == len(rounds), "stop counts the rounds")
if reason:
    need(stop["reason"] == reason, "stopped by %s, not %s" % (reason, stop["reason"]))
print("%d rounds, %d events" % (len(rounds), stop["events"]))
PY
}

expect_exit 0 "watch --help" "$BIN" watch --help
expect_output "OpenMetrics" "it says what it exports"
expect_output "SIGHUP reopens" "and what the signals do"

for n in 1 2 3; do
	rm -f "$TMP/m$n.prom"
	launched=$(date +%s.%N)
	expect_exit 0 "$n ranks, 2 s" mpi "$n" watch "${QUICK[@]}" --duration 2 --metrics "$TMP/m$n.prom" \
		--jsonl "$TMP/w$n.jsonl" -o "$TMP/w$n.json"
	# the stamps are the wall clock's, not whole seconds (a fault's time is compared with them)
	expect_exit 0 "$n ranks: the start line is stamped between launch and exit, to the sub-second" \
		python3 -c "
import json; t = json.loads(open('$TMP/w$n.jsonl').readline())['time_s']
assert $launched <= t <= $(date +%s.%N) and t != int(t), t"
	expect_exit 0 "$n ranks: the metrics file is valid OpenMetrics" python3 "$OM" "$TMP/m$n.prom" \
		--prefix collscope_watch_
	expect_output "valid" "the checker read it"
	if lines "$TMP/w$n.jsonl" --reason duration; then
		pass "$n ranks: JSON lines from start to stop, every round ($(cat "$TMP/py"))"
	else fail "$n ranks: JSON lines" "$TMP/py"; fi
done
check_schema "$TMP/w1.json" "$TMP/w2.json" "$TMP/w3.json" -- "watch reports"
expect_exit 0 "the report has both all-reduce series" python3 -c "
import json; d = json.load(open('$TMP/w3.json'))
assert d['command'] == 'watch' and d['complete'], d
assert {r['series'] for r in d['results']} >= {'latency', 'bandwidth'}, d['results']
assert d['summary']['stopped_by'] == 'duration'"

# SIGHUP after a rotation, then SIGTERM, both to rank 0 (its pid is in the start line).
rm -f "$TMP/s.jsonl"*
mpi 2 watch "${QUICK[@]}" --jsonl "$TMP/s.jsonl" --metrics "$TMP/s.prom" >"$TMP/s.out" 2>&1 &
job=$!
rounds_in() {
	local c
	c=$(grep -c '"record":"round"' "$1" 2>/dev/null)
	echo "${c:-0}"
}
for _ in $(seq 300); do [ "$(rounds_in "$TMP/s.jsonl")" -ge 2 ] && break; sleep 0.1; done
pid=$(head -1 "$TMP/s.jsonl" | python3 -c 'import json, sys; print(json.load(sys.stdin)["pid"])')
mv "$TMP/s.jsonl" "$TMP/s.jsonl.1"
kill -HUP "$pid"
for _ in $(seq 300); do [ "$(rounds_in "$TMP/s.jsonl")" -ge 2 ] && break; sleep 0.1; done
kill -TERM "$pid"
wait "$job"
rc=$?
if [ "$rc" = 0 ]; then pass "SIGTERM to rank 0 ends the watch with 0"; else fail "SIGTERM: exit $rc" "$TMP/s.out"; fi
if [ -s "$TMP/s.jsonl" ] && lines "$TMP/s.jsonl.1" "$TMP/s.jsonl" --reason SIGTERM; then
	pass "SIGHUP reopened the rotated lines, SIGTERM stopped: nothing lost, nothing twice ($(cat "$TMP/py"))"
else fail "SIGHUP and SIGTERM" "$TMP/py"; fi
expect_exit 0 "the metrics file after SIGTERM is valid" python3 "$OM" "$TMP/s.prom"

# SIGINT to rank 0 ends it the same way.
mpi 2 watch "${QUICK[@]}" --jsonl "$TMP/i.jsonl" >"$TMP/i.out" 2>&1 &
job=$!
for _ in $(seq 300); do [ "$(rounds_in "$TMP/i.jsonl")" -ge 1 ] && break; sleep 0.1; done
kill -INT "$(head -1 "$TMP/i.jsonl" | python3 -c 'import json, sys; print(json.load(sys.stdin)["pid"])')"
wait "$job"
rc=$?
if [ "$rc" = 0 ] && lines "$TMP/i.jsonl" --reason SIGINT; then pass "SIGINT to rank 0: exit 0, every round and the stop written ($(cat "$TMP/py"))"
else fail "SIGINT: exit $rc" "$TMP/py"; fi

# The duty cycle: each round's rest is at least its time x (100 / PCT - 1), so up to the
# start of each round measuring took at most PCT of the time, whatever the machine's speed
# (a bound the loop keeps by construction, not a timing). A round starts at its line's time
# less its own measuring.
expect_exit 0 "--duty-percent 20" mpi 2 watch "${QUICK[@]}" --duty-percent 20 --duration 5 \
	--jsonl "$TMP/d.jsonl"
expect_exit 0 "measuring took at most 20% of the time before each round" python3 -c "
import json
r = [json.loads(l) for l in open('$TMP/d.jsonl')]
t0, rounds = r[0]['time_s'], [x for x in r if x['record'] == 'round']
d = [100 * a['measure_s'] / (b['time_s'] - (b['measure_s'] - a['measure_s']) - t0)
     for a, b in zip(rounds, rounds[1:])]
print('measuring before rounds 2..%d: ' % len(rounds) + ', '.join('%.1f%%' % x for x in d))
assert d and max(d) <= 20.0 + 1e-6, d"
sed 's/^/  /' "$TMP/out"

# Three days on a clock 25,000 times faster (about 10 s): rounds back to back, a links
# round every 10th, rings of 100; rank 0's resident memory from a quarter of the run to its end.
expect_exit 0 "3 days on an accelerated clock" mpi 2 watch "${QUICK[@]}" --duration 72h --period 60 \
	--clock-factor 25000 --links-every 10 --keep 100 --jsonl "$TMP/long.jsonl" -o "$TMP/long.json"
python3 - "$TMP/long.jsonl" "$TMP/long.json" >"$TMP/py" 2>&1 <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
rounds = [r for r in recs if r["record"] == "round"]
n = len(rounds)
q, last = rounds[n // 4], rounds[-1]
span = (recs[-1]["time_s"] - recs[0]["time_s"]) / 3600
grow = last["rss_bytes"] - q["rss_bytes"]
print("%d rounds over %.1f h of watch clock; rank 0's RSS %.0f KiB at round %d, %.0f KiB at round %d (%+.0f KiB)"
      % (n, span, q["rss_bytes"] / 1024, q["round"], last["rss_bytes"] / 1024, last["round"], grow / 1024))
d = json.load(open(sys.argv[2]))
assert all(len(r["values"]) <= 100 for r in d["results"]), "rings of 100"
assert n >= 40, "too few rounds to judge: %d" % n
assert span >= 71.9, "the clock ran %.1f h" % span
assert grow <= 256 * 1024, "memory grew by %d bytes" % grow
PY
if [ $? = 0 ]; then pass "memory flat: $(head -1 "$TMP/py")"; else fail "memory over an accelerated run" "$TMP/py"; fi
finish
