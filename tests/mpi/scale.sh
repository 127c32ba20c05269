#!/usr/bin/env bash
# collscope scale under mpirun: report invariants at 4 and 3 ranks, the text,
# and every bad value exiting 2 naming it. Small sizes and budgets: ~1 minute.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
CHECK="python3 $(dirname "$0")/check_scale_report.py"

# 4 ranks: sub-communicators of 2 and 4; 8 B, 64K and the gradient's 16K; the step model.
expect_exit 0 "scale at 4 ranks" mpi 4 scale -b 8 -e 64K --time-per-size 0.01 -w 2 \
	--compute-ms 5 --grad-bytes 16K --overlap 0.5 --extrapolate 64,1024 -o "$TMP/s4.json"
expect_output '^  ring +16384 +1024 +- .*PREDICTED' "predicted rows are marked in the table"
expect_output '^#   ring +4 ranks: [0-9.]+x of 4 ideal \([0-9]+%\)' "speedup printed as 'N ranks: Sx of N ideal (E%)'"
expect_output '^#   mpi .*shape of rabenseifner \(borrowed' "mpi's borrowed shape is named"
expect_output '^#   tree +model \(1\.\.1024 ranks\): [0-9]+ ranks?, .*PREDICTED' "the model's sweet spot"
expect_exit 0 "report at 4 ranks keeps every invariant" $CHECK "$TMP/s4.json" 4 2,4 8,16384,65536 \
	ring,tree,mpi 64,1024 16384 0.5

# 3 ranks, spread, an odd count with one rank alone, a non-power-of-two variant, no step model.
expect_exit 0 "scale at 3 ranks, spread, --ranks 1,3" mpi 3 scale --placement spread --ranks 3,1 \
	-a ring,rabenseifner,mpi -b 1K -e 4K -n 12 -w 1 --extrapolate 5 -q -o "$TMP/s3.json"
expect_exit 0 "report at 3 ranks keeps every invariant" $CHECK "$TMP/s3.json" 3 1,3 1024,4096 \
	ring,rabenseifner,mpi 5 0 0

# Reports are never overwritten without --force (a singleton: one rank, no mpirun).
echo '{"keep": true}' >"$TMP/exists.json"
expect_exit 2 "an existing report is not overwritten" "$BIN" scale -b 8 -e 8 -n 2 -q -o "$TMP/exists.json"
expect_exit 0 "the existing report is untouched" grep -q '"keep": true' "$TMP/exists.json"
expect_exit 0 "--force overwrites (one rank alone)" "$BIN" scale -b 8 -e 8 -n 2 -q -o "$TMP/exists.json" --force
expect_exit 0 "the forced report is complete" grep -Eq '"complete":[[:space:]]*true' "$TMP/exists.json"

# One flipped bit: exit 3 naming the point, the report still written with its verdict.
COLLSCOPE_FAULT=flip:rank=1 expect_exit 3 "scale catches a flipped bit" mpi 2 scale -a ring -b 4K \
	-e 4K -n 3 -w 1 -q --extrapolate none -o "$TMP/wrong.json"
expect_output "wrong result: variant ring, 4096 bytes .* on 2 ranks" "the wrong point is named"
expect_exit 0 "the report says wrong results" python3 -c "
import json,sys; d=json.load(open('$TMP/wrong.json')); sys.exit(d['summary']['verdict'] != 'wrong results')"

expect_exit 0 "--help runs without mpirun" "$BIN" scale --help
expect_output '--placement' "--help describes --placement"

# --trace: the points of every communicator traced, hops in world ranks.
expect_exit 0 "scale --trace" mpi 4 scale -a ring,mpi -b 64K -e 1M -n 10 --trace --extrapolate none \
	-q -o "$TMP/scale-trace.json"
expect_output '^# slow (hops: none|hop|rank)' "scale --trace prints its verdict on the hops"
expect_exit 0 "the trace of scale keeps every invariant" python3 "$(dirname "$0")/check_trace.py" \
	"$TMP/scale-trace.json"

