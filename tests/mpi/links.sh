#!/usr/bin/env bash
# collscope links under mpirun: every ordered pair measured, the JSON report's
# invariants, no suspect on one machine (also oversubscribed), the detector
# end to end with an injected slow link, bad values and the output-file rules.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

# Small counts: the suite stays well under a minute and a half on 2 cores.
FAST=(-n 100 -w 10 --bw-iters 3 --bw-warmup 1 --bw-bytes 256K --window 8)
# Windows large enough, and enough of them, that the p50 of an oversubscribed
# link varies by well under 2x: the injected slow-down stands out.
SLOWLINK=(-n 100 -w 10 --bw-iters 10 --bw-warmup 1 --bw-bytes 1M --window 8 --judge-oversubscribed)

# check_report FILE N [EXPECT_SUSPECTS]: the links report of an N-rank run.
check_report() {
	python3 - "$1" "$2" "${4:-none}" >"$TMP/py" 2>&1 <<'PY'
import json, os, sys
path, n, expect = sys.argv[1], int(sys.argv[2]), sys.argv[3]
budget_only = expect == "budget"
if budget_only:
    expect = "none"
d = json.load(open(path))
def need(cond, what):
    if not cond:
        sys.exit("report: " + what)
need(d["schema_version"] == 2 and d["command"] == "links" and d["complete"] is True, "envelope")
c, cfg, s = d["context"], d["config"], d["summary"]
need(c["mpi"]["ranks"] == n and len(c["ranks"]) == n, "context")
host = {r["rank"]: r["host"] for r in c["ranks"]}
need("results" not in d, "schema 2: the pairs, not results[]")
p = d["pairs"]
cnt = p["count"]
cols = [k for k, v in p.items() if isinstance(v, list)]
need(len(cols) == 14 and all(len(p[k]) == cnt for k in cols), "every array has count entries")
res = [{k: p[k][i] for k in cols} for i in range(cnt)]
pairs = sorted((r["a"], r["b"]) for r in res)
need(pairs == [(a, b) for a in range(n) for b in range(n) if a != b], "one entry per ordered pair")
names = ("same_numa", "same_host", "cross_host")
for r in res:
    who = "%d->%d" % (r["a"], r["b"])
    same = host[r["a"]] == host[r["b"]]
    need(names[r["locality"]] in (("same_numa", "same_host") if same else ("cross_host",)),
         who + " locality %d" % r["locality"])
    need(min(3, cfg["iters"]) <= r["lat_count"] <= cfg["iters"], who + " latency iterations")
    # at least the least windows (3), then as many as the budget allowed
    need(min(3, cfg["bw_iters"]) <= r["bw_count"] <= cfg["bw_iters"], who + " windows")
    need(r["bw_stopped_by_time"] == (r["bw_count"] < cfg["bw_iters"]), who + " stopped_by_time")
    need(1 <= r["bw_window_messages"] <= cfg["window"], who + " window_messages")
    if budget_only:
        need(r["bw_count"] == 3 and r["bw_stopped_by_time"], who + " stops on the tiny budget")
        need(r["lat_count"] == 3, who + " ping-pongs stop on the tiny budget")
    need(r["lat_p50_us"] > 0, who + " latency")
    need(r["lat_p99_us"] is None or r["lat_p50_us"] <= r["lat_p99_us"], who + " latency p99")
    need(r["bw_p50_gbps"] > 0 and (r["bw_p99_gbps"] is None or r["bw_p99_gbps"] <= r["bw_p50_gbps"]),
         who + " bandwidth")
    need(r["bidir_p50_gbps"] > 0, who + " bidirectional")
    w = r["cpu_wait_fraction"]
    need(w is None or 0 <= w <= 1, who + " cpu_wait_fraction in [0, 1]")
    need(w is not None or not os.path.exists("/proc/thread-self/schedstat"),
         who + " cpu_wait_fraction measured where the kernel keeps schedstat")
# raw samples: every re-tested pair's, one in 16 of the others (every pair's with --keep-samples,
# or up to 1,056 ordered pairs: 33 ranks)
kept = {(x["a"], x["b"]): x for x in d["pair_samples"]}
again = {(r["a"], r["b"]) for r in res if r["remeasured"]}
need(all(kept.get(k, {}).get("why") == "suspect" for k in again), "the re-tested pairs keep their samples")
need(all(1 <= len(x["window_samples_us"]) <= 16 and len(x["samples_us"]) <= 16 for x in kept.values()),
     "at most 16 samples of each kind")
if cfg["keep_samples"] or n * (n - 1) <= 1056:
    need(len(kept) == cnt, "--keep-samples or at most 33 ranks: every pair's samples")
else:
    need(len(kept) <= len(again) + max(1, -(-(cnt - len(again)) // 16)), "a bounded sample of the others")
    size = len(json.dumps(p, separators=(",", ":"))) + len(json.dumps(d["pair_samples"], separators=(",", ":")))
    if cnt:
        print("bytes per pair: %.1f (%d pairs)" % (size / cnt, cnt))
    need(n < 8 or size <= 100 * cnt, "at most 100 bytes per pair, got %.1f" % (size / max(cnt, 1)))
need(s["links"] == n * (n - 1) and s["pairs"] == n * (n - 1) // 2 and s["ranks"] == n, "summary counts")
need(s["suspects_count"] == len(s["suspects"]), "suspects_count")
for k in s["suspects"] + s["cleared"]:
    need(k["direction"] in (("send", "receive", "both") if k["kind"] == "host" else ("a->b", "b->a", "both")),
         "suspect direction")
    need(k["measured"] is not None and k["expected"] is not None and k["reason"] and k["line"], "suspect evidence")
if expect == "any":
    # judged while oversubscribed: a noisy link may be named; with nothing named, the
    # run says what it rules out
    need(s["suspects"] != [] or s["sensitivity"] != [], "neither a suspect nor what is ruled out")
elif expect == "none":
    need(s["suspects"] == [], "no suspect on one machine, got " + json.dumps(s["suspects"]))
else:
    a, b = expect.split(":")
    hit = [k for k in s["suspects"] if k["kind"] == "link" and k["metric"] == "bandwidth"
           and {k["a"], k["b"]} == {int(a), int(b)}]
    need(hit, "the slow link %s-%s is named: %s" % (a, b, json.dumps(s["suspects"])))
    need(all(k["ratio"] < 0.5 and k["score"] < -3.5 for k in hit), "its evidence")
    need(all(k["retest"]["first_measured"] is not None for k in hit), "with the first pass's figure")
    # both directions slowed: one suspect "both", unless noise cleared one of them
    need(any(k["direction"] == "both" for k in hit) or len(hit) == 1, "both directions in one suspect")
    need(s["remeasured_pairs"] >= 1, "suspects were measured again")
    again = [r for r in res if {r["a"], r["b"]} == {int(a), int(b)}]
    need(all(r["remeasured"] for r in again), "its records come from the isolated measurement")
    need(all(kept[(r["a"], r["b"])]["why"] == "suspect" for r in again), "its samples are kept")
over = {h["name"] for h in c["hosts"] if h["oversubscribed"]}
need(sorted(s["not_judged"]) == sorted(over) or cfg["judge_oversubscribed"], "not_judged")
need({h["name"] for h in s["hosts"]} == {h["name"] for h in c["hosts"]}, "per-host aggregates")
for x in s["sensitivity"]:
    need(x["pattern"] in ("pairs", "shift") and x["slowdown_percent"] >= 100 * cfg["tolerance"] - 1e-9,
         "sensitivity: at least the tolerance")
if cfg["pattern"] in ("shift", "both"):
    sh = d["shift"]
    need(sh["steps"] == n - 1 and len(sh["receive_gbps"]) == n, "shift matrices")
    need(all((sh["receive_gbps"][a][b] is None) == (a == b) for a in range(n) for b in range(n)),
         "shift: every ordered pair received")
    need(all(sh["windows"][a][b] is None or 1 <= sh["windows"][a][b] <= cfg["bw_iters"]
             for a in range(n) for b in range(n)), "shift: windows within the count")
else:
    need("shift" not in d, "no shift without the pattern")
PY
	local rc=$?
	if [ $rc = 0 ]; then pass "$3"; else fail "$3" "$TMP/py"; fi
	sed -n 's/^bytes per pair/#   &/p' "$TMP/py"
}

expect_exit 0 "links at 1 rank: nothing to measure" mpi 1 links -o "$TMP/l1.json"
expect_output "no pairs to measure" "links at 1 rank says so"
check_report "$TMP/l1.json" 1 "links report at 1 rank"

for n in 2 3 4; do
	expect_exit 0 "links at $n ranks" mpi "$n" links -q "${FAST[@]}" -o "$TMP/l$n.json"
	expect_output "^ +$((n - 1)) +[0-9.]+ " "links at $n ranks prints the bandwidth matrix"
	expect_output "^# suspects: none" "links at $n ranks on one machine accuses nobody"
	check_report "$TMP/l$n.json" "$n" "links report at $n ranks"
done

# A budget far below one window: every direction stops after the least 3
# windows, of one message each, and the report says so.
expect_exit 0 "links at 3 ranks on a tiny time budget" mpi 3 links -q "${FAST[@]}" --bw-iters 50 \
	--bw-time 0.000001 --lat-time 0.000001 -o "$TMP/l3t.json"
check_report "$TMP/l3t.json" 3 "the tiny budget: 3 windows a direction, stopped by time" budget
expect_exit 0 "the tiny budget's windows are single messages" python3 -c "import json,sys
d=json.load(open('$TMP/l3t.json'))
sys.exit(not all(m == 1 for m in d['pairs']['bw_window_messages']))"

# Past 16 ranks the matrix is host x host.
expect_exit 0 "links at 17 ranks" mpi 17 links -q -n 20 -w 2 --bw-iters 2 --bw-warmup 0 \
	--bw-bytes 64K --window 4 -o "$TMP/l17.json"
expect_output "^  h0 +[0-9.]+$" "links at 17 ranks prints the host x host matrix"
check_report "$TMP/l17.json" 17 "links report at 17 ranks"

expect_exit 0 "links at 5 ranks, pattern both" mpi 5 links -q "${FAST[@]}" --pattern both --judge-oversubscribed \
	-o "$TMP/l5b.json"
expect_output "^# rules out: a same_numa link [0-9]+% slower than the median|^# suspects: [1-9]" \
	"links names a suspect or says what it rules out"
check_report "$TMP/l5b.json" 5 "links report with the shift pattern at 5 ranks" any
expect_exit 0 "links at 3 ranks, pattern shift alone" mpi 3 links -q "${FAST[@]}" --pattern shift \
	-o "$TMP/l3s.json"
expect_exit 0 "the shift alone: no pairs, the shift's matrices" python3 -c "import json,sys
d=json.load(open('$TMP/l3s.json'))
sys.exit(not (d['pairs']['count'] == 0 and d['shift']['steps'] == 2 and d['config']['pattern'] == 'shift'))"

expect_exit 0 "links at 3 ranks, isolated mode" mpi 3 links -q "${FAST[@]}" --mode isolated \
	-o "$TMP/l3i.json" --fail-on-suspect
check_report "$TMP/l3i.json" 3 "isolated links report at 3 ranks"

# The defaults, oversubscribed: a false alarm here costs an admin a day.
expect_exit 0 "links at 4 oversubscribed ranks with the defaults" mpi 4 links -q --fail-on-suspect \
	-o "$TMP/l4d.json"
expect_output "^# suspects: none" "the default run accuses nobody"
# 4 ranks spinning on fewer cores wait for one a good part of the time: the
# report says so, and so does the text, so a slow figure is read for what it is
CROWDED=$([ "$(nproc)" -lt 4 ] && [ -r /proc/thread-self/schedstat ] && echo yes)
if [ -n "$CROWDED" ]; then
	expect_output "^# cpu: the ranks of pair [0-9]-[0-9] waited for a core [0-9]+% of the time" \
		"links at 4 ranks on $(nproc) cores prints the largest share of waiting for a core"
fi
check_report "$TMP/l4d.json" 4 "default links report at 4 ranks"
if [ -n "$CROWDED" ]; then
	expect_exit 0 "4 ranks on $(nproc) cores: the report shows the ranks waiting for a core" \
		python3 -c "import json,sys; d=json.load(open('$TMP/l4d.json'))
sys.exit(not max(w or 0 for w in d['pairs']['cpu_wait_fraction']) > 0.2)"
fi

# The detector end to end: an injected slow link is accused, measured again, confirmed.
expect_exit 1 "an injected slow link fails --fail-on-suspect" mpi 4 links -q "${SLOWLINK[@]}" \
	--test-slow-link 1:2:100 --fail-on-suspect --keep-samples -o "$TMP/slow.json"
expect_output "link (1->2|2->1|1<->2) .*bandwidth .* is 0\.[0-9]+x the same_numa median.*re-test" \
	"the slow link is printed with its evidence, both directions in one line"
check_report "$TMP/slow.json" 4 "the slow link is in the report" 1:2
expect_exit 0 "without --fail-on-suspect a suspect does not fail the run" mpi 4 links -q \
	"${SLOWLINK[@]}" --mode isolated --test-slow-link 0:3:100 --keep-samples -o "$TMP/slow2.json"
check_report "$TMP/slow2.json" 4 "the isolated run names the slow link too" 0:3
# compare, as CI would run it (--keep-samples: every pair tested, not only the
# suspects' and a sample): the link slowed since the baseline fails the gate on
# its window times, the one that recovered is an improvement
expect_exit 1 "compare --metric bandwidth fails on the link slowed since the baseline" \
	"$BIN" compare --metric bandwidth "$TMP/slow2.json" "$TMP/slow.json"
expect_output "^regression +(1->2|2->1) .* 10/10 " "compare names the slowed link, tested on its windows"
expect_output "^improved +(0->3|3->0) " "and the recovered one as improved"

# Bad values exit 2 and name the value. MPI starts as a singleton here: the
# same parsing as under mpirun, without mpirun's 2 s of teardown after a failed
# rank (the runs of 2 ranks below check that every rank agrees on exit 2).
check_bad() {
	local want=$1
	shift
	expect_exit 2 "links $* exits 2" "$BIN" links "$@"
	expect_output "$want" "links $* names the bad value"
}
check_bad "'0' for --tolerance" --tolerance 0
check_bad "'1.5' for --tolerance" --tolerance 1.5
check_bad "'abc' for --tolerance" --tolerance abc
check_bad "'-1' for --z-threshold" --z-threshold -1
check_bad "'0' for --window" --window 0
check_bad "'4Q' for --bw-bytes" --bw-bytes 4Q
check_bad "'0' for --bw-bytes" --bw-bytes 0
check_bad "'-8' for --lat-bytes" --lat-bytes -8
check_bad "'foo' for --mode" --mode foo
check_bad "'0' for --iters" -n 0
check_bad "'x' for --warmup" -w x
check_bad "'0' for --bw-iters" --bw-iters 0
check_bad "'-1' for --bw-time" --bw-time -1
check_bad "'soon' for --bw-time" --bw-time soon
check_bad "'-2' for --lat-time" --lat-time -2
check_bad "'ring' for --pattern" --pattern ring
check_bad "'1:1:2' for --test-slow-link" --test-slow-link 1:1:2
check_bad "'--bogus'" --bogus
check_bad "unexpected argument 'extra'" extra

# The report file: checked before measuring, never replaced without --force.
echo "precious" >"$TMP/exists.json"
expect_exit 2 "links -o an existing file exits 2" mpi 2 links "${FAST[@]}" -o "$TMP/exists.json"
expect_output "exists" "the refusal says why"
if [ "$(cat "$TMP/exists.json")" = precious ]; then pass "the existing file is untouched"; else fail "the existing file is untouched"; fi
if grep -q "round 1" "$TMP/out"; then fail "nothing is measured before the refusal" "$TMP/out"; else pass "nothing is measured before the refusal"; fi
expect_exit 0 "links -o an existing file with --force" mpi 2 links -q "${FAST[@]}" -o "$TMP/exists.json" --force
check_report "$TMP/exists.json" 2 "the forced report is complete"
expect_exit 2 "links -o into a missing directory exits 2" mpi 2 links -o "$TMP/no/such/l.json"
expect_exit 0 "links --help runs without mpirun" "$BIN" links --help
expect_output "fail-on-suspect" "links --help documents --fail-on-suspect"

check_all_schemas
finish
