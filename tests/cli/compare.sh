#!/usr/bin/env bash
# collscope compare on synthetic report pairs (tests/cli/fake_reports.py) and on
# a real run: exit 0 for identical and noisy runs, 1 naming a real slowdown, 2 for
# mismatched runs and for every unreadable input, naming the file and the problem.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
FAKE_PY=$(dirname "$0")/fake_reports.py
# fake KIND OUT [options]: a synthetic report; a fixture that cannot be made is a failure.
fake() { python3 "$FAKE_PY" "$@" >"$TMP/fake.out" 2>&1 || fail "fake_reports.py $*" "$TMP/fake.out"; }

expect_exit 0 "compare --help runs without mpirun" "$BIN" compare --help
expect_output '--threshold' "compare --help documents the threshold"
expect_output 'fewer than 9 samples' "compare --help says what happens under 9 samples"

fake allreduce "$TMP/base.json" --seed 1
fake allreduce "$TMP/same.json" --seed 1
fake allreduce "$TMP/slow.json" --seed 2 --victim tree:65536:1.3
fake allreduce "$TMP/noisy_base.json" --seed 3 --spread 0.4
fake allreduce "$TMP/noisy5.json" --seed 4 --spread 0.4 --victim ring:1048576:1.05
fake allreduce "$TMP/ranks2.json" --ranks 2
fake allreduce "$TMP/hosts2.json" --hosts 2
fake allreduce "$TMP/int32.json" --dtype int32
fake allreduce "$TMP/few_base.json" --n 5
fake allreduce "$TMP/few_slow.json" --n 5 --victim ring:1024:1.5
fake links "$TMP/links_a.json" --ranks 3 --hosts 2
fake links "$TMP/links_b.json" --ranks 3 --hosts 2 --slow 1:0

expect_exit 0 "identical runs: exit 0" "$BIN" compare "$TMP/base.json" "$TMP/same.json"
expect_output '^# ok: 0 regression, 0 untestable, 0 untested, 0 not-significant, 9 unchanged' "identical: every point unchanged"
expect_output '^# collscope compare: baseline' "the table has its header"

expect_exit 1 "+30% on one point with tight samples: exit 1" "$BIN" compare "$TMP/base.json" "$TMP/slow.json"
expect_output '^regression +tree 65536 B float32 sum 4 ranks' "the regression names the point, first"
expect_output '^# regression: 1 regression' "exactly one regression"
head -n 5 "$TMP/out" | tail -n 1 | grep -q '^regression' && pass "worst first" || fail "worst first" "$TMP/out"

expect_exit 0 "+5% with noisy samples: exit 0" "$BIN" compare "$TMP/noisy_base.json" "$TMP/noisy5.json"
# Samples spread +-40%: the middle half spans more than the 10% threshold (issue 29).
expect_output '^untestable +ring 1048576 B float32 sum 4 ranks .* its samples spread wider than the threshold' "a noisy point is untestable, and says why"
expect_output '^# untestable: 0 regression, 9 untestable' "the status is untestable, every point counted"
expect_exit 1 "--untestable fail: an untestable point fails" "$BIN" compare --untestable fail "$TMP/noisy_base.json" "$TMP/noisy5.json"
expect_output '0 regression' "noise is not a regression"
fake allreduce "$TMP/noisy_few_a.json" --seed 5 --spread 0.4 --n 12
fake allreduce "$TMP/noisy_few_b.json" --seed 6 --spread 0.4 --n 12
expect_exit 0 "12 noisy samples a side: exit 0" "$BIN" compare "$TMP/noisy_few_a.json" "$TMP/noisy_few_b.json"
expect_output 'too noisy for 10%: detects [0-9]+%, needs ~[0-9]+ samples a side to test 10%' "a too-noisy point says what it needs"
expect_output '^# 9 tested points, correction bh; .*; 9 points too noisy to judge 10%' "the summary counts the too-noisy points"
expect_exit 1 "--correction holm still fails a clear slowdown" "$BIN" compare --correction holm "$TMP/base.json" "$TMP/slow.json"
expect_output "after Holm's adjustment" "the rule names the correction"
expect_exit 1 "--correction none" "$BIN" compare --correction none "$TMP/base.json" "$TMP/slow.json"
expect_output 'no adjustment for multiple comparisons' "the rule says there is none"

