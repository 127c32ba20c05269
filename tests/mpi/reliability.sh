#!/usr/bin/env bash
# A hung, stopped or killed rank is named and the job ends; corrupt data is caught;
# an allocation failure on one rank is agreed; reports survive; no secret leaks.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

# pid_of_rank REPORT R: the pid of rank R, from a report's context (written before the first point).
pid_of_rank() {
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['context']['ranks'][int(sys.argv[2])]['pid'])" "$1" "$2"
}

# wait_for_file FILE: up to 30 s.
wait_for_file() {
	for _ in $(seq 300); do [ -s "$1" ] && return 0; sleep 0.1; done
	return 1
}

# stop_rank R NAME [K]: SIGSTOP rank R in the middle of a sweep; the watchdog must end the job
# with 4 (or what the launcher makes of it: HANG_EXIT in lib.sh). K: watchdog hosts of K ranks.
stop_rank() {
	local r=$1 name=$2 report="$TMP/stop$1${3:+-hosts$3}.json"
	local start=$SECONDS
	rm -f "$report"
	COLLSCOPE_WATCHDOG_HOST_RANKS=${3:-} mpi 4 allreduce -b 64K -e 4M -n 400 -w 2 --timeout 4 -q -o "$report" >"$TMP/out" 2>&1 &
	local job=$!
	if ! wait_for_file "$report"; then
		fail "$name: no partial report appeared"
		wait $job
		return
	fi
	sleep 1
	local pid
	pid=$(pid_of_rank "$report" "$r")
	kill -STOP "$pid"
	wait $job
	local rc=$? took=$((SECONDS - start))
	kill -KILL "$pid" 2>/dev/null
	if exit_is "$rc" "$HANG_EXIT"; then pass "$name: exit $rc"; else fail "$name: exit $rc, expected $HANG_EXIT" "$TMP/out"; fi
	if [ "$took" -le 30 ]; then pass "$name: ended in ${took} s"; else fail "$name: took ${took} s"; fi
}

stop_rank 2 "rank 2 stopped mid-sweep"
expect_output "rank 2 \(not answering for [0-9]+ s: stopped, stuck or dead; last at [a-z-]+, [0-9]+ bytes" \
	"rank 0 names rank 2 and where it was"
expect_exit 0 "the partial report is valid JSON with complete false and the hang" python3 -c "
import json,sys; d=json.load(open('$TMP/stop2.json'))
sys.exit(not (d['complete'] is False and d['events'][0]['kind']=='hang' and 'rank 2' in d['events'][0]['message']))"

# Hosts of two ranks, {0, 1} and {2, 3}: rank 2 leads the second and reports it to rank 0
# over TCP. Stopped, it is named (not answering), and rank 3, whose heartbeats went through
# it, is not; rank 3 stopped is named through its leader.
stop_rank 2 "the leader of another host stopped" 2
expect_output "rank 2 \(not answering for [0-9]+ s: stopped, stuck or dead" "rank 0 names the leader"
expect_exit 1 "and not the rank behind it" grep -Eq "rank 3 \(not answering" "$TMP/out"
stop_rank 3 "a rank of another host stopped" 2
expect_output "rank 3 \(not answering for [0-9]+ s: stopped, stuck or dead; last at [a-z-]+, [0-9]+ bytes" \
	"rank 0 names it, heard through its leader"

stop_rank 0 "rank 0 stopped mid-sweep"
expect_output "\[rank 1\] error: hang in allreduce: rank 0 has not answered" "rank 1 says rank 0 is stuck"
expect_exit 0 "the report written so far is valid JSON, complete false" python3 -c "
import json,sys; d=json.load(open('$TMP/stop0.json')); sys.exit(d['complete'] is not False)"

