#!/usr/bin/env bash
# The logic of the job scripts of tests/cluster/slurm/, without Slurm or MPI:
# each runs under bash with srun and collscope replaced by stubs that log
# their arguments and, like collscope, refuse to overwrite an -o file without
# --force (exit 2). Checks: nightly.sbatch makes a missing baseline without
# replacing the other kind's; a rerun with a fixed OUT passes; outside Slurm
# (no SLURM_JOB_ID, set -u) both scripts run; OUT equal to BASELINE is
# refused. cluster_slurm.sh runs it first (it needs neither root nor Slurm).
#   tests/cluster/jobscripts.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # lib.sh reads it: no collscope here
BIN=/bin/true
. "$HERE/../lib.sh"
SCRIPTS=$HERE/slurm
STUBS=$TMP/stubs
mkdir -p "$STUBS"

# collscope: logs "COMMAND ARGS"; writes a report for -o (refused without
# --force when it exists, as collscope does); compare exits $STUB_COMPARE_RC.
cat >"$STUBS/collscope" <<'EOF'
#!/bin/bash
echo "$*" >>"$STUB_LOG"
cmd=$1 out= force=0
shift
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift ;;
	--force) force=1 ;;
	esac
	shift
done
if [ -n "$out" ]; then
	if [ -e "$out" ] && [ $force = 0 ]; then
		echo "collscope: error: '$out' exists (use --force to overwrite)" >&2
		exit 2
	fi
	echo "{\"command\": \"$cmd\", \"run\": \"$STUB_RUN\"}" >"$out"
fi
[ "$cmd" = compare ] && exit "${STUB_COMPARE_RC:-0}"
exit 0
EOF
# srun: drops its own options, runs the rest
cat >"$STUBS/srun" <<'EOF'
#!/bin/bash
while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done
exec "$@"
EOF
chmod 755 "$STUBS/collscope" "$STUBS/srun"
export STUB_LOG=$TMP/log PATH=$STUBS:$PATH COLLSCOPE=collscope

# job SCRIPT RUN VAR=VALUE...: the script under bash, outside Slurm, in $TMP/work.
job() {
	local script=$1
	export STUB_RUN=$2
	shift 2
	: >"$STUB_LOG"
	mkdir -p "$TMP/work"
	(cd "$TMP/work" && env -u SLURM_JOB_ID -u SLURM_JOB_NODELIST -u SLURM_JOB_NUM_NODES "$@" \
		bash "$SCRIPTS/$script")
}
B=$TMP/base

# --- nightly: a missing baseline is made, the other kind's kept ---------------------
mkdir -p "$B"
echo '{"run": "old"}' >"$B/allreduce.json"
expect_exit 0 "nightly: a baseline with allreduce alone: exit 0" job nightly.sbatch 1 BASELINE="$B" OUT="$TMP/n1"
expect_output "^nightly: this run is the links baseline now" "it says so"
expect_exit 0 "its allreduce baseline is kept" grep -q '"old"' "$B/allreduce.json"
expect_exit 0 "its links baseline is made from this run" grep -q '"run": "1"' "$B/links.json"
expect_exit 0 "allreduce is compared with its baseline" grep -q "^compare .*$B/allreduce.json" "$STUB_LOG"
expect_exit 1 "links is not compared with itself" grep -q "^compare .*$B/links.json" "$STUB_LOG"

# --- nightly: a fixed OUT, run again --------------------------------------------------
expect_exit 0 "nightly: a rerun with the same OUT: exit 0" job nightly.sbatch 2 BASELINE="$B" OUT="$TMP/n1"
expect_exit 0 "its reports are the rerun's" grep -q '"run": "2"' "$TMP/n1/allreduce.json" "$TMP/n1/links.json"
expect_exit 0 "both kinds compared" test "$(grep -c '^compare ' "$STUB_LOG")" = 2
expect_exit 0 "the baseline is not replaced" grep -q '"old"' "$B/allreduce.json"
expect_exit 1 "nightly: a regression: exit 1" job nightly.sbatch 3 BASELINE="$B" OUT="$TMP/n1" STUB_COMPARE_RC=1
expect_output "^nightly: allreduce against the baseline: exit 1" "it names the comparison"
expect_exit 0 "nightly: UPDATE_BASELINE=1 replaces both" job nightly.sbatch 4 BASELINE="$B" OUT="$TMP/n1" UPDATE_BASELINE=1
expect_exit 0 "both baselines are that run's" grep -q '"run": "4"' "$B/allreduce.json" "$B/links.json"
expect_exit 2 "nightly: OUT is BASELINE: exit 2" job nightly.sbatch 5 BASELINE="$B" OUT="$B/"
expect_output "nightly: OUT and BASELINE are one folder" "it says why"

# --- outside Slurm, set -u: no SLURM_JOB_ID --------------------------------------------
rm -rf "$TMP/work"
expect_exit 0 "nightly without SLURM_JOB_ID and OUT: exit 0" job nightly.sbatch 6 BASELINE="$TMP/base2"
expect_exit 0 "its reports in a folder named by the time" compgen -G "$TMP/work/collscope-nightly-*T*Z/allreduce.json"
expect_exit 0 "its baselines made" test -s "$TMP/base2/allreduce.json" -a -s "$TMP/base2/links.json"
expect_exit 0 "acceptance without SLURM_JOB_ID and OUT: exit 0" job acceptance.sbatch 7
expect_output "^accept: the nodes .+ are accepted" "it says so"
expect_exit 0 "its reports in a folder named by the time" compgen -G "$TMP/work/collscope-accept-*T*Z/topo.json"
expect_exit 0 "acceptance: a rerun with the same OUT: exit 0" job acceptance.sbatch 8 OUT="$TMP/a1"
expect_exit 0 "acceptance: again" job acceptance.sbatch 9 OUT="$TMP/a1"
expect_exit 0 "its reports are the rerun's" grep -q '"run": "9"' "$TMP/a1/topo.json" "$TMP/a1/links.json"

finish
