#!/usr/bin/env bash
# collscope --timing under mpirun at 2 and 3 ranks: every method gives a report
# whose points say how they were timed, the clock sync is in the context, and
# the straggler's cause names the delayed rank (late_arrival) and the slowed one
# (slow_inside). No timing figure is asserted: the injected faults are 2 ms, far
# above this machine's noise, and only their naming is checked.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
CHECK="python3 $(dirname "$0")/check_allreduce_report.py"

for n in 2 3; do
	for t in window barrier pipelined; do
		expect_exit 0 "--timing $t at $n ranks" mpi "$n" allreduce -a mpi,ring --sizes 8,64K \
			--time-per-size 0.02 --timing $t -q -o "$TMP/$t$n.json"
		# more ranks than cores: no common start can be kept (the warning says so)
		if [ "$t" = window ] && [ "$n" -gt "$(nproc)" ]; then
			expect_output "warning: --timing window with more ranks than cores" \
				"--timing window at $n ranks on $(nproc) cores warns"
		else
			expect_exit 0 "--timing $t at $n ranks keeps the report's invariants" \
				$CHECK "$TMP/$t$n.json" "$n" mpi,ring
			check_schema "$TMP/$t$n.json"
		fi
		expect_exit 0 "--timing $t at $n ranks: every point says so, the clock sync is finite" python3 -c "
import json, math, sys
d = json.load(open('$TMP/$t$n.json'))
cs = d['context']['clock_sync']
ok = d['config']['timing'] == '$t' and all(r['timing'] == '$t' for r in d['results'])
ok &= all(cs[k] is not None and math.isfinite(cs[k]) and cs[k] >= 0
          for k in ('error_us', 'bound_us', 'max_offset_us', 'max_drift_ppm'))
ok &= cs['syncs'] >= 1 and cs['resyncs'] == cs['syncs'] - 1
if '$t' == 'window':
    ok &= all(r['late_starts'] >= 0 and r['iterations'] + r['late_starts'] >= 10 for r in d['results'])
    ok &= all(r['start_error_us'] is not None and r['start_error_us'] >= 0 for r in d['results'])
else:
    ok &= all('start_error_us' not in r for r in d['results'])
if '$t' == 'pipelined':
    ok &= all(r['calls_per_sample'] >= 1 for r in d['results'])
print(cs); sys.exit(not ok)"
	done
done

# A bad method is refused before anything runs, naming the value.
expect_exit 2 "--timing bogus exits 2" "$BIN" allreduce --timing bogus
expect_output "bad value 'bogus' for --timing" "it names the bad value"
expect_exit 2 "--timing pipelined --in-place exits 2" "$BIN" allreduce --timing pipelined --in-place
expect_output "pipelined cannot be --in-place" "it says why"
expect_exit 2 "scale --timing nope exits 2" "$BIN" scale --timing nope
expect_output "bad value 'nope' for --timing" "scale names the bad value"

