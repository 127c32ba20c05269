#!/usr/bin/env bash
# Every row of bad_input.table: exit 2, the value named, no report written, no crash.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
TABLE="$(dirname "$0")/bad_input.table"

mkdir -p "$TMP/dir"
echo '{"keep": "me"}' >"$TMP/exists.json"

# run_row N CMD ARGS: one row, its output in row.N.out and exit code in row.N.rc.
run_row() {
	local n=$1 cmd=$2 args=$3 out="$TMP/never.$1.json"
	eval "set -- $args"
	case "$args" in
	*"-o "*) ;;
	*) "$BIN" "$cmd" --help | grep -q -- '--output' && set -- "$@" -o "$out" ;;
	esac
	# Commands that measure start MPI as a singleton here: the same parsing as
	# under mpirun, without mpirun's seconds of teardown after a failed rank.
	"$BIN" "$cmd" "$@" >"$TMP/row.$n.out" 2>&1 </dev/null
	echo $? >"$TMP/row.$n.rc"
}

# The rows run side by side, one per core (each is a process of its own that
# only parses and exits); they are judged afterwards, in the table's order.
PAR=$(nproc 2>/dev/null || echo 1)
n=0
while IFS='|' read -r cmd args want; do
	cmd=$(echo "$cmd" | sed -e "s/^ *//" -e "s/ *$//")
	case "$cmd" in '' | '#'*) continue ;; esac
	n=$((n + 1))
	args=${args//@DIR@/$TMP/dir}
	args=${args//@EXISTS@/$TMP/exists.json}
	want=$(echo "$want" | sed -e 's/^ *//' -e 's/ *$//' -e "s|@DIR@|$TMP/dir|g" -e "s|@EXISTS@|$TMP/exists.json|g")
	printf '%s\n%s\n%s\n' "$cmd" "$args" "$want" >"$TMP/row.$n.spec"
	run_row "$n" "$cmd" "$args" &
	while [ "$(jobs -rp | wc -l)" -ge "$PAR" ]; do wait -n; done
done <"$TABLE"
wait

for i in $(seq 1 "$n"); do
	{ read -r cmd; read -r args; read -r want; } <"$TMP/row.$i.spec"
	rc=$(cat "$TMP/row.$i.rc" 2>/dev/null || echo none)
	label="$cmd $args"
	if [ "$rc" = 2 ]; then pass "$label: exit 2"; else fail "$label: exit $rc, expected 2" "$TMP/row.$i.out"; fi
	if grep -Eq -- "$want" "$TMP/row.$i.out"; then pass "$label: names it"; else fail "$label: no /$want/" "$TMP/row.$i.out"; fi
	if grep -Eq "Segmentation|Aborted|core dumped|AddressSanitizer|runtime error" "$TMP/row.$i.out"; then
		fail "$label: crashed" "$TMP/row.$i.out"
	fi
	[ -e "$TMP/never.$i.json" ] && fail "$label: wrote a report"
done
expect_exit 0 "the existing report was never touched" grep -q '"keep": "me"' "$TMP/exists.json"

finish
