#!/usr/bin/env bash
# nofile_rank0.sh SOFT HARD CMD...: runs CMD with rank 0's open-file limit at SOFT (soft) and
# HARD (hard), the other ranks' untouched: mpirun ... nofile_rank0.sh 24 24 collscope ...
# (the rank from Open MPI's or MPICH's environment).
soft=$1 hard=$2
shift 2
if [ "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-}}" = 0 ]; then
	ulimit -Sn "$soft" && ulimit -Hn "$hard" || exit 99
fi
exec "$@"
