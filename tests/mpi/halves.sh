#!/usr/bin/env bash
# allreduce --collective reduce_scatter|allgather (issue 35): every variant
# that offers the half, at odd and even rank counts, awkward sizes, in and out
# of place, verified element by element; the others skipped with the reason;
# busbw from nccl-tests' (n-1)/n; compare keeps the collectives apart.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

check() {
	python3 - "$@" >"$TMP/py" 2>&1 <<'PY'
import json, math, sys
path, n, coll = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = json.load(open(path))
offers = {"ring", "direct", "mpi", "shm"} | ({"rabenseifner"} if n & (n - 1) == 0 else set())
measured = set()
for r in d["results"]:
    assert r["collective"] == coll, r
    if r.get("skipped"):
        assert r["algorithm"] not in offers or n == 0, r
        continue
    assert r["wrong"] == 0, r
    measured.add(r["algorithm"])
    f = (n - 1) / n
    assert math.isclose(r["busbw_gbps"], r["algbw_gbps"] * f, rel_tol=1e-9) or n == 1, r
assert measured == offers, (measured, offers)
PY
}

for coll in reduce_scatter allgather; do
	for n in 1 2 3 4 5 7 8; do
		expect_exit 0 "$coll at $n ranks, every variant" mpi "$n" allreduce --collective "$coll" -a all \
			--sizes 4,12,4100,65540 -n 5 -w 1 -q -o "$TMP/$coll$n.json"
		check "$TMP/$coll$n.json" "$n" "$coll" && pass "$coll at $n ranks: verified, the right ones skipped" ||
			fail "$coll at $n ranks" "$TMP/py"
	done
	expect_exit 0 "$coll in place, int32 max, 3 ranks" mpi 3 allreduce --collective "$coll" -a ring,direct,shm,mpi \
		--in-place -d int32 -r max --sizes 12,65540 -n 5 -w 1 -o "$TMP/$coll-ip.json"
	expect_output "^# collective $coll: sizes are the whole buffer" "the header says what the sizes are"
	expect_output "busbw = algbw x \\(n-1\\)/n" "and the bus factor"
	expect_exit 0 "$coll in place: nothing skipped, nothing wrong" python3 -c "
import json,sys; d=json.load(open('$TMP/$coll-ip.json'))
sys.exit(not all(not r.get('skipped') and r['wrong'] == 0 for r in d['results']))"
	# shm's halves need one host (AR_NEEDS_ONE_HOST): on two it is skipped, saying why
	COLLSCOPE_TEST_HOSTS=2 expect_exit 0 "$coll on 2 hosts" mpi 4 allreduce --collective "$coll" \
		-a shm,ring --sizes 4100 -n 3 -w 1 -q -o "$TMP/$coll-2h.json"
	expect_exit 0 "$coll on 2 hosts: shm skipped for its one host, ring measured" python3 -c "
import json,sys; d=json.load(open('$TMP/$coll-2h.json'))
r={x['algorithm']: x for x in d['results']}
sys.exit(not (r['shm'].get('skipped') == 'needs every rank on one host' and not r['ring'].get('skipped')))"
done
expect_exit 0 "compare keeps the collectives apart" "$BIN" compare "$TMP/reduce_scatter4.json" \
	"$TMP/allgather4.json"
expect_output "reduce_scatter ring 4100 B" "a point names its collective"
expect_exit 2 "an unknown collective" mpi 2 allreduce --collective alltoall
expect_output "'alltoall'" "names it"
check_all_schemas
finish
