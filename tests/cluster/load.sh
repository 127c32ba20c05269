#!/usr/bin/env bash
# A bounded background load on the virtual cluster (vcluster.sh), so the
# suites judge verdicts the way a shared cluster gives them: other jobs'
# CPU and traffic, coming and going.
#
#   load.sh start SECONDS [BURNERS] [PAIRS]
#        BURNERS CPU burners (default 2), each busy then idle for random
#        spans of 0.05 to 0.6 s, on the hosts in turn; PAIRS TCP streams
#        (default 2) between hosts, each sending 64 KiB writes in bursts of
#        0.05 to 0.4 s with pauses of 0.1 to 0.8 s. Every process runs inside
#        one of the cluster's namespaces (vcluster.sh exec) and ends by itself
#        after SECONDS (at most 3600). Prints one line saying what it started.
#   load.sh stop     kills every process it started (a suite's EXIT trap calls
#                    it; vcluster.sh down kills them too: they live inside)
#   load.sh status   the processes still running
#
# Environment: VC_PREFIX (the cluster's, as vcluster.sh), LOAD_SEED (default
# the PID). The traffic stays on the cluster's bridge; nothing leaves it.
# Exit status: 0 ok, 2 bad usage or the cluster is not up.
set -u
export PATH=$PATH:/usr/sbin:/sbin
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VC=$HERE/vcluster.sh
VC_PREFIX=${VC_PREFIX:-csvc}
STATE=/run/collscope-vcluster-$VC_PREFIX
PIDS=$STATE/load.pids
SEED=${LOAD_SEED:-$$}

die() {
	printf 'load: %s\n' "$2" >&2
	exit "$1"
}

BURN='
import random, sys, time
end = time.time() + float(sys.argv[1])
random.seed(int(sys.argv[2]))
while time.time() < end:
    busy = time.time() + random.uniform(0.05, 0.6)
    while time.time() < busy:
        pass
    time.sleep(random.uniform(0.05, 0.6))
'
SINK='
import socket, sys, time
end = time.time() + float(sys.argv[1])
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[2], int(sys.argv[3])))
s.listen(4)
s.settimeout(1)
while time.time() < end:
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    c.settimeout(1)
    while time.time() < end:
        try:
            if not c.recv(1 << 16):
                break
        except socket.timeout:
            pass
    c.close()
'
SOURCE='
import random, socket, sys, time
end = time.time() + float(sys.argv[1])
random.seed(int(sys.argv[4]))
chunk = b"x" * 65536
while time.time() < end:
    try:
        c = socket.create_connection((sys.argv[2], int(sys.argv[3])), timeout=1)
    except OSError:
        time.sleep(0.2)
        continue
    try:
        while time.time() < end:
            burst = time.time() + random.uniform(0.05, 0.4)
            while time.time() < burst:
                c.sendall(chunk)
            time.sleep(random.uniform(0.1, 0.8))
    except OSError:
        pass
    c.close()
'

# on HOST CMD...: CMD in HOST's namespace, in the background, bounded by timeout; its PID kept.
on() {
	local host=$1 seconds=$2
	shift 2
	timeout -s KILL "$((seconds + 5))" bash "$VC" exec "$host" "$@" >/dev/null 2>&1 &
	echo $! >>"$PIDS"
}

cmd_start() {
	local seconds=$1 burners=${2:-2} pairs=${3:-2} hosts ips n i a b port
	case "$seconds$burners$pairs" in *[!0-9]*) die 2 "start SECONDS [BURNERS] [PAIRS]: whole numbers" ;; esac
	[ "$seconds" -ge 1 ] && [ "$seconds" -le 3600 ] || die 2 "bad SECONDS '$seconds': from 1 to 3600"
	[ -f "$STATE/hosts" ] || die 2 "the cluster '$VC_PREFIX' is not up (vcluster.sh up K)"
	mapfile -t hosts < <(awk '{print $1}' "$STATE/hosts")
	mapfile -t ips < <(awk '{print $2}' "$STATE/hosts")
	n=${#hosts[@]}
	for i in $(seq 0 $((burners - 1))); do
		on "${hosts[$((i % n))]}" "$seconds" python3 -c "$BURN" "$seconds" "$((SEED + i))"
	done
	for i in $(seq 0 $((pairs - 1))); do
		[ "$n" -ge 2 ] || break
		a=$((i % n))
		b=$(((i + 1 + i / n) % n))
		[ "$a" = "$b" ] && b=$(((b + 1) % n))
		port=$((47000 + i))
		on "${hosts[$b]}" "$seconds" python3 -c "$SINK" "$seconds" "${ips[$b]}" "$port"
		on "${hosts[$a]}" "$seconds" python3 -c "$SOURCE" "$seconds" "${ips[$b]}" "$port" "$((SEED + 100 + i))"
	done
	echo "load: $burners CPU burner(s) and $pairs TCP stream(s) on ${n} hosts of '$VC_PREFIX' for ${seconds} s (seed $SEED)"
}

# timeout passes TERM on to its command (the exec chain of vcluster.sh exec ends in it)
cmd_stop() {
	local p
	[ -f "$PIDS" ] || return 0
	while read -r p; do
		kill -TERM "$p" 2>/dev/null
	done <"$PIDS"
	sleep 0.3
	while read -r p; do
		kill -KILL "$p" 2>/dev/null
	done <"$PIDS"
	rm -f "$PIDS"
}

cmd_status() {
	local p alive=0
	[ -f "$PIDS" ] || {
		echo "load: nothing started"
		return 0
	}
	while read -r p; do
		kill -0 "$p" 2>/dev/null && alive=$((alive + 1))
	done <"$PIDS"
	echo "load: $alive of $(wc -l <"$PIDS") processes running"
}

case ${1:-} in
start) [ $# -ge 2 ] && [ $# -le 4 ] || die 2 "usage: load.sh start SECONDS [BURNERS] [PAIRS]"; shift; cmd_start "$@" ;;
stop) cmd_stop ;;
status) cmd_status ;;
*) die 2 "usage: load.sh start SECONDS [BURNERS] [PAIRS] | stop | status" ;;
esac
