#!/usr/bin/env bash
# collscope topo under mpirun: the tables, the JSON report's invariants, the
# output-file rules and bad usage.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

# check_report FILE N: the topo report of an N-rank run is consistent.
check_report() {
	python3 - "$1" "$2" >"$TMP/py" 2>&1 <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
d = json.load(open(path))
def need(cond, what):
    if not cond:
        sys.exit("report: " + what)
need(d["schema_version"] == 1 and d["command"] == "topo" and d["complete"] is True, "envelope")
c = d["context"]
need(c["mpi"]["ranks"] == n and c["mpi"]["library"], "context.mpi")
need(c["timer_resolution_us"] is not None and c["timer_resolution_us"] > 0, "timer resolution")
need(c["started_utc"].endswith("Z") and c["finished_utc"] >= c["started_utc"], "times")
need([r["rank"] for r in c["ranks"]] == list(range(n)), "context.ranks in rank order")
seen = sorted(r for h in c["hosts"] for r in h["ranks"])
need(seen == list(range(n)), "every rank on exactly one host")
res = d["results"]
need([r["rank"] for r in res] == list(range(n)), "one result per rank, in order")
names = {h["name"]: h for h in c["hosts"]}
for r in res:
    need(r["host"] in names and r["rank"] in names[r["host"]]["ranks"], "rank %d's host" % r["rank"])
    need(r["pid"] > 0 and r["cpuset"] not in ("", None), "rank %d pid/cpuset" % r["rank"])
    need(r["numa"] is None or r["numa"] >= 0, "numa")
for h in c["hosts"]:
    need(h["cores"] > 0 and h["pus"] >= h["cores"] and h["numa_nodes"] >= 1, "host sizes")
    need(h["oversubscribed"] == (len(h["ranks"]) > h["cores"]), "host oversubscribed flag")
s = d["summary"]
need(s["ranks"] == n and s["hosts"] == len(c["hosts"]), "summary counts")
over = any(h["oversubscribed"] for h in c["hosts"])
need(s["oversubscribed"] == over and c["oversubscribed"] == over, "summary.oversubscribed")
need(sorted(s["oversubscribed_hosts"]) == sorted(h["name"] for h in c["hosts"] if h["oversubscribed"]),
     "oversubscribed_hosts")
need(d["config"]["output"] == path, "config.output")
PY
	local rc=$?
	if [ $rc = 0 ]; then pass "$3"; else fail "$3" "$TMP/py"; fi
}

for n in 1 2 3 4; do
	expect_exit 0 "topo at $n ranks" mpi "$n" topo -o "$TMP/topo$n.json"
	# hwloc's core count of this host, from the report
	CORES=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"]["hosts"][0]["cores"])' \
		"$TMP/topo$n.json" 2>/dev/null || echo 0)
	expect_output "^ +$((n - 1)) +[^ ]+ +[0-9]+ +[0-9,-]+ " "topo at $n ranks prints a line per rank"
	if [ "$n" -gt "$CORES" ]; then
		expect_output "yes \($n ranks on $CORES cores\)" "topo at $n ranks names the oversubscription"
	else
		expect_output ' no$' "topo at $n ranks is not oversubscribed"
	fi
	check_report "$TMP/topo$n.json" "$n" "topo report at $n ranks is consistent"
done

expect_exit 0 "topo -q prints nothing" mpi 2 topo -q
if [ -s "$TMP/out" ]; then fail "topo -q output is empty" "$TMP/out"; else pass "topo -q output is empty"; fi

# The report file: never replaced without --force, and untouched when refused.
echo "precious" >"$TMP/exists.json"
expect_exit 2 "topo -o an existing file exits 2" mpi 2 topo -o "$TMP/exists.json"
expect_output "exists" "the refusal says the file exists"
if [ "$(cat "$TMP/exists.json")" = precious ]; then pass "the existing file is untouched"; else fail "the existing file is untouched"; fi
expect_exit 0 "topo -o an existing file with --force" mpi 2 topo -q -o "$TMP/exists.json" --force
check_report "$TMP/exists.json" 2 "the forced report is complete"
expect_exit 2 "topo -o into a missing directory exits 2" mpi 1 topo -o "$TMP/no/such/dir.json"

expect_exit 2 "topo with an unknown option exits 2" mpi 1 topo --frob
expect_output "'--frob'" "the unknown option is named"
expect_exit 2 "topo with a stray argument exits 2" mpi 1 topo extra
expect_output "unexpected argument 'extra'" "the stray argument is named"
expect_exit 0 "topo --help runs without mpirun" "$BIN" topo --help
expect_output "oversubscribed" "topo --help explains oversubscription"

check_all_schemas
finish
