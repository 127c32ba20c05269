#!/usr/bin/env bash
# collscope allreduce under mpirun: report invariants at 2, 3 and 4 ranks.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
CHECK="python3 $(dirname "$0")/check_allreduce_report.py"
ALL=$(all_variants) # what the default '-a all' measures: not the guideline mock-ups
GUIDE=mpi,mpi-reduce-bcast,mpi-rs-allgather

for n in 2 3 4; do
	expect_exit 0 "allreduce at $n ranks" mpi "$n" allreduce -b 8 -e 256K -f 8 \
		--time-per-size 0.02 -o "$TMP/ar$n.json"
	expect_output '^# peak busbw per variant' "allreduce at $n ranks prints the peak per variant"
	expect_exit 0 "allreduce report at $n ranks keeps every invariant" $CHECK "$TMP/ar$n.json" "$n" "$ALL"
	check_schema "$TMP/ar$n.json"
done

# The guideline mock-ups are never implied by 'all': the default runs above
# have none. Named, at 3 ranks and at counts no rank count divides, every
# point is measured and right.
expect_exit 0 "the default run leaves out the guideline mock-ups" python3 -c "
import json,sys; d=json.load(open('$TMP/ar3.json'))
sys.exit(bool({r['algorithm'] for r in d['results']} & {'mpi-reduce-bcast','mpi-rs-allgather'}))"
expect_exit 0 "allreduce of mpi and its guideline mock-ups at 3 ranks" mpi 3 allreduce -a "$GUIDE" \
	--sizes 8,1000,4K,64K,1M -n 20 -w 2 -o "$TMP/guide.json"
expect_exit 0 "the mock-ups' report keeps every invariant" $CHECK "$TMP/guide.json" 3 "$GUIDE"
expect_exit 0 "every point of the mock-ups measured, none wrong" python3 -c "
import json,sys; r=json.load(open('$TMP/guide.json'))['results']
sys.exit(not (len(r) == 15 and all('skipped' not in x and x['wrong'] == 0 for x in r)))"
check_schema "$TMP/guide.json"

# A fixed count of 150 gives p99 but no p99.9; in place; other dtypes and ops.
expect_exit 0 "fixed -n 150, in place, bfloat16 max" mpi 3 allreduce -n 150 -w 1 -e 64K -f 16 \
	--in-place -d bfloat16 -r max -o "$TMP/fixed.json"
expect_exit 0 "fixed-count report invariants" $CHECK "$TMP/fixed.json" 3 "$ALL"
check_schema "$TMP/fixed.json"
expect_exit 0 "the fixed count is what was run" python3 -c "
import json,sys; d=json.load(open('$TMP/fixed.json'))
sys.exit(not all(r['iterations']==150 and r['in_place'] and r['dtype']=='bfloat16' for r in d['results']))"

# The acceptance gate: nothing reaches 1e5 GB/s; every variant is named.
expect_exit 1 "--min-busbw fails below the gate" mpi 2 allreduce -a ring,tree -b 1K -e 4K \
	-n 20 --min-busbw 100000 -q
expect_output "ring: busbw .* below --min-busbw" "the gate names ring"
expect_output "tree: busbw .* below --min-busbw" "the gate names tree"
expect_exit 0 "--min-busbw passes at 0" mpi 2 allreduce -a ring -b 1K -e 4K -n 20 --min-busbw 0 -q
# A gate never passes on nothing: a point not measured (0 bytes: no element to
# reduce, skipped) fails even --min-busbw 0, naming the point; sub-element sizes
# are bad input before anything runs.
expect_exit 1 "--min-busbw fails on a skipped point" mpi 2 allreduce -a ring --sizes 0 -n 5 \
	--min-busbw 0 -o "$TMP/gate0.json"
expect_output "ring at 0 bytes: skipped \(message smaller than one element\): --min-busbw 0 fails on a point not measured" \
	"it names the point and why"
expect_output "^#   ring +not measured: 1 point skipped" "the summary says it was not measured"
cp "$TMP/out" "$TMP/gate0.out" # expect_exit rewrites out before grep could read it
expect_exit 1 "no '0.000 GB/s at 0 bytes', no nan" grep -Eqw "nan|0\.000 GB/s at 0 bytes" "$TMP/gate0.out"
expect_exit 0 "the report's summary lists it below the gate" python3 -c "
import json,sys; s=json.load(open('$TMP/gate0.json'))['summary']
sys.exit(not (s['below_min_busbw'] == ['ring'] and s['verdict'] == 'below min busbw'))"
expect_exit 2 "--sizes 3 is bad input, not a 0-byte point" mpi 2 allreduce -a ring --sizes 3 --min-busbw 0
expect_output "the size 3 is less than one float32 element" "it names the size"