expect_exit 2 "different rank counts: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/ranks2.json"
expect_output "differ in ranks 4 vs 2" "the rank counts are named"
expect_output "--allow-mismatch" "the way out is named"
expect_exit 2 "different host counts: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/hosts2.json"
expect_output "hosts 1 vs 2" "the host counts are named"
expect_exit 2 "different dtypes: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/int32.json"
expect_output "dtype float32 vs int32" "the dtypes are named"
expect_exit 0 "--allow-mismatch compares anyway" "$BIN" compare --allow-mismatch "$TMP/base.json" "$TMP/ranks2.json"
expect_output 'warning: compare: the runs differ in ranks 4 vs 2' "the mismatch is still reported"
expect_output '^baseline-only +mpi 1024 B float32 sum 4 ranks' "points of the baseline only are listed"
expect_output '^current-only +mpi 1024 B float32 sum 2 ranks' "points of the current run only are listed"

expect_exit 0 "under 9 samples: no verdict, exit 0" "$BIN" compare "$TMP/few_base.json" "$TMP/few_slow.json"
expect_output '^untested +ring 1024 B .*fewer than 9 samples a side: no significance verdict' "it says so"
expect_exit 1 "--untested fail: the threshold decides" "$BIN" compare --untested fail "$TMP/few_base.json" "$TMP/few_slow.json"

expect_exit 1 "--format markdown" "$BIN" compare --format markdown "$TMP/base.json" "$TMP/slow.json"
expect_output '^### collscope compare: regression' "markdown heading"
expect_output '^\| \*\*regression\*\* \| tree 65536 B float32 sum 4 ranks \|' "markdown row"

expect_exit 1 "-o writes the JSON" "$BIN" compare -q -o "$TMP/cmp.json" "$TMP/base.json" "$TMP/slow.json"
check_schema "$TMP/cmp.json"
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "compare" and d["schema_version"] == 1 and d["complete"] is True
assert d["summary"]["verdict"] == "regression", d["summary"]
assert d["summary"]["counts"]["regression"] == 1
r = d["results"][0]
assert r["verdict"] == "regression" and r["algorithm"] == "tree" and r["bytes"] == 65536, r
assert abs(r["p50_change_pct"] - 30) < 5 and r["p_value"] < 0.01, r
assert d["config"]["threshold_pct"] == 10 and d["config"]["alpha"] == 0.01
assert d["config"]["correction"] == "bh" and d["summary"]["correction"] == "bh"
assert r["q_value"] >= r["p_value"] and r["q_value"] < 0.01, r
assert 0 < r["mde_pct"] < 10 and r["too_noisy"] is False, r
assert d["summary"]["tested_points"] == 9 and d["summary"]["too_noisy_points"] == 0, d["summary"]
' "$TMP/cmp.json" >"$TMP/py" 2>&1; then pass "the JSON has the verdicts"; else fail "the JSON has the verdicts" "$TMP/py"; fi
[ -s "$TMP/out" ] && fail "-q prints nothing on stdout" "$TMP/out" || pass "-q prints nothing on stdout"
cp "$TMP/cmp.json" "$TMP/cmp.keep"
expect_exit 2 "-o refuses to overwrite" "$BIN" compare -o "$TMP/cmp.json" "$TMP/base.json" "$TMP/same.json"
expect_output "already exists" "it says why"
cmp -s "$TMP/cmp.json" "$TMP/cmp.keep" && pass "the old JSON is untouched" || fail "the old JSON is untouched"
expect_exit 0 "--force overwrites" "$BIN" compare -q --force -o "$TMP/cmp.json" "$TMP/base.json" "$TMP/same.json"

expect_exit 0 "links reports match by pair" "$BIN" compare --metric bandwidth "$TMP/links_a.json" "$TMP/links_b.json"
expect_output '^untested +1->0 \(node1->node0\) .*no raw samples' "a link without samples gets no verdict"
expect_exit 2 "an allreduce and a links report: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/links_a.json"
expect_output "cannot compare the allreduce report '.*base.json' with the links report" "the kinds are named"

