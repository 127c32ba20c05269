#!/usr/bin/env bash
# collscope overlap under mpirun: every variant run non-blocking (the
# library's MPI_Iallreduce, each schedule stepped by test calls), at odd and
# even rank counts and awkward sizes, verified; the records' overlaps follow
# from their times by OSU's formula; skipped points say why; bad usage.
# Whether anything overlaps on this machine is not asserted (2 cores shared
# by the ranks and their compute); tests/bench reports the figures.
set -u
BIN=$(realpath "${1:-build/collscope}")
. "$(dirname "$0")/../lib.sh"
QUICK=(-n 3 -w 1 --test-interval 20)

check() {
	python3 - "$@" >"$TMP/py" 2>&1 <<'PY'
import json, sys
path, n, nvariants, nsizes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
d = json.load(open(path))
def need(cond, what):
    if not cond:
        sys.exit("report: " + what)
need(d["command"] == "overlap" and d["complete"] is True, "envelope")
res = d["results"]
need(len(res) == nvariants * nsizes * 6, "a record per variant, size, compute and progress")
for r in res:
    need(r["compute"] in ("gemm", "stream") and r["progress"] in ("test", "thread", "none"), "kinds")
    if r.get("skipped"):
        need(r["algorithm"] == "shm" and "non-blocking" in r["skipped"], "only shm is skipped")
        continue
    need(r["wrong"] == 0, "%s %d bytes verified" % (r["algorithm"], r["bytes"]))
    need(r["ranks"] == n and len(r["rank_overall_us"]) == n, "a time per rank")
    need(r["pure_us"] > 0 and r["overall_us"] > 0 and r["cpu_alone_us"] > 0, "times")
    if r["progress"] in ("none", "thread"):
        need(r["tests_per_call"] == 0 and r["test_us"] == 0, "no test calls in the compute")
    else:
        need(r["tests_per_call"] >= 0 and (r["test_us"] == 0) == (r["tests_per_call"] == 0), "test calls timed")
    osu = max(0, 100 - 100 * (r["overall_us"] - (r["cpu_us"] - r["test_us"])) / r["pure_us"])
    need(abs(osu - r["overlap_osu_percent"]) < 1e-6, "OSU's formula")
    need(0 <= r["overlap_imb_percent"] <= 100, "IMB's in range")
    need(max(r["rank_overall_us"]) >= r["overall_us"] - 1e-9, "the slowest rank's overall")
s = d["summary"]
need(s["verdict"] == "ok" and s["wrong_total"] == 0, "summary")
need(all(x["bytes"] == max(r["bytes"] for r in res) for x in s["largest_size"]), "largest size")
PY
}

for n in 1 2 3 5; do
	expect_exit 0 "$n ranks, every variant" mpi "$n" overlap "${QUICK[@]}" -a all --sizes 12,4100 -q \
		-o "$TMP/o$n.json"
	nv=$(python3 -c "import json; print(len(json.load(open('$TMP/o$n.json'))['config']['algorithms']))")
	check "$TMP/o$n.json" "$n" "$nv" 2 && pass "$n ranks: verified, formulas hold" ||
		fail "$n ranks: report" "$TMP/py"
done
expect_exit 0 "4 ranks, int64 max, 1 MiB" mpi 4 overlap "${QUICK[@]}" -a mpi,rabenseifner -d int64 \
	-r max --sizes 1M --compute stream --progress test -o "$TMP/o4.json"
expect_output "^rabenseifner +1048576 stream +test " "the table has the point"
expect_output "overlap %: OSU = " "the formulas are printed"

for n in 2 3; do
	expect_exit 0 "$n ranks, the training step" mpi "$n" overlap "${QUICK[@]}" --sizes 4K -a mpi,ring,tree,shm \
		--step --grad-bytes 1M --bucket-bytes 300K --compute-ms 2 -o "$TMP/step$n.json"
	python3 - "$TMP/step$n.json" "$n" >"$TMP/py" 2>&1 <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
steps = d["summary"]["steps"]
assert len(steps) == 4 * 2, "a step per variant and compute kind: %d" % len(steps)
for s in steps:
    assert s["ranks"] == int(sys.argv[2]) and s["buckets"] == 4, s  # 1 MiB in 300 KiB: 4, the last smaller
    if s["algorithm"] == "shm":
        assert "non-blocking" in s["skipped"], s
        continue
    assert s["wrong"] == 0, s
    assert s["compute_us"] >= 2000, "the compute lasts --compute-ms: %s" % s
    assert math.isclose(s["exposed_us"], s["step_us"] - s["compute_us"], rel_tol=1e-9), s
    if s["serial_us"] > s["compute_us"]:
        hidden = (s["serial_us"] - s["step_us"]) / (s["serial_us"] - s["compute_us"])
        assert math.isclose(s["hidden_fraction"], hidden, rel_tol=1e-9), s
    else:  # a busy machine timed the serial step under the compute alone: nothing to hide, null
        assert s["hidden_fraction"] is None, s
PY
	[ $? = 0 ] && pass "$n ranks: every step verified, its figures consistent" || fail "$n ranks: steps" "$TMP/py"
done
expect_output "^# training step: 1048576 bytes of gradient in 4 buckets" "the step's table"
expect_exit 0 "report draws an overlap report" "$BIN" report "$TMP/step3.json" -o "$TMP/step3.html"
python3 -c "
page = open('$TMP/step3.html').read()
assert page.count('<svg') == 3, page.count('<svg')
assert 'overlap (OSU) beside stream compute' in page and 'the training step, stacked' in page" \
	>"$TMP/py" 2>&1 && pass "the page charts both compute kinds and stacks the steps" || fail "the page" "$TMP/py"

expect_exit 2 "a bucket smaller than an element" mpi 2 overlap --step --bucket-bytes 2
expect_output "--bucket-bytes 2 is less than one float32 element" "names it"
expect_exit 2 "too many buckets" mpi 2 overlap --step --grad-bytes 1G --bucket-bytes 4
expect_output "is 268435456 buckets: at most 4096" "names the count"
expect_exit 2 "an unknown compute" mpi 2 overlap --compute fft
expect_output "unknown 'fft'" "names it"
expect_exit 2 "an unknown progress" mpi 2 overlap --progress helper,test
expect_output "unknown 'helper'" "names it"
expect_exit 2 "a negative interval" mpi 2 overlap --test-interval -5
expect_output "'-5'" "names it"
check_all_schemas
finish