# A progress line owns its line: written whole (text and newline at once), so
# that with stdout and stderr merged no table row lands inside it. Rank 0's
# writes, traced (a singleton: rank 0 is this process).
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
	expect_exit 0 "allreduce, its writes traced" strace -qq -e trace=write -e signal=none -s 65536 \
		-o "$TMP/writes" "$BIN" allreduce -a ring,tree -b 1K -e 4K -n 3 -w 1
	# shellcheck disable=SC2016 # a Python program
	expect_exit 0 "every write to stdout or stderr ends a line" python3 -c '
import re, sys
w = [l for l in open(sys.argv[1]) if re.match(r"write\((1|2),", l)]
bad = [l for l in w if not re.search(r"\\n\", \d+\) += \d+$", l)]
print(len(w), "writes;", len(bad), "end inside a line:", *bad[:5], sep="\n")
sys.exit(len(w) < 6 or bool(bad))' "$TMP/writes"
else
	skip_check "progress lines written whole" "no strace, or ptrace not permitted"
fi

# CSV: a header and one line per point, comma-separated.
expect_exit 0 "--format csv" mpi 2 allreduce -a ring,mpi -b 8 -e 64 -n 5 --format csv -q
expect_output '^size_bytes,count,type,redop,algorithm,p50_us,p99_us,algbw_gbps,busbw_gbps,wrong$' \
	"csv header"
expect_output '^64,16,float32,sum,mpi,' "csv row"

# Reports are never overwritten without --force; the old file stays as it was.
echo '{"keep": true}' >"$TMP/exists.json"
expect_exit 2 "an existing report is not overwritten" mpi 2 allreduce -e 64 -n 2 -o "$TMP/exists.json"
expect_exit 0 "the existing report is untouched" grep -q '"keep": true' "$TMP/exists.json"
expect_exit 0 "--force overwrites" mpi 2 allreduce -e 64 -n 2 -q -o "$TMP/exists.json" --force
expect_exit 0 "the forced report is complete" grep -Eq '"complete":[[:space:]]*true' "$TMP/exists.json"

# Memory against the budget (4 x the largest message + 64 MiB). With shm each
# rank maps half of its peer's shared buffers: its resident size, which
# counts them in full, is over the budget at 96 MiB (~5 x), while the
# proportional size, on which the budget is then judged, holds ~4 x per rank.
expect_exit 0 "allreduce with shm at 96 MiB" mpi 2 allreduce -a ring,shm -b 96M -e 96M -n 3 -w 1 \
	-q -o "$TMP/mem.json"
expect_output "^# peak memory: .* MiB resident on rank .* MiB proportional on rank .*budget 448.0 MiB" \
	"it prints both sizes and the budget"
expect_exit 0 "judged on the proportional size, within budget, the resident size over it" python3 -c "
import json,sys; m=json.load(open('$TMP/mem.json'))['summary']['memory']; S=96<<20
print(m)
sys.exit(not (m['judged_on']=='peak_pss_bytes' and m['within_budget'] and m['budget_bytes']==4*S+(64<<20)
              and 3.5*S <= m['peak_pss_bytes'] <= m['budget_bytes'] < m['peak_rss_bytes']))"
expect_exit 0 "allreduce without shm at 96 MiB" mpi 2 allreduce -a ring -b 96M -e 96M -n 3 -w 1 \
	-q -o "$TMP/mem-private.json"
expect_exit 0 "judged on the resident size, within budget" python3 -c "
import json,sys; m=json.load(open('$TMP/mem-private.json'))['summary']['memory']
print(m)
sys.exit(not (m['judged_on']=='peak_rss_bytes' and m['within_budget']
              and m['peak_pss_bytes'] <= m['peak_rss_bytes'] <= m['budget_bytes']))"

