#!/usr/bin/env bash
# collscope tune under mpirun (issue 33): the library's own all-reduce
# algorithms forced in turn beside its decision, at even and odd rank counts,
# every record verified and named mpi/<algorithm>; a summary point per rank
# count and size; bad names exit 2 naming themselves. Which algorithm is
# fastest is not asserted (2 shared cores); tests/bench and the README quote it.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

check() {
	python3 - "$@" >"$TMP/py" 2>&1 <<'PY'
import json, sys
path, world, algs = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
d = json.load(open(path))
def need(cond, what):
    if not cond:
        sys.exit("report: " + what)
need(d["command"] == "tune" and d["complete"] is True, "envelope")
s = d["summary"]
need(s["library_algorithms"] == algs, "the algorithms measured: %s" % s["library_algorithms"])
need(s["verdict"] == "ok" and s["wrong_total"] == 0, "verdict")
ranks = sorted({r["ranks"] for r in d["results"]})
want = sorted({n for n in [2, 4, 8] if n < world} | {world})
need(ranks == want, "rank counts %s, want %s" % (ranks, want))
sizes = sorted({r["bytes"] for r in d["results"]})
for r in d["results"]:
    need(r["algorithm"] == "mpi/" + r["library_algorithm"], "named " + r["algorithm"])
    need(not r.get("skipped") and r["wrong"] == 0, "verified: " + r["algorithm"])
    need(r["library_value"] > 0 or r["library_algorithm"] == "default", "value")
need(len(d["results"]) == len(ranks) * len(algs) * len(sizes), "every ranks x algorithm x size")
need(len(s["points"]) == len(ranks) * len(sizes), "a summary point per rank count and size")
for p in s["points"]:
    need(p["default_p50_us"] > 0 and p["fastest"] in algs[1:] and p["gain"] > 0, "point %s" % p)
PY
}

for n in 2 3; do
	expect_exit 0 "tune at $n ranks, three of the library's algorithms" mpi "$n" tune \
		--library-algorithms ring,recursive_doubling,basic_linear --sizes 12,4100,65540 -n 5 -w 1 \
		-o "$TMP/tune$n.json"
	check "$TMP/tune$n.json" "$n" default,ring,recursive_doubling,basic_linear &&
		pass "tune at $n ranks: records, names, summary" || fail "tune at $n ranks" "$TMP/py"
done
expect_output "forcing coll_tuned_allreduce_algorithm: default ring recursive_doubling basic_linear" \
	"the header says what is forced"
expect_output "^ +3 +65540 +[0-9.]+  [a-z_]+ +[0-9.]+ +[0-9.]+$" "a row per rank count and size"

# --prove: the library reads a rules file at MPI_Init (Open MPI's classic format: ring from
# 64 KiB at 2 ranks), only its decision is measured, and compare proves it against the run
# without (exit 0 or 1: which way the 2 shared cores go is not asserted, only that it judges)
printf '1\n2\n1\n2\n2\n0 0 0 0\n65536 4 0 0\n' >"$TMP/rules.conf"
expect_exit 0 "tune --prove at 2 ranks" mpi 2 tune --prove "$TMP/rules.conf" --sizes 12,4100,65540 \
	-n 12 -w 1 -o "$TMP/proof.json"
expect_output "^# --prove .*rules.conf: the library's decision with that rules file in effect" \
	"it says what it measured"
expect_exit 0 "only the decision, the rules named in the report" python3 -c "
import json,sys; d=json.load(open('$TMP/proof.json'))
sys.exit(not (d['summary']['library_algorithms'] == ['default'] and d['config']['prove'].endswith('rules.conf')
              and all(r['algorithm'] == 'mpi/default' and r['wrong'] == 0 for r in d['results'])))"
"$BIN" compare "$TMP/tune2.json" "$TMP/proof.json" >"$TMP/out" 2>&1
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] && pass "compare judges the proof against the run without (exit $rc)" ||
	fail "compare of a tune run and its proof: exit $rc" "$TMP/out"
expect_output "mpi/default 65540 B .* 2 ranks" "point by point, the decision's records matched"
expect_output "coll_tuned_dynamic_rules_filename" "and it names the rules file as what differs"
expect_exit 2 "--prove a file that is not there" "$BIN" tune --prove "$TMP/nosuch.conf" -o "$TMP/never.json"
expect_output "cannot read --prove '.*nosuch.conf'" "names it"

expect_exit 2 "an algorithm the library does not offer" mpi 2 tune --library-algorithms ring,tornado \
	--sizes 8 -n 2 -o "$TMP/never.json"
expect_output "unknown --library-algorithms 'tornado' \\(this library offers: basic_linear, " \
	"names it and lists the library's"
expect_exit 2 "one rank" mpi 1 tune --sizes 8 -n 2 -o "$TMP/never.json"
expect_output "needs 2 ranks or more" "says so"
expect_exit 2 "--ranks past the job" mpi 2 tune --ranks 2,3 --sizes 8 -o "$TMP/never.json"
expect_output "'3'" "names the count"
[ -e "$TMP/never.json" ] && fail "a refused run wrote a report" || pass "a refused run writes nothing"
check_all_schemas
finish
