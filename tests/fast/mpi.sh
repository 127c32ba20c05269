#!/usr/bin/env bash
# The fast tier's MPI runs (make check-fast): every measuring command once,
# small, at 1-3 ranks, so an edit that breaks the MPI path shows up in seconds.
# The full suites (tests/mpi, tests/cluster) run in make check.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

for n in 1 2 3; do
	expect_exit 0 "verify at $n ranks, small counts" mpi "$n" verify --counts 0,1,7,1031 \
		-d float32,int64,bfloat16 -r sum,max
	expect_output '^  ring +[0-9]+ +0 +0  ok$' "verify at $n ranks prints its lines"
done

expect_exit 0 "allreduce at 2 ranks" mpi 2 allreduce -q -a ring,tree,mpi -b 8 -e 64K -f 8 -n 10 \
	-w 1 -o "$TMP/ar.json"
expect_exit 0 "its report is complete, with every point and the command line whole" python3 -c "
import json, sys
d = json.load(open('$TMP/ar.json'))
assert d['complete'] is True and d['command'] == 'allreduce'
assert len(d['results']) == 3 * 5, len(d['results'])  # 8 B .. 32 KiB by 8
assert 'ring,tree,mpi' in d['context']['argv'], d['context']['argv']
assert d['config']['algorithms'] == ['ring', 'tree', 'mpi'] and d['config']['iters'] == 10
"
expect_exit 0 "scale at 3 ranks" mpi 3 scale -q -a ring,mpi -b 8 -e 1K -n 10 -w 1 \
	--extrapolate none -o "$TMP/scale.json"
expect_exit 0 "links at 3 ranks" mpi 3 links -q -n 20 -w 2 --bw-iters 2 --bw-warmup 0 \
	--bw-bytes 64K --window 2 -o "$TMP/links.json"
expect_exit 0 "topo at 2 ranks" mpi 2 topo -q -o "$TMP/topo.json"
expect_exit 0 "watch at 2 ranks, 1 s" mpi 2 watch -q --duration 1 --period 0.2 --duty-percent 100 \
	--small-iters 5 --large-bytes 64K --large-iters 2 --lat-time 0 -n 20 --bw-time 0 \
	--bw-iters 2 --bw-bytes 64K --metrics "$TMP/watch.prom" -o "$TMP/watch.json"
expect_exit 0 "its metrics file is valid OpenMetrics" python3 "$(dirname "$0")/../openmetrics_check.py" \
	"$TMP/watch.prom"
check_schema "$TMP/ar.json" "$TMP/scale.json" "$TMP/links.json" "$TMP/topo.json" "$TMP/watch.json" \
	-- "the reports of allreduce, scale, links, topo and watch"

# Options are parsed before MPI starts: under mpirun a bad one exits 2, said once, not per rank.
expect_exit 2 "a bad option under mpirun exits 2" mpi 3 allreduce -e 8Gx
expect_output "bad value '8Gx' for --max-bytes" "the bad value is named"
expect_exit 0 "and it is said once" test "$(grep -c "bad value '8Gx'" "$TMP/out")" = 1
expect_exit 2 "a rank-dependent check (--ranks past N) exits 2" mpi 2 scale --ranks 3
expect_output "bad value '3' in --ranks '3'.*the job has 2 ranks" "it names the value and N"

finish
