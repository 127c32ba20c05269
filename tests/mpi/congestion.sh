#!/usr/bin/env bash
# collscope congestion under mpirun on one host (groups of ranks): every
# victim measured alone and together, the factors consistent with the
# figures, aggressors running each congestor, the splits, odd rank counts,
# verified results, the report against its schema, and bad usage. On one
# host the groups share the cores: whether they interfere is not asserted
# here (tests/cluster/congestion.sh asserts it on two racks).
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
QUICK=(--sizes 8,64K -n 20 -w 2)

# check FILE RANKS GROUPS VICTIMS: the report is consistent
check() {
	python3 - "$@" >"$TMP/py" 2>&1 <<'PY'
import json, math, sys
path, n, k, victims = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
d = json.load(open(path))
def need(cond, what):
    if not cond:
        sys.exit("report: " + what)
need(d["command"] == "congestion" and d["complete"] is True, "envelope")
s = d["summary"]
need(s["unit"] == "rank", "one host: groups of ranks")
g = s["groups"]
need(len(g) == k, "%d groups" % k)
need(sorted(r for x in g for r in x["world_ranks"]) == list(range(n)), "every rank in one group")
need([x["role"] for x in g] == ["victim"] * victims + ["aggressor"] * (k - victims), "roles")
need(all(len(x["world_ranks"]) >= 2 for x in g), "groups of 2 ranks or more")
res = d["results"]
sizes = sorted({r["bytes"] for r in res})
nv = len(d["config"]["algorithms"])
need(len(res) == 2 * victims * len(sizes) * nv, "a record alone and one together per victim and point")
for r in res:
    need(r["phase"] in ("alone", "together") and 0 <= r["group"] < victims, "group and phase")
    need(r["wrong"] == 0, "verified, nothing wrong")
    need(r["ranks"] == len(g[r["group"]]["world_ranks"]), "the record's ranks are its group's")
pts = s["points"]
need(len(pts) == victims * len(sizes) * nv, "a point per victim, size and variant")
for p in pts:
    a, t = p["busbw_alone_gbps"], p["busbw_together_gbps"]
    need(a > 0 and t > 0, "busbw both ways")
    need(math.isclose(p["factor_busbw"], a / t, rel_tol=1e-9), "factor_busbw = alone / together")
    need(math.isclose(p["factor_p50"], p["p50_together_us"] / p["p50_alone_us"], rel_tol=1e-9),
         "factor_p50 = together / alone")
    need(p["degraded"] == (p["factor_p50"] >= 1 + d["config"]["tolerance"]
                           or p["factor_mean"] >= 1 + d["config"]["tolerance"]), "degraded by the rule")
need(len(s["overall"]) == len(sizes) * nv, "an overall row per point")
need(s["verdict"] in ("interference", "no interference"), "verdict")
need(all(w.get("skipped") for w in s["where"]), "one host: no matrix")
PY
}

for n in 4 5 7; do
	expect_exit 0 "$n ranks, 2 groups" mpi "$n" congestion "${QUICK[@]}" -q -o "$TMP/c$n.json"
	check "$TMP/c$n.json" "$n" 2 2 && pass "$n ranks: report consistent" || fail "$n ranks: report" "$TMP/py"
done
expect_exit 0 "6 ranks, 3 groups, random split" mpi 6 congestion "${QUICK[@]}" --groups 3 --split random \
	--seed 5 -a ring,mpi -o "$TMP/c6.json"
expect_output "^# group 2: victim, 2 ranks" "the text names each group"
expect_output "^ring +65536 +2 " "the table has group 2's point"
check "$TMP/c6.json" 6 3 3 && pass "3 groups: report consistent" || fail "3 groups: report" "$TMP/py"
for c in alltoall incast shift; do
	expect_exit 0 "5 ranks, an aggressor running $c" mpi 5 congestion "${QUICK[@]}" --aggressors 1 \
		--congestor "$c" --congestor-bytes 64K -q -o "$TMP/a-$c.json"
	check "$TMP/a-$c.json" 5 2 1 && pass "$c: report consistent" || fail "$c: report" "$TMP/py"
