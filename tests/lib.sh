# Shared helpers of the shell test suites (tests/mpi, tests/cli, tests/cluster).
# Each suite sources this, calls the checks, and ends with `finish`, which
# prints the closing "N passed, N failed" line and sets the exit status.

PASSED=0
FAILED=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/collscope-test.XXXXXX")

# Nothing a suite started outlives it, also when it is interrupted (Ctrl-C
# during make check): on its exit every process below it is ended, found by
# parent and not by process group, since timeout and mpirun make groups of
# their own, which a Ctrl-C (sent to the terminal's group) does not reach.
# suite_children: the pids of every process this shell started, all generations.
suite_children() {
	ps -e -o pid= -o ppid= 2>/dev/null | awk -v root=$$ '
		{ parent[$1] = $2 }
		END {
			for (p in parent) {
				q = p
				for (n = 0; n < 64 && q in parent && q != root; n++) q = parent[q]
				if (q == root && p != root) print p
			}
		}'
}
# suite_end_children: TERM to each of them, KILL to those left after 2 s.
suite_end_children() {
	local pids left
	pids=$(suite_children)
	[ -n "$pids" ] || return 0
	# shellcheck disable=SC2086 # a list of pids
	kill -TERM $pids 2>/dev/null
	for _ in $(seq 20); do
		# shellcheck disable=SC2086
		left=$(ps -o pid= -p "$(echo $pids | tr ' ' ,)" 2>/dev/null)
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	# shellcheck disable=SC2086
	kill -KILL $left 2>/dev/null
	return 0
}
suite_interrupted() {
	echo "$(basename "$(dirname "$0")")/$(basename "$0" .sh): $2, ending what it started" >&2
	exit "$1"
}
trap 'suite_end_children; rm -rf "$TMP"' EXIT
trap 'suite_interrupted 130 interrupted' INT
trap 'suite_interrupted 143 terminated' TERM
trap 'suite_interrupted 129 hung up' HUP
# timeout, waited for in the background: bash runs a trap only once its
# foreground command has ended, and timeout, in a group of its own, sees no
# Ctrl-C: the suite would wait out the whole timeout. Standard input stays
# the caller's (a background command's would be /dev/null).
timeout() {
	command timeout "$@" <&0 &
	wait $!
}
# The suites run python3 dozens of times each. When python3 is a version
# manager's shim (a script: pyenv's runs pyenv, 0.4 s of CPU a call here,
# a third of the command-line suites' time), they run the interpreter it
# picks, found once: COLLSCOPE_PYTHON3 (make check finds it for all suites).
py=$(command -v python3)
if [ -n "$py" ] && [ "$(head -c 2 "$py")" = '#!' ]; then
	py=${COLLSCOPE_PYTHON3:-$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)}
	if [ -x "$py" ] && [ "$(head -c 2 "$py")" != '#!' ] && mkdir "$TMP/python3"; then
		printf '#!/bin/sh\nexec %s "$@"\n' "'$py'" >"$TMP/python3/python3"
		chmod 755 "$TMP/python3/python3"
		PATH=$TMP/python3:$PATH
	fi
fi
# The MPI library the suites run under: COLLSCOPE_MPI (openmpi or mpich; the
# Makefile sets it), or the one the binary is linked with. Each has its own
# launcher (MPIRUN: mpirun of Open MPI, Debian's mpiexec.mpich of MPICH, or
# srun) and its own launcher flags; MPIRUN_FLAGS set, even empty, replaces them.
if [ -z "${COLLSCOPE_MPI:-}" ]; then
	case $(ldd "${BIN:-build/collscope}" 2>/dev/null) in
	*libmpich*) COLLSCOPE_MPI=mpich ;;
	*) COLLSCOPE_MPI=openmpi ;;
	esac
