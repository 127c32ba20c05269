#!/usr/bin/env bash
# collscope report: one self-contained page from allreduce, links, scale, compare
# and unknown reports (synthetic, tests/cli/fake_reports.py, and a real run). The
# page and each of its SVG charts parse as XML, hostile strings come out escaped,
# bad inputs exit 2 naming the file, and headless Chromium loads the page with no
# console error and a screenshot that is not blank (skipped, saying so, when
# there is no chromium: `make browser-deps` installs it as root).
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
FAKE_PY=$(dirname "$0")/fake_reports.py
# fake KIND OUT [options]: a synthetic report; a fixture that cannot be made is a failure.
fake() { python3 "$FAKE_PY" "$@" >"$TMP/fake.out" 2>&1 || fail "fake_reports.py $*" "$TMP/fake.out"; }

expect_exit 0 "report --help runs without mpirun" "$BIN" report --help
expect_output 'self-contained' "report --help says what the page is"

HOSTILE='<script>alert("x")</script>&amp;'
fake allreduce "$TMP/base.json" --n 120 --host "$HOSTILE" --arg="--label=$HOSTILE"
fake allreduce "$TMP/slow.json" --n 120 --host "$HOSTILE" --seed 2 --victim tree:65536:1.3
fake links "$TMP/links.json" --ranks 6 --hosts 2 --slow 1:4 --suspect-host node1
fake scale "$TMP/scale.json"
fake mystery "$TMP/mystery.json"
"$BIN" compare -q -o "$TMP/compare.json" "$TMP/base.json" "$TMP/slow.json"

expect_exit 0 "report of every kind: exit 0" "$BIN" report -o "$TMP/page.html" "$TMP/base.json" \
	"$TMP/links.json" "$TMP/scale.json" "$TMP/compare.json" "$TMP/mystery.json"
expect_output "^report: $TMP/page.html \([0-9]+ bytes, 5 reports\)" "it names the page written"

# The whole page and every chart parse as XML; the charts have what a reader needs.
cat >"$TMP/check_page.py" <<'EOF'
import re, sys
import xml.etree.ElementTree as ET
page = open(sys.argv[1], encoding="utf-8").read()
root = ET.fromstring(page)                      # the whole page is well-formed
svgs = re.findall(r"<svg\b.*?</svg>", page, re.S)
for s in svgs:
    ET.fromstring(s)                            # and so is each chart alone
charts = [s for s in svgs if "heatmap" not in s[:80]]
heatmaps = [s for s in svgs if "heatmap" in s[:80]]
assert len(charts) == 3 + 8, "3 allreduce + 2 sizes x 4 scale charts, got %d" % len(charts)
assert len(heatmaps) == 2, "bandwidth and latency heatmaps, got %d" % len(heatmaps)
for s in charts:
    assert s.count('class="axis"') >= 4, "axes and tick marks"
    assert s.count('class="tick"') >= 4, "tick labels"
    assert 'class="label"' in s, "axis titles"
    assert 'class="legend"' in s, "a legend"
assert ">message size (bytes, log2 scale)</text>" in page
assert ">all-reduce busbw (GB/s) = algbw × 2(n-1)/n</text>" in page, "the collective and its bus factor"
assert "µs, log scale" in page
assert ">1 KiB</text>" in page and ">1 MiB</text>" in page, "log2 size ticks"
assert ">ranks (log2 scale)</text>" in page
assert "ring (predicted)" in page and "stroke-dasharray" in page, "predicted drawn apart"
assert page.count('class="suspect"') >= 3, "the slow link (and the legend) marked"
assert 'class="tick sus"' in page, "ranks of the suspect host marked"
assert "1 to 4: " in page and "bandwidth 10x below" in page
assert "does not know how to chart 'mystery' reports" in page
assert '<tr class="flag"><td>regression</td><td>tree 65536 B float32 sum 4 ranks</td>' in page
for bad in ("<script", "http:", "https:", "src=", "<link", "url(", "@import", "<iframe"):
    assert bad not in page, "page refers outside or runs code: " + bad
assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;" in page, "hostile host escaped"
assert "--label=&lt;script&gt;" in page, "hostile argv escaped"
print("ok: %d charts, %d heatmaps" % (len(charts), len(heatmaps)))
EOF
if python3 "$TMP/check_page.py" "$TMP/page.html" >"$TMP/out" 2>&1; then
	pass "the page and its SVG parse as XML, with axes, ticks, units, legends, suspects, escaping"
else
	fail "the page and its SVG parse as XML, with axes, ticks, units, legends, suspects, escaping" "$TMP/out"
fi

# Bad usage and unreadable inputs.
expect_exit 2 "no -o: exit 2" "$BIN" report "$TMP/base.json"
expect_output "-o FILE is required" "it says -o is required"
expect_exit 2 "no report: exit 2" "$BIN" report -o "$TMP/x.html"
expect_exit 2 "the page exists: exit 2" "$BIN" report -o "$TMP/page.html" "$TMP/base.json"
expect_output "already exists" "it says why"
expect_exit 0 "--force overwrites" "$BIN" report -q --force -o "$TMP/page.html" "$TMP/base.json"
[ -s "$TMP/out" ] && fail "-q prints nothing" "$TMP/out" || pass "-q prints nothing"
expect_exit 0 "-o - writes to stdout" "$BIN" report -o - "$TMP/scale.json"
expect_output '^<!DOCTYPE html>' "the page on stdout"
printf '{"schema_version": 1, "command": "allreduce", "results": [{"algorithm": 1}]}' >"$TMP/wrong.json"
expect_exit 2 "a field of the wrong type: exit 2" "$BIN" report -o "$TMP/w.html" "$TMP/base.json" "$TMP/wrong.json"
expect_output "wrong.json.*results\[0\]\.algorithm is not a string" "the file and the field are named"
[ -e "$TMP/w.html" ] && fail "no page after an error" || pass "no page after an error"
printf '{"schema_version": 1, "command": "links", "results": [], "context": {"argv": [1]}}' >"$TMP/argv.json"
expect_exit 2 "argv of the wrong type: exit 2" "$BIN" report -o "$TMP/w.html" "$TMP/argv.json"
expect_output "argv.json.*context.argv\[0\] is not a string" "the field is named"
printf '{"schema_version": 1, "command": "x"' >"$TMP/cut.json"
expect_exit 2 "a truncated report: exit 2" "$BIN" report -o "$TMP/w.html" "$TMP/cut.json"
expect_output "cut.json.*truncated" "the file and the problem are named"
expect_exit 2 "a missing report: exit 2" "$BIN" report -o "$TMP/w.html" "$TMP/nothere.json"
expect_output "nothere.json" "the missing file is named"

# A real run renders too.
if mpi 2 allreduce -q -a ring,tree -b 1K -e 64K -n 20 -o "$TMP/real.json" >"$TMP/out" 2>&1; then
	expect_exit 0 "a real allreduce report renders" "$BIN" report -o "$TMP/real.html" "$TMP/real.json"
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$TMP/real.html" \
		>"$TMP/out" 2>&1 && pass "the real page parses as XML" || fail "the real page parses as XML" "$TMP/out"
else
	fail "a real allreduce run for report" "$TMP/out"
fi

# A real run of a half (--collective allgather), and a hand-made report that mixes it with
# the all-reduce above: each collective charted apart, named with its bus factor.
if mpi 2 allreduce -q --collective allgather -a ring,mpi -b 1K -e 64K -n 20 -o "$TMP/ag.json" >"$TMP/out" 2>&1; then
	python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
a["results"] += b["results"]
json.dump(a, open(sys.argv[3], "w"))' "$TMP/real.json" "$TMP/ag.json" "$TMP/mixed.json"
	expect_exit 0 "a real all-gather report and a mixed one render" "$BIN" report -o "$TMP/ag.html" \
		"$TMP/ag.json" "$TMP/mixed.json"
	cat >"$TMP/check_halves.py" <<'EOF'
