#!/usr/bin/env bash
# make bench-scale: the links analysis at 1,024 and 4,096 hosts (scale_analysis.c prints
# time and peak memory per stage and checks the verdicts and the goals), then the 1,024-host
# pages in headless Chromium when it is installed: each loads without a console error.
# usage: tests/bench/scale.sh SCALE_ANALYSIS OUT_DIR
set -u
BIN=$1
OUT=$2
mkdir -p "$OUT"
"$BIN" --hosts "${BENCH_SCALE_HOSTS:-1024,4096}" --page-dir "$OUT"
rc=$?
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "# skip: headless Chromium is not installed ('make browser-deps' as root installs it)"
	exit $rc
fi
for page in "$OUT"/scale-1024-*.html; do
	[ -e "$page" ] || continue
	log=${page%.html}.chromium.log
	rm -rf "$OUT/chromium-profile"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$OUT/chromium-profile" --enable-logging=stderr --v=0 \
		--screenshot="${page%.html}.png" --window-size=1200,2000 "file://$(realpath "$page")" >"$log" 2>&1
	if [ ! -s "${page%.html}.png" ]; then
		echo "FAIL  Chromium took no screenshot of $page (see $log)"
		rc=1
	elif grep -qE 'CONSOLE|Uncaught|Failed to load resource|net::ERR' "$log"; then
		echo "FAIL  Chromium logged an error on $page (see $log)"
		rc=1
	else
		echo "ok    Chromium loads $(basename "$page") ($(($(stat -c %s "$page") / 1000)) kB)"
	fi
done
exit $rc
