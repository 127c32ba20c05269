#!/usr/bin/env bash
# The command line as a user meets it: help, version, bad input, exit codes.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"

expect_exit 0 "--help" "$BIN" --help
expect_output 'usage: collscope' "--help prints usage"
expect_exit 0 "--version" "$BIN" --version
expect_output '^collscope [0-9]+\.[0-9]+\.[0-9]+ \(git ' "--version names version and commit"
expect_exit 2 "no command" "$BIN"
expect_exit 2 "unknown command" "$BIN" frobnicate
expect_output "unknown command 'frobnicate'" "unknown command is named"
expect_exit 0 "list runs without mpirun" "$BIN" list
for v in naive ring tree recursive-doubling rabenseifner mpi mpi-reduce-bcast mpi-rs-allgather; do
	expect_output "^$v " "list shows $v"
done
# the guideline mock-ups and the compressed variants, and they alone, carry the note that
# 'all' leaves them out
expect_exit 0 "list notes the guideline mock-ups and the compressed variants, no other" sh -c \
	"'$BIN' list | awk '/^[^ ]/ { v = \$1 } /never by .all./ { print v }' | paste -sd, - |
	grep -qx mpi-reduce-bcast,mpi-rs-allgather,bf16,fp16,int8,topk"
expect_exit 0 "list --names" "$BIN" list --names
expect_exit 2 "list with an unknown option" "$BIN" list --bogus
expect_output "'--bogus'" "the unknown option is named"
expect_exit 0 "verify --help runs without mpirun" "$BIN" verify --help
expect_output 'exit codes' "verify --help documents exit codes"

# What is printed must reach stdout: a full device is an I/O error, exit 5.
if [ -w /dev/full ]; then
	expect_exit 5 "list into a full device exits 5" sh -c "'$BIN' list >/dev/full"
	expect_output "cannot write to stdout" "it says stdout could not be written"
	expect_exit 5 "--help into a full device exits 5" sh -c "'$BIN' allreduce --help >/dev/full"
	expect_exit 5 "--version into a full device exits 5" sh -c "'$BIN' --version >/dev/full"
fi

# Bad values: each exits 2 and names the value.
check_bad() {
	local want=$1
	shift
	expect_exit 2 "verify $* exits 2" "$BIN" verify "$@"
	expect_output "$want" "verify $* names the bad value"
}
check_bad "unknown dtype 'float16'" -d float16
check_bad "unknown op 'avg'" -r avg
check_bad "unknown algorithm 'ring2'" -a ring,ring2
check_bad "'8Gx'" --segment-bytes 8Gx
check_bad "'0'" --segment-bytes 0
check_bad "'-1'" --counts -1
check_bad "'nan'" --counts nan
check_bad "'--frob'" --frob

finish
