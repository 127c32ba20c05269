#!/usr/bin/env python3
"""The memory limit of a one-host all-reduce, the part of `make bench` for issue 36's item 3.

An all-reduce on one host must read every input and write every result: with L ranks, each rank
reads its slice of every input (S bytes in all) and writes that slice into every result (S), 2 S
of memory traffic a rank, 2 L S for the host. At the all-core copy rate C (bytes copied per second
with every core copying its own 64 MiB buffers at once, tests/bench/membw.c: each copied byte is
read once and written once) that takes L S / C, so busbw can reach 2(L-1)/L^2 x C: the limit.

Per repeat, at 2 ranks: C measured just before and just after, their mean taken; then `collscope
allreduce -a shm` from 16 to 256 MiB (out of place, float32 sum). Per size: busbw / limit in that
repeat, and the host's memory traffic implied by the schedule (2 L S / p50) against the copy's own
(2 C, read and write); medians over the repeats. Goal: shm at 0.9 of the limit or above at every
size. 4 ranks would need 4 cores (this class of machine has 2): not measured.

Hardware counters: the traffic is taken from the schedule. Where the kernel exposes a memory
controller's counters (perf event sources such as amd_df or uncore_imc) the bench says which; it
does not read them.

bench.py calls measure(), report(), markdown() and target(); alone (about 90 s at 5 repeats):
  python3 tests/bench/memory_bench.py build/collscope build/bench/membw [--repeats N]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

SIZES = [16 << 20, 64 << 20, 128 << 20, 256 << 20]
RANKS = 2
GOAL = 0.9
TIME_PER_SIZE_S = "0.5"
# perf event sources that count a memory controller's traffic
MEMORY_PMUS = ("amd_df", "amd_umc", "uncore_imc", "uncore_imc_free_running", "arm_cmn", "hisi_ddrc")


def limit_gbps(ranks, copy_gbps):
    """The busbw of an all-reduce that reads every input and writes every result once at C."""
    return 2 * (ranks - 1) / ranks ** 2 * copy_gbps


def host_traffic_gbps(ranks, size, p50_us):
    """The host's memory traffic by the schedule: every rank reads S and writes S."""
    return 2 * ranks * size / (p50_us * 1e3)