# No room for shm's shared window (the library backs it with a sparse file; a
# full directory would end the job with SIGBUS): shm is skipped with the
# reason, once per host on stderr, and every other variant still runs. Open
# MPI's directory is a setting; MPICH's is /dev/shm, so there a small tmpfs
# takes its place, in a mount namespace of the run's own (root only).
noshm_run() {
	case $COLLSCOPE_MPI in
	openmpi)
		NOSHM_DIR=$TMP/no-such-dir
		OMPI_MCA_osc_sm_backing_directory=$NOSHM_DIR expect_exit 0 "$1" \
			mpi 2 allreduce -a ring,shm -e 64 -n 3 -q -o "$TMP/noshm.json"
		;;
	mpich)
		# room for MPICH's and UCX's own segments (~5 MiB a rank), not for 2 x 2 x 16 MiB
		NOSHM_DIR=/dev/shm
		expect_exit 0 "$1" unshare --mount sh -c 'mount -t tmpfs -o size=24m tmpfs /dev/shm && exec "$@"' \
			sh timeout 600 "$MPIRUN" $MPIRUN_FLAGS -n 2 "$BIN" allreduce -a ring,shm -b 16M -e 16M -n 3 -q \
			-o "$TMP/noshm.json"
		;;
	esac
}
if [ "$COLLSCOPE_MPI" = mpich ] && ! unshare --mount true 2>/dev/null; then
	skip_check "allreduce without room for a shared window" "MPICH's /dev/shm can be replaced only as root"
else
	noshm_run "allreduce without room for a shared window still runs"
	expect_output "^\[rank 0\] allreduce: warning: no room for a shared-memory window: .*'$NOSHM_DIR'" \
		"it says why, naming the directory"
	cp "$TMP/out" "$TMP/noshm.out" # (expect_exit writes its own command's output to $TMP/out)
	expect_exit 1 "once per host" grep -q "^\[rank 1\].*no room" "$TMP/noshm.out"
	expect_exit 0 "shm is skipped with the reason, ring measured" python3 -c "
import json,sys; d=json.load(open('$TMP/noshm.json'))
shm = [r for r in d['results'] if r['algorithm'] == 'shm']
ring = [r for r in d['results'] if r['algorithm'] == 'ring']
sys.exit(not (shm and all('shared-memory window' in r['skipped'] for r in shm)
              and ring and all('skipped' not in r for r in ring)))"
	if [ "$COLLSCOPE_MPI" = openmpi ]; then
		OMPI_MCA_osc_sm_backing_directory=$NOSHM_DIR expect_exit 1 "--min-busbw fails on a skipped variant" \
			mpi 2 allreduce -a ring,shm -e 64 -n 3 --min-busbw 0 -q -o "$TMP/gate-noshm.json"
		expect_output "shm at 64 bytes: skipped \(no room .*\): --min-busbw 0 fails on a point not measured" \
			"it names the skipped variant's point"
		expect_exit 0 "only shm is below the gate" python3 -c "
import json,sys; s=json.load(open('$TMP/gate-noshm.json'))['summary']
sys.exit(s['below_min_busbw'] != ['shm'])"
	fi
fi
if [ "$COLLSCOPE_MPI" = mpich ]; then
	# the setting of Open MPI means nothing to MPICH: shm runs
	OMPI_MCA_osc_sm_backing_directory=$TMP/no-such-dir expect_exit 0 \
		"under MPICH, Open MPI's osc_sm_backing_directory is not looked at" \
		mpi 2 allreduce -a shm -e 64 -n 3 -q -o "$TMP/ompi-setting.json"
	expect_exit 0 "shm measured" python3 -c "
import json,sys; d=json.load(open('$TMP/ompi-setting.json'))
sys.exit(not (d['results'] and all('skipped' not in r for r in d['results'])))"
fi

# --trace: every step of every point recorded, gathered after the point,
# attributed to hops; the ring's hops are r -> r+1, each with a message per
# step and timed iteration; mpi has one record per call.
TRACE_CHECK="python3 $(dirname "$0")/check_trace.py"
for n in 3 4; do
	expect_exit 0 "allreduce --trace at $n ranks" mpi "$n" allreduce -a ring,tree,rabenseifner,mpi \
		-b 64K -e 1M -f 16 -n 20 -w 2 --trace -o "$TMP/trace$n.json"
	expect_output '^# (slow hops: none \([0-9]+ points traced\)|slow (hop|rank): )' \
		"allreduce --trace at $n ranks prints its verdict on the hops"
	expect_output "^# halves: rabenseifner, 1048576 bytes on $n ranks: reduce-scatter [0-9.]+ us \\([0-9]+%\\), all-gather" \
		"and the time of each half"
	expect_exit 0 "the trace at $n ranks keeps every invariant" $TRACE_CHECK "$TMP/trace$n.json"
	expect_exit 0 "the report at $n ranks is still whole" $CHECK "$TMP/trace$n.json" "$n" ring,tree,rabenseifner,mpi
	# ring and rabenseifner say which half took the time; tree and mpi have no halves
	expect_exit 0 "the halves at $n ranks" python3 -c "