# Every bad value exits 2, names itself and writes nothing. A singleton without
# mpirun: parsing is the same on every rank, and it starts three times faster.
bad() {
	local want=$1
	shift
	expect_exit 2 "scale $* exits 2" "$BIN" scale -o "$TMP/never.json" "$@"
	expect_output "$want" "scale $* names '$want'"
	[ -e "$TMP/never.json" ] && fail "scale $* wrote a report" || true
}
bad "'2' in --ranks" --ranks 2
bad "'0' in --ranks" --ranks 0
bad "'x' in --ranks" --ranks 1,x
bad "'diagonal' for --placement" --placement diagonal
bad "'1' in --extrapolate" --extrapolate 1
bad "'alltoall'" --collective alltoall
bad "not of --collective allgather" --collective allgather --compute-ms 5 --overlap measured
bad "'100000' in --extrapolate" --extrapolate 64,100000
bad "'1.5' for --overlap" --compute-ms 10 --overlap 1.5
bad "'0' for --compute-ms" --compute-ms 0
bad "'-3' for --compute-ms" --compute-ms -3
bad "'10Q' for --grad-bytes" --compute-ms 10 --grad-bytes 10Q
bad "--grad-bytes needs --compute-ms" --grad-bytes 1M
bad "--overlap needs --compute-ms" --overlap 0.5
bad "--min-bytes 2 is less than one float32" -b 2
bad "unknown algorithm 'nosuch'" -a ring,nosuch
bad "'1' for --step-factor" -f 1
bad "'0' for --iters" -n 0
bad "'2' for --check" -c 2
bad "'0' for --segment-bytes" --segment-bytes 0
bad "unexpected argument 'extra'" extra
bad "--overlap needs --compute-ms" --overlap measured
bad "'2' for --overlap: must be a fraction from 0 to 1, or 'measured'" --compute-ms 5 --overlap 2
bad "--bucket-bytes 2 is less than one float32" --compute-ms 5 --overlap measured --bucket-bytes 2

# --overlap measured: a training step at each rank count, its hidden share the overlap there
expect_exit 0 "--overlap measured at 3 ranks" mpi 3 scale -a ring,mpi,shm --sizes 64K -n 5 --compute-ms 3 \
	--grad-bytes 1M --bucket-bytes 256K --overlap measured --extrapolate 64 -o "$TMP/measured.json"
expect_output "overlap [0-9.]+ measured: .*; step [0-9.]+ ms measured, [0-9.]+ ms model" \
	"measured and model step times side by side"
python3 - "$TMP/measured.json" >"$TMP/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
step = d["summary"]["step_model"]
assert step["overlap"] is None and step["bucket_bytes"] == 262144, step
grad = [r for r in d["results"] if r["bytes"] == 1 << 20 and not r.get("skipped")]
seen = set()
for r in grad:
    ov = r["overlapped"]
    if r["algorithm"] == "shm":  # no non-blocking form: no measured step
        assert not ov["measured"], r
        continue
    assert ov["measured"] and 0 <= ov["overlap"] <= 1, r
    assert ov["predicted_step_us"] >= 3000, r
    if r["predicted"]:
        assert "measured_step_us" not in ov, r
    else:
        assert ov["measured_step_us"] > 0, r
        seen.add((r["algorithm"], r["ranks"]))
assert {("ring", 2), ("ring", 3), ("mpi", 2), ("mpi", 3)} <= seen, seen
PY
[ $? = 0 ] && pass "measured rows carry their step, predictions the largest count's overlap" ||
	fail "--overlap measured: the records" "$TMP/py"

# --collective (issue 35): a half measured at each rank count, modelled on its own schedule
# (mpi on the ring's: Rabenseifner's halves need a power of two), its busbw from (n-1)/n
expect_exit 0 "scale --collective reduce_scatter at 3 ranks" mpi 3 scale --collective reduce_scatter \
	-a ring,rabenseifner,mpi --sizes 4K,256K -n 5 --extrapolate 16 --compute-ms 5 -o "$TMP/rs.json"
expect_output "^# collective reduce_scatter: sizes are the whole buffer" "the header names the half"
expect_output "busbw = algbw x \\(n-1\\)/n" "and its bus factor"
expect_output "reduce-scattered \\(Tar: that half alone\\)" "the step model says what it models"
python3 - "$TMP/rs.json" >"$TMP/py" 2>&1 <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["collective"] == "reduce_scatter", d["config"]
kinds = set()
for r in d["results"]:
    assert r["collective"] == "reduce_scatter", r
    if r.get("skipped"):
        assert r["algorithm"] == "rabenseifner" and r["ranks"] == 3, r
        continue
    n = r["ranks"]
    if n > 1:
        assert math.isclose(r["busbw_gbps"], r["algbw_gbps"] * (n - 1) / n, rel_tol=1e-9), r
    if not r["predicted"]:
        assert r["wrong"] == 0, r
    kinds.add((r["algorithm"], r["predicted"]))
assert {("ring", False), ("ring", True), ("mpi", False), ("mpi", True)} <= kinds, kinds
fits = {v["algorithm"]: v["fit"] for v in d["summary"]["variants"] if v.get("fit")}
assert fits["mpi"]["shape"] == "ring", fits["mpi"]
assert d["summary"]["cost_model"]["direct_variant_shape"] == "ring", d["summary"]["cost_model"]
PY
[ $? = 0 ] && pass "every record names the half, measured and predicted, busbw (n-1)/n" ||
	fail "scale --collective: the records" "$TMP/py"

check_all_schemas
finish