import re, sys
import xml.etree.ElementTree as ET
page = open(sys.argv[1], encoding="utf-8").read()
ET.fromstring(page)
assert "1. allreduce report (all-gather) <code>" in page
assert "2. allreduce report (all-reduce, all-gather) <code>" in page
charts = re.findall(r"<svg\b.*?</svg>", page, re.S)
titles = [re.search(r"<title>(.*?)</title>", c).group(1) for c in charts]
assert sum(t.startswith("all-gather busbw vs message size") for t in titles) == 2, titles
assert sum(t.startswith("all-reduce busbw vs message size") for t in titles) == 1, titles
for c, t in zip(charts, titles):
    coll = t.split(" ")[0]
    if "busbw" in t:
        want = "(n-1)/n" if coll == "all-gather" else "2(n-1)/n"
        assert ">%s busbw (GB/s) = algbw × %s</text>" % (coll, want) in c, t
    # a series per (collective, variant): never more points than the sweep's sizes (1K..64K)
    for d in re.findall(r'<path fill="none"[^>]* d="([^"]*)"', c):
        assert d.count("M") + d.count("L") <= 7, (t, d)
    if coll == "all-gather":
        assert ">tree</text>" not in c, "tree measured no all-gather: " + t
print("ok: %d charts" % len(charts))
EOF
	python3 "$TMP/check_halves.py" "$TMP/ag.html" >"$TMP/out" 2>&1 &&
		pass "each collective charted apart, named with its bus factor" ||
		fail "each collective charted apart, named with its bus factor" "$TMP/out"
else
	fail "a real allgather run for report" "$TMP/out"
fi

# A real scale report, where this build has the command.
if "$BIN" scale --help >/dev/null 2>&1; then
	if mpi 2 scale -q -b 64K -e 64K -n 10 --extrapolate 8 -o "$TMP/scale_real.json" >"$TMP/out" 2>&1; then
		expect_exit 0 "a real scale report renders" "$BIN" report -o "$TMP/scale_real.html" "$TMP/scale_real.json"
		python3 -c 'import sys, xml.etree.ElementTree as E; p = open(sys.argv[1]).read(); E.fromstring(p); assert "vs ranks" in p' \
			"$TMP/scale_real.html" >"$TMP/out" 2>&1 && pass "the real scale page parses and has its charts" ||
			fail "the real scale page parses and has its charts" "$TMP/out"
	else
		fail "a real scale run for report" "$TMP/out"
	fi
fi

# Headless Chromium: loads, no console error, a screenshot that is not blank.
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	skip_check "headless Chromium" "chromium is not installed ('make browser-deps' as root installs the Debian package chromium)"
else
	shot=$TMP/page.png
	"$BIN" report -q --force -o "$TMP/page.html" "$TMP/base.json" "$TMP/links.json" \
		"$TMP/scale.json" "$TMP/compare.json" "$TMP/mystery.json"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TMP/chromium" --enable-logging=stderr --v=0 \
		--screenshot="$shot" --window-size=1200,2000 "file://$TMP/page.html" >"$TMP/chromium.log" 2>&1
	if [ -s "$shot" ]; then pass "Chromium takes a screenshot"; else fail "Chromium takes a screenshot" "$TMP/chromium.log"; fi
	if grep -E 'CONSOLE|Uncaught|Failed to load resource|net::ERR' "$TMP/chromium.log" >"$TMP/out"; then
		fail "no console error in Chromium" "$TMP/out"
	else
		pass "no console error in Chromium"
	fi
	cat >"$TMP/png.py" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, color = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and color in (2, 6), "8-bit RGB(A) expected"
        bpp = 3 if color == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride, prev, ink = zlib.decompress(idat), w * bpp, bytearray(w * bpp), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    ink += sum(1 for x in range(0, stride, bpp) if min(line[x:x + 3]) < 200)
    prev = line
share = ink / (w * h)
print("%dx%d, %.1f%% of the pixels inked" % (w, h, 100 * share))
sys.exit(0 if share > 0.01 else 1)
EOF
	if python3 "$TMP/png.py" "$shot" >"$TMP/out" 2>&1; then
		pass "the screenshot is not blank ($(cat "$TMP/out"))"
	else
		fail "the screenshot is not blank" "$TMP/out"
	fi
	[ -n "${COLLSCOPE_KEEP_SCREENSHOT:-}" ] && cp "$shot" "$COLLSCOPE_KEEP_SCREENSHOT"
fi

finish
