#!/usr/bin/env bash
# Every row of bad_input.table: exit 2, the value named, no report written, no crash.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
TABLE="$(dirname "$0")/bad_input.table"

mkdir -p "$TMP/dir"
echo '{"keep": "me"}' >"$TMP/exists.json"

while IFS='|' read -r cmd args want; do
	cmd=$(echo "$cmd" | sed -e "s/^ *//" -e "s/ *$//")
	case "$cmd" in '' | '#'*) continue ;; esac
	args=${args//@DIR@/$TMP/dir}
	args=${args//@EXISTS@/$TMP/exists.json}
	want=$(echo "$want" | sed -e 's/^ *//' -e 's/ *$//' -e "s|@DIR@|$TMP/dir|g" -e "s|@EXISTS@|$TMP/exists.json|g")
	eval "set -- $args"
	out="$TMP/never.json"
	rm -f "$out"
	case "$args" in
	*"-o "*) ;;
	*) "$BIN" "$cmd" --help | grep -q -- '--output' && set -- "$@" -o "$out" ;;
	esac
	# Commands that measure start MPI as a singleton here: the same parsing as
	# under mpirun, without mpirun's seconds of teardown after a failed rank.
	"$BIN" "$cmd" "$@" >"$TMP/out" 2>&1 </dev/null
	rc=$?
	label="$cmd $args"
	if [ "$rc" = 2 ]; then pass "$label: exit 2"; else fail "$label: exit $rc, expected 2" "$TMP/out"; fi
	if grep -Eq -- "$want" "$TMP/out"; then pass "$label: names it"; else fail "$label: no /$want/" "$TMP/out"; fi
	if grep -Eq "Segmentation|Aborted|core dumped|AddressSanitizer|runtime error" "$TMP/out"; then
		fail "$label: crashed" "$TMP/out"
	fi
	[ -e "$out" ] && fail "$label: wrote a report"
done <"$TABLE"
expect_exit 0 "the existing report was never touched" grep -q '"keep": "me"' "$TMP/exists.json"

finish
