#!/usr/bin/env bash
# make fuzz-test: the libFuzzer target of the report reader for SECONDS from
# tests/fuzz/seeds (a corpus kept beside the target). The target is built
# with clang from the pure code that reads reports (reader, compare, HTML
# page); a crash, leak, sanitizer report or an oracle that says no fails it,
# and leaves the input beside the target. The oracles (fuzz_report_read.c):
# the page is collscope's markup with every string escaped, compare's tables
# hold no terminal control, the reader never runs out of memory on what its
# grammar pass accepted, the tree estimate bounds cJSON's allocations. An
# input may be a template that expands to megabytes ("#x COUNT" ... "@{" ITEM
# "@}"), so that size-dependent paths are reached.
#   tests/fuzz/run.sh TARGET [SECONDS]
# Without a clang that builds libFuzzer targets it skips (exit 0), unless we
# are root with apt-get: then tests/provision.sh fuzz installed it, and the
# target should have been built.
set -u
FUZZ_BIN=$1
SECONDS_TO_RUN=${2:-25}
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
mkdir -p "$DIR/corpus"
echo "fuzz-test: $FUZZ_BIN for $SECONDS_TO_RUN s"
if "$FUZZ_BIN" -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	-dict="$HERE/report.dict" -artifact_prefix="$DIR/" -print_final_stats=1 \
	"$DIR/corpus" "$HERE/seeds" >"$DIR/fuzz.log" 2>&1; then
	grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$DIR/fuzz.log"
	echo "fuzz-test: no crash, leak or sanitizer report"
else
	tail -n 60 "$DIR/fuzz.log"
	echo "fuzz-test: FAILED: the input is in $DIR/ (crash-*, leak-*, timeout-*)"
	exit 1
fi