# Every unreadable input: exit 2, naming the file and the problem.
unreadable() {
	local name=$1 text=$2 want=$3
	printf '%b' "$text" >"$TMP/$name"
	expect_exit 2 "$name: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/$name"
	expect_output "$name.*$want" "$name: names the file and '$want'"
}
V='"schema_version": 1, "command": "allreduce"'
unreadable empty.json '' 'empty'
unreadable truncated.json "{$V, \"results\": [" 'truncated'
unreadable version3.json '{"schema_version": 3, "command": "allreduce"}' 'schema_version 3 is not supported'
unreadable wrongtype.json "{$V, \"results\": [{\"algorithm\": \"ring\", \"dtype\": \"float32\", \"op\": \"sum\", \"ranks\": 4, \"bytes\": \"big\"}]}" 'results\[0\]\.bytes is not a number'
unreadable results.json "{$V, \"results\": 7}" 'results is not an array'
unreadable nan.json "{$V, \"results\": [], \"x\": NaN}" 'NaN and Infinity are not json'
unreadable huge.json "{$V, \"results\": [], \"x\": 1e999}" 'number out of range at x'
unreadable hugebytes.json "{$V, \"results\": [{\"algorithm\": \"ring\", \"dtype\": \"float32\", \"op\": \"sum\", \"ranks\": 4, \"bytes\": 1e300}]}" 'bytes is out of range'
unreadable dupkey.json "{$V, \"results\": [], \"command\": \"links\"}" "duplicate key 'command'"
unreadable notjson.json 'hello' 'not valid json'
unreadable nulescape.json "{$V, \"results\": [{\"algorithm\": \"ring\\\\u0000x\"}]}" 'a string holds .u0000'
python3 -c 'print("[" * 5000 + "]" * 5000)' >"$TMP/deep.json"
expect_exit 2 "deep nesting: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/deep.json"
expect_output 'deep.json.*nested deeper than' "deep nesting is named"
expect_exit 2 "a missing file: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/missing.json"
expect_output "missing.json.*No such file" "the missing file is named"
mkdir -p "$TMP/adir"
expect_exit 2 "a directory: exit 2" "$BIN" compare "$TMP/adir" "$TMP/base.json"
expect_output "adir.*is a directory" "the directory is named"

# Bad usage.
expect_exit 2 "one report only: exit 2" "$BIN" compare "$TMP/base.json"
expect_output "expected at least 2 reports" "it says what it expected"
expect_exit 2 "--metric of links reports on allreduce reports: exit 2" "$BIN" compare --metric latency_p50 \
	"$TMP/base.json" "$TMP/same.json"
expect_output "compare: --metric latency_p50 is a metric of links reports; these are allreduce or scale reports" \
	"the metric is named, not silently read as p50"
expect_exit 2 "--metric of allreduce reports on links reports: exit 2" "$BIN" compare --metric busbw \
	"$TMP/links_a.json" "$TMP/links_b.json"
expect_output "--metric busbw is a metric of allreduce and scale reports; these are links reports: latency_p50, latency_p99 or bandwidth" \
	"the links metrics are listed"
"$BIN" compare -o - "$TMP/base.json" "$TMP/same.json" >"$TMP/stdout.json" 2>"$TMP/out"
expect_exit 0 "-o -: the comparison's JSON alone on standard output" python3 -c "
import json, sys; sys.exit(json.load(open(sys.argv[1]))['command'] != 'compare')" "$TMP/stdout.json"
[ ! -e ./- ] && pass "-o -: no file named '-'" || fail "-o -: a file named '-' was written"
for bad in "--threshold -1" "--threshold x" "--alpha 0" "--alpha 1" "--metric p90" "--format xml" "--untested maybe" "--untestable maybe" "--correction bonferroni" "--bogus"; do
	# shellcheck disable=SC2086
	expect_exit 2 "compare $bad: exit 2" "$BIN" compare $bad "$TMP/base.json" "$TMP/same.json"
	expect_output "'${bad#* }'|'${bad}'" "compare $bad names the value"
done

