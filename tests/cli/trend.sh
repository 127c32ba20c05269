#!/usr/bin/env bash
# collscope trend on series of synthetic reports (tests/cli/fake_reports.py): a step
# at the fifth of eight is named with its size (exit 1), noise is steady (exit 0),
# the JSON is written atomically and charted by `collscope report`, and mixed
# commands or setups, undated reports and bad options exit 2 naming the problem.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
FAKE_PY=$(dirname "$0")/fake_reports.py
fake() { python3 "$FAKE_PY" "$@" >"$TMP/fake.out" 2>&1 || fail "fake_reports.py $*" "$TMP/fake.out"; }

expect_exit 0 "trend --help runs without mpirun" "$BIN" trend --help
expect_output 'E-divisive' "trend --help names the method"
expect_output '--threshold' "trend --help documents the threshold"
expect_exit 0 "collscope --help lists trend" "$BIN" --help
expect_output '^  trend ' "the command is in the table"

# Eight nightly reports; ring 64 KiB 30% slower from the fifth on. Given out of order.
steps=()
for i in 1 2 3 4 5 6 7 8; do
	f=1.0
	[ "$i" -ge 5 ] && f=1.3
	fake allreduce "$TMP/s$i.json" --seed "$i" --victim "ring:65536:$f" --started "2026-02-0${i}T03:00:00Z"
	steps+=("$TMP/s$i.json")
done
shuffled=("$TMP/s3.json" "$TMP/s8.json" "$TMP/s1.json" "$TMP/s5.json" "$TMP/s2.json" "$TMP/s7.json" "$TMP/s4.json" "$TMP/s6.json")
expect_exit 1 "a step at the fifth of eight: exit 1" "$BIN" trend "${shuffled[@]}"
expect_output '^regression +ring 65536 B float32 sum 4 ranks +8 ' "the regression names the point, first"
expect_output "step at report 5 of 8 '.*s5.json' \(2026-02-05T03:00:00Z\): [0-9.]+ -> [0-9.]+ \(\+(29|30|31)\.[0-9]%\)" "it names the fifth report and the size of the step"
expect_output '^# regression: 1 regression, 0 untestable, 0 improved, 0 shifted, 8 steady, 1 too-few' "every other point is steady"
expect_exit 0 "--threshold 40: the same step does not fail" "$BIN" trend --threshold 40 "${steps[@]}"
expect_output '^shifted +ring 65536 B' "it is a shift within the threshold"

for i in 1 2 3 4 5 6 7 8; do fake allreduce "$TMP/n$i.json" --seed "$((i + 40))" --started "2026-03-0${i}T00:00:00Z"; done
expect_exit 0 "eight reports of noise: exit 0" "$BIN" trend "$TMP"/n?.json
expect_output '^# ok: 0 regression' "noise is no regression"

expect_exit 1 "-o writes the JSON" "$BIN" trend -q -o "$TMP/trend.json" "${steps[@]}"
check_schema "$TMP/trend.json"
[ -s "$TMP/out" ] && fail "-q prints nothing on stdout" "$TMP/out" || pass "-q prints nothing on stdout"
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["command"] == "trend" and d["schema_version"] == 1 and d["complete"] is True
assert [r["path"].rsplit("/", 1)[1] for r in d["config"]["reports"]] == ["s%d.json" % i for i in range(1, 9)]
assert d["config"]["metric"] == "p50_us" and d["config"]["threshold_pct"] == 10
r = d["results"][0]
assert r["verdict"] == "regression" and r["algorithm"] == "ring" and r["bytes"] == 65536, r
assert len(r["p50_us"]) == 8 and len(r["level_p50_us"]) == 8
s = r["steps"][0]
assert len(r["steps"]) == 1 and s["report_number"] == 5 and s["report"].endswith("s5.json"), s
assert 25 < s["change_pct"] < 35 and s["after_p50_us"] > s["before_p50_us"], s
assert d["summary"]["verdict"] == "regression" and d["summary"]["counts"]["regression"] == 1
assert d["summary"]["context_changes"][0]["report_number"] == 5
' "$TMP/trend.json" >"$TMP/py" 2>&1; then pass "the JSON names the step"; else fail "the JSON names the step" "$TMP/py"; fi
cp "$TMP/trend.json" "$TMP/trend.keep"
expect_exit 2 "-o refuses to overwrite" "$BIN" trend -o "$TMP/trend.json" "${steps[@]}"
expect_output "already exists" "it says why"
cmp -s "$TMP/trend.json" "$TMP/trend.keep" && pass "the old JSON is untouched" || fail "the old JSON is untouched"
expect_exit 1 "--force overwrites" "$BIN" trend -q --force -o "$TMP/trend.json" "${steps[@]}"

