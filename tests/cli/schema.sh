#!/usr/bin/env bash
# collscope schema: the JSON Schema of the reports and reports/SCHEMA.md, both
# generated from one table (reports/io/schema_table.h), and the validator the
# suites check reports with (tests/schema_check.py, via check_schema): it
# really validates, a missing required field or a field of the wrong type fails.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

expect_exit 0 "schema --help runs without mpirun" "$BIN" schema --help
expect_output 'JSON Schema' "its help says what it prints"
expect_exit 0 "collscope --help lists schema" "$BIN" --help
expect_output '^  schema ' "schema is in the command list"

for c in "" allreduce links scale topo verify accept compare trend; do
	expect_exit 0 "schema ${c:-(the envelope)} is valid JSON" \
		sh -c "'$BIN' schema $c | python3 -c 'import json, sys; json.load(sys.stdin)'"
done
"$BIN" schema allreduce >"$TMP/ar-schema.json"
expect_exit 0 "it is a draft 2020-12 schema with units in its descriptions" python3 -c "
import json
s = json.load(open('$TMP/ar-schema.json'))
assert s['\$schema'] == 'https://json-schema.org/draft/2020-12/schema'
assert s['required'] == ['schema_version', 'command'], s['required']
rec = s['properties']['results']['items']
assert 'busbw_gbps' in rec['required'] or 'busbw_gbps' in rec['properties']
assert '[GB/s]' in rec['properties']['busbw_gbps']['description']
assert rec['properties']['timing']['enum'] == ['window', 'barrier', 'pipelined']
assert rec['additionalProperties'] is True
"

expect_exit 2 "schema of an unknown command exits 2" "$BIN" schema nosuch
expect_output "bad command 'nosuch'.*allreduce" "it names the value and the commands"
expect_exit 2 "two commands exit 2" "$BIN" schema allreduce links
expect_exit 2 "--markdown with a command exits 2" "$BIN" schema --markdown links

expect_exit 0 "schema --markdown prints" "$BIN" schema --markdown
cp "$TMP/out" "$TMP/SCHEMA.md"
expect_exit 0 "reports/SCHEMA.md is current (make schema-doc)" \
	cmp "$TMP/SCHEMA.md" "$ROOT/reports/SCHEMA.md"

# The validator validates: a good report, then the same missing a required
# field, with a field of the wrong type, with a bad enum value.
cat >"$TMP/good.json" <<'JSON'
{"schema_version": 1, "command": "allreduce",
 "results": [{"algorithm": "ring", "bytes": 8, "count": 2, "dtype": "float32", "op": "sum",
              "ranks": 2, "in_place": false, "iterations": 5, "wrong": 0, "timing": "window",
              "time_us": {"p50": 1.5, "p99": null}, "busbw_gbps": 0.01, "samples_us": [1, null],
              "unknown_field": "readers ignore it"}],
 "summary": {"variants": [], "below_min_busbw": [], "wrong_total": 0,
             "min_busbw_gbps": null, "verdict": "ok"},
 "complete": true}
JSON
check_schema "$TMP/good.json" -- "a report with every required field"
mutate() { # mutate OUT PYTHON-STATEMENT-ON-d
	python3 -c "import json; d = json.load(open('$TMP/good.json')); $2; json.dump(d, open('$1', 'w'))"
}
mutate "$TMP/missing.json" "del d['results'][0]['bytes']"
expect_exit 1 "a record missing a required field fails" \
	python3 "$ROOT/tests/schema_check.py" --bin "$BIN" "$TMP/missing.json"
expect_output "results\[0\]: required field 'bytes' is missing" "the path and the field are named"
mutate "$TMP/type.json" "d['results'][0]['busbw_gbps'] = '0.01'"
expect_exit 1 "a field of the wrong type fails" \
	python3 "$ROOT/tests/schema_check.py" --bin "$BIN" "$TMP/type.json"
expect_output 'results\[0\]\.busbw_gbps: "0.01" is not number or null' "the path and the type are named"
mutate "$TMP/int.json" "d['results'][0]['bytes'] = 8.5"
expect_exit 1 "a fraction where an integer belongs fails" \
	python3 "$ROOT/tests/schema_check.py" --bin "$BIN" "$TMP/int.json"
mutate "$TMP/enum.json" "d['results'][0]['timing'] = 'sometimes'"
expect_exit 1 "a value outside an enum fails" \
	python3 "$ROOT/tests/schema_check.py" --bin "$BIN" "$TMP/enum.json"
mutate "$TMP/summary.json" "del d['summary']['verdict']"
expect_exit 1 "a summary missing its verdict fails" \
	python3 "$ROOT/tests/schema_check.py" --bin "$BIN" "$TMP/summary.json"
mutate "$TMP/cmd.json" "d['command'] = 'links'"
expect_exit 1 "an allreduce record in a links report fails" \
	python3 "$ROOT/tests/schema_check.py" --bin "$BIN" "$TMP/cmd.json"
mutate "$TMP/version.json" "d['schema_version'] = 'one'"
expect_exit 1 "a schema_version that is not an integer fails" \
	python3 "$ROOT/tests/schema_check.py" --bin "$BIN" "$TMP/version.json"
expect_exit 2 "the validator refuses a file that is not there" \
	python3 "$ROOT/tests/schema_check.py" --bin "$BIN" "$TMP/nosuch.json"

finish
