#!/usr/bin/env bash
# collscope allreduce: every bad value exits 2, names the value, and writes nothing.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

expect_exit 0 "allreduce --help runs without mpirun" "$BIN" allreduce --help
expect_output '--min-busbw' "allreduce --help documents the gate"

# bad VALUE-IN-MESSAGE ARGS...
bad() {
	local want=$1
	shift
	expect_exit 2 "allreduce $* exits 2" "$BIN" allreduce -o "$TMP/never.json" "$@"
	expect_output "$want" "allreduce $* names the value"
	[ -e "$TMP/never.json" ] && fail "allreduce $* wrote a report" || true
}
bad "'8Gx'" -e 8Gx
bad "'-1'" -b -1
bad "'1e30'" -e 1e30
bad "'nan'" -f nan
bad "'18446744073709551616'" -e 18446744073709551616
bad "''" -b ""
bad "--min-bytes 1024 is larger than --max-bytes 512" -b 1K -e 512
bad "'1'.*greater than 1" -f 1
bad "'0.5'" -f 0.5
bad "'0'" -n 0
bad "'-3'" -w -3
bad "unknown algorithm 'ring3'" -a ring3
bad "unknown dtype 'half'" -d half
bad "unknown op 'avg'" -r avg
bad "'2'" -c 2
bad "'xml'" --format xml
bad "'-5'" --min-busbw -5
bad "'inf'" --time-per-size inf
bad "'--bogus'" --bogus
bad "1099511627776 bytes needs .* bytes of memory" -e 1T
# sizes whose buffers overflow 64 bits are refused as too big, not wrapped into small ones
bad "4611686018427387904 bytes needs .* bytes of memory" -e 4611686018427387904
bad "18446744073709551612 bytes needs .* bytes of memory" --sizes 18446744073709551612
bad "the size 18446744073709551615 is not a whole number of float32 elements" --sizes 18446744073709551615
bad "9223372036854775808 bytes needs .* bytes of memory" -e 18446744073709551615
mkdir -p "$TMP/adir"
expect_exit 2 "a directory as output exits 2" mpi 1 allreduce -e 64 -n 2 -o "$TMP/adir"
expect_output "$TMP/adir" "the directory is named"
expect_exit 2 "a missing directory as output exits 2" mpi 1 allreduce -e 64 -n 2 -o "$TMP/no/such.json"
expect_output "$TMP/no/such.json" "the missing path is named"
# a full stdout is an I/O error (run alone: under mpirun, stdout is the launcher's)
if [ -w /dev/full ]; then
	expect_exit 5 "allreduce with stdout on a full device exits 5" \
		sh -c "'$BIN' allreduce -q -b 8 -e 64 -n 2 -w 0 >/dev/full"
	expect_output "cannot write to stdout" "it says stdout could not be written"
fi

finish
