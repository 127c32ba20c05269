#!/usr/bin/env bash
# Every fault class links names, on the virtual cluster (vcluster.sh), with
# randomly chosen culprits: a host's egress, its ingress, both, one pair of
# hosts both ways or one way, and a rack's uplink; and clean clusters, on
# which nothing may be named. Each run's verdict is checked for kind,
# direction and culprit (check_cluster.py verdict); the suite prints the
# confusion table (injected class against the verdict) and the time links
# took, clean and slowed.
#
#   bash tests/cluster/classes.sh [build/collscope]
# Environment: CULPRITS (default 3) culprits per class, CLEAN (default 3)
# clean runs, RATE (default 50mbit) the slowed rate, TRIES (default 2)
# measurements per verdict, KEEP a directory for the reports of the runs that
# were off (default: none kept), HOSTS (default 5) and PER_HOST (default 1) of
# the flat cluster, CLASSES (default: all) a subset, SEED for $RANDOM.
# The segment runs bring up clusters of racks, one rank a host: 4 hosts in 2
# racks, 5 in 2, or 6 in 3 (a random uplink), chosen at random. One rank a
# host: two ranks of a host talk over its loopback, and on a machine of 2
# cores their figures are the scheduler's, which only adds noise here.
# Needs root (network namespaces); prints a SKIP line and passes otherwise.
set -u
export PATH=$PATH:/usr/sbin:/sbin
BIN=$(realpath "${1:-build/collscope}")
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
. "$HERE/inject.sh"
VC=$HERE/vcluster.sh
. "$HERE/suite.sh"
export VC_PREFIX=${VC_PREFIX:-csvcc$$}
CULPRITS=${CULPRITS:-3}
CLEAN=${CLEAN:-3}
RATE=${RATE:-50mbit}
TRIES=${TRIES:-2}
HOSTS=${HOSTS:-5}
PER_HOST=${PER_HOST:-1}
CLASSES=${CLASSES:-$INJECT_CLASSES}
[ -n "${SEED:-}" ] && RANDOM=$SEED
LINKS=(-q -n 300 -w 30 --bw-iters 5 --bw-warmup 0 --bw-bytes 256K --window 8 --bw-time 0.2
	--lat-time 0.05 --pattern both --fail-on-suspect)