def all_core_copy(membw):
    """C: membw's all-core copy of its largest size (it times one core at that size first)."""
    out = subprocess.run([membw, str(64 << 20)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["all_cores"]["memcpy_gbps"]


def counters():
    try:
        sources = sorted(os.listdir("/sys/bus/event_source/devices"))
    except OSError:
        sources = []
    found = [s for s in sources if s.startswith(MEMORY_PMUS)]
    if found:
        return f"not read (the kernel exposes {', '.join(found)})"
    return f"none here (perf event sources: {', '.join(sources) or 'none'})"


def one_run(binary, membw, env):
    before = all_core_copy(membw)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.json")
        cmd = [os.environ.get("MPIRUN", "mpirun"), "-np", str(RANKS), binary, "allreduce", "-a", "shm",
               "--sizes", ",".join(str(s) for s in SIZES), "--time-per-size", TIME_PER_SIZE_S, "-q", "-o", out]
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
        with open(out) as f:
            results = {r["bytes"]: r for r in json.load(f)["results"] if r["algorithm"] == "shm"}
    c = (before + all_core_copy(membw)) / 2
    if any(r["wrong"] for r in results.values()):
        raise SystemExit("memory_bench: shm returned wrong results")
    return {"copy_gbps": c, "sizes": {s: {"busbw_gbps": results[s]["busbw_gbps"],
                                          "p50_us": results[s]["time_us"]["p50"]} for s in SIZES}}


def measure(binary, membw, repeats, env):
    runs = [one_run(binary, membw, env) for _ in range(repeats)]
    rows = []
    for s in SIZES:
        per = [(r["sizes"][s], r["copy_gbps"]) for r in runs]
        rows.append({
            "bytes": s,
            "busbw_gbps": statistics.median(p["busbw_gbps"] for p, _ in per),
            "limit_gbps": statistics.median(limit_gbps(RANKS, c) for _, c in per),
            "vs_limit": statistics.median(p["busbw_gbps"] / limit_gbps(RANKS, c) for p, c in per),
            "vs_limit_runs": [p["busbw_gbps"] / limit_gbps(RANKS, c) for p, c in per],
            "traffic_per_rank_bytes": 2 * s,
            "host_traffic_gbps": statistics.median(host_traffic_gbps(RANKS, s, p["p50_us"]) for p, _ in per),
            "copy_traffic_gbps": statistics.median(2 * c for _, c in per)})
    return {"ranks": RANKS, "repeats": repeats, "copy_gbps": statistics.median(r["copy_gbps"] for r in runs),
            "copy_gbps_runs": [r["copy_gbps"] for r in runs], "hardware_counters": counters(),
            "goal": GOAL, "rows": rows}


def target(doc, human):
    """The goal as bench.py's targets list has them: the worst size."""
    worst = min(doc["rows"], key=lambda r: r["vs_limit"])
    return {"config": f"{doc['ranks']} ranks", "target": f"shm vs memory limit (C in the same run), "
            f"{human(SIZES[0])}-{human(SIZES[-1])}", "best": f"shm, worst at {human(worst['bytes'])}",
            "ratio": worst["vs_limit"], "goal": GOAL, "met": worst["vs_limit"] >= GOAL}


def report(doc, human):
    print(f"# the memory limit at {doc['ranks']} ranks: C = {doc['copy_gbps']:.1f} GB/s (all-core memcpy of "
          f"64 MiB buffers, before and after each run; runs {', '.join(f'{c:.1f}' for c in doc['copy_gbps_runs'])}), "
          f"limit 2(n-1)/n^2 x C; traffic from the schedule: each rank reads S and writes S; "
          f"hardware counters: {doc['hardware_counters']}; medians of {doc['repeats']} runs")
    for r in doc["rows"]:
        print(f"  shm {human(r['bytes']):>8}  busbw {r['busbw_gbps']:6.2f} GB/s  limit {r['limit_gbps']:6.2f}  "
              f"{r['vs_limit']:5.2f} of it ({'met' if r['vs_limit'] >= doc['goal'] else 'MISSED'}, goal "
              f">= {doc['goal']}; runs {', '.join(f'{x:.2f}' for x in r['vs_limit_runs'])})  "
              f"traffic a rank {human(r['traffic_per_rank_bytes'])}, the host's {r['host_traffic_gbps']:.1f} "
              f"GB/s against the copy's {r['copy_traffic_gbps']:.1f} (2 C; 3 C where its stores read each line first)")


def markdown(doc, human):
    if not doc or "rows" not in doc:
        return []
    lines = ["## The memory limit", "",
             f"`shm` at {doc['ranks']} ranks against 2(n-1)/n^2 x C, with C the all-core memcpy rate of 64 MiB "
             f"buffers (bytes copied per second) measured before and after each run: {doc['copy_gbps']:.1f} GB/s "
             f"(runs: {', '.join(f'{c:.1f}' for c in doc['copy_gbps_runs'])}). Traffic from the schedule: each "
             f"rank reads S and writes S; the host's rate against the copy's own, 2 C. Hardware counters: "
             f"{doc['hardware_counters']}. Medians of {doc['repeats']} runs; goal: at least {doc['goal']}.", "",
             "| size | busbw GB/s | limit GB/s | of the limit | runs | traffic a rank | host traffic GB/s | "
             "copy traffic GB/s |", "|---|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        lines.append(f"| {human(r['bytes'])} | {r['busbw_gbps']:.2f} | {r['limit_gbps']:.2f} | "
                     f"{r['vs_limit']:.2f} {'met' if r['vs_limit'] >= doc['goal'] else 'MISSED'} | "
                     f"{', '.join(f'{x:.2f}' for x in r['vs_limit_runs'])} | {human(r['traffic_per_rank_bytes'])} | "
                     f"{r['host_traffic_gbps']:.1f} | {r['copy_traffic_gbps']:.1f} |")
    return lines + [""]


if __name__ == "__main__":
    reps = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 5
    e = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    h = lambda n: f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1024 else f"{n} B"
    d = measure(os.path.abspath(sys.argv[1]), sys.argv[2], reps, e)
    report(d, h)
    print(f"  {target(d, h)}")
