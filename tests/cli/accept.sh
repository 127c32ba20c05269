#!/usr/bin/env bash
# collscope accept without MPI: --derive writes a spec from known-good reports
# (thresholds from their medians, the provenance recorded, refusals named),
# and --check-spec names every bad field of a spec with its JSON path.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

# gen KIND OUT [options]: a synthetic report of 2 hosts x 2 ranks (the schema of
# reports/README.md; only the fields accept reads), or a fixture failure.
gen() {
	python3 - "$@" >"$TMP/gen.out" 2>&1 <<'EOF' || fail "gen $*" "$TMP/gen.out"
import json, sys
kind, out, opts = sys.argv[1], sys.argv[2], sys.argv[3:]
started = opts[opts.index("--started") + 1] if "--started" in opts else "2026-12-01T10:00:00Z"
rep = {"schema_version": 1, "command": kind,
       "context": {"started_utc": started, "finished_utc": started,
                   "hosts": [{"name": "h%d" % h, "ranks": [2 * h, 2 * h + 1], "cores": 2,
                              "numa_nodes": 1, "oversubscribed": False} for h in range(2)]},
       "config": {}, "results": [], "summary": {}, "complete": True}
busbw = float(opts[opts.index("--busbw") + 1]) if "--busbw" in opts else 1.0
if kind == "links":
    k = 0
    for a in range(4):
        for b in range(4):
            if a == b:
                continue
            same = a // 2 == b // 2
            bw = 20.0 if same else [9, 10, 10, 11, 10, 12, 8, 10][k]
            k += 0 if same else 1
            rep["results"].append({"a": a, "b": b, "host_a": "h%d" % (a // 2),
                                   "host_b": "h%d" % (b // 2),
                                   "locality": "same_host" if same else "cross_host",
                                   "latency_us": {"p50": 1.0 if same else 5.0},
                                   "bandwidth_gbps": {"p50": bw}})
    rep["summary"]["suspects"] = []
    if "--suspect" in opts:
        rep["summary"]["suspects"].append({"kind": "host", "who": "h1",
                                           "reason": "host h1: 4 of 4 cross_host links at 0.1x"})
    if "--link-suspects" in opts:  # as links writes them: a link between hosts, a segment
        rep["summary"]["suspects"].append({"kind": "link", "direction": "both", "who": "h0<->h1",
                                           "host_a": "h0", "host_b": "h1", "ranks_a": [0, 1],
                                           "ranks_b": [2, 3], "reason": "link h0<->h1 slow"})
        rep["summary"]["suspects"].append({"kind": "segment", "direction": "both",
                                           "who": "h0|h1", "hosts_a": ["h0"], "hosts_b": ["h1"],
                                           "reason": "segment h0|h1 slow"})
if kind == "allreduce":
    for algo, size, bw, p99 in (("ring", 4194304, busbw, 1000.0), ("mpi", 65536, 2.0, None)):
        rep["results"].append({"algorithm": algo, "bytes": size, "dtype": "float32", "op": "sum",
                               "ranks": 4, "in_place": False, "wrong": 0,
                               "time_us": {"p50": 10.0, "p99": p99}, "busbw_gbps": bw})
        if "--collective" in opts:  # allreduce --collective: every record names the half
            rep["results"][-1]["collective"] = opts[opts.index("--collective") + 1]
json.dump(rep, open(out, "w"), indent=1)
EOF
}

# py NAME SCRIPT FILE: a Python assertion about a JSON file.
py() {
	if python3 -c "import json, sys; d = json.load(open(sys.argv[1])); $2" "$3" >"$TMP/py" 2>&1; then
		pass "$1"
	else
		fail "$1" "$TMP/py"
	fi
}

expect_exit 0 "accept --help runs without mpirun" "$BIN" accept --help
expect_output '--derive SPEC_OUT' "--help documents --derive"
expect_output '--tolerance PCT' "--help documents --tolerance"
expect_exit 0 "collscope --help lists accept" "$BIN" --help
expect_output '^  accept ' "accept is in the command list"

gen topo "$TMP/topo.json"
gen links "$TMP/links.json"
gen allreduce "$TMP/a1.json" --busbw 1.0 --started 2026-12-01T10:01:00Z
gen allreduce "$TMP/a2.json" --busbw 1.2 --started 2026-12-01T10:02:00Z
gen links "$TMP/suspect.json" --suspect

expect_exit 0 "--derive from known-good reports" "$BIN" accept --derive "$TMP/spec.json" \
	"$TMP/topo.json" "$TMP/links.json" "$TMP/a1.json" "$TMP/a2.json"
expect_output "^accept: derived '.*spec.json' from 4 reports, tolerance 10%: topology, links, verify, allreduce 2 points" \
	"it says what it derived"
py "the thresholds come from the run-to-run spread and the tolerance" '
c = d["checks"]
assert d["command"] == "accept-spec" and d["schema_version"] == 1 and d["spec_version"] == 1
assert c["topology"] == {"hosts": 2, "ranks_per_host": 2, "cores_per_host": 2,
                         "numa_nodes_per_host": 1, "allow_oversubscribed": False}, c["topology"]
assert c["links"]["min_bandwidth_gbps"] == {"same_host": 18, "cross_host": 9}, c["links"]
assert c["links"]["max_latency_us"] == {"same_host": 1.1, "cross_host": 5.5}, c["links"]
assert c["links"]["allow_suspects"] is False
p = c["allreduce"]["points"]
# busbw 1.0 and 1.2: s = 1.4826 x MAD of ln = 0.135, 1.1 x e^(-3 s) = 0.733, x 0.9 = 0.66
assert p[0] == {"variant": "ring", "bytes": 4194304, "min_busbw_gbps": 0.66, "max_p99_us": 1100}, p
assert p[1] == {"variant": "mpi", "bytes": 65536, "min_busbw_gbps": 1.8}, p
assert c["verify"]["variants"] == ["ring", "mpi"]
t = d["derived"]["thresholds"]["checks.allreduce.points[0].min_busbw_gbps"]
assert t["median"] == 1.1 and t["runs"] == 2 and t["sources"] == [2, 3], t
assert t["run_values"] == [1.0, 1.2] and abs(t["log_spread"] - 0.135155) < 1e-6 and not t["fragile"], t
# the links came from one run: fragile, and said so
assert d["derived"]["fragile"] is True
assert "checks.links.min_bandwidth_gbps.cross_host" in d["derived"]["fragile_thresholds"]
assert "checks.allreduce.points[0].min_busbw_gbps" not in d["derived"]["fragile_thresholds"]
assert [s["path"] for s in d["derived"]["sources"]][0].endswith("topo.json")
assert d["derived"]["tolerance_pct"] == 10
assert d["context"]["tool"]["name"] == "collscope"
' "$TMP/spec.json"
expect_output "warning: accept: '.*spec.json' is fragile: [0-9]+ thresholds \(checks.links.* come from a single run" \
	"a spec with thresholds from one run is called fragile"
expect_exit 0 "the derived spec checks clean" "$BIN" accept --check-spec "$TMP/spec.json"
expect_output "^accept: spec '.*' is valid: topology yes, verify 2 variants, links yes, allreduce 2 points" \
	"--check-spec says what the spec holds"

# --plan-only: what the spec would cost on 1,024 hosts of 8 ranks, without mpirun (issue 28)
expect_exit 0 "--plan-only for 1,024 hosts x 8 ranks, without mpirun" "$BIN" accept "$TMP/spec.json" \
	--plan-only --hosts 1024 --ranks-per-host 8
expect_output "^# plan: accept '.*spec.json' .*: 1024 hosts, 8192 ranks, 1 repeat; checks: topology verify links allreduce$" \
	"the plan names the spec, the job and its checks"
expect_output "^# plan: a host failing its own links checks: the links of every such host measured again" \
	"the plan says a host's links failure is measured again before it is failed"
expect_output "^# plan: verify: 2 variants, [0-9]+ checks \(verify's matrix at 8192 ranks\)" "verify's checks counted"
expect_output "^# plan: screen, 1024 hosts, 8192 ranks: 19 rounds" "the links check's plan is links' own"
expect_output "^# plan: allreduce: 2 points \(.*\), each for about 0.25 s" "the all-reduce points and their time"
expect_output "^# plan: a failing point's culprit search: about 26 runs of it .* \(2 x 10 to suspect a host, 2 x 3 to name it\)" \
	"a failing point's search: 2 ceil(log2 1024) + 2 x 3 runs"
expect_output "^# plan: about [0-9.]+ s in all \(links [0-9.]+ s and allreduce 0.5 s a repeat, x 1\)" "the total"
expect_exit 0 "--plan-only with --budget and --repeats" "$BIN" accept "$TMP/spec.json" --plan-only \
	--hosts 64 --ranks-per-host 8 --budget 60 --repeats 2
expect_output "^# plan: budget 15 s for the whole run" "links gets half the budget, shared by the repeats"
expect_output "x 2\), before verify" "every repeat counted"
expect_output "^# plan: --budget 60 s: the links check gets half of what is left" "says how --budget splits"
expect_exit 0 "--plan-only --hosts 2: no search (too few hosts)" "$BIN" accept "$TMP/spec.json" --plan-only --hosts 2
expect_output "^# plan: no culprit search: 2 hosts" "says why there is no search"
expect_exit 2 "--hosts without --plan-only" "$BIN" accept "$TMP/spec.json" --hosts 3
expect_output "accept: --hosts and --ranks-per-host go with --plan-only" "names the rule"
expect_exit 2 "--plan-only with --check-spec" "$BIN" accept --check-spec "$TMP/spec.json" --plan-only
expect_output "accept: --plan-only plans a measurement against SPEC" "names the rule"
expect_exit 2 "--ranks-per-host without --hosts" "$BIN" accept "$TMP/spec.json" --plan-only --ranks-per-host 4
expect_output "accept: --ranks-per-host 4 needs --hosts" "names the value"
expect_exit 2 "--plan-only for more ranks than a plan is made for" "$BIN" accept "$TMP/spec.json" \
	--plan-only --hosts 1048576 --ranks-per-host 4096
expect_output "accept: --hosts 1048576 x --ranks-per-host 4096 is 4294967296 ranks: at most 16777216" \
	"names the values and the bound, before reading the spec"
expect_exit 2 "--plan-only of a spec that is not there" "$BIN" accept "$TMP/none.json" --plan-only --hosts 3
expect_output "cannot read '.*none.json'" "names the file"

# a run of a half beside the all-reduce's: its points keep their collective, written only for it
gen allreduce "$TMP/rs.json" --busbw 0.5 --collective reduce_scatter --started 2026-12-01T10:04:00Z
expect_exit 0 "--derive from an all-reduce run and a reduce_scatter run" "$BIN" accept --derive \
	"$TMP/halves.json" "$TMP/a1.json" "$TMP/rs.json"
expect_output "allreduce 4 points" "a point per collective, variant and size"
py "each point keeps its collective" '
p = d["checks"]["allreduce"]["points"]
assert [q.get("collective") for q in p] == [None, None, "reduce_scatter", "reduce_scatter"], p
assert p[2]["variant"] == "ring" and p[2]["min_busbw_gbps"] == 0.45, p
' "$TMP/halves.json"
expect_exit 0 "the spec of the halves checks clean" "$BIN" accept --check-spec "$TMP/halves.json"

gen allreduce "$TMP/a3.json" --busbw 1.1 --started 2026-12-01T10:03:00Z
expect_exit 0 "--derive from three runs" "$BIN" accept --derive "$TMP/spec3.json" \
	"$TMP/a1.json" "$TMP/a2.json" "$TMP/a3.json"
grep -q "fragile" "$TMP/out" && fail "three runs: not fragile" "$TMP/out" || pass "three runs: not fragile"
py "three runs: a spread measured for every threshold" '
assert d["derived"]["fragile"] is False and d["derived"]["fragile_thresholds"] == [], d["derived"]
t = d["derived"]["thresholds"]["checks.allreduce.points[0].min_busbw_gbps"]
assert t["runs"] == 3 and t["run_values"] == [1.0, 1.2, 1.1], t
' "$TMP/spec3.json"
expect_exit 2 "one run given twice is refused" "$BIN" accept --derive "$TMP/bad.json" \
	"$TMP/a1.json" "$TMP/./a1.json"
expect_output "the same run as .*a1.json' \(allreduce started 2026-12-01T10:01:00Z\): each run counts once" \
	"it says why"
expect_exit 0 "--tolerance 25" "$BIN" accept -q --derive "$TMP/spec25.json" --tolerance 25 "$TMP/links.json"
py "--tolerance sets the margin" '
assert d["checks"]["links"]["min_bandwidth_gbps"]["cross_host"] == 7.5, d["checks"]
assert d["derived"]["tolerance_pct"] == 25
' "$TMP/spec25.json"
grep -v "warning: .* is fragile" "$TMP/out" | grep -q . && fail "-q prints nothing but the fragility warning" "$TMP/out" ||
	pass "-q prints nothing but the fragility warning"

cp "$TMP/spec.json" "$TMP/spec.keep"
expect_exit 2 "--derive refuses to overwrite" "$BIN" accept --derive "$TMP/spec.json" "$TMP/topo.json"
expect_output "already exists" "it says why"
cmp -s "$TMP/spec.json" "$TMP/spec.keep" && pass "the old spec is untouched" || fail "the old spec is untouched"
expect_exit 0 "--force replaces it" "$BIN" accept -q --force --derive "$TMP/spec.json" "$TMP/topo.json"

expect_exit 2 "a report with suspects is not known-good" "$BIN" accept --derive "$TMP/bad.json" \
	"$TMP/topo.json" "$TMP/suspect.json"
expect_output "report '.*suspect.json': summary.suspects\[0\]: host h1: 4 of 4 cross_host links at 0.1x: not a known-good run" \
	"the suspect is named"
[ -e "$TMP/bad.json" ] && fail "no spec written when refused" || pass "no spec written when refused"
gen links "$TMP/linksus.json" --link-suspects
expect_exit 2 "a report with a link between hosts and a segment suspect is not known-good" \
	"$BIN" accept --derive "$TMP/bad.json" "$TMP/topo.json" "$TMP/linksus.json"
expect_output "summary.suspects\[0\]: link h0<->h1 slow: not a known-good run" "the link is named"
expect_output "summary.suspects\[1\]: segment h0\|h1 slow: not a known-good run" "the segment is named"

printf '{"schema_version": 1, "command": "links", "results": [' >"$TMP/cut.json"
expect_exit 2 "unreadable reports are named, all of them" "$BIN" accept --derive "$TMP/bad.json" \
	"$TMP/cut.json" "$TMP/missing.json" "$TMP/topo.json"
expect_output "cut.json' is not valid json: truncated" "the truncated report is named"
expect_output "cannot read '.*missing.json'" "the missing report is named"
sed 's/"command": "topo"/"command": "scale"/' "$TMP/topo.json" >"$TMP/scale.json"
expect_exit 2 "a scale report is refused" "$BIN" accept --derive "$TMP/bad.json" "$TMP/scale.json"
expect_output "a scale report: accept reads topo, links and allreduce reports" "it says what accept reads"

for t in abc 100 -1 nan; do
	expect_exit 2 "--tolerance $t is refused" "$BIN" accept --derive "$TMP/bad.json" --tolerance "$t" "$TMP/topo.json"
	expect_output "bad value '$t' for --tolerance" "--tolerance $t is named"
done
expect_exit 2 "--derive without reports" "$BIN" accept --derive "$TMP/bad.json"
expect_output "needs the known-good reports" "it says what is missing"
# measuring, run alone (an MPI singleton): this one process is not the spec's 2 hosts
expect_exit 1 "measuring alone against a spec of 2 hosts fails" "$BIN" accept "$TMP/spec.json"
expect_output "^FAIL +TOPO_HOSTS +job +topology hosts: 1 host, expected 2" "the host count fails, named"

# Output paths are decided before anything is measured: two outputs on one file, or an output
# over the spec it reads (even with --force), are refused at once, naming both.
expect_exit 2 "--junit and -o on one file: refused before measuring" "$BIN" accept \
	--junit "$TMP/same.out" -o "$TMP/./same.out" "$TMP/spec.json"
expect_output "accept: -o '.*same.out' and --junit '.*same.out' are the same file" "both outputs named"
[ ! -e "$TMP/same.out" ] && pass "nothing written to it" || fail "something was written to it"
cp "$TMP/spec.json" "$TMP/spec.keep"
expect_exit 2 "--junit over the spec with --force: refused" "$BIN" accept --force \
	--junit "$TMP/spec.json" "$TMP/spec.json"
expect_output "accept: --junit '.*spec.json' would overwrite the spec '.*spec.json', even with --force" \
	"the output and the spec named"
cmp -s "$TMP/spec.json" "$TMP/spec.keep" && pass "the spec is untouched" || fail "the spec was overwritten"
expect_exit 2 "--derive over one of its reports: refused" "$BIN" accept --force \
	--derive "$TMP/topo.json" "$TMP/topo.json"
expect_output "--derive '.*topo.json' would overwrite the report" "the derived spec and the report named"
expect_exit 2 "--derive -: refused, not a file named '-'" "$BIN" accept --derive - "$TMP/topo.json"
expect_output "'-' \(standard output\) is an output of report, compare and trend only" "it says where '-' means stdout"
expect_exit 2 "an unknown option" "$BIN" accept --derivee x
expect_output "unknown option '--derivee'" "the option is named"

cat >"$TMP/typos.json" <<'EOF'
{"schema_version": 1, "command": "accept-spec", "spec_version": 1,
 "checks": {"topology": {"hosts": 0, "ranks_per_hots": 2},
            "links": {"min_bandwidth_gbps": {"cross_host": "fast"}},
            "verify": {"variants": ["rnig"]},
            "allreduce": {"dtype": "float16", "points": [{"variant": "ring", "bytes": 8},
                                                         {"collective": "reduce_scater", "variant": "ring",
                                                          "bytes": 16, "max_p99_us": 1}]}}}
EOF
expect_exit 2 "a bad spec: exit 2" "$BIN" accept --check-spec "$TMP/typos.json"
expect_output "accept: spec '.*typos.json': checks.topology.ranks_per_hots: unknown field \(did you mean 'ranks_per_host'\?" \
	"a typo is named with its path and the field meant"
expect_output "checks.topology.hosts: expected a whole number of hosts from 1 to 1000000000, got 0" "hosts 0"
expect_output 'checks.links.min_bandwidth_gbps.cross_host: expected a number > 0, got "fast"' "a string threshold"
expect_output "checks.verify.variants\[0\]: unknown variant \"rnig\" \(did you mean 'ring'\?" "an unknown variant, against the registry"
expect_output "checks.allreduce.dtype: unknown dtype \"float16\"" "an unknown dtype"
expect_output "checks.allreduce.points\[0\]: no threshold" "a point without a threshold"
expect_output "checks.allreduce.points\[1\].collective: unknown collective \"reduce_scater\" \(did you mean 'reduce_scatter'\?" \
	"an unknown collective"
[ "$(grep -c 'collscope: error: accept: spec' "$TMP/out")" = 7 ] && pass "every problem on a line of its own" ||
	fail "every problem on a line of its own" "$TMP/out"
python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d['checks']['allreduce']['points'][0]['bytes'] = 2**53; json.dump(d, open(sys.argv[2], 'w'))" \
	"$TMP/spec3.json" "$TMP/huge.json"
expect_exit 2 "a point of 2^53 bytes is refused" "$BIN" accept --check-spec "$TMP/huge.json"
expect_output "checks.allreduce.points\[0\].bytes: expected a whole number of bytes from 1 to 1099511627776, got 9007199254740992" \
	"the value and the bound are named"

printf '{"schema_version": 1, "command": "accept-spec", "spec_version": 1, "checks": {"topology": {"hosts": 2, "hosts": 3}}}' >"$TMP/dup.json"
expect_exit 2 "a spec with a key given twice" "$BIN" accept --check-spec "$TMP/dup.json"
expect_output "duplicate key 'hosts' in checks.topology" "the reader names it"
expect_exit 2 "a report is not a spec" "$BIN" accept --check-spec "$TMP/links.json"
expect_output "command: expected \"accept-spec\", got \"links\": a report, not an accept spec" "it says so"
expect_exit 2 "a missing spec" "$BIN" accept --check-spec "$TMP/nope.json"
expect_output "cannot read '.*nope.json'" "it is named"

finish
