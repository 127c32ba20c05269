#!/usr/bin/env bash
# What the build and the suites need, installed when it is missing (the
# Makefile's deps, fuzz-deps, browser-deps, mpich-deps and slurm-deps call this).
#   tests/provision.sh NAME...    provision each NAME, in order
#   tests/provision.sh --check NAME   exit 0 when NAME is there, 1 when not; silent
# NAME is one of
#   base     the toolchain and libraries of the build and the suites
#   fuzz     clang and libFuzzer (make fuzz-test)
#   browser  Chromium (tests/cli/report.sh loads the page in it)
#   mpich    MPICH 4 beside Open MPI (make mpich-test, MPI=mpich)
#   slurm    Slurm's daemons and client (make slurm-test), none of them started
# Silent when all is there. As root with apt-get, what is missing is installed
# (exit 5 when that fails). Otherwise the missing Debian packages are named:
# for base that is an error (exit 1); the others' suites skip (exit 0).
# FUZZ_CC, MPICH_CC and MPICH_RUN name the tools (the Makefile passes its own).
# shellcheck disable=SC2086 # the package lists are lists of words
set -u

FUZZ_CC=${FUZZ_CC:-clang}
MPICH_CC=${MPICH_CC:-mpicc.mpich}
MPICH_RUN=${MPICH_RUN:-mpiexec.mpich}

BASE_PKGS="libopenmpi-dev openmpi-bin libhwloc-dev libcjson-dev libcriterion-dev libsodium-dev pkg-config iproute2 python3"
FUZZ_PKGS="clang libclang-rt-dev"
BROWSER_PKGS="chromium"
MPICH_PKGS="libmpich-dev mpich"
SLURM_PKGS="slurmctld slurmd slurm-client"
# The alternatives Debian's MPICH registers beside Open MPI's (see mpich).
MPI_ALTERNATIVES="mpi mpirun mpi-x86_64-linux-gnu"
# apt-get update once per 30 minutes, for all the installs of a make check:
# each asking again cost 5 to 10 s on a new machine.
APT_STAMP=/tmp/collscope-apt-updated
# Held around every install: two apt-gets at once would fight over dpkg's lock.
LOCK=/tmp/collscope-provision.lock

# --- Is it there? Each sets MISSING to what it lacks, for the messages. ---
have_base() {
	local t m lack=""
	for t in mpicc mpirun pkg-config ip tc python3; do
		command -v "$t" >/dev/null 2>&1 || lack="$lack $t"
	done
	for m in hwloc libcjson criterion libsodium; do
		pkg-config --exists "$m" 2>/dev/null || lack="$lack pkg-config:$m"
	done
	MISSING="missing$lack"
	[ -z "$lack" ]
}
have_fuzz() {
	MISSING="$FUZZ_CC cannot build a libFuzzer target"
	local dir rc
	dir=$(mktemp -d "${TMPDIR:-/tmp}/collscope-fuzz-probe.XXXXXX") || return 1
	printf '%s\n' 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);' \
		'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$dir/probe.c"
	"$FUZZ_CC" -fsanitize=fuzzer -o "$dir/probe" "$dir/probe.c" >/dev/null 2>&1
	rc=$?
	rm -rf "$dir"
	return $rc
}
have_browser() {
	MISSING="chromium not found"
	command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1
}
have_mpich() {
	MISSING="$MPICH_CC or $MPICH_RUN not found"
	command -v "$MPICH_CC" >/dev/null 2>&1 && command -v "$MPICH_RUN" >/dev/null 2>&1
}
have_slurm() {
	MISSING="Slurm not found"
	command -v srun >/dev/null 2>&1 && command -v slurmd >/dev/null 2>&1 &&
		command -v slurmctld >/dev/null 2>&1
}

# --- Installing ---
can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

# not_installed PKG...: those dpkg does not have installed (all of them without dpkg).
not_installed() {
	local p out=""
	for p in "$@"; do
		command -v dpkg-query >/dev/null 2>&1 &&
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$' && continue
		out="$out $p"
	done
	echo "${out# }"
}

# apt_install [--no-install-recommends] PKG...: under the lock, after an apt-get
# update if none ran in the last 30 minutes.
apt_install() (
	exec 9>"$LOCK" || exit 5
	if command -v flock >/dev/null 2>&1; then flock 9 || exit 5; fi
	if [ -z "$(find "$APT_STAMP" -mmin -30 2>/dev/null)" ]; then
		apt-get update -q && touch "$APT_STAMP" || exit 5
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
)