# --paired: baseline and current measured one after the other, the load moving between pairs
# (every time x1.5 in the second pair): plain compare across pairs cries wolf, paired does not
fake scaled "$TMP/base_p2.json" --from "$TMP/base.json" --factor 1.5 --jitter 0.02 --seed 5
fake scaled "$TMP/same_p2.json" --from "$TMP/same.json" --factor 1.5 --jitter 0.02 --seed 6
fake scaled "$TMP/slow_p2.json" --from "$TMP/slow.json" --factor 1.5 --jitter 0.02 --seed 7
fake scaled "$TMP/base_p3.json" --from "$TMP/base.json" --factor 0.8 --jitter 0.02 --seed 8
fake scaled "$TMP/same_p3.json" --from "$TMP/same.json" --factor 0.8 --jitter 0.02 --seed 9
fake scaled "$TMP/slow_p3.json" --from "$TMP/slow.json" --factor 0.8 --jitter 0.02 --seed 10
expect_exit 1 "the load between pairs, compared two at a time: exit 1" "$BIN" compare -q "$TMP/base.json" "$TMP/same_p2.json"
expect_exit 0 "--paired, no change: exit 0" "$BIN" compare --paired "$TMP/base.json" "$TMP/same.json" "$TMP/base_p2.json" "$TMP/same_p2.json" "$TMP/base_p3.json" "$TMP/same_p3.json"
expect_output '^# Paired: 3 pairs of a baseline and a current run' "the rule says the runs are pairs"
expect_output '^# ok: 0 regression, 0 untestable, 0 untested, 0 not-significant, 9 unchanged' "paired: every point unchanged"
expect_exit 1 "--paired, +30% on one point in every pair: exit 1" "$BIN" compare --paired -o "$TMP/paired.json" "$TMP/base.json" "$TMP/slow.json" "$TMP/base_p2.json" "$TMP/slow_p2.json" "$TMP/base_p3.json" "$TMP/slow_p3.json"
expect_output '^regression +tree 65536 B float32 sum 4 ranks' "paired: the regression names the point"
expect_output '^# regression: 1 regression' "paired: exactly one"
expect_exit 0 "paired JSON: config.pairs, config.runs, and per row its pairs and t" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
c = d['config']
rows = [r for r in d['results'] if r['verdict'] == 'regression']
sys.exit(not (c['pairs'] == 3 and len(c['runs']) == 6 and rows and rows[0]['pairs'] == 3 and rows[0]['paired_t'] > 9.9))" "$TMP/paired.json"
expect_exit 0 "paired JSON: one point of 9 worse leaves the run as a whole unchanged" python3 -c "
import json, sys
w = json.load(open(sys.argv[1]))['summary']['whole_run']
sys.exit(not (w['verdict'] == 'unchanged' and w['points'] == 9 and abs(w['change_pct']) < 5 and len(w['pair_change_pct']) == 3))" "$TMP/paired.json"
# a build 30% slower at every point, in every pair: the run as a whole regresses
fake scaled "$TMP/all_p1.json" --from "$TMP/base.json" --factor 1.3 --jitter 0.02 --seed 11
fake scaled "$TMP/all_p2.json" --from "$TMP/base.json" --factor 1.95 --jitter 0.02 --seed 12
fake scaled "$TMP/all_p3.json" --from "$TMP/base.json" --factor 1.04 --jitter 0.02 --seed 13
expect_exit 1 "--paired, every point +30%: exit 1" "$BIN" compare --paired -o "$TMP/paired_all.json" "$TMP/base.json" "$TMP/all_p1.json" "$TMP/base_p2.json" "$TMP/all_p2.json" "$TMP/base_p3.json" "$TMP/all_p3.json"
expect_output '^# the run as a whole, each pair.s median over its 9 points: \+3[0-9]\.[0-9]% .*: regression' "the run as a whole, printed"
expect_exit 0 "its JSON: summary.whole_run a regression of about 30%" python3 -c "
import json, sys
w = json.load(open(sys.argv[1]))['summary']['whole_run']
sys.exit(not (w['verdict'] == 'regression' and 25 < w['change_pct'] < 35 and w['t'] > 0 and w['p_value'] < 0.01))" "$TMP/paired_all.json"
expect_exit 2 "--paired with an odd count: exit 2" "$BIN" compare --paired "$TMP/base.json" "$TMP/same.json" "$TMP/base_p2.json"
expect_output '3 reports given, an odd count' "it names the count"
expect_exit 2 "--paired with one pair: exit 2" "$BIN" compare --paired "$TMP/base.json" "$TMP/same.json"
expect_output '2 to 64 pairs' "it says how many it takes"
expect_exit 2 "three reports without --paired: exit 2" "$BIN" compare "$TMP/base.json" "$TMP/same.json" "$TMP/base_p2.json"
expect_output 'with --paired' "it names the way"

# A real run against itself.
if mpi 2 allreduce -q -a ring,mpi -b 1K -e 4K -n 20 -o "$TMP/real.json" >"$TMP/out" 2>&1; then
	check_schema "$TMP/real.json"
	expect_exit 0 "a real report against itself: exit 0" "$BIN" compare "$TMP/real.json" "$TMP/real.json"
	expect_output '^# (ok|untestable): 0 regression, [0-6] untestable, 0 untested, 0 not-significant, [0-6] unchanged' "every real point unchanged (or untestable, on a busy machine)"
else
	fail "a real allreduce run for compare" "$TMP/out"
fi

finish