# links: one of its ranks stopped (whichever): the job still ends with HANG_EXIT, naming the hang.
mpi 3 links -q --timeout 3 --bw-iters 200 -o "$TMP/links-hang.json" >"$TMP/out" 2>&1 &
job=$!
sleep 2
# (this job's ranks alone, by the report path on their command line: a suite
# running beside this one may have ranks of its own)
victim=$(pgrep -f "$BIN links .*$TMP/links-hang.json" | tail -n 1)
[ -n "$victim" ] && kill -STOP "$victim"
wait $job
rc=$?
[ -n "$victim" ] && kill -KILL "$victim" 2>/dev/null
if exit_is "$rc" "$HANG_EXIT"; then pass "links: a stopped rank ends the job with $rc"; else fail "links: exit $rc, expected $HANG_EXIT" "$TMP/out"; fi
expect_output "hang in links: .*(links round|rank 0 has not answered)" "links names the hang and the round"
# a report, even though no pair's figures had reached rank 0: the hang is in it
# (unless rank 0 itself was the one stopped: then rank 1 speaks, and the
# report is the one written at the start)
expect_exit 0 "links: the report on disk is valid JSON, complete false, with the hang" python3 -c "
import json,sys; d=json.load(open('$TMP/links-hang.json'))
ok = d['complete'] is False and d['command'] == 'links' and d['results'] == []
sys.exit(not (ok and (not d['events'] or d['events'][0]['kind'] == 'hang')))"

# The test hook: rank 2 stalls after 20 timed iterations but still answers heartbeats.
COLLSCOPE_FAULT=stall:rank=2,after=20 expect_exit "$HANG_EXIT" "a stalled rank is a hang" \
	mpi 3 allreduce -b 1K -e 1K -n 100 --timeout 3 -q
expect_output "rank 2 \(answering but making no progress; last at naive, 1024 bytes, timed iteration 19\)" \
	"the stalled rank is named with its iteration"
expect_output "flight record: the others are in naive, 1024 bytes, timed iteration 20; never entered it: rank 2 \(at naive, 1024 bytes, timed iteration 19\)" \
	"the flight record names the rank that never entered the others' iteration (no --trace needed)"

COLLSCOPE_FAULT=stall:rank=1,after=3 expect_exit "$HANG_EXIT" "verify: a stalled rank is a hang" \
	mpi 3 verify -a ring --timeout 3
expect_output "rank 1 \(answering but making no progress; last at ring, [0-9]+ bytes, check 2\)" \
	"verify names the stalled rank and its check"

COLLSCOPE_FAULT=stall:rank=1,after=5 expect_exit "$HANG_EXIT" "scale: a stalled rank is a hang" \
	mpi 4 scale --ranks 1,2,4 -b 8 -e 1K -n 20 --timeout 3 -q -o "$TMP/scale-hang.json"
expect_output "rank 1 \(answering but making no progress; last at ring, 8 bytes, timed iteration 4\)" \
	"scale names the stalled rank; the ranks outside the sub-communicator are not accused"
expect_exit 1 "scale: idle ranks are not named" grep -Eq "rank [23] \(answering" "$TMP/out"
# rank 1 stalls in the first point of 2 ranks; the points of 1 rank are on disk
expect_exit 0 "scale: the partial report has the finished points, complete false and the hang" python3 -c "
import json,sys; d=json.load(open('$TMP/scale-hang.json'))
done = [r for r in d['results'] if r['ranks'] == 1]
sys.exit(not (d['complete'] is False and d['events'][0]['kind'] == 'hang'
              and 'rank 1' in d['events'][0]['message'] and done))"

