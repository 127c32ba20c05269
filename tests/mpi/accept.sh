#!/usr/bin/env bash
# collscope accept under mpirun on local ranks: a spec derived from good runs
# passes, an unreachable threshold fails with its fault code in the text, the
# report and the JUnit file, a bad spec is refused naming every bad field.
# The virtual cluster's suite adds a slowed host and its culprit search.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

LINKS=(-n 50 -w 5 --bw-iters 3 --bw-warmup 1 --bw-bytes 256K --window 4)
expect_exit 0 "topo for the spec" mpi 2 topo -q -o "$TMP/topo.json"
expect_exit 0 "links for the spec" mpi 2 links -q "${LINKS[@]}" -o "$TMP/links.json"
expect_exit 0 "allreduce for the spec" mpi 2 allreduce -q -a ring,mpi --sizes 8,256K -n 50 \
	-o "$TMP/ar.json"
# 90%: a minimum at a tenth of what the good run measured, a maximum at 1.9x; on 2 shared
# cores the figures of two runs a minute apart differ by more than that in latency, so the
# spec keeps bandwidth and busbw thresholds only (latency and p99 are judged below, by hand)
expect_exit 0 "a spec derived from them" "$BIN" accept --derive "$TMP/derived.json" \
	--tolerance 90 "$TMP/topo.json" "$TMP/links.json" "$TMP/ar.json"
expect_output "warning: accept: .*derived.json' is fragile: [0-9]+ thresholds \(" \
	"derived from single runs: fragile, and said so"
python3 "$(dirname "$0")/../bandwidth_spec.py" "$TMP/derived.json" "$TMP/spec.json"
expect_exit 0 "accept passes a run of the same setup" mpi 2 accept "${LINKS[@]}" "$TMP/spec.json" \
	-o "$TMP/acc.json" --junit "$TMP/acc.xml"
expect_output "^accept: PASS: [0-9]+ checks on 1 host" "it says PASS, with the count"
expect_output "warning: accept: spec '.*spec.json' is fragile" "accept warns of a fragile spec"
expect_output "^PASS +- +job +allreduce ring 256 KiB busbw: " "one line per check"
expect_output "^HOST +[^ ]+ +PASS" "one line per host"
expect_exit 0 "its report is complete, every check there" python3 -c "
import json, sys
d = json.load(open('$TMP/acc.json'))
assert d['command'] == 'accept' and d['complete'] is True, d['command']
assert d['summary']['verdict'] == 'PASS', d['summary']
kinds = {r['kind'] for r in d['results']}
assert kinds == {'topology', 'verify', 'links', 'allreduce'}, kinds
assert d['config']['spec']['checks']['allreduce']['points'], d['config']
# the links check measured as told: links' options, echoed in the config
assert d['config']['bw_bytes'] == 262144 and d['config']['window'] == 4, d['config']
# and the report says what it covered (issue 28): 2 ranks of 1 host, all pairs
c = d['summary']['coverage']
assert c['pattern'] == 'pairs' and c['pairs_measured'] == 1 and c['rounds'] >= 1, c
# and what its links check confirmed (a list, as links' summary.suspects)
assert isinstance(d['summary']['links_suspects'], list), d['summary']
"
check_schema "$TMP/acc.json" -- "accept's report, its summary and the links check's coverage"
expect_exit 0 "its JUnit file parses, no failure" python3 -c "
import xml.dom.minidom as m
x = m.parse('$TMP/acc.xml')
assert x.getElementsByTagName('testsuite') and not x.getElementsByTagName('failure')
"

# thresholds from the spread of several runs: not fragile, and a run of the same setup passes
for i in 2 3; do
	expect_exit 0 "allreduce run $i for the spec" mpi 2 allreduce -q -a ring,mpi --sizes 8,256K \
		-n 50 -o "$TMP/ar$i.json"
done
expect_exit 0 "a spec derived from three runs" "$BIN" accept --derive "$TMP/derived3.json" \
	--tolerance 50 "$TMP/topo.json" "$TMP/ar.json" "$TMP/ar2.json" "$TMP/ar3.json"