expect_exit 0 "collscope report charts a trend" "$BIN" report -q "$TMP/trend.json" -o "$TMP/trend.html"
if grep -q 'Where points stepped' "$TMP/trend.html" && grep -q '<svg' "$TMP/trend.html" &&
	grep -q 'ring 65536 B float32 sum 4 ranks: regression' "$TMP/trend.html" &&
	! grep -q 'does not know how to chart' "$TMP/trend.html"; then
	pass "the page has the step's chart"
else
	fail "the page has the step's chart" "$TMP/trend.html"
fi
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$TMP/trend.html" >"$TMP/py" 2>&1 &&
	pass "the page is well-formed" || fail "the page is well-formed" "$TMP/py"

# One setup only, every report dated, readable inputs.
fake allreduce "$TMP/ranks2.json" --ranks 2 --started 2026-02-09T00:00:00Z
expect_exit 2 "a report of another rank count: exit 2" "$BIN" trend "${steps[@]}" "$TMP/ranks2.json"
expect_output "differ in ranks 4 vs 2 .*ranks2.json.*one setup" "the setups are named"
fake links "$TMP/links.json" --ranks 4 --started 2026-02-09T00:00:00Z
expect_exit 2 "a links report among allreduce reports: exit 2" "$BIN" trend "${steps[@]}" "$TMP/links.json"
expect_output "different commands: '.*' \(allreduce\) and '.*links.json' \(links\)" "the commands are named"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); del d["context"]["started_utc"]; json.dump(d, open(sys.argv[2], "w"))
' "$TMP/s1.json" "$TMP/undated.json"
expect_exit 2 "an undated report: exit 2" "$BIN" trend "$TMP/undated.json" "$TMP/s2.json" "$TMP/s3.json"
expect_output "undated.json': context.started_utc is missing" "the file is named"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d["context"]["started_utc"] = "yesterday"; json.dump(d, open(sys.argv[2], "w"))
' "$TMP/s1.json" "$TMP/yesterday.json"
expect_exit 2 "started_utc that is not a time: exit 2" "$BIN" trend "$TMP/yesterday.json" "$TMP/s2.json" "$TMP/s3.json"
expect_output "yesterday.json': context.started_utc 'yesterday' is not a UTC time" "the file and the value are named"
expect_exit 2 "--metric of links reports on allreduce reports: exit 2" "$BIN" trend --metric latency_p50 "${steps[@]}"
expect_output "trend: --metric latency_p50 is a metric of links reports; these are allreduce or scale reports: p50, p99 or busbw" \
	"the metric and the reports' own are named"
"$BIN" trend -o - "${steps[@]}" >"$TMP/stdout.json" 2>"$TMP/out"
expect_exit 0 "-o -: the trend's JSON alone on standard output" python3 -c "
import json, sys; sys.exit(json.load(open(sys.argv[1]))['command'] != 'trend')" "$TMP/stdout.json"
printf '{"schema_version": 1, "command": "allreduce", "results": [' >"$TMP/truncated.json"
expect_exit 2 "a truncated report: exit 2" "$BIN" trend "$TMP/s1.json" "$TMP/s2.json" "$TMP/truncated.json"
expect_output "truncated.json.*truncated" "the file and the problem are named"
expect_exit 2 "two reports: exit 2" "$BIN" trend "$TMP/s1.json" "$TMP/s2.json"
expect_output "expected at least 3 reports, got 2" "it says what it expected"
for bad in "--threshold -1" "--alpha 1" "--alpha x" "--metric p90" "--permutations 5" "--permutations 1.5" "--bogus"; do
	# shellcheck disable=SC2086
	expect_exit 2 "trend $bad: exit 2" "$BIN" trend $bad "${steps[@]}"
	expect_output "'${bad#* }'|'${bad}'" "trend $bad names the value"
done

finish