# The cause: a rank delayed 2 ms before its call arrives late; a rank slowed
# 2 ms inside its call is slow inside. Every method, 2 and 3 ranks.
cause_is() { # REPORT RANK CAUSE
	python3 -c "
import json, sys
d = json.load(open('$1'))
got = [(r['algorithm'], r['straggler_rank'], r['straggler_cause']) for r in d['results']]
print(got)
sys.exit(not (got and all(g[1] == $2 and g[2] == '$3' for g in got)))"
}
# Persistent (algorithms/timing.h): the last to arrive at a window's common start
# in more calls than chance allows, by 3x the others' lateness and 1% of the p50; the last to end never
# is (a schedule's shape), nor the last to leave a barrier.
persistent_is() { # REPORT RANK (-1: none persistent)
	python3 -c "
import json, sys
d = json.load(open('$1'))
got = [(r['algorithm'], r['straggler_rank'], r['straggler_count'], r['straggler_p_value'], r['straggler_persistent']) for r in d['results']]
print(got)
want = $2
sys.exit(not (got and all((g[4] and g[1] == want) if want >= 0 else not g[4] for g in got)))"
}
for n in 2 3; do
	last=$((n - 1))
	for t in window barrier pipelined; do
		COLLSCOPE_FAULT=delay:rank=1,us=2000 expect_exit 0 "delay fault, $t, $n ranks" \
			mpi "$n" allreduce -a mpi,ring --sizes 8 -n 20 -w 2 --timing $t -q -o "$TMP/delay-$t$n.json"
		expect_exit 0 "the delayed rank 1 is named late_arrival ($t, $n ranks)" \
			cause_is "$TMP/delay-$t$n.json" 1 late_arrival
		# only a common start makes arrivals comparable: after a barrier they are its exit order
		want=-1
		[ $t = window ] && want=1
		expect_exit 0 "... persistent with a common start only: $want ($t, $n ranks)" \
			persistent_is "$TMP/delay-$t$n.json" $want
		COLLSCOPE_FAULT=slow:rank=$last,us=2000 expect_exit 0 "slow fault, $t, $n ranks" \
			mpi "$n" allreduce -a mpi,ring --sizes 8 -n 20 -w 2 --timing $t -q -o "$TMP/slow-$t$n.json"
		expect_exit 0 "the slowed rank $last is named slow_inside ($t, $n ranks)" \
			cause_is "$TMP/slow-$t$n.json" "$last" slow_inside
		expect_exit 0 "... and not persistent: the last to end is not judged so ($t, $n ranks)" \
			persistent_is "$TMP/slow-$t$n.json" -1
	done
done
# Ranks of one kernel read rank 0's own clock: offset exactly 0, nothing measured.
for n in 2 3; do
	expect_exit 0 "one host, $n ranks: every rank reads rank 0's clock, offset and error 0" python3 -c "
import json, sys
cs = json.load(open('$TMP/window$n.json'))['context']['clock_sync']
print(cs)
sys.exit(not (cs['shared_clock_ranks'] == $n and cs['measured_ranks'] == 0
              and cs['max_offset_us'] == 0 and cs['error_us'] == 0
              and cs['bound_us'] == 0 and 'CLOCK_MONOTONIC' in cs['method']))"
done
# A clock that is not rank 0's: rank 1 in a time namespace whose monotonic
# clock runs 1,000 s ahead (unshare --time, root, Linux 5.6 and later). The
# sync measures that offset by ping-pong, and the window's times stay those
# of one clock (a model off by the offset would make every time 1,000 s; under
# load a time may reach milliseconds).
if [ "${MPIRUN##*/}" = mpirun ] && unshare --time --fork --monotonic 1000 true 2>/dev/null; then
	expect_exit 0 "window with rank 1's clock 1,000 s ahead (a time namespace)" \
		timeout 600 "$MPIRUN" $MPIRUN_FLAGS -n 1 "$BIN" allreduce -a mpi --sizes 8 -n 200 -w 2 \
		--timing window -q -o "$TMP/timens.json" : -n 1 env COLLSCOPE_FAULT=delay:rank=1,us=2000 \
		unshare --time --fork --monotonic 1000 "$BIN" allreduce -a mpi --sizes 8 -n 200 -w 2 \
		--timing window -q -o "$TMP/timens.json"
	expect_exit 0 "... its offset is measured, and the delayed rank is 2 ms late on rank 0's clock" python3 -c "
import json, sys
d = json.load(open('$TMP/timens.json'))
cs, r = d['context']['clock_sync'], d['results'][0]
print(cs, r['rank_late_us'], r['time_us']['p50'])
sys.exit(not (cs['shared_clock_ranks'] == 1 and cs['measured_ranks'] == 1
              and abs(cs['max_offset_us'] - 1e9) < 1000
              and cs['error_us'] >= 0 and r['rank_late_us'][1] >= 2000 - cs['error_us']
              and r['time_us']['p50'] < 1e5))"
	# Two ranks on one other clock (each in a namespace of the same offset): its first rank
	# is measured, the other takes its model.
	expect_exit 0 "ranks 1 and 2 on one clock 1,000 s ahead" \
		timeout 600 "$MPIRUN" $MPIRUN_FLAGS -n 1 "$BIN" allreduce -a mpi --sizes 8 -n 20 -w 2 \
		--timing barrier -q -o "$TMP/timens3.json" : -n 2 unshare --time --fork --monotonic 1000 \
		"$BIN" allreduce -a mpi --sizes 8 -n 20 -w 2 --timing barrier -q -o "$TMP/timens3.json"
	expect_exit 0 "... one rank of that clock measured, the other takes its model" python3 -c "