grep -q "fragile" "$TMP/out" && fail "three runs: no fragility warning" "$TMP/out" ||
	pass "three runs: no fragility warning"
expect_exit 0 "every threshold from 3 runs, with its spread" python3 -c "
import json
d = json.load(open('$TMP/derived3.json'))['derived']
assert d['fragile'] is False and d['fragile_thresholds'] == [], d
t = d['thresholds']['checks.allreduce.points[0].min_busbw_gbps']
assert t['runs'] == 3 and len(t['run_values']) == 3 and t['log_spread'] is not None, t
assert t['threshold'] <= min(t['run_values']) * 0.5, t
"
# measured against the same three runs at 90%, as the single run's spec above: three runs a
# minute apart can agree closely and the next one still read half of them beside the other
# suites on 2 shared cores (256 KiB busbw 0.87 GB/s against a minimum of 0.98 from runs at 1.96+
# in a CI run of 1ae2223); what this check asks is that a spread-derived spec is not fragile
expect_exit 0 "the three runs' spec at 90% to measure against" "$BIN" accept --derive \
	"$TMP/derived3m.json" --tolerance 90 "$TMP/topo.json" "$TMP/ar.json" "$TMP/ar2.json" \
	"$TMP/ar3.json"
python3 "$(dirname "$0")/../bandwidth_spec.py" "$TMP/derived3m.json" "$TMP/spec3.json"
expect_exit 0 "accept passes against the spec of three runs" mpi 2 accept -q "$TMP/spec3.json"
grep -q "fragile" "$TMP/out" && fail "no fragility warning measuring" "$TMP/out" ||
	pass "no fragility warning measuring"

# --plan-only under mpirun plans the job itself and measures nothing (no report)
expect_exit 0 "accept --plan-only under mpirun" mpi 3 accept "${LINKS[@]}" --plan-only "$TMP/spec.json" \
	-o "$TMP/plan.json"
expect_output "^# plan: accept '.*spec.json'.*: 1 host, 3 ranks, 1 repeat; checks:" "the plan of the job"
expect_output "^# plan: pairs, 1 host, 3 ranks: 3 rounds" "its links check's plan"
expect_exit 0 "--plan-only writes no report" test ! -e "$TMP/plan.json"

# --budget bounds the run: spent at once, the links check measures next to nothing (its own
# budget, a sliver) and no all-reduce point starts: each fails as not measured, exit 1
expect_exit 1 "accept --budget spent before the points: they fail, never pass" mpi 2 accept \
	"${LINKS[@]}" --budget 0.001 --repeats 2 "$TMP/spec.json" -o "$TMP/budget.json"
expect_output "^FAIL +AR_NOT_MEASURED +job +allreduce ring 8 B busbw: not measured \(skipped: --budget spent\)" \
	"a point left out says so"
expect_output "^# --budget spent: 4 all-reduce points not measured \(each fails\), 0 culprit searches not run" \
	"the run says what the budget left out"
expect_output "accept: --budget spent: 1 of 2 repeats judged" "no second repeat starts past it"
expect_exit 0 "the report records the budget and the points left out" python3 -c "
import json
d = json.load(open('$TMP/budget.json'))
assert d['complete'] and d['config']['budget_s'] == 0.001, d['config']
"
expect_exit 0 "a budget the run fits in changes nothing" mpi 2 accept -q "${LINKS[@]}" --budget 10m \
	"$TMP/spec.json"

# a gate never passes on nothing: one rank moves no data, so its point is not a measurement
python3 - "$TMP/spec.json" "$TMP/p99only.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["checks"] = {"allreduce": {"points": [{"variant": "ring", "bytes": 8, "max_p99_us": 1e9}]}}
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 1 "a point measured on one rank fails, never passes" mpi 1 accept "$TMP/p99only.json"
expect_output "^FAIL +AR_NOT_MEASURED +job +allreduce ring 8 B p99: not measured \(1 rank: one rank moves no data\)" \
	"AR_NOT_MEASURED names the point and why"

