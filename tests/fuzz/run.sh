#!/usr/bin/env bash
# make fuzz and make fuzz-test: every libFuzzer target of the fuzz binary
# (tests/fuzz/fuzz.h: report_read, spec, runs, options, wire; FUZZ_TARGET
# picks one) for SECONDS each, from tests/fuzz/seeds/TARGET (seed corpora
# kept beside the targets) and a corpus of its own in the build. The binary
# is built with clang under ASan and UBSan from the pure sources; a crash,
# leak, sanitizer report or an oracle that says no fails it, and leaves the
# input beside the binary (crash-*, leak-*, timeout-*). The report reader's
# oracles (fuzz_report_read.c): the page is collscope's markup with every
# string escaped, compare's tables hold no terminal control, the reader never
# runs out of memory on what its grammar pass accepted, the tree estimate
# bounds cJSON's allocations. Its input may be a template that expands to
# megabytes ("#x COUNT" ... "@{" ITEM "@}"), so that size-dependent paths
# are reached. Each target's file says what its oracles are.
#   tests/fuzz/run.sh BINARY [SECONDS] [TARGET...]
# Without a clang that builds libFuzzer targets it skips (exit 0), unless we
# are root with apt-get: then tests/provision.sh fuzz installed it, and the
# binary should have been built.
set -u
FUZZ_BIN=$1
SECONDS_TO_RUN=${2:-25}
shift $(($# < 2 ? $# : 2))
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(report_read spec runs options wire)
DIR=$(dirname "$FUZZ_BIN")
HERE=$(dirname "$0")

if ! bash "$HERE/../provision.sh" --check fuzz; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "fuzz-test: FAILED: ${FUZZ_CC:-clang} cannot build a libFuzzer target even with tests/provision.sh fuzz's packages installed"
		exit 1
	fi
	why="${FUZZ_CC:-clang} cannot build a libFuzzer target (tests/provision.sh fuzz names the Debian packages; as root it installs them)"
	echo "fuzz-test: SKIPPED: $why"
	[ -n "${COLLSCOPE_TALLY:-}" ] && echo "skip fuzz-test: $why" >>"$COLLSCOPE_TALLY"
	exit 0
fi
passed=0 failed=0
for t in "${TARGETS[@]}"; do
	mkdir -p "$DIR/corpus-$t"
	dict=()
	case $t in report_read | spec | runs) dict=(-dict="$HERE/report.dict") ;; esac
	echo "fuzz-test: $t for $SECONDS_TO_RUN s"
	if FUZZ_TARGET=$t "$FUZZ_BIN" -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 \
		-rss_limit_mb=2048 "${dict[@]}" -artifact_prefix="$DIR/$t-" -print_final_stats=1 \
		"$DIR/corpus-$t" "$HERE/seeds/$t" >"$DIR/fuzz-$t.log" 2>&1; then
		grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$DIR/fuzz-$t.log" | sed "s/^/  $t /"
		echo "  ok    $t: no crash, leak, sanitizer report or oracle failure"
		passed=$((passed + 1))
	else
		tail -n 60 "$DIR/fuzz-$t.log"
		echo "  FAIL  $t: the input is in $DIR/ ($t-crash-*, $t-leak-*, $t-timeout-*)"
		failed=$((failed + 1))
	fi
done
[ -n "${COLLSCOPE_TALLY:-}" ] && echo "$passed $failed" >>"$COLLSCOPE_TALLY"
echo "fuzz/run: $passed passed, $failed failed"
[ $failed = 0 ]
