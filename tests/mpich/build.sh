#!/usr/bin/env bash
# make mpich-test, first: the binary built with MPI=mpich saw MPICH alone (no
# Open MPI header in any of its build's dependency files, MPICH's mpi.h in
# cmd/main.c's) and links libmpich, not Open MPI's libmpi.
set -u
BIN=$(realpath "${1:-build-mpich/collscope}")
. "$(dirname "$0")/../lib.sh"
DIR=$(dirname "$BIN")

expect_exit 1 "no source of $BIN saw an Open MPI header" grep -rl --include='*.d' '/openmpi/' "$DIR"
expect_exit 0 "cmd/main.c saw MPICH's mpi.h" grep -q '/mpich/mpi\.h' "$DIR/cmd/main.d"
ldd "$BIN" >"$TMP/ldd" 2>&1
expect_exit 0 "$BIN links libmpich" grep -q 'libmpich\.so' "$TMP/ldd"
expect_exit 1 "and not Open MPI's libmpi" grep -q 'libmpi\.so' "$TMP/ldd"

finish
