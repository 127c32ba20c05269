#!/usr/bin/env bash
# Two builds' slow-hop verdicts side by side (issue 39): on 5 namespace hosts
# at 300 Mbit/s, one rank each, one link r -> r+1 of the traced ring is slowed
# by PCT% one way (0: none), and each build runs `allreduce -a ring --sizes 1M
# -n 10 -w 2 --trace` (the campaign's traced command) back to back on the same
# fault, so that both meet the same machine. Prints per build and magnitude how
# often the slowed hop was named and how many healthy hops or ranks were.
# Not in make check (minutes); by hand when the hop judge changes.
#
#   bash tests/cluster/trace_ab.sh BIN_A BIN_B      # N=8 draws per magnitude, PCTS="20 35 0"
# Needs root (network namespaces).
set -u
export PATH=$PATH:/usr/sbin:/sbin
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ $# = 2 ] || { echo "usage: trace_ab.sh BIN_A BIN_B" >&2; exit 2; }
A=$(realpath "$1") B=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
VC=$HERE/vcluster.sh
export VC_PREFIX=${VC_PREFIX:-csab$$}
TMP=$(mktemp -d)
trap 'bash "$VC" down >/dev/null 2>&1; rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
bash "$VC" up 5 1 >/dev/null || exit 5
for i in $(seq 1 "${N:-8}"); do
	for pct in ${PCTS:-20 35 0}; do
		a=$((RANDOM % 5 + 1)) b=$((a % 5 + 1))
		bash "$VC" heal >/dev/null 2>&1
		for h in 1 2 3 4 5; do bash "$VC" slow "h$h" 300mbit >/dev/null 2>&1; done
		[ "$pct" = 0 ] || bash "$VC" slow-link "h$a" "h$b" "$((300 * (100 - pct) / 100))mbit" oneway >/dev/null 2>&1
		for which in A B; do
			bin=$A; [ $which = B ] && bin=$B
			bash "$VC" mpirun --bind-to none -np 5 "$bin" allreduce -a ring --sizes 1M -n 10 -w 2 --trace -q \
				-o "$TMP/r.json" --force >/dev/null 2>&1
			python3 - "$TMP/r.json" "$which" "$pct" "$((a - 1))" "$((b - 1))" >>"$TMP/rows" <<'PY'
import json, sys
path, which, pct, a, b = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
try:
    s = json.load(open(path))["summary"]
except (OSError, ValueError, KeyError):
    print(which, pct, "failed", 0, 0)
    sys.exit()
named = [(h["from_rank"], h["to_rank"]) for h in s.get("slow_hops", [])]
right = pct > 0 and (a, b) in named
healthy = len([x for x in named if pct == 0 or x != (a, b)]) + len(s.get("slow_ranks", []))
print(which, pct, "ran", int(right), healthy)
PY
		done
	done
done
echo "build magnitude runs named_the_slowed_hop healthy_named   (A=$A B=$B)"
awk '{k = $1 " " $2 "%"; n[k]++; f[k] += $3 == "failed"; r[k] += $4; h[k] += $5}
     END {for (k in n) printf "%-5s %-9s %4d %20d %14d%s\n", substr(k, 1, 1), substr(k, 3), n[k], r[k], h[k],
                                f[k] ? " (" f[k] " runs failed)" : ""}' "$TMP/rows" | sort -k1,1 -k2,2n