fi
case $COLLSCOPE_MPI in
openmpi)
	MPIRUN=${MPIRUN:-mpirun}
	# more ranks than cores must yield when idle, and root may run them
	launcher_flags="--oversubscribe --mca mpi_yield_when_idle 1"
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	# Open MPI prints a help text per rank for every abort; tests read our own messages.
	export OMPI_MCA_orte_base_help_aggregate=1
	# When a rank exits non-zero, mpirun gives each of the others a second
	# between SIGTERM and SIGKILL (odls_base_sigkill_timeout): 1-2 s of
	# nothing for every failing-exit test, and no test reads a rank's
	# SIGTERM path (reports are renamed into place, never half written).
	export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-0}
	# Without a fabric Open MPI ends up with the ob1 PML here, but only after
	# its cm PML has probed libfabric and PSM in every rank: 0.2 s of each
	# job's start, a few hundred times a make check. Named, it starts at once.
	export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
	# Nor do the suites load its fabric components (mtl ofi, psm and psm2,
	# btl ofi): no suite has a fabric, and the libraries these pull in
	# (libpsm2, libinfinipath) calibrate a clock for 0.1 s each as they load.
	# MPI_T loads every component it finds, and every report's context asks
	# MPI_T for the library's settings: 0.2 s of each such job (a 2-rank
	# topo: 0.34 s, now 0.14). The others, from where Open MPI keeps them.
	ompi_libdirs=$(mpicc --showme:libdirs 2>/dev/null)
	if [ -z "${OMPI_MCA_mca_base_component_path:-}" ] && [ -n "$ompi_libdirs" ]; then
		# shellcheck disable=SC2086 # a list of directories
		ompi_dir=$(dirname "$(find $ompi_libdirs -maxdepth 2 -name mca_pml_ob1.so 2>/dev/null | head -n 1)")
		if [ -f "$ompi_dir/mca_pml_ob1.so" ] && mkdir "$TMP/ompi-components"; then
			for f in "$ompi_dir"/mca_*.so; do
				case ${f##*/} in mca_mtl_ofi.so | mca_mtl_psm.so | mca_mtl_psm2.so | mca_btl_ofi.so) continue ;; esac
				ln -s "$f" "$TMP/ompi-components/"
			done
			export OMPI_MCA_mca_base_component_path=$TMP/ompi-components
		fi
	fi
	;;
mpich)
	MPIRUN=${MPIRUN:-$(command -v mpiexec.mpich || echo mpiexec)}
	# Hydra runs any number of ranks, as root too; MPICH has no setting to
	# yield when idle (its ch4 device always polls)
	launcher_flags=
	;;
*)
	echo "lib.sh: bad COLLSCOPE_MPI '$COLLSCOPE_MPI': openmpi or mpich" >&2
	exit 2
	;;
esac
# srun takes its placement from the allocation, and none of mpirun's flags
case ${MPIRUN##*/} in srun*) launcher_flags= ;; esac
MPIRUN_FLAGS=${MPIRUN_FLAGS-$launcher_flags}
export COLLSCOPE_MPI
# The exit status of a job that collscope's watchdog ended (4: a hang). Open
# MPI's mpirun passes on the first rank's failing status. Hydra ORs the raw
# wait statuses of all ranks, and kills the rest with SIGKILL once one has
# exited: a rank it kills before that rank has exited by itself (a stopped
# one, or one slower to see the verdict) turns 4 into 9.
case $COLLSCOPE_MPI in
openmpi) HANG_EXIT=4 ;;
mpich) HANG_EXIT='4|9' ;;
esac

# exit_is GOT WANT: GOT is one of the codes WANT lists (4 or 4|9).
exit_is() {
	case "|$2|" in *"|$1|"*) return 0 ;; esac
	return 1
}

# The suite's own stdout, for notes from inside a command whose output a check keeps.
exec {SUITE_STDOUT}>&1

# ompi_tcp_retry CMD...: CMD, and once more when it failed because Open MPI
# 4.1's TCP transport lost a race between two ranks that connected to each
# other at once ("failed to TCP connect ... Operation now in progress", then
# a crash: seen under srun on the virtual cluster, 1 run in 6; open-mpi/ompi
# issues 10734 and 11508). The library's fault, not collscope's: said in a note.
ompi_tcp_retry() {
	local out rc
	out=$(mktemp "$TMP/tcp-retry.XXXXXX")
	"$@" >"$out" 2>&1
	rc=$?
	if [ $rc != 0 ] && grep -q "failed to TCP connect" "$out"; then
		echo "  note  Open MPI lost a TCP connection race (exit $rc), once more: $*" >&"$SUITE_STDOUT"
		"$@" >"$out" 2>&1
		rc=$?
	fi
	cat "$out"
	return $rc
}