# The flight recorder: rank 2 of a traced ring stopped. Its successor waits to receive from it;
# every chain of waits leads to it; the report's hang.ranks say so, with each rank's last steps.
# (When the stop lands between two iterations the others wait in the barrier instead: try again.)
flight_stop() {
	local try
	for try in 1 2 3; do
		rm -f "$TMP/flight.json"
		mpi 4 allreduce -a ring -b 4M -e 4M -n 5000 -w 2 --timeout 3 --trace -q \
			-o "$TMP/flight.json" >"$TMP/out" 2>&1 &
		local job=$!
		wait_for_file "$TMP/flight.json" && sleep 1.5
		local pid
		pid=$(pid_of_rank "$TMP/flight.json" 2)
		kill -STOP "$pid"
		wait $job
		local rc=$?
		kill -KILL "$pid" 2>/dev/null
		[ $rc = 4 ] && grep -q "rank 3 waits to receive from rank 2" "$TMP/out" && return 0
		echo "  note  flight record, try $try: exit $rc, rank 3 was not waiting on rank 2"
	done
	return 1
}
if flight_stop; then pass "a stopped rank inside a traced ring: exit 4"; else fail "a stopped rank inside a traced ring" "$TMP/out"; fi
expect_output "flight record: the others are in ring, 4194304 bytes, timed iteration [0-9]+; .*not answering: rank 2 \(for [0-9]+ s; last heard at ring" \
	"the flight record names the stopped rank"
expect_output "rank 3 waits to receive from rank 2 at step [0-9]+" "and its successor, waiting to receive from it"
expect_output "the waits lead to rank 2 \(not answering\)" "every chain of waits leads to it"
expect_exit 0 "hang.ranks: the stopped rank, whom the others wait on, their last trace entries" python3 -c "
import json,sys; d=json.load(open('$TMP/flight.json')); h=d['hang']; r=h['ranks']
print({k: v for k, v in h.items() if k != 'ranks'})
ok = (d['complete'] is False and h['not_answering'] == [2] and h['blocked_by'] == [2]
      and h['operation']['algorithm'] == 'ring'
      and r[2]['state'] == 'not_answering' and r[3]['waits_on'] == 2 and r[3]['wait'] == 'receive'
      and all(x['blocked_by'] == 2 for x in r if x['state'] == 'waiting')
      and all(len(x['last_entries']) == 8 and x['host'] for x in r)
      and all(e['algorithm'] == 'ring' and e['bytes'] == 4194304 for x in r for e in x['last_entries']))
sys.exit(not ok)"

# A rank killed mid-run: mpirun ends the others, the report so far survives.
mpi 4 allreduce -b 64K -e 8M -n 300 -q -o "$TMP/kill.json" >"$TMP/out" 2>&1 &
job=$!
if wait_for_file "$TMP/kill.json"; then
	sleep 1.5
	kill -KILL "$(pid_of_rank "$TMP/kill.json" 1)"
fi
wait $job
rc=$?
if [ "$rc" != 0 ]; then pass "a killed rank: exit $rc (not 0)"; else fail "a killed rank: exit 0"; fi
expect_exit 0 "the report of a killed job is valid JSON with complete false" python3 -c "
import json,sys; d=json.load(open('$TMP/kill.json')); sys.exit(d['complete'] is not False)"

# One flipped bit on one rank: named with rank, variant, size, index and bits.
COLLSCOPE_FAULT=flip:rank=1 expect_exit 3 "allreduce catches a flipped bit" \
	mpi 3 allreduce -a ring -b 4K -e 4K -n 5 -q
expect_output "wrong result: variant ring, 4096 bytes .* rank 1, first bad index 512: .* differing bits 0x00100000" \
	"allreduce names rank, variant, size, index and the flipped bit"
COLLSCOPE_FAULT=flip:rank=2 expect_exit 3 "verify catches a flipped bit" \
	mpi 3 verify -a tree -d int32 -r sum --counts 1031
expect_output "variant tree, dtype int32, op sum, count 1031, .*rank 2 has 1 wrong elements; first bad index 515: .*differing bits 0x00100000" \
	"verify names rank, variant, count, index and bits"
COLLSCOPE_FAULT=flip:rank=1 expect_exit 3 "scale catches a flipped bit" \
	mpi 3 scale -a ring -b 4K -e 4K -n 5 -q --extrapolate none
expect_output "wrong result: variant ring, 4096 bytes .* on 2 ranks: .*rank 1, first bad index 512: .*differing bits 0x00100000" \
	"scale names the rank of the communicator, variant, size, index and bits"