import json, sys
cs = json.load(open('$TMP/timens3.json'))['context']['clock_sync']
print(cs)
sys.exit(not (cs['shared_clock_ranks'] == 1 and cs['measured_ranks'] == 1
              and abs(cs['max_offset_us'] - 1e9) < 1000))"
else
	skip_check "a rank on another clock" "unshare --time is not available here (root and Linux 5.6 or later)"
fi
# A known delay through the window: rank 1 sleeps 2 ms before every call, so it
# arrives at least 2 ms after the common start (less only by the clock's error),
# and rank 0, which spins to the start, is on time: the point's start error (the
# others' median arrival after the start; a mean would carry a preemption's
# milliseconds on a loaded machine) is far below the delay.
expect_exit 0 "window: the delayed rank is measured at least its 2 ms late, the other on time" python3 -c "
import json, sys
d = json.load(open('$TMP/delay-window2.json'))
err = d['context']['clock_sync']['error_us']
late = [(r['rank_late_us'], r['start_error_us'], r['straggler_persistent']) for r in d['results']]
print('clock error', err, 'us; mean lateness by rank, start error, persistent', late)
# where the late rank was not found persistent (a loaded machine), it is the start's error too
sys.exit(not all(l[1] >= 2000 - err and (e < 100 or not p) for l, e, p in late))"
# Every attempt of a window point late (rank 1 delayed 2 ms): the late rank is
# the finding, not a reason to drop every sample. Every attempt is kept, timed
# from its last arrival, and the record says so.
expect_exit 0 "a window point whose every start was late is timed from the last arrival" python3 -c "
import json, sys
d = json.load(open('$TMP/delay-window2.json'))
print([(r['iterations'], r['late_starts'], r['late_starts_retimed'], r['timed_from']) for r in d['results']])
sys.exit(not all(r['iterations'] == 20 and r['late_starts'] == 0 and r['late_starts_retimed'] == 20
                 and r['timed_from'] == 'last_arrival' and r['time_us']['p50'] is not None
                 and len(r['samples_us']) == 20 for r in d['results']))"

# Issue 29's case: one rank persistently late (delay) or slow (slow), 300 us,
# ring at 1 KiB, window timing, at 2 and 3 ranks. A time is measured (never
# null, never nan, never '0.000 GB/s at 0 bytes'), the straggler is named with
# its cause, and both the report and the text say how the point was timed.
for n in 2 3; do
	last=$((n - 1))
	COLLSCOPE_FAULT=delay:rank=$last,us=300 expect_exit 0 "window, rank $last late 300 us, $n ranks" \
		mpi "$n" allreduce --timing window -a ring --sizes 1K -n 60 -w 2 -o "$TMP/late$n.json"
	expect_output "^#   ring 1024 bytes: [0-9]+ of 60 starts late \(straggler rank $last, late_arrival\): timed from the last arrival" \
		"the text names the late rank and how the point was timed ($n ranks)"
	expect_output "^allreduce: \[1/1\] ring 1024 bytes: p50 [0-9.]+ us, busbw [0-9.]+ GB/s, 60 iterations \([0-9]+ late starts: timed from the last arrival\)" \
		"the progress line says so too ($n ranks)"
	expect_output "^#   ring +[0-9.]+ GB/s at 1024 bytes" "the summary names the measured point ($n ranks)"
	expect_output "^#   straggler: ring 1024 bytes: rank $last was the last to arrive in [0-9]+ of 60 calls \(p [0-9.e+-]+\)" \
		"the text names the persistent straggler ($n ranks)"
	cp "$TMP/out" "$TMP/late$n.out" # expect_exit rewrites out before grep could read it
	expect_exit 1 "no nan, no 0 bytes ($n ranks)" grep -Eqw "nan|at 0 bytes" "$TMP/late$n.out"
	expect_exit 0 "a measured time, the late rank named, timed from the last arrival ($n ranks)" python3 -c "