pass() { PASSED=$((PASSED + 1)); printf '  ok    %s\n' "$1"; }
suite_name() { echo "$(basename "$(dirname "$0")")/$(basename "$0" .sh)"; }
# skip_check WHAT WHY: a check that cannot run here, said, and kept in the
# tally (a "skip" line): make check's last lines name every skip and why.
skip_check() {
	printf '  skip  %s: %s\n' "$1" "$2"
	[ -n "${COLLSCOPE_TALLY:-}" ] && echo "skip $(suite_name): $1: $2" >>"$COLLSCOPE_TALLY"
	return 0
}
# suite_skip WHY: the whole suite cannot run here: says why (into the tally
# too) and ends it, passing (exit 0).
suite_skip() {
	echo "$(suite_name): SKIP ($1)"
	[ -n "${COLLSCOPE_TALLY:-}" ] && echo "skip $(suite_name): $1" >>"$COLLSCOPE_TALLY"
	finish
	exit 0
}
fail() { FAILED=$((FAILED + 1)); printf '  FAIL  %s\n' "$1"; [ -n "${2:-}" ] && sed 's/^/        | /' "$2" | tail -n 20; }

# mpi N ARGS...: run the binary under the launcher on N ranks (-n: mpirun,
# Hydra and srun all take it).
mpi() {
	local n=$1
	shift
	# shellcheck disable=SC2086
	timeout 600 "$MPIRUN" $MPIRUN_FLAGS -n "$n" "$BIN" "$@" </dev/null
}

# all_variants: the variants that '-a all' (allreduce's default) selects,
# comma-separated: every one that `list` does not note as going by name only
# (the guideline mock-ups of issue 33). `list --names` names them all.
all_variants() {
	"$BIN" list | awk '/^[^ ]/ { name[++k] = $1 } /never by .all./ { named[name[k]] = 1 }
		END { for (i = 1; i <= k; i++) if (!(name[i] in named)) { printf "%s%s", sep, name[i]; sep = "," } }'
}

# expect_exit CODE NAME CMD...: run CMD, keep its output in $TMP/out, check its
# exit code (CODE may list several: 4|9).
expect_exit() {
	local want=$1 name=$2
	shift 2
	"$@" >"$TMP/out" 2>&1 </dev/null
	local got=$?
	if exit_is "$got" "$want"; then
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

# check_schema FILE... [-- NAME]: every report is valid against the JSON
# Schema `collscope schema COMMAND` prints for its command (tests/schema_check.py):
# the fields of the one table (reports/io/schema_table.h) with their types,
# present where required. NAME defaults to the files' names.
SCHEMA_CHECK=$(dirname "${BASH_SOURCE[0]}")/schema_check.py
check_schema() {
	local files=() name=
	while [ $# -gt 0 ]; do
		[ "$1" = -- ] && { name=$2; break; }
		files+=("$1")
		shift
	done
	expect_exit 0 "${name:-${files[*]##*/}} valid against collscope schema" \
		python3 "$SCHEMA_CHECK" --bin "$BIN" "${files[@]}"
}

# check_all_schemas: check_schema on every report the suite left in $TMP (the
# JSON files with a schema_version), at its end.
check_all_schemas() {
	local reports=()
	mapfile -t reports < <(grep -l '"schema_version"' "$TMP"/*.json 2>/dev/null)
	[ ${#reports[@]} -gt 0 ] && check_schema "${reports[@]}" -- "the suite's ${#reports[@]} reports"
}

finish() {
	[ -n "${COLLSCOPE_TALLY:-}" ] && echo "$PASSED $FAILED" >>"$COLLSCOPE_TALLY"
	echo "$(suite_name): $PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
}
