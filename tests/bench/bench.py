#!/usr/bin/env python3
"""make bench: collscope's variants against the MPI library's MPI_Allreduce, side by side.

For each configuration (2 ranks; 4 ranks oversubscribed on this 2-core class of
machine) it runs `collscope allreduce` over the same sizes several times, every
variant interleaved within each run, and takes medians over the repeats. Beside
them it measures the limits: single-core memcpy bandwidth (membw) and the links
probe's point-to-point bandwidth for messages of a ring chunk (bytes / ranks),
per direction with every rank sending and receiving at once, as in a ring step
(and, beside it, one pair alone in one direction), and memcpy bandwidth with
every core copying at once, for the memory floor: the busbw of an all-reduce
that reads every input and writes every result exactly once. Prints ratios
(variant busbw / mpi busbw; busbw / point-to-point bandwidth, where the ring's
bound 2(n-1)/n x bytes / B means busbw <= B; busbw / memory floor) and writes a
JSON file. At 2 ranks each run also measures --trace's overhead: pairs of ring calls at 1 MiB,
one untraced and one traced, alternated in one process (tests/bench/trace_overhead.c, built here
against build/algorithms), the ratio of the medians (goal at most 1.03), and the
three --timing methods of `mpi` and `ring` at 8 B and 64 KiB, one after the other in turns (the
order rotating from run to run): window p50 and barrier p50 against the pipelined mean,
each ratio within a run, the window's start error, ring/mpi under the window over ring/mpi
pipelined, and the clock sync's measured error (goals: window at most 1.2x pipelined at 8 B;
the variants' ratio kept within 10%; error under 0.5 us).
Goals beside the figures: shm's p50 at 8 B-4 KiB against the library's (at most 0.7x at 2 ranks,
1x at 4); shm's ratio to the memory floor in the sweep, 256 KiB-64 MiB, without a goal (the
cache helps below 16 MiB). The memory limit (memory_bench.py, issue 36): shm at 2 ranks from 16 to
256 MiB against 2(n-1)/n^2 x C, C measured before and after each run, with the traffic a rank by
the schedule (goal at least 0.9); --memory-only runs it alone (about 30 s at 3 repeats). Then, as root,
a run across hosts on a virtual cluster with shaped links (vcluster_bench.py; BENCH_CLUSTER=0 leaves
it out, BENCH_VC_RATE sets the rate), and the overlap of a non-blocking all-reduce with compute,
MPI_Iallreduce against the best own schedule (overlap_bench.py). Informational: it exits 0 unless
a run fails.

The default sweep (sweep_bench.py, issue 36): `make run`'s sweep against the same with every point
spending its whole budget (--ci-width 0), alternating: their wall times, the ratio (goal at most
0.5) and each point's p50 interval width and why it stopped; --sweep-only runs it alone.

The halves (halves_bench.py, issue 35): in both configurations, `--collective reduce_scatter` and
`--collective allgather` with `-a all` (every variant that offers the half, read from the report,
interleaved in one call) against `mpi` (MPI_Reduce_scatter, MPI_Allgatherv) at 8 B, 4 KiB, 64 KiB,
1 MiB and 16 MiB: p50, busbw (x (n-1)/n) and busbw / mpi's, medians over the repeats; and, for ring
and mpi, the all-reduce's p50 against reduce-scatter + all-gather (1.00: the split costs nothing
beyond its halves). --halves-only measures that part alone (about 90 s at --repeats 3 on
2 cores) and writes it, by default, to bench/halves.json and bench/halves.md, never over the full
run's files (--render of such a file, too, writes bench/halves.md unless --markdown says otherwise).

The compressed variants (codec_bench.py, issue 40): every codec kernel's rate on all cores beside
memcpy on all cores in the same run (tests/bench/codec_rate, built beside MEMBW; goal: at least
half), and each compressed variant's p50 against the exact ring's at 2 ranks, 4 KiB to 64 MiB, with
the crossover size from which it stays faster. --codecs-only measures that part alone and prints
it (about 50 s at --repeats 2).

Beside the JSON it writes the same results as Markdown (--markdown FILE, by default
algorithms/BENCH_RESULTS.md): the date, the machine, the settings and the tables, the one
place where dated figures live. --render JSON rewrites that Markdown from a results file
without measuring anything.

usage: bench.py COLLSCOPE MEMBW [--repeats N (default 3)] [--out FILE] [--markdown FILE]
                [--note TEXT] [--timing-only] [--halves-only] [--codecs-only] [--memory-only]
                [--build-only]
       bench.py --render RESULTS_JSON [--markdown FILE] [--note TEXT]
--note adds a line to the Markdown (and the JSON's settings): what the figures do not say.
--build-only (make bench-build, in make check): the bench's tools build, and the Markdown renders
from a results file of before the halves section and from a --halves-only one.
"""
import datetime
import glob
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

import codec_bench
import halves_bench
import memory_bench
import overlap_bench
import sweep_bench
import vcluster_bench

SIZES = [8, 64, 512, 4 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 32 << 20, 64 << 20]
# the links probe's point-to-point bandwidth is measured at these (a ring chunk of each)
P2P_SIZES = [1 << 20, 16 << 20, 64 << 20]
# shm's small-message goal: p50 against the library's at these sizes
SMALL_SIZES = [8, 64, 512, 4 << 10]
CONFIGS = [
    {"name": "2 ranks", "ranks": 2, "flags": []},
    {"name": "4 ranks, oversubscribed", "ranks": 4,
     "flags": ["--oversubscribe", "--mca", "mpi_yield_when_idle", "1"]},
]
# The memory floor is printed from this size up; below 16 MiB part of the buffers stays in the
# cache, so a ratio above 1 there is the cache's help.
FLOOR_MIN_BYTES = 256 << 10
TARGETS = {"best_vs_mpi": 1.5, "best_vs_ring_bound": 0.8, "rd_8b_latency_vs_mpi": 1.2,
           "trace_overhead": 1.03, "window_vs_pipelined_8b": 1.2, "clock_error_us": 0.5,
           "window_keeps_ratio": 1.1,
           "shm_small_latency_vs_mpi": {2: 0.7, 4: 1.0},
           "cluster_best_vs_bound": 0.85}