import json, math, sys
r = json.load(open('$TMP/late$n.json'))['results'][0]
t = r['time_us']
print({k: r[k] for k in ('iterations', 'late_starts', 'late_starts_retimed', 'timed_from', 'straggler_rank', 'straggler_cause')}, t['p50'])
sys.exit(not (all(t[k] is not None and math.isfinite(t[k]) and t[k] > 0 for k in ('min', 'p50', 'max'))
              and r['busbw_gbps'] is not None and r['busbw_gbps'] > 0
              and r['iterations'] == 60 and r['late_starts'] == 0 and r['late_starts_retimed'] > 30
              and r['timed_from'] == 'last_arrival'
              and r['straggler_rank'] == $last and r['straggler_cause'] == 'late_arrival'))"
	# when each rank learnt the start (algorithms/timing.h): never after it arrived, and the
	# delayed rank, which sleeps after its spin, came late by more than it learnt late
	expect_exit 0 "each rank learnt the start no later than it arrived; the late rank's lateness is its own ($n ranks)" python3 -c "
import json, sys
r = json.load(open('$TMP/late$n.json'))['results'][0]
late, learnt = r['rank_late_us'], r['rank_learnt_late_us']
print('mean arrival', late, 'mean learnt late', learnt)
sys.exit(not (len(learnt) == $n and all(0 <= b <= a + 1e-6 for a, b in zip(late, learnt))
              and late[$last] - learnt[$last] >= 250))"
	COLLSCOPE_FAULT=slow:rank=1,us=300 expect_exit 0 "window, rank 1 slow 300 us, $n ranks" \
		mpi "$n" allreduce --timing window -a ring --sizes 1K -n 60 -w 2 -q -o "$TMP/slow300-$n.json"
	# 300 us is within this machine's noise under load: who is named is left to the 2 ms faults above
	expect_exit 0 "a measured time, the method said ($n ranks)" python3 -c "
import json, math, sys
r = json.load(open('$TMP/slow300-$n.json'))['results'][0]
print({k: r[k] for k in ('iterations', 'late_starts', 'late_starts_retimed', 'timed_from', 'straggler_rank', 'straggler_cause')}, r['time_us']['p50'])
sys.exit(not (r['time_us']['p50'] is not None and math.isfinite(r['time_us']['p50'])
              and r['iterations'] > 0 and r['iterations'] + r['late_starts'] == 60
              and r['timed_from'] in ('start', 'last_arrival')
              and (r['timed_from'] == 'last_arrival') == (r['late_starts_retimed'] > 30)))"
	check_schema "$TMP/late$n.json" "$TMP/slow300-$n.json"
done

# A resync during the sweep: --clock-resync 0.5 and every call made 30 ms long
# inside, whatever the machine's speed (4 points of 11 calls, 0.33 s each: the
# sync is 0.66 s old before the third point). The default is 5 s.
COLLSCOPE_FAULT=slow:rank=1,us=30000 expect_exit 0 "a sweep longer than --clock-resync resyncs" \
	mpi 2 allreduce -a mpi --sizes 8,64,512,4K -n 10 -w 1 --clock-resync 0.5 -q -o "$TMP/resync.json"
expect_exit 0 "the context counts the resyncs and the error they found, at the interval asked" python3 -c "
import json, math, sys
d = json.load(open('$TMP/resync.json'))
cs = d['context']['clock_sync']
print(cs)
sys.exit(not (cs['resyncs'] >= 1 and cs['max_jump_us'] is not None and math.isfinite(cs['max_jump_us'])
              and cs['interval_s'] == 0.5 and d['config']['clock_resync_s'] == 0.5))"
expect_exit 0 "by default a sync is redone after 5 s" python3 -c "
import json, sys
d = json.load(open('$TMP/barrier2.json'))
sys.exit(not (d['context']['clock_sync']['interval_s'] == 5 and d['config']['clock_resync_s'] == 5))"
expect_exit 2 "--clock-resync 0 exits 2" "$BIN" allreduce --clock-resync 0
expect_output "bad value '0' for --clock-resync" "it names the bad value"

finish
