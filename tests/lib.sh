# Shared helpers of the shell test suites (tests/mpi, tests/cli, tests/cluster).
# Each suite sources this, calls the checks, and ends with `finish`, which
# prints the closing "N passed, N failed" line and sets the exit status.

PASSED=0
FAILED=0
MPIRUN=${MPIRUN:-mpirun}
MPIRUN_FLAGS=${MPIRUN_FLAGS:---oversubscribe --mca mpi_yield_when_idle 1}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI prints a help text per rank for every abort; tests read our own messages.
export OMPI_MCA_orte_base_help_aggregate=1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/collscope-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

pass() { PASSED=$((PASSED + 1)); printf '  ok    %s\n' "$1"; }
fail() { FAILED=$((FAILED + 1)); printf '  FAIL  %s\n' "$1"; [ -n "${2:-}" ] && sed 's/^/        | /' "$2" | tail -n 20; }

# mpi N ARGS...: run the binary under mpirun on N local ranks.
mpi() {
	local n=$1
	shift
	# shellcheck disable=SC2086
	timeout 600 "$MPIRUN" $MPIRUN_FLAGS -np "$n" "$BIN" "$@" </dev/null
}

# expect_exit CODE NAME CMD...: run CMD, keep its output in $TMP/out, check its exit code.
expect_exit() {
	local want=$1 name=$2
	shift 2
	"$@" >"$TMP/out" 2>&1 </dev/null
	local got=$?
	if [ "$got" = "$want" ]; then
		pass "$name"
	else
		echo "exit code $got, expected $want: $*" >>"$TMP/out"
		fail "$name" "$TMP/out"
	fi
	return 0
}

# expect_output PATTERN NAME: the last command's output matches the extended regex.
expect_output() {
	if grep -Eq -- "$1" "$TMP/out"; then pass "$2"; else fail "$2 (no match for /$1/)" "$TMP/out"; fi
}

finish() {
	[ -n "${COLLSCOPE_TALLY:-}" ] && echo "$PASSED $FAILED" >>"$COLLSCOPE_TALLY"
	echo "$(basename "$(dirname "$0")")/$(basename "$0" .sh): $PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
}