# install_mpich: Debian's MPICH also registers mpicc, mpirun and mpiexec as
# alternatives (priority 40, below Open MPI's 50), which other builds on the
# machine use: each is pinned to what it was for the install and put back as
# it was (auto or manual) afterwards.
install_mpich() {
	local was="" a q v m e now rc
	for a in $MPI_ALTERNATIVES; do
		q=$(update-alternatives --query "$a" 2>/dev/null) || continue
		v=$(echo "$q" | sed -n 's/^Value: //p')
		m=$(echo "$q" | sed -n 's/^Status: //p')
		[ -n "$v" ] || continue
		update-alternatives --set "$a" "$v" >/dev/null && was="$was $a:$m:$v"
	done
	apt_install --no-install-recommends $MPICH_PKGS
	rc=$?
	for e in $was; do
		a=${e%%:*} v=${e##*:} m=${e#*:}
		m=${m%%:*}
		[ "$m" = auto ] && update-alternatives --auto "$a" >/dev/null
		now=$(update-alternatives --query "$a" | sed -n 's/^Value: //p')
		if [ "$now" != "$v" ]; then
			echo "provision mpich: $a is $now after the install: back to $v"
			update-alternatives --set "$a" "$v"
		fi
	done
	return $rc
}

# install_slurm: a policy-rc.d refuses every daemon start for the install
# (slurmctld, slurmd, munged: the suite starts its own inside namespaces),
# unless the machine has one; ours goes afterwards, even when interrupted.
install_slurm() {
	local policy=/usr/sbin/policy-rc.d ours="" rc
	if [ ! -e $policy ]; then
		printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy && ours=1
		[ -n "$ours" ] && trap 'rm -f /usr/sbin/policy-rc.d' EXIT && trap 'exit 130' INT TERM
	fi
	apt_install --no-install-recommends $SLURM_PKGS
	rc=$?
	[ -n "$ours" ] && rm -f $policy && trap - EXIT INT TERM
	return $rc
}

# provision NAME: 0 when NAME is there or was installed or may be skipped,
# 1 when base is missing and cannot be installed here, 5 when an install failed.
provision() {
	local name=$1 pkgs skip missing_pkgs
	case $name in
	base) pkgs=$BASE_PKGS ;;
	fuzz) pkgs=$FUZZ_PKGS skip="make fuzz-test skips" ;;
	browser) pkgs=$BROWSER_PKGS skip="tests/cli/report.sh skips the headless browser check" ;;
	mpich) pkgs=$MPICH_PKGS skip="mpich-test skips (or name MPICH's wrapper and launcher: MPICH_CC=mpicc MPICH_RUN=mpiexec)" ;;
	slurm) pkgs=$SLURM_PKGS skip="tests/cluster/cluster_slurm.sh skips" ;;
	*) echo "provision: bad name '$name': base, fuzz, browser, mpich or slurm" >&2 && return 2 ;;
	esac
	"have_$name" && return 0
	missing_pkgs=$(not_installed $pkgs)
	if ! can_install; then
		echo "provision $name: $MISSING, and this is not root with apt-get: install the Debian packages ${missing_pkgs:-$pkgs}"
		if [ "$name" = base ]; then
			echo "provision base: (or load the modules that provide mpicc, mpirun and the pkg-config files of hwloc, libcjson, criterion, libsodium)"
			return 1
		fi
		echo "provision $name: $skip"
		return 0
	fi
	echo "provision $name: $MISSING: installing $pkgs"
	case $name in
	mpich) install_mpich ;;
	slurm) echo "provision slurm: starting no daemon" && install_slurm ;;
	*) apt_install $pkgs ;;
	esac || return 5
}

if [ "${1:-}" = --check ]; then
	[ $# = 2 ] && declare -F "have_$2" >/dev/null || { echo "usage: $0 --check base|fuzz|browser|mpich|slurm" >&2 && exit 2; }
	"have_$2"
	exit
fi
[ $# -gt 0 ] || { echo "usage: $0 base|fuzz|browser|mpich|slurm..." >&2 && exit 2; }
for name in "$@"; do
	provision "$name" || exit
done