# an unreachable threshold, and a latency nobody has: FAIL with their fault codes
python3 - "$TMP/spec.json" "$TMP/fail.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["checks"]
c["allreduce"]["points"][-1]["min_busbw_gbps"] = 1e6
c["allreduce"]["points"][0]["max_p99_us"] = 0.000001
c["links"]["max_latency_us"] = {"same_numa": 0.000001}
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 1 "accept fails a spec the job cannot meet" mpi 2 accept "$TMP/fail.json" -o \
	"$TMP/accf.json" --junit "$TMP/accf.xml"
expect_output "^FAIL +AR_BUSBW_LOW +job +allreduce mpi 256 KiB busbw: .* < min 1e\+06 GB/s" \
	"the all-reduce point fails with AR_BUSBW_LOW and its figures"
expect_output "^FAIL +LINK_LAT_HIGH +job +links latency same_numa" "the latency fails with LINK_LAT_HIGH"
expect_output "^FAIL +AR_P99_HIGH +job +allreduce ring 8 B p99: " "a p99 nobody has fails with AR_P99_HIGH"
expect_output "^HOST +[^ ]+ +FAIL +own checks: .*LINK_LAT_HIGH" "the host fails on its own checks"
expect_output "^accept: FAIL: " "the summary says FAIL"
expect_exit 0 "the report and the JUnit file name the faults" python3 -c "
import json, xml.dom.minidom as m
d = json.load(open('$TMP/accf.json'))
faults = {r['fault'] for r in d['results'] if r['status'] == 'FAIL'}
assert {'AR_BUSBW_LOW', 'AR_P99_HIGH', 'LINK_LAT_HIGH'} <= faults, faults
types = {f.getAttribute('type') for f in m.parse('$TMP/accf.xml').getElementsByTagName('failure')}
assert {'AR_BUSBW_LOW', 'LINK_LAT_HIGH'} <= types, types
"

# the host failing the unreachable latency: measured again, and it reproduced (issue 29)
expect_exit 0 "a failure that reproduces measured again stands" python3 -c "
import json
d = json.load(open('$TMP/accf.json'))
r = [r for r in d['results'] if r['host'] and r['fault'] == 'LINK_LAT_HIGH']
assert r and all(x['status'] == 'FAIL' and x['measured_again'] > 0 for x in r), r
assert all('measured again: ' in x['detail'] and 'reproduced' in x['detail'] for x in r), r
assert all(h['status'] == 'FAIL' and h['failed_own'] for h in d['summary']['hosts']), d['summary']
"

# A host's own links failure must reproduce (issue 29): on 3 emulated hosts (ranks round
# robin: h0 holds 0 and 3), pair 0-3 slowed 1e5x in the first measurement only (a core taken
# for a moment) fails h0's same-host check; its links measured again beside control hosts
# pass: INCONCLUSIVE, no host failed, exit 1 (the figure did fail). The minima are 10 MB/s,
# by hand: 6 ranks on 2 cores spread 20x between runs (a spec derived from one run failed
# the pair measured again), but never to 10 MB/s, nor past 1 TB/s slowed 1e5x
export COLLSCOPE_TEST_HOSTS=3
cat >"$TMP/spec3h.json" <<'JSON'
{"schema_version": 1, "command": "accept-spec", "spec_version": 1, "checks": {"links": {
 "min_bandwidth_gbps": {"same_numa": 0.01, "cross_host": 0.01}, "allow_suspects": true}}}
JSON
expect_exit 1 "a transient slow pair: accept exits 1" mpi 6 accept "${LINKS[@]}" "$TMP/spec3h.json" \
	--test-slow-link 0:3:100000 -o "$TMP/acc3h.json" --junit "$TMP/acc3h.xml"