COLLSCOPE_FAULT=melt:rank=1 expect_exit 2 "a bad COLLSCOPE_FAULT exits 2" mpi 2 allreduce -e 8
expect_output "bad COLLSCOPE_FAULT 'melt:rank=1'" "the bad fault spec is named"

# An allocation failure on one rank: every rank agrees and the job ends cleanly with 5.
COLLSCOPE_FAULT=nomem:rank=2 expect_exit 5 "an allocation failure on rank 2 is agreed" \
	mpi 3 allreduce -e 1M -n 2 -q
expect_output "\[rank 2\] error: allreduce: cannot allocate [0-9]+ bytes" "the rank and byte count are named"

# No secrets in reports: only OMPI_, SLURM_ and COLLSCOPE_ variables are recorded.
COLLSCOPE_NOTE=kept MY_API_TOKEN=hunter2-secret expect_exit 0 "allreduce with a secret in the environment" \
	mpi 2 allreduce -e 64 -n 2 -q -o "$TMP/env.json"
expect_exit 1 "the secret is in no report" grep -q hunter2-secret "$TMP/env.json"
expect_exit 0 "allow-listed variables are recorded" grep -q '"COLLSCOPE_NOTE"' "$TMP/env.json"

# The watchdog's port: connections that are not ranks of the job (one silent, one with the
# wrong answer) come first; the rendezvous drops them within its deadline and the job runs,
# with no false hang, though the hang clock would have run out while they stalled it.
# (COLLSCOPE_WATCHDOG_HOST_RANKS=1: every rank a host of its own, so every rank but 0
# leads a host and comes over TCP, as on a cluster of one rank per node)
expect_exit 0 "strangers at the watchdog's port are dropped and the job runs" env \
	COLLSCOPE_WATCHDOG_HOST_RANKS=1 COLLSCOPE_FAULT=stranger:rank=0 "$MPIRUN" $MPIRUN_FLAGS -np 3 "$BIN" allreduce -q -a ring \
	-b 8 -e 64 -n 5 --timeout 1
expect_output "dropped 2 connection\(s\) to its port that did not prove they belong to this job" \
	"rank 0 says how many it dropped"
if grep -q "hang" "$TMP/out"; then fail "the strangers made a false hang" "$TMP/out"; else pass "no false hang"; fi

# Nothing of the watchdog listens once the ranks have met: with rank 1 stalled, the job
# waits for the watchdog, and none of its processes listens on a port of the kernel's
# ephemeral range, where the watchdog's listeners are (Open MPI's own transports take
# theirs from 1024 up).
if command -v ss >/dev/null 2>&1; then
	COLLSCOPE_FAULT=stall:rank=1,after=2 mpi 3 allreduce -q -a ring -b 8 -e 64 -n 100 \
		--timeout 6 -o "$TMP/stall.json" >"$TMP/stall.out" 2>&1 &
	job=$!
	if wait_for_file "$TMP/stall.json"; then
		sleep 2
		: >"$TMP/listening"
		read -r lo hi </proc/sys/net/ipv4/ip_local_port_range
		for r in 0 1 2; do
			pid=$(pid_of_rank "$TMP/stall.json" "$r")
			ss -ltnpH 2>/dev/null | grep "pid=$pid," |
				awk -v lo="$lo" -v hi="$hi" '{n = split($4, a, ":"); p = a[n]} p >= lo && p <= hi' \
				>>"$TMP/listening"
		done
		if [ ! -s "$TMP/listening" ]; then pass "nothing listens while the job runs"; else fail "collscope listens while the job runs" "$TMP/listening"; fi
	else
		fail "the stalled job wrote no report"
	fi
	wait $job
	rc=$?
	if [ "$rc" = 4 ]; then pass "the stalled job still ends with exit 4"; else fail "the stalled job: exit $rc" "$TMP/stall.out"; fi