TIMING_METHODS = ["window", "barrier", "pipelined"]
TIMING_SIZES = [8, 64 << 10]
# --trace's overhead: ring at 1 MiB on 2 ranks, with and without it, alternated within a run
# (TRACE_ROUNDS x 50 pairs of calls).
TRACE_BYTES = 1 << 20
TRACE_ROUNDS = 60
# adaptive iterations: the time budget of each point, seconds
TIME_PER_SIZE_S = "0.3"
# The Markdown tables: the variants' columns, the library's first (others follow by name), and
# the largest size shown as a p50 time (above it, busbw).
MD_ORDER = ["mpi", "shm", "recursive-doubling", "rabenseifner", "ring", "tree", "naive"]
MD_LATENCY_MAX_BYTES = 4 << 10
HERE = os.path.dirname(os.path.abspath(__file__))
MD_DEFAULT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "algorithms", "BENCH_RESULTS.md")


def human(n):
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def run_json(cmd, env):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        subprocess.run(cmd + ["-o", path, "--force", "-q"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


def mpirun(cfg):
    return [os.environ.get("MPIRUN", "mpirun")] + cfg["flags"] + ["-np", str(cfg["ranks"])]


def measure_allreduce(binary, cfg, env):
    """One run: {(algorithm, bytes): {"busbw": GB/s, "p50_us": us}}."""
    got = {}
    sizes = ",".join(str(s) for s in SIZES)
    d = run_json(mpirun(cfg) + [binary, "allreduce", "--sizes", sizes, "--time-per-size", TIME_PER_SIZE_S], env)
    for r in d["results"]:
        if "skipped" not in r:
            got[(r["algorithm"], r["bytes"])] = {"busbw": r["busbw_gbps"], "p50_us": r["time_us"]["p50"]}
    return got


def build_trace_overhead(binary):
    """tests/bench/trace_overhead.c, linked against the objects the binary was built from
    (build/algorithms/*.o, build/reports/stats/*.o). Returns its path, or None when it
    cannot be built."""
    build = os.path.dirname(binary)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    # algorithms/ and the statistics its sampling rule uses (reports/stats: pure, no MPI)
    objs = sorted(glob.glob(os.path.join(build, "algorithms", "*.o")) +
                  glob.glob(os.path.join(build, "reports", "stats", "*.o")))
    out = os.path.join(build, "bench", "trace_overhead")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    cmd = [os.environ.get("MPICC", "mpicc"), "-std=c17", "-O2", "-D_GNU_SOURCE",
           "-I" + root, "-I" + build,
           os.path.join(here, "trace_overhead.c")] + objs + ["-lm", "-o", out]
    return out if objs and subprocess.run(cmd).returncode == 0 else None


def measure_trace(tool, cfg, env):
    """--trace's cost, in one process: pairs of ring calls at TRACE_BYTES, one untraced and one
    traced, each after a barrier, the order flipping from pair to pair, so that the machine's
    load falls on both alike (tests/bench/trace_overhead.c); the ratio of the medians.
    --trace adds nothing else to the timed region: the gather runs after the point."""
    out = subprocess.run(mpirun(cfg) + [tool, str(TRACE_BYTES), str(TRACE_ROUNDS), "50"], env=env,
                         check=True, capture_output=True, text=True).stdout
    d = json.loads(out.strip().splitlines()[-1])
    return {"plain_p50_us": d["plain_us"], "traced_p50_us": d["traced_us"], "ratio": d["ratio"],
            "pairs": d["rounds"] * d["calls"]}


def measure_timing(binary, cfg, rep, env):
    """One run of each --timing method for mpi and ring, the order rotated by rep:
    {method: {"points": {bytes: {p50_us, mean_us, late_starts, start_error_us}} (mpi),
    "ring": {bytes: {p50_us, mean_us}}, "clock_error_us": us}}."""
    got = {}
    sizes = ",".join(str(s) for s in TIMING_SIZES)
    order = TIMING_METHODS[rep % 3:] + TIMING_METHODS[:rep % 3]
    for m in order:
        d = run_json(mpirun(cfg) + [binary, "allreduce", "-a", "mpi,ring", "--sizes", sizes,
                                    "--time-per-size", TIME_PER_SIZE_S, "--timing", m], env)
        got[m] = {"clock_error_us": d["context"]["clock_sync"]["error_us"],
                  "points": {r["bytes"]: {"p50_us": r["time_us"]["p50"], "mean_us": r["time_us"]["mean"],
                                          # dropped, or (most late) kept and timed from the last arrival
                                          "late_starts": None if r.get("late_starts") is None
                                          else r["late_starts"] + r.get("late_starts_retimed", 0),
                                          "start_error_us": r.get("start_error_us")}
                             for r in d["results"] if r["algorithm"] == "mpi"},
                  "ring": {r["bytes"]: {"p50_us": r["time_us"]["p50"], "mean_us": r["time_us"]["mean"]}
                           for r in d["results"] if r["algorithm"] == "ring"}}
    return got


def timing_rows(reps):
    """Per size: every method's median p50 and mean, and window's and barrier's p50 over the
    pipelined mean, each ratio taken within a run, then its median."""
    runs = [r["timing"] for r in reps if "timing" in r]
    rows = []
    for size in TIMING_SIZES:
        row = {"bytes": size, "repeats": len(runs)}
        for m in TIMING_METHODS:
            row[m + "_p50_us"] = median_of(t[m]["points"][size]["p50_us"] for t in runs)
            row[m + "_mean_us"] = median_of(t[m]["points"][size]["mean_us"] for t in runs)
        row["window_late_starts"] = median_of(t["window"]["points"][size]["late_starts"] for t in runs)
        for m in ("window", "barrier"):
            ratios = [t[m]["points"][size]["p50_us"] / t["pipelined"]["points"][size]["mean_us"] for t in runs]
            row[m + "_vs_pipelined"] = statistics.median(ratios)
            row[m + "_vs_pipelined_runs"] = ratios
        row["window_start_error_us"] = median_of(t["window"]["points"][size].get("start_error_us")
                                                 for t in runs)
        # ring against mpi under the window (p50) over the same under pipelining (mean), in each
        # run: 1 where the window keeps the ratio of two variants (goal: within 10%)
        agree = [(t["window"]["ring"][size]["p50_us"] / t["window"]["points"][size]["p50_us"]) /
                 (t["pipelined"]["ring"][size]["mean_us"] / t["pipelined"]["points"][size]["mean_us"])
                 for t in runs if "ring" in t["window"]]
        row["ring_vs_mpi_window_over_pipelined"] = statistics.median(agree) if agree else None
        rows.append(row)
    errors = [t[m]["clock_error_us"] for t in runs for m in TIMING_METHODS]
    return {"points": rows, "clock_error_us": median_of(errors), "clock_error_max_us": max(errors)}


def measure_memory(membw):
    return json.loads(subprocess.run([membw, str(16 << 20), str(64 << 20)], check=True,
                                     capture_output=True, text=True).stdout)


def measure_repeats(binary, membw, cfg, repeats, env, tracer=None, timing_only=False):
    """Each repeat measures the all-reduce and, right after it, its limits, so that every
    ratio can be taken within one repeat (the machine's load moves all of them together)
    and its median over the repeats reported."""
    reps = []
    for rep in range(repeats):
        print(f"  {cfg['name']}: run {rep + 1} of {repeats}", file=sys.stderr)
        reps.append({} if timing_only else
                    {"allreduce": measure_allreduce(binary, cfg, env),
                     "p2p": measure_p2p(binary, cfg, env), "memory": measure_memory(membw)})
        if cfg["ranks"] == 2 and tracer:
            reps[-1]["trace"] = measure_trace(tracer, cfg, env)
        if cfg["ranks"] == 2:
            reps[-1]["timing"] = measure_timing(binary, cfg, rep, env)
    return reps


def measure_p2p(binary, cfg, env):
    """Point-to-point bandwidth per ring chunk size, GB/s, medians over pairs of their p50:
    {size: {"duplex": per direction with every rank sending and receiving at once,
            "oneway": one pair, one direction, the others idle}}.

    The ring's bound uses "duplex": in a ring step every rank sends a chunk and
    receives one at the same time, and on one host both directions and all
    pairs share the same memory and cores (links' concurrent mode, both
    directions at once, halved). "oneway" is kept in the report beside it: the
    bound as if each transfer had the machine to itself."""
    out = {}
    for size in P2P_SIZES:
        chunk = size // cfg["ranks"]
        base = ["links", "--bw-bytes", str(chunk), "--bw-iters", "10", "-n", "10"]
        one = run_json(mpirun(cfg) + [binary] + base + ["--mode", "isolated"], env)
        both = run_json(mpirun(cfg) + [binary] + base + ["--mode", "concurrent"], env)
        # links writes its pairs as arrays (schema 2): the p50s of every pair
        out[size] = {
            "oneway": statistics.median(one["pairs"]["bw_p50_gbps"]),
            "duplex": statistics.median(x / 2 for x in both["pairs"]["bidir_p50_gbps"]),
        }
    return out


def memory_floor_busbw(ranks, copy_gbps):
    """The busbw of an all-reduce on one host that moves the least memory possible.

    Every rank's input is read once and every rank's result written once: n x S
    bytes each way, like n copies of S, so at the machine's copy bandwidth C
    (every core copying at once) it takes at least n x S / C, a busbw of
    2(n-1)/n x S / (n x S / C) = 2(n-1)/n^2 x C. Measured on buffers far larger
    than the cache: a variant above 1.0 of it had help from the cache."""
    return 2 * (ranks - 1) / ranks ** 2 * copy_gbps


def median_of(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def analyse(cfg, reps):
    """A row per (algorithm, size): medians over the repeats of each figure and of each
    ratio taken within a repeat."""
    keys = sorted({k for r in reps for k in r["allreduce"]}, key=lambda k: (SIZES.index(k[1]), k[0]))
    rows = []
    for a, size in keys:
        per = []  # (this point, mpi's, p2p, all-core copy GB/s) of each repeat that has both
        for r in reps:
            m, mpi = r["allreduce"].get((a, size)), r["allreduce"].get(("mpi", size))
            if m and mpi:
                per.append((m, mpi, r["p2p"].get(size), r["memory"].get("all_cores", {}).get("memcpy_gbps")))
        if not per:
            continue
        row = {"config": cfg["name"], "ranks": cfg["ranks"], "algorithm": a, "bytes": size,
               "repeats": len(per),
               "p50_us": median_of(m["p50_us"] for m, _, _, _ in per),
               "busbw_gbps": median_of(m["busbw"] for m, _, _, _ in per),
               "vs_mpi_busbw": median_of(m["busbw"] / mpi["busbw"] if mpi["busbw"] else None
                                         for m, mpi, _, _ in per),
               "vs_mpi_latency": median_of(m["p50_us"] / mpi["p50_us"] for m, mpi, _, _ in per)}
        if size >= FLOOR_MIN_BYTES and all(c for _, _, _, c in per):
            floors = [memory_floor_busbw(cfg["ranks"], c) for _, _, _, c in per]
            row["memory_floor_gbps"] = median_of(floors)
            row["vs_memory_floor"] = median_of(m["busbw"] / f for (m, _, _, _), f in zip(per, floors))
        if all(p for _, _, p, _ in per):
            for name, key in (("p2p", "duplex"), ("p2p_oneway", "oneway")):
                row[f"{name}_gbps"] = median_of(p[key] for _, _, p, _ in per)
            row["vs_ring_bound"] = median_of(m["busbw"] / p["duplex"] for m, _, p, _ in per)
            row["vs_oneway_bound"] = median_of(m["busbw"] / p["oneway"] for m, _, p, _ in per)
        rows.append(row)
    return rows


def trace_overhead(cfg, reps):
    """The median over the runs of --trace's ratio, each taken within its run."""
    ratios = [r["trace"]["ratio"] for r in reps if "trace" in r]
    if not ratios:
        return None
    return {"config": cfg["name"], "algorithm": "ring", "bytes": TRACE_BYTES, "repeats": len(ratios),
            "ratio": statistics.median(ratios), "ratios": ratios,
            "plain_p50_us": median_of(r["trace"]["plain_p50_us"] for r in reps if "trace" in r),
            "traced_p50_us": median_of(r["trace"]["traced_p50_us"] for r in reps if "trace" in r)}


def verdicts(rows, traces=(), timing=None):
    out = []
    if timing:
        eight = next(p for p in timing["points"] if p["bytes"] == 8)
        out.append({"config": "2 ranks", "target": "window p50 vs pipelined mean, mpi 8 B",
                    "best": "mpi", "ratio": eight["window_vs_pipelined"],
                    "goal": TARGETS["window_vs_pipelined_8b"],
                    "met": eight["window_vs_pipelined"] <= TARGETS["window_vs_pipelined_8b"]})
        for p in timing["points"]:
            x = p.get("ring_vs_mpi_window_over_pipelined")
            if x is not None:  # within 10% either way: the larger of x and 1/x at most 1.1
                out.append({"config": "2 ranks", "target": "ring/mpi under window vs pipelined, "
                            f"{human(p['bytes'])}", "best": "ring", "ratio": max(x, 1 / x),
                            "goal": TARGETS["window_keeps_ratio"], "met": max(x, 1 / x) <= TARGETS["window_keeps_ratio"]})
        out.append({"config": "2 ranks", "target": "clock sync error, us (latency)",
                    "best": "-", "ratio": timing["clock_error_us"], "goal": TARGETS["clock_error_us"],
                    "met": timing["clock_error_us"] < TARGETS["clock_error_us"]})
    for t in traces:
        out.append({"config": t["config"], "target": f"--trace overhead, ring {human(t['bytes'])}",
                    "best": "ring", "ratio": t["ratio"], "goal": TARGETS["trace_overhead"],
                    "met": t["ratio"] <= TARGETS["trace_overhead"]})
    for cfg in CONFIGS:
        mine = [r for r in rows if r["config"] == cfg["name"]]
        for size in (1 << 20, 16 << 20):
            best = max((r for r in mine if r["bytes"] == size and r["algorithm"] != "mpi"),
                       key=lambda r: r["busbw_gbps"], default=None)
            if best:
                out.append({"config": cfg["name"], "target": f"best busbw vs mpi at {human(size)}",
                            "best": best["algorithm"], "ratio": best["vs_mpi_busbw"],
                            "goal": TARGETS["best_vs_mpi"], "met": best["vs_mpi_busbw"] >= TARGETS["best_vs_mpi"]})
                if "vs_memory_floor" in best:
                    out.append({"config": cfg["name"], "target": f"best busbw vs memory floor at {human(size)}",
                                "best": best["algorithm"], "ratio": best["vs_memory_floor"],
                                "goal": None, "met": None, "why": "where the machine's memory stops it"})
                if "vs_ring_bound" in best:
                    out.append({"config": cfg["name"], "target": f"best busbw vs ring bound at {human(size)}",
                                "best": best["algorithm"], "ratio": best["vs_ring_bound"],
                                "goal": TARGETS["best_vs_ring_bound"],
                                "met": best["vs_ring_bound"] >= TARGETS["best_vs_ring_bound"]})
        goal = TARGETS["shm_small_latency_vs_mpi"].get(cfg["ranks"])
        for size in SMALL_SIZES if goal else ():
            r = next((r for r in mine if r["bytes"] == size and r["algorithm"] == "shm"), None)
            if r:
                out.append({"config": cfg["name"], "target": f"shm latency vs mpi at {human(size)}",
                            "best": "shm", "ratio": r["vs_mpi_latency"], "goal": goal,
                            "met": r["vs_mpi_latency"] <= goal})
        floors = [r for r in mine if r["algorithm"] == "shm" and "vs_memory_floor" in r]
        if cfg["ranks"] == 2 and floors:
            worst = min(floors, key=lambda r: r["vs_memory_floor"])
            out.append({"config": cfg["name"],
                        "target": f"shm vs memory floor, {human(floors[0]['bytes'])}-{human(floors[-1]['bytes'])}",
                        "best": f"shm, worst at {human(worst['bytes'])}", "ratio": worst["vs_memory_floor"],
                        "goal": None, "met": True, "why": "the cache helps below 16 MiB"})
        rd = next((r for r in mine if r["bytes"] == 8 and r["algorithm"] == "recursive-doubling"), None)
        if rd:
            out.append({"config": cfg["name"], "target": "recursive-doubling 8 B latency vs mpi",
                        "best": "recursive-doubling", "ratio": rd["vs_mpi_latency"],
                        "goal": TARGETS["rd_8b_latency_vs_mpi"],
                        "met": rd["vs_mpi_latency"] <= TARGETS["rd_8b_latency_vs_mpi"]})
    return out


def print_timing(timing, repeats):
    if not timing:
        return
    print(f"# --timing, mpi at 2 ranks (medians of {repeats} runs, the methods in turns): "
          f"clock error {timing['clock_error_us']:.3f} us (max {timing['clock_error_max_us']:.3f})")
    print(f"{'size':>8} {'window p50':>11} {'barrier p50':>12} {'pipelined mean':>15} "
          f"{'window/pipe':>12} {'barrier/pipe':>13} {'late starts':>12} {'start error':>12} "
          f"{'ring/mpi w/p':>13}")
    for p in timing["points"]:
        se, agree = p.get("window_start_error_us"), p.get("ring_vs_mpi_window_over_pipelined")
        print(f"{human(p['bytes']):>8} {p['window_p50_us']:11.3f} {p['barrier_p50_us']:12.3f} "
              f"{p['pipelined_mean_us']:15.3f} {p['window_vs_pipelined']:12.2f} "
              f"{p['barrier_vs_pipelined']:13.2f} {p['window_late_starts']:12.0f} "
              f"{'-' if se is None else f'{se:.3f} us':>12} {'-' if agree is None else f'{agree:.2f}':>13}")


def machine_info(load_start):
    """What the figures depend on besides the code: the CPU, its cores, the kernel, the MPI library,
    and how busy the machine was (the 1-minute load average at the start and at the end)."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    except OSError:
        pass
    try:
        mpi = subprocess.run([os.environ.get("MPIRUN", "mpirun"), "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0].strip()
    except (OSError, IndexError):
        mpi = "unknown"
    u = platform.uname()
    return {"cpu_model": cpu, "cores": os.cpu_count(), "kernel": f"{u.system} {u.release} {u.machine}",
            "mpi": mpi, "load_average_start": load_start, "load_average_end": os.getloadavg()[0]}


def settings(repeats, sizes=SIZES):
    """How this run was made: enough to make it again."""
    argv = sys.argv[1:]
    if "--note" in argv:  # the note has a line of its own
        i = argv.index("--note")
        argv = argv[:i] + argv[i + 2:]
    return {"argv": argv, "repeats": repeats, "sizes_bytes": sizes,
            "time_per_size_s": float(TIME_PER_SIZE_S),
            "configs": [{"name": c["name"], "ranks": c["ranks"], "mpirun_flags": c["flags"]} for c in CONFIGS],
            "env": {k: os.environ[k] for k in ("BENCH_CLUSTER", "BENCH_VC_RATE", "MPIRUN") if k in os.environ},
            "note": arg("--note", None)}


def lower_is_better(check):
    """A goal on a time, a cost or an error is a maximum; the others are minimums."""
    return any(w in check["target"] for w in ("latency", "overhead", "vs pipelined", "sweep time"))


def md_cell(value, latency):
    return f"{value:.2f} us" if latency else f"{value:.2f}"


def md_config_table(name, rows):
    """One configuration as the table of sizes x variants: p50 up to MD_LATENCY_MAX_BYTES, busbw
    above, the best of each row in bold, shm's ratio to the memory floor in brackets, then the
    bounds."""
    algos = sorted({r["algorithm"] for r in rows},
                   key=lambda a: (MD_ORDER.index(a) if a in MD_ORDER else len(MD_ORDER), a))
    out = [f"| {name} | " + " | ".join(f"`{a}`" for a in algos) + " | p2p bound | memory floor |",
           "|---" * (len(algos) + 3) + "|"]
    for size in sorted({r["bytes"] for r in rows}):
        at = {r["algorithm"]: r for r in rows if r["bytes"] == size}
        latency = size <= MD_LATENCY_MAX_BYTES
        key = "p50_us" if latency else "busbw_gbps"
        vals = {a: r[key] for a, r in at.items() if r.get(key) is not None}
        best = (min if latency else max)(vals, key=vals.get) if vals else None
        cells = []
        for a in algos:
            if a not in vals:
                cells.append("-")
                continue
            text = md_cell(vals[a], latency)
            if a == "shm" and not latency and at[a].get("vs_memory_floor") is not None:
                text += f" ({at[a]['vs_memory_floor']:.2f})"
            cells.append(f"**{text}**" if a == best else text)
        bound = next((f"{r['p2p_gbps']:.2f}" for r in at.values() if r.get("p2p_gbps") is not None), "-")
        floor = next((f"{r['memory_floor_gbps']:.2f}" for r in at.values()
                      if r.get("memory_floor_gbps") is not None), "-")
        out.append(f"| {human(size)} | " + " | ".join(cells + [bound, floor]) + " |")
    return out


def md_timing(timing):
    if not timing:
        return []
    out = ["## Timing methods", "",
           f"`mpi` (and `ring`) at 2 ranks, each `--timing` method in turns, medians of "
           f"{timing['points'][0]['repeats']} runs. "
           f"Clock sync error {timing['clock_error_us']:.3f} us (max {timing['clock_error_max_us']:.3f}).", "",
           "| size | window p50 | barrier p50 | pipelined mean | window / pipelined | barrier / pipelined "
           "| window late starts | window start error | ring / mpi, window over pipelined |",
           "|---|---|---|---|---|---|---|---|---|"]
    for p in timing["points"]:
        late = "-" if p.get("window_late_starts") is None else f"{p['window_late_starts']:.0f}"
        se, agree = p.get("window_start_error_us"), p.get("ring_vs_mpi_window_over_pipelined")
        out.append(f"| {human(p['bytes'])} | {p['window_p50_us']:.3f} us | {p['barrier_p50_us']:.3f} us | "
                   f"{p['pipelined_mean_us']:.3f} us | {p['window_vs_pipelined']:.2f} | "
                   f"{p['barrier_vs_pipelined']:.2f} | {late} | {'-' if se is None else f'{se:.3f} us'} | "
                   f"{'-' if agree is None else f'{agree:.2f}'} |")
    return out + [""]


def no_goal(check):
    """A target without a goal, and why, where the check says."""
    return f"no goal: {check['why']}" if check.get("why") else "no goal"


def md_targets(doc):
    out = ["## Targets", ""]
    for c in doc.get("targets", []):
        lower = lower_is_better(c)
        goal = (no_goal(c) if c["goal"] is None else
                f"goal {'<=' if lower else '>='} {c['goal']}: {'met' if c['met'] else 'MISSED'}")
        out.append(f"- {c['config']}, {c['target']}: {c['best']} {c['ratio']:.2f} ({goal})")
    for t in doc.get("trace_overhead", []):
        out.append(f"- {t['config']}, `--trace` on ring at {human(t['bytes'])}: median call "
                   f"{t['plain_p50_us']:.2f} us without, {t['traced_p50_us']:.2f} us with, ratio {t['ratio']:.3f} "
                   f"(runs: {', '.join(f'{x:.3f}' for x in t['ratios'])})")
    return out + [""]


def md_cluster(c):
    out = ["## Across hosts", ""]
    if not c or "skipped" in c:
        return out + [f"Not run: {(c or {}).get('skipped', 'no cluster results')}.", ""]
    out += [f"A virtual cluster of {c['hosts']} hosts x {c['ranks_per_host']} ranks, every host's link shaped "
            f"to {c['rate']} ({c['rate_gbps']:.3f} GB/s) both ways. Bound busbw {c['bound_gbps']:.3f} GB/s; "
            f"TCP goodput over one link, both ways at once, {c['link_goodput_gbps']:.3f} GB/s. "
            f"Medians of {c['repeats']} runs.", "",
            "| size | variant | p50 | busbw GB/s | vs bound | vs mpi | vs coll/han |", "|---|---|---|---|---|---|---|"]
    ratio = lambda v: "-" if v is None else f"{v:.2f}"
    for r in c["rows"]:
        out.append(f"| {human(r['bytes'])} | `{r['algorithm']}` | {r['p50_us'] / 1000:.0f} ms | "
                   f"{r['busbw_gbps']:.3f} | {r['vs_bound']:.2f} | {ratio(r['vs_mpi'])} | {ratio(r['vs_han'])} |")
    for t in c.get("targets", []):
        out.append(f"\n{human(t['size'])}: best `{t['best']}` at {t['vs_bound']:.2f} of the bound "
                   f"(goal {t['goal']} and ahead of mpi and coll/han): {'met' if t['met'] else 'MISSED'}.")
    return out + [""]


def md_header(doc):
    m, s = doc.get("machine", {}), doc.get("settings", {})
    env = " ".join(f"{k}={v}" for k, v in sorted(s.get("env", {}).items()))
    cmd = " ".join(filter(None, [env, "python3 tests/bench/bench.py", " ".join(s.get("argv", []))]))
    mem = doc.get("memory_bandwidth", {})
    one = {k: v for k, v in mem.items() if k != "all_cores"}
    copies = "; ".join(f"{human(int(k))}: memcpy {v['memcpy_gbps']:.1f} GB/s, float32 a += b "
                       f"{v['add_f32_gbps']:.1f} GB/s" for k, v in sorted(one.items(), key=lambda kv: int(kv[0])))
    allc = mem.get("all_cores", {})
    lines = ["# Benchmark results", "",
            f"Written by tests/bench/bench.py (`make bench`) on {doc.get('started_utc', 'an unknown date')}. "
            "`make bench` replaces this file; do not edit it by hand.",
            "How the figures are measured and how to read them: [README.md](README.md#how-performance-is-measured).",
            "", f"- Produced by: `{cmd}`",
            f"- Machine: {m.get('cpu_model', '?')}, {m.get('cores', '?')} cores, {m.get('kernel', '?')}",
            f"- MPI: {m.get('mpi', '?')}",
            f"- Load average (1 min): {m['load_average_start']:.1f} at the start, {m['load_average_end']:.1f} "
            "at the end" if "load_average_start" in m else None,
            f"- Note: {s['note']}" if s.get("note") else None,
            f"- Partial run (`--{doc['partial']}`): only that section was measured" if doc.get("partial") else None,
            f"- Settings: {doc.get('repeats')} run(s) per configuration, `--time-per-size "
            f"{s.get('time_per_size_s', '?')}`, sizes {', '.join(human(b) for b in doc.get('sizes_bytes', []))}",
            f"- Memory, one core: {copies}" if copies else "- Memory: not measured",
            f"- Memory, all {allc.get('threads', 0):.0f} cores at once: memcpy {allc.get('memcpy_gbps', 0):.1f} GB/s "
            "(C of the memory floor)" if allc else None, ""]
    return [l for l in lines if l is not None]


def render_markdown(doc):
    """The results document as Markdown, from the JSON alone, so that a results file can be
    rendered again (--render) without measuring."""
    lines = md_header(doc)
    if "results" in doc:  # a --halves-only file has no main section
        lines += md_one_host(doc)
    lines += md_timing(doc.get("timing"))
    if "targets" in doc:
        lines += md_targets(doc)
    lines += memory_bench.markdown(doc.get("memory_limit"), human)
    lines += halves_bench.markdown(doc.get("halves"), human) + overlap_bench.markdown(doc.get("overlap"), human)
    lines += codec_bench.markdown(doc.get("codecs"), human)
    lines += sweep_bench.markdown(doc.get("sweep"), human)
    if "cluster" in doc:
        lines += md_cluster(doc["cluster"])
    return "\n".join(lines).rstrip("\n") + "\n"


def md_one_host(doc):
    lines = ["## One host", "",
             f"p50 time up to {human(MD_LATENCY_MAX_BYTES)}, busbw in GB/s above; bold is the best of the row. "
             "`p2p bound`: the links probe's bandwidth for a ring chunk, every rank sending and receiving at once. "
             "`memory floor`: the busbw of an all-reduce that reads every input and writes every result once "
             "at the all-core copy bandwidth C, 2(n-1)/n^2 x C; in brackets, `shm`'s ratio to it. "
             "Every ratio is taken within one run, then its median reported.", ""]
    names = list(dict.fromkeys(r["config"] for r in doc.get("results", [])))
    for name in names:
        lines += md_config_table(name, [r for r in doc["results"] if r["config"] == name]) + [""]
    return lines


def write_markdown(doc, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(render_markdown(doc))
    os.replace(tmp, path)
    print(f"# written: {path}")


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def halves_only(binary, repeats, env, started, load_start):
    """--halves-only: the halves section alone, to files of its own by default (a partial run
    must not replace the full run's)."""
    run = lambda cfg, args: run_json(mpirun(cfg) + [binary] + args, env)
    halves = halves_bench.measure(run, CONFIGS, repeats, TIME_PER_SIZE_S)
    halves_bench.report(halves, human)
    doc = {"schema_version": 1, "command": "bench", "partial": "halves-only", "started_utc": started,
           "machine": machine_info(load_start), "settings": settings(repeats, halves_bench.SIZES),
           "repeats": repeats, "sizes_bytes": halves_bench.SIZES, "halves": halves, "complete": True}
    write_json(doc, arg("--out", "bench/halves.json"))
    write_markdown(doc, arg("--markdown", "bench/halves.md"))


def write_json(doc, path):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, path)
    print(f"# written: {path}")


def render_check():
    """--build-only: the Markdown renders from a results file of before the halves section and
    from a --halves-only one, so that --render keeps reading both."""
    old = {"results": [], "targets": [], "timing": None, "overlap": None, "cluster": {"skipped": "x"}}
    row = {"config": "2 ranks", "ranks": 2, "collective": "allgather", "algorithm": "ring", "bytes": 8,
           "repeats": 1, "p50_us": 1.0, "busbw_gbps": 0.004, "vs_mpi_busbw": 1.1}
    split = {"config": "2 ranks", "ranks": 2, "algorithm": "ring", "bytes": 8, "repeats": 1, "allreduce_p50_us": 1.5,
             "reduce_scatter_p50_us": 1.0, "allgather_p50_us": 1.0, "halves_p50_us": 2.0, "ratio": 0.75}
    part = {"partial": "halves-only", "halves": {"repeats": 1, "rows": [row], "split": [split]}}
    limit = {"ranks": 2, "repeats": 1, "copy_gbps": 30.0, "copy_gbps_runs": [30.0], "hardware_counters": "none",
             "goal": 0.9, "rows": [{"bytes": 16 << 20, "busbw_gbps": 15.0, "limit_gbps": 15.0, "vs_limit": 1.0,
                                    "vs_limit_runs": [1.0], "traffic_per_rank_bytes": 32 << 20,
                                    "host_traffic_gbps": 60.0, "copy_traffic_gbps": 60.0}]}
    text = render_markdown(old), render_markdown(part), render_markdown(dict(old, memory_limit=limit))
    return ("halves" not in text[0] and "| 8 B | 1.00 us, 0.00400 GB/s (1.10x) |" in text[1]
            and "| 16 MiB | 15.00 | 15.00 | 1.00 met |" in text[2])


def main():
    md_path = arg("--markdown", MD_DEFAULT)
    if "--render" in sys.argv:  # the Markdown again, from a results file
        with open(arg("--render", None)) as f:
            doc = json.load(f)
        if "--note" in sys.argv:
            doc.setdefault("settings", {})["note"] = arg("--note", None)
        # a partial run's file never replaces the full run's Markdown unless asked to
        write_markdown(doc, arg("--markdown", "bench/halves.md" if doc.get("partial") else MD_DEFAULT))
        return
    binary, membw = os.path.abspath(sys.argv[1]), sys.argv[2]
    repeats = int(arg("--repeats", 3))
    out_path = arg("--out", "bench/results.json")
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    load_start = os.getloadavg()[0]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    timing_only = "--timing-only" in sys.argv
    if "--build-only" in sys.argv:  # make check: the bench's own tools still build
        sys.exit(0 if build_trace_overhead(binary) and render_check() else 1)
    if "--halves-only" in sys.argv:
        return halves_only(binary, repeats, env, started, load_start)
    codec_rate = os.path.join(os.path.dirname(membw), "codec_rate")
    if "--codecs-only" in sys.argv:
        return codec_bench.report(codec_bench.measure(binary, codec_rate, repeats, env), human)
    if "--sweep-only" in sys.argv:
        return sweep_bench.report(sweep_bench.measure(binary, repeats, env), human)
    if "--memory-only" in sys.argv:
        mem_doc = memory_bench.measure(binary, membw, repeats, env)
        memory_bench.report(mem_doc, human)
        return print(f"  {memory_bench.target(mem_doc, human)}")
    rows, memory, traces, timing = [], [], [], None
    tracer = None if timing_only else build_trace_overhead(binary)
    if not tracer and not timing_only:
        print("bench: cannot build tests/bench/trace_overhead.c: no --trace overhead", file=sys.stderr)
    for cfg in CONFIGS:
        if timing_only and cfg["ranks"] != 2:
            continue
        reps = measure_repeats(binary, membw, cfg, repeats, env, tracer, timing_only)
        if any("timing" in r for r in reps):
            timing = timing_rows(reps)
        if timing_only:
            continue
        rows += analyse(cfg, reps)
        memory += [r["memory"] for r in reps]
        t = trace_overhead(cfg, reps)
        if t:
            traces.append(t)
    checks = verdicts(rows, traces, timing)
    print_timing(timing, repeats)
    if timing_only:
        for c in checks:
            print(f"  {c['config']:<24} {c['target']:<40} {c['ratio']:6.2f} (goal {c['goal']}) "
                  f"{'met' if c['met'] else 'MISSED'}")
        return
    limit = memory_bench.measure(binary, membw, repeats, env)
    checks.append(memory_bench.target(limit, human))
    halves = halves_bench.measure(lambda cfg, args: run_json(mpirun(cfg) + [binary] + args, env), CONFIGS,
                                  repeats, TIME_PER_SIZE_S)
    overlap = overlap_bench.measure(binary, repeats, env)
    codecs = codec_bench.measure(binary, codec_rate, repeats, env)
    sweep = sweep_bench.measure(binary, repeats, env)
    checks.append(sweep_bench.target(sweep))
    cluster = ({"skipped": "BENCH_CLUSTER=0"} if os.environ.get("BENCH_CLUSTER") == "0"
               else vcluster_bench.measure(binary, repeats, env))
    mem = {k: {f: median_of(m[k][f] for m in memory) for f in memory[0][k]} for k in memory[0]}

    print(f"# memcpy, one core: {mem[str(16 << 20)]['memcpy_gbps']:.1f} GB/s at 16 MiB, "
          f"{mem[str(64 << 20)]['memcpy_gbps']:.1f} GB/s at 64 MiB; float32 a += b "
          f"{mem[str(16 << 20)]['add_f32_gbps']:.1f} / {mem[str(64 << 20)]['add_f32_gbps']:.1f} GB/s; "
          f"memcpy on all {mem['all_cores']['threads']:.0f} cores at once: {mem['all_cores']['memcpy_gbps']:.1f} GB/s "
          "in all (the memory floor's C)")
    print(f"# medians of {repeats} runs per configuration, each run measuring the all-reduce, then its limits; "
          "every ratio is taken within a run, then its median reported; vs mpi = busbw / mpi busbw; vs bound = busbw / point-to-point "
          "bandwidth of a ring chunk, every rank sending and receiving at once (p2p); vs 1-way = "
          "busbw / that of one pair alone, one direction (1-way); vs floor = busbw / that of an "
          "all-reduce that reads every input and writes every result once at the all-core memcpy "
          "bandwidth (floor: 2(n-1)/n^2 x C; 256 KiB and up, where below 16 MiB the cache helps)")
    print(f"{'config':<24} {'size':>8} {'algorithm':<19} {'p50 us':>10} {'busbw GB/s':>10} "
          f"{'vs mpi':>7} {'p2p GB/s':>9} {'vs bound':>8} {'1-way':>7} {'vs 1-way':>8} "
          f"{'floor':>6} {'vs floor':>8}")
    for r in rows:
        p2p = (f"{r['p2p_gbps']:9.2f} {r['vs_ring_bound']:8.2f} {r['p2p_oneway_gbps']:7.2f} "
               f"{r['vs_oneway_bound']:8.2f}") if "p2p_gbps" in r else ""
        if "memory_floor_gbps" in r:
            p2p += f" {r['memory_floor_gbps']:6.2f} {r['vs_memory_floor']:8.2f}"
        vs = f"{r['vs_mpi_busbw']:7.2f}" if r["vs_mpi_busbw"] is not None else f"{'-':>7}"
        print(f"{r['config']:<24} {human(r['bytes']):>8} {r['algorithm']:<19} {r['p50_us']:10.2f} "
              f"{r['busbw_gbps']:10.3f} {vs} {p2p}")
    for t in traces:
        print(f"# --trace: {t['config']}, ring at {human(t['bytes'])}: median call {t['plain_p50_us']:.2f} us "
              f"without, {t['traced_p50_us']:.2f} us with, pairs of calls alternated in one process; "
              f"ratio {t['ratio']:.3f} (median of {t['repeats']} runs: {', '.join(f'{x:.3f}' for x in t['ratios'])})")
    print("# targets")
    for c in checks:
        lower = lower_is_better(c)
        goal = (f"({no_goal(c)})" if c["goal"] is None else
                f"(goal {'<=' if lower else '>='} {c['goal']}) {'met' if c['met'] else 'MISSED'}")
        print(f"  {c['config']:<24} {c['target']:<40} {c['best']:<19} {c['ratio']:6.2f} {goal}")
    memory_bench.report(limit, human)
    halves_bench.report(halves, human)
    overlap_bench.report(overlap, human)
    codec_bench.report(codecs, human)
    sweep_bench.report(sweep, human)
    vcluster_bench.report(cluster, human)
    doc = {"schema_version": 1, "command": "bench", "started_utc": started, "machine": machine_info(load_start),
           "settings": settings(repeats), "repeats": repeats, "sizes_bytes": SIZES,
           "memory_bandwidth": mem, "memory_bandwidth_runs": memory, "results": rows,
           "trace_overhead": traces, "timing": timing, "targets": checks, "halves": halves, "overlap": overlap,
           "codecs": codecs, "sweep": sweep, "memory_limit": limit, "cluster": cluster, "complete": True}
    write_json(doc, out_path)
    write_markdown(doc, md_path)


if __name__ == "__main__":
    main()