import json
for r in json.load(open('$TMP/trace$n.json'))['results']:
    h = r['trace'].get('halves')
    if r['algorithm'] in ('ring', 'rabenseifner'):
        assert h and h['iterations'] == 20 and h['reduce_scatter_us'] > 0 and h['allgather_us'] > 0, r
        assert abs(h['reduce_scatter_share'] * (h['reduce_scatter_us'] + h['allgather_us'])
                   - h['reduce_scatter_us']) < 1e-6, h
    else:
        assert h is None, r"
done
# A core slower at its own work (COLLSCOPE_FAULT=compute: rank 1's reductions take 3x as long)
# is named by its reduction rate, after the two re-measurements, and none of its hops is.
COLLSCOPE_FAULT=compute:rank=1,pct=200 expect_exit 0 "--trace, rank 1 3x slower at its reductions" \
	mpi 3 allreduce -a ring --sizes 4M -n 20 -w 2 --trace -q -o "$TMP/trace-compute.json"
expect_output "^# slow rank: ring, 4194304 bytes: rank 1 .* reduces at .*its core is slow at its own work" \
	"--trace names rank 1 for its reductions"
expect_exit 0 "the report's one slow rank: rank 1, reason reduce, found again" python3 -c "
import json
d = json.load(open('$TMP/trace-compute.json'))
s = d['summary']
assert [(k['rank'], k['reason']) for k in s['slow_ranks']] == [(1, 'reduce')], s['slow_ranks']
k = s['slow_ranks'][0]
assert k['ratio'] > 1.25 and 0 <= k['consistency_p'] <= 1 and s['slow_hops'] == [], s
assert k['retests_confirmed'] in (0, 2), k  # named at once, or found again by both"

# A ring far smaller than a point: the oldest steps are overwritten, what remains still pairs.
expect_exit 0 "allreduce --trace-entries 16" mpi 3 allreduce -a ring,mpi -b 1M -e 1M -n 10 \
	--trace --trace-entries 16 -q -o "$TMP/trace-small.json"
expect_exit 0 "a small trace ring keeps the invariants" $TRACE_CHECK "$TMP/trace-small.json" --entries 16
expect_exit 0 "without --trace no record has a trace" python3 -c "
import json,sys; d=json.load(open('$TMP/ar2.json'))
sys.exit(d['config']['trace'] is not False or any('trace' in r for r in d['results'])
         or 'slow_hops' in d['summary'])"

# adaptive points stop once the p50's 95% interval is within --ci-width (2%), at 100 samples
# where the budget allows (p99 keeps its samples) and each doubling after; every record says
# why it stopped and carries the interval; -n is never cut short, --ci-width 0 never converges
for n in 2 3; do
	expect_exit 0 "adaptive sweep at $n ranks" mpi "$n" allreduce -a ring,mpi -b 8 -e 64K -f 16 \
		--time-per-size 0.05 -o "$TMP/ci$n.json"
	expect_exit 0 "at $n ranks: every point's interval, and why it stopped" python3 -c "
import json,sys
d = json.load(open('$TMP/ci$n.json')); w = d['config']['ci_width_pct'] / 100
ok = w == 0.02
for r in d['results']:
    p, lo, hi, stop = r['time_us']['p50'], r['p50_ci_low_us'], r['p50_ci_high_us'], r['stop']
    ok = ok and stop in ('converged', 'samples', 'time') and lo <= p <= hi
    if stop == 'converged':  # within the width, at the floor or a doubling of it
        ok = ok and hi - p <= w * p * (1 + 1e-9) and p - lo <= w * p * (1 + 1e-9)
        ok = ok and r['iterations'] in (100, 200, 400, 800) or r['timing'] == 'window'
    if stop == 'samples':
        ok = ok and r['iterations'] == 1000
sys.exit(not ok)"
done
expect_exit 0 "-n: a fixed count" mpi 2 allreduce -a ring -b 1K -e 1K -n 30 -o "$TMP/cifix.json"
expect_exit 0 "--ci-width 0: the budget is spent" mpi 2 allreduce -a ring -b 1K -e 1K \
	--time-per-size 0.02 --ci-width 0 -o "$TMP/ci0.json"
expect_exit 0 "fixed says fixed, 0 never converges" python3 -c "
import json,sys
f = json.load(open('$TMP/cifix.json'))['results'][0]; z = json.load(open('$TMP/ci0.json'))['results'][0]
sys.exit(not (f['stop'] == 'fixed' and f['iterations'] == 30 and f['p50_ci_low_us'] is not None
              and z['stop'] in ('samples', 'time')))"

finish