fi

# A flood at the watchdog's port during the rendezvous (rank 0 holds it open 2 s and says
# where it listens): 300 connections that say nothing and 300 that say the wrong thing come
# before the ranks. They are all judged at once, within the rendezvous's one deadline: the
# job starts at most 3 s later than without them, and its watchdog still names a stall.
# flood_job NAME COUNT: a 4-rank job with rank 2 stalled; its time in $TMP/took
flood_job() {
	local name=$1 count=$2 t0 rc flooder=
	t0=$(date +%s.%N)
	COLLSCOPE_WATCHDOG_HOST_RANKS=1 COLLSCOPE_WATCHDOG_HOLD_MS=2000 COLLSCOPE_FAULT=stall:rank=2,after=20 \
		timeout 60 "$MPIRUN" $MPIRUN_FLAGS -np 4 "$BIN" allreduce -q -a ring -b 1K -e 1K \
		-n 100 --timeout 3 </dev/null >"$TMP/flood-$name.out" 2>&1 &
	local job=$!
	if [ "$count" -gt 0 ]; then
		python3 "$(dirname "$0")/flood_port.py" "$TMP/flood-$name.out" "$count" \
			>"$TMP/flooder.out" 2>&1 &
		flooder=$!
	fi
	wait $job
	rc=$?
	[ -n "$flooder" ] && kill "$flooder" 2>/dev/null && wait "$flooder" 2>/dev/null
	echo "$t0 $(date +%s.%N)" | awk '{printf "%.1f\n", $2 - $1}' >"$TMP/took"
	cp "$TMP/flood-$name.out" "$TMP/out"
	if exit_is "$rc" "$HANG_EXIT"; then pass "$name: exit $rc"; else fail "$name: exit $rc, expected $HANG_EXIT" "$TMP/out"; fi
	expect_output "rank 2 \(answering but making no progress" "$name: the stalled rank is named"
}
flood_job "no flood" 0
calm=$(cat "$TMP/took")
flood_job "a flood of 600 strangers" 300
flooded=$(cat "$TMP/took")
expect_output "dropped [0-9]+ connection\(s\) to its port" "rank 0 says it dropped the flood"
expect_exit 0 "the flood reached the port before the ranks" grep -q "flooded 600" "$TMP/flooder.out"
if awk -v a="$calm" -v b="$flooded" 'BEGIN { exit !(b <= a + 3) }'; then
	pass "the flood cost at most 3 s (${calm} s calm, ${flooded} s flooded)"
else
	fail "the flood cost more than 3 s (${calm} s calm, ${flooded} s flooded)"
fi

# Rank 0's rendezvous fails after the others connected: every rank agrees that the
# watchdog cannot watch (no rank waits in a collective the others skipped), the error says
# so, and the job stops with 5 rather than run unwatched.
expect_exit 5 "a failing rendezvous on rank 0: the job stops with 5, no hang" env \
	COLLSCOPE_WATCHDOG_HOST_RANKS=1 COLLSCOPE_FAULT=rendezvous:rank=0 timeout 60 "$MPIRUN" \
	$MPIRUN_FLAGS -np 4 "$BIN" allreduce -q -a ring -b 8 -e 64 -n 5 --timeout 2
expect_output "error: watchdog: rendezvous failed \(COLLSCOPE_FAULT\)" "the failing rendezvous is named"
expect_output "error: watchdog: cannot watch the job: the leaders' rendezvous with rank 0 failed.*--timeout 0" \
	"and why the job stops, with the way out"
expect_exit 5 "the same on one host (no TCP at all): 5" env COLLSCOPE_FAULT=rendezvous:rank=0 \
	timeout 60 "$MPIRUN" $MPIRUN_FLAGS -np 3 "$BIN" allreduce -q -a ring -b 8 -e 64 -n 5 --timeout 2

