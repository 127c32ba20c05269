#!/usr/bin/env bash
# The house's rules, read off the source tree (the binary is not needed):
# a command in cmd/ parses, runs through the run layer's one header
# (cmd/run/run.h) and prints; it makes no MPI call of its own. reports/ has no
# MPI and reaches no command; every include names its folder from the root;
# no two sources share a name. Each rule is checked on a planted violation
# too, so that a check that can no longer see one fails here.
set -u
. "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 5
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# mpi_calls FILES...: the lines that call an MPI function.
mpi_calls() { grep -nE '\bMPI_[A-Z][a-z_]*[a-z]\(' "$@" /dev/null; }
# cmd_reaches FILES...: includes of algorithms/ or probes/ from a command file,
# other than the variant registry and its dtypes, which list and the option
# tables name.
cmd_reaches() {
	grep -nE '^#include "(algorithms|probes)/' "$@" /dev/null |
		grep -vE '"algorithms/(variant|dtype)\.h"'
}
# bare_includes FILES...: quoted includes that do not name their folder.
bare_includes() { grep -nE '^#include "[^/"]+"' "$@" /dev/null | grep -v '"version.h"'; }
# reports_reach FILES...: reports/ including MPI or a command's header.
reports_reach() { grep -nE '^#include (<mpi\.h>|"cmd/[^"]*")' "$@" /dev/null | grep -v '"cmd/exit_codes.h"'; }
# same_names FILES...: source names found in more than one folder.
same_names() { for f in "$@"; do basename "$f"; done | sort | uniq -d; }

expect_none() { # WHAT OUTPUT
	if [ -z "$2" ]; then pass "$1"; else fail "$1"; printf '%s\n' "$2" | sed 's/^/        | /' | head -20; fi
}
expect_some() { # WHAT OUTPUT
	if [ -n "$2" ]; then pass "$1"; else fail "$1"; fi
}

cmd_files=$(ls cmd/*.c)
# the commands and their printing, not the option tables and the dispatcher
# (they parse: names and limits of algorithms/, COLLSCOPE_FAULT before MPI_Init)
runs=$(ls cmd/*.c | grep -vE '/(main|parse|opts[a-z_]*|[a-z]+_opts)\.c$')
expect_none "no MPI call in cmd/*.c (the run layer, cmd/run/, makes them)" "$(mpi_calls $cmd_files)"
expect_none "commands reach algorithms/ and probes/ only through the run layer" "$(cmd_reaches $runs)"
expect_none "every include names its folder" \
	"$(bare_includes $(git ls-files 'cmd/*.[ch]' 'algorithms/*.[ch]' 'probes/*.[ch]' 'reports/*.[ch]'))"
expect_none "reports/ includes neither MPI nor a command's header" \
	"$(reports_reach $(git ls-files 'reports/*.[ch]'))"
expect_none "no two sources share a name" "$(same_names $(git ls-files '*.c' '*.h'))"
expect_none "reports/ holds folders by role, no loose sources" "$(ls reports/*.[ch] 2>/dev/null)"
run_includes=$(grep -lE '^#include "cmd/run/[a-z_]+\.h"' $cmd_files | xargs -r grep -hE '^#include "cmd/run/' | sort -u)
expect_none "commands include the run layer by its one header" "$(printf '%s\n' "$run_includes" | grep -v '"cmd/run/run.h"' | grep .)"

# The checks see what they are meant to see.
printf '#include <mpi.h>\n#include "sweep.h"\n#include "probes/p2p.h"\nint f(void) { return MPI_Barrier(MPI_COMM_WORLD); }\n' > "$TMP/bad.c"
expect_some "a planted MPI call is seen" "$(mpi_calls "$TMP/bad.c")"
# CI (CI=true, .ci/run) builds with -Werror; the two sources gcc 12 warned
# about (-Wformat-truncation, at -O0 with sanitizers as make check's san
# build) build under it.
expect_exit 0 "CI=true compiles with -Werror" sh -c \
	'make -n CI=true -W probes/topology.c build/probes/topology.o | grep -q -- -Werror'
expect_exit 0 "probes/topology.c and tests/unit/test_accept_derive.c: no warning under -Werror" \
	make -s --no-print-directory CI=true BUILD="$TMP/werror" SANITIZE=address,undefined OPT='-O0 -g' \
	"$TMP/werror/probes/topology.o" "$TMP/werror/tests/unit/test_accept_derive.o"

expect_some "a planted include of probes/ is seen" "$(cmd_reaches "$TMP/bad.c")"
expect_some "a planted bare include is seen" "$(bare_includes "$TMP/bad.c")"
expect_some "a planted MPI include in reports/ is seen" "$(reports_reach "$TMP/bad.c")"
expect_some "a planted same name is seen" "$(same_names cmd/links.c "$TMP/links.c")"
finish