done
expect_exit 0 "report draws a congestion report" "$BIN" report "$TMP/c6.json" -o "$TMP/c6.html"
python3 -c "
page = open('$TMP/c6.html').read()
assert page.count('<svg') == 2, page.count('<svg')
assert 'interference: busbw alone / together' in page and 'group 2' in page
assert 'does not know how to chart' not in page" >"$TMP/py" 2>&1 &&
	pass "the page charts both factors, a line per group" || fail "the page" "$TMP/py"
expect_exit 0 "a given split" mpi 4 congestion "${QUICK[@]}" --split 1,0,0,1 -q -o "$TMP/given.json"
python3 -c "
import json; g = json.load(open('$TMP/given.json'))['summary']['groups']
assert [x['world_ranks'] for x in g] == [[1, 2], [0, 3]], g" >"$TMP/py" 2>&1 &&
	pass "the given split puts ranks 1, 2 in group 0" || fail "given split" "$TMP/py"
expect_exit 0 "--where always on one host says why no matrix" mpi 4 congestion "${QUICK[@]}" --where always \
	-o "$TMP/where.json"
expect_output "where: group 0's host x host matrix not measured: the job runs on one host" "the reason is printed"
expect_output "where: group 1's all-reduce under the load: " "the traced all-reduce's verdict is printed"
python3 -c "
import json
for w in json.load(open('$TMP/where.json'))['summary']['where']:
    t = w['trace']
    assert t['iterations'] == 20 and t['hops'] and t['unmatched'] == 0, t
    assert isinstance(w['slow_hops'], list), w" >"$TMP/py" 2>&1 &&
	pass "each victim's last point traced under the load, hop by hop" || fail "the where trace" "$TMP/py"
expect_exit 0 "a direct variant's last point is not traced" mpi 4 congestion -n 20 -w 2 --sizes 64K -a mpi \
	--where always
expect_output "not traced: its last point ran a direct variant" "and it says so"

# hosts named apart (COLLSCOPE_TEST_HOSTS: rank r on host v<r mod 8>): groups of 4 hosts, the
# matrix on 3 of them, spread
expect_exit 0 "8 hosts, --where-hosts 3" env COLLSCOPE_TEST_HOSTS=8 "$MPIRUN" $MPIRUN_FLAGS -n 8 \
	"$BIN" congestion -n 10 -w 1 --sizes 64K --where always --where-hosts 3 --where-time 0.02 -q \
	-o "$TMP/sampled.json"
python3 -c "
import json
d = json.load(open('$TMP/sampled.json'))
assert d['summary']['unit'] == 'host', d['summary']['unit']
for w in d['summary']['where']:
    assert 'skipped' not in w and w['hosts_total'] == 4 and len(w['hosts']) == 3, w
    assert len(w['loaded_gbps']) == 3 and len(w['alone_gbps']) == 3, w
    g = d['summary']['groups'][w['group']]['hosts']
    assert w['hosts'] == [g[i * 4 // 3] for i in range(3)], (w['hosts'], g)  # spread: 0, 1, 2" \
	>"$TMP/py" 2>&1 && pass "each victim's matrix on 3 of its 4 hosts" || fail "--where-hosts" "$TMP/py"
expect_exit 2 "a group of one rank" mpi 3 congestion --split 0,0,1
expect_output "a group of 1 rank: every group needs 2 ranks or more" "names the group's size"
expect_exit 2 "a split list of the wrong length" mpi 4 congestion --split 0,1,0
expect_output "3 group indices for 4 ranks" "names the counts"
expect_exit 2 "--groups disagreeing with the list" mpi 4 congestion --groups 3 --split 0,1,0,1
expect_output "--groups 3 but --split '0,1,0,1' makes 2 groups" "names both"
expect_exit 2 "every group an aggressor" mpi 4 congestion --aggressors 2
expect_output "--aggressors 2 leaves no victim among 2 groups" "names the counts"
expect_exit 2 "more groups than pairs of ranks" mpi 4 congestion --groups 3
expect_output "--groups 3 needs at least 6 ranks" "names the need"
check_all_schemas
finish