# The watchdog scales: rank 0 may open 24 files (soft and hard: nothing can raise it), 40
# ranks on one host, rank 39 stalled. The host's ranks are watched through shared memory:
# rank 0 holds no connection per rank, and names rank 39 with 4. (The connection per rank
# that was there before, 39 of them, did not fit: "running unwatched", then a hang.)
LIMIT="$(dirname "$0")/helpers/nofile_rank0.sh"
COLLSCOPE_FAULT=stall:rank=39,after=3 expect_exit "$HANG_EXIT" \
	"40 ranks, rank 0 limited to 24 files: the stalled rank is a hang" \
	timeout 300 "$MPIRUN" $MPIRUN_FLAGS -np 40 "$LIMIT" 24 24 "$BIN" allreduce -q -a ring \
	-b 1K -e 1K -n 10 --timeout 5
expect_output "rank 39 \(answering but making no progress; last at ring, 1024 bytes, timed iteration 2\)" \
	"rank 39 is named"
# The same 40 ranks as 10 hosts of 4 (issue 28): rank 0 holds a connection per host, 9 of them,
# and each host's leader watches its 4 ranks; rank 38 stalls on the last host. Rank 0 may open
# 32 files, fewer than the 39 connections a connection per rank took (40 local ranks cost Open MPI
# itself about 20 of rank 0's files: at 24 the watchdog could not take all 9 and stopped with 5).
COLLSCOPE_WATCHDOG_HOST_RANKS=4 COLLSCOPE_FAULT=stall:rank=38,after=3 expect_exit "$HANG_EXIT" \
	"40 ranks as 10 hosts, rank 0 limited to 32 files: the stalled rank is a hang" \
	timeout 300 "$MPIRUN" $MPIRUN_FLAGS -np 40 "$LIMIT" 32 32 "$BIN" allreduce -q -a ring \
	-b 1K -e 1K -n 10 --timeout 5
expect_output "rank 38 \(answering but making no progress" "rank 38 is named, through its host's leader"

# A host per rank (30 hosts): rank 0 needs a connection per host, more than its soft limit
# of 24 allows. The watchdog raises the soft limit to the hard one and the stall is named;
# with the hard limit at 24 too it cannot, and it stops with 5 naming the hosts it missed
# and the limit, rather than run unwatched; --timeout 0 asks for no watchdog and runs.
COLLSCOPE_WATCHDOG_HOST_RANKS=1 COLLSCOPE_FAULT=stall:rank=29,after=3 expect_exit "$HANG_EXIT" \
	"30 hosts, rank 0's soft limit 24 raised to its hard one: the stall is named" \
	timeout 300 "$MPIRUN" $MPIRUN_FLAGS -np 30 "$LIMIT" 24 20000 "$BIN" allreduce -q -a ring \
	-b 1K -e 1K -n 10 --timeout 5
expect_output "rank 29 \(answering but making no progress" "rank 29 is named"
COLLSCOPE_WATCHDOG_HOST_RANKS=1 expect_exit 5 \
	"30 hosts, rank 0 held to 24 files: the watchdog cannot watch, exit 5" \
	timeout 300 "$MPIRUN" $MPIRUN_FLAGS -np 30 "$LIMIT" 24 24 "$BIN" allreduce -q -a ring \
	-b 1K -e 1K -n 10 --timeout 5
expect_output "error: watchdog: cannot watch the job: host\(s\) led by rank [0-9]+.* did not reach rank 0 in time \(rank 0 may open 24 files; it needs one per host\); stopping rather than running unwatched: raise the open-file limit \(ulimit -n\) or pass --timeout 0" \
	"the message names the hosts missed, the limit and the ways out"
COLLSCOPE_WATCHDOG_HOST_RANKS=1 expect_exit 0 "the same job with --timeout 0 runs without a watchdog" \
	timeout 300 "$MPIRUN" $MPIRUN_FLAGS -np 30 "$LIMIT" 24 24 "$BIN" allreduce -q -a ring \
	-b 1K -e 1K -n 10 --timeout 0

finish