expect_output "failed their own links checks: their links measured again" "it says it measures again"
expect_output "^INCONCLUSIVE +LINK_BW_LOW +vm-v0 +links bandwidth same_numa: .*measured again: .* passed: not reproduced" \
	"the host's check is INCONCLUSIVE, with the figure measured again"
expect_output "^HOST +vm-v0 +INCONCLUSIVE +own checks not confirmed when measured again: LINK_BW_LOW" \
	"the host is INCONCLUSIVE, not failed"
expect_output "^accept: INCONCLUSIVE: .*no host to blame" "the summary names no host"
expect_exit 0 "the report and the JUnit file name no host" python3 -c "
import json, xml.dom.minidom as m
d = json.load(open('$TMP/acc3h.json'))
s = d['summary']
assert s['verdict'] == 'INCONCLUSIVE' and s['inconclusive'] >= 1, s
assert not [h for h in s['hosts'] if h['status'] in ('FAIL', 'INTERMITTENT')], s['hosts']
assert d['config']['test_slow_link'] == {'a': 0, 'b': 3, 'factor': 100000}, d['config']
x = m.parse('$TMP/acc3h.xml')
assert not x.getElementsByTagName('failure'), x.toxml()
assert any('INCONCLUSIVE LINK_BW_LOW on vm-v0' in k.getAttribute('message')
           for k in x.getElementsByTagName('skipped')), x.toxml()
"
check_schema "$TMP/acc3h.json" -- "an INCONCLUSIVE accept report"
# the ranks outside the re-test (h2's) wait for it, idle: longer than --timeout, never a hang
# (they had been named hung, exit 4, waiting at 'links re-measure of suspect 4')
expect_exit 1 "a re-test longer than --timeout: the ranks outside it are no hang" mpi 6 accept \
	"${LINKS[@]}" --bw-iters 20 --bw-time 2 --timeout 2 "$TMP/spec3h.json" --test-slow-link 0:3:100000
expect_output "^accept: INCONCLUSIVE: " "it ends with its verdict"
expect_exit 2 "--test-slow-link past the job's ranks is refused" mpi 6 accept "$TMP/spec3h.json" \
	--test-slow-link 0:6:50
expect_output "accept: bad value '0:6:50' for --test-slow-link: the job has ranks 0 to 5" \
	"naming the bad value"
unset COLLSCOPE_TEST_HOSTS

# a bad spec: every bad field named by its path, exit 2, nothing measured
python3 - "$TMP/spec.json" "$TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["checks"]
c["links"]["min_bandwith_gbps"] = c["links"].pop("min_bandwidth_gbps")
c["allreduce"]["points"][0]["variant"] = "ringg"
c["allreduce"]["points"][1]["bytes"] = "big"
json.dump(d, open(sys.argv[2], "w"))
PY
expect_exit 2 "a bad spec exits 2" mpi 2 accept "$TMP/bad.json" -o "$TMP/never.json"
expect_output "checks.links.min_bandwith_gbps: unknown field.*min_bandwidth_gbps" "a typo is named with its path"
expect_output "checks.allreduce.points\[0\].variant: unknown variant .ringg." "an unknown variant is named"
expect_output "checks.allreduce.points\[1\].bytes: " "a field of the wrong type is named"
[ -e "$TMP/never.json" ] && fail "a bad spec wrote a report" || pass "a bad spec writes no report"
expect_exit 2 "a missing spec exits 2" mpi 2 accept "$TMP/nosuch.json"
expect_output "nosuch.json" "it names the file"
echo '{}' >"$TMP/exists.xml"
expect_exit 2 "an existing --junit file is refused before anything runs" mpi 2 accept \
	"$TMP/spec.json" --junit "$TMP/exists.xml"
expect_output "exists.xml" "the file is named"
expect_exit 2 "measuring needs the spec" mpi 2 accept
expect_output "expected SPEC" "it says so"
expect_exit 0 "accept --help runs without mpirun" "$BIN" accept --help
expect_output "culprit|halves" "--help describes the culprit search"

finish