cleanup() {
	suite_end_children # tests/lib.sh: what the suite started, outside the namespaces too
	bash "$VC" down >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'echo "cluster/classes: interrupted, removing the cluster"; exit 130' INT
trap 'echo "cluster/classes: terminated, removing the cluster"; exit 143' TERM

suite_needs_cluster cluster/classes

TABLE=$TMP/confusion
CLEAN_S=
SLOW_S=
: >"$TABLE"

# one_verdict NAME NP WANT_EXIT KIND DIR CULPRIT: up to $TRIES runs of links
# until one exits WANT_EXIT and names KIND DIR CULPRIT; the verdict goes to
# the confusion table, the time to CLEAN_S or SLOW_S.
one_verdict() {
	local name=$1 np=$2 want=$3 i rc crc t0 t1 ok=0
	shift 3
	for i in $(seq 1 "$TRIES"); do
		rm -f "$TMP/links.json"
		t0=$(date +%s.%N)
		in_bg timeout 300 bash "$VC" mpirun --bind-to none -np "$np" "$BIN" links "${LINKS[@]}" \
			-o "$TMP/links.json" >"$TMP/run" 2>&1
		rc=$?
		t1=$(date +%s.%N)
		python3 "$HERE/check_cluster.py" verdict "$TMP/links.json" "$@" >"$TMP/verdict" 2>&1
		crc=$?
		# every measurement goes into the table, the ones that were off too
		grep '^verdict:' "$TMP/verdict" | sed 's/^verdict: //' >>"$TABLE"
		[ $crc = 0 ] && [ $rc = "$want" ] && ok=1 && break
		echo "collscope links exited $rc, expected $want" >>"$TMP/verdict"
		[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$TMP/links.json" "$KEEP/$(echo "$name" | tr -c 'a-z0-9\n' _)-$i.json" 2>/dev/null
		[ "$i" -lt "$TRIES" ] && printf '  note  %s: measurement %d of %d was off\n' "$name" "$i" "$TRIES" &&
			sed 's/^/        | /' "$TMP/verdict"
	done
	local s
	s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	if [ "$1" = none ]; then CLEAN_S="$CLEAN_S $s"; else SLOW_S="$SLOW_S $s"; fi
	if [ $ok = 1 ]; then
		pass "$name$([ "$i" -gt 1 ] && echo " (measurement $i)") in ${s%.*} s"
		sed 's/^/        /' "$TMP/verdict"
	else
		fail "$name" "$TMP/verdict"
	fi
}

# --- a flat cluster: clean runs, hosts and links ----------------------------------
NP=$((HOSTS * PER_HOST))
expect_exit 0 "vcluster up $HOSTS $PER_HOST" in_bg timeout 120 bash "$VC" up "$HOSTS" "$PER_HOST"
for c in $(seq 1 "$CLEAN"); do
	one_verdict "clean cluster $c of $CLEAN: nothing named" "$NP" 0 none
done
for class in $CLASSES; do
	[ "$class" = segment ] && continue
	for c in $(seq 1 "$CULPRITS"); do
		inject "$class" "$HOSTS" >"$TMP/inject" 2>&1 || { fail "inject $class" "$TMP/inject"; continue; }
		one_verdict "$class $c of $CULPRITS: $INJ_KIND $INJ_DIR $INJ_CULPRIT" "$NP" 1 \
			"$INJ_KIND" "$INJ_DIR" "$INJ_CULPRIT"
		bash "$VC" heal
	done
done

# --- clusters of racks: a slow uplink ------------------------------------------
case " $CLASSES " in
*" segment "*)
	for c in $(seq 1 "$CULPRITS"); do
		case $(rand 3) in
		1) k=4 slots=1 INJ_RACKS=2 ;;
		2) k=5 slots=1 INJ_RACKS=2 ;;
		3) k=6 slots=1 INJ_RACKS=3 ;;
		esac
		expect_exit 0 "vcluster up $k $slots --racks $INJ_RACKS" \
			in_bg timeout 120 bash "$VC" up "$k" "$slots" --racks "$INJ_RACKS"
		inject segment "$k" >"$TMP/inject" 2>&1 || { fail "inject segment" "$TMP/inject"; continue; }
		one_verdict "segment $c of $CULPRITS: $k hosts in $INJ_RACKS racks, $INJ_CULPRIT" \
			$((k * slots)) 1 segment both "$INJ_CULPRIT"
	done
	;;
esac

# --- the confusion table ----------------------------------------------------------
echo "  confusion table: injected class (rows) against the verdict links printed first (columns),"
echo "  every measurement (a verdict that was off and passed on a later one counts in both cells)"
python3 - "$TABLE" <<'PY'
import collections, sys
rows = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1]):
    injected, got = [x.strip() for x in line.split("=>")]
    rows[injected.split()[0]][got] += 1
cols = sorted({c for r in rows.values() for c in r})
w = max([len(c) for c in cols] + [14])
print("    %-16s" % "injected" + "".join(" %*s" % (w, c) for c in cols))
for r in sorted(rows):
    print("    %-16s" % r + "".join(" %*d" % (w, rows[r][c]) for c in cols))
PY
mean() { echo "$*" | tr ' ' '\n' | grep . | awk '{ s += $1; n++ } END { if (n) printf "%.1f", s / n; else print "-" }'; }
echo "  links took $(mean $CLEAN_S) s on a clean cluster, $(mean $SLOW_S) s with a culprit at $RATE (means)"
finish
