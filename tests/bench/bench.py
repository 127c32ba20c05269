#!/usr/bin/env python3
"""make bench: collscope's variants against the MPI library's MPI_Allreduce, side by side.

For each configuration (2 ranks; 4 ranks oversubscribed on this 2-core class of
machine) it runs `collscope allreduce` over the same sizes several times, every
variant interleaved within each run, and takes medians over the repeats. Beside
them it measures the limits: single-core memcpy bandwidth (membw) and the links
probe's point-to-point bandwidth for messages of a ring chunk (bytes / ranks),
per direction with every rank sending and receiving at once, as in a ring step
(and, beside it, one pair alone in one direction). Prints ratios (variant busbw
/ mpi busbw; busbw / point-to-point bandwidth, where the ring's bound
2(n-1)/n x bytes / B means busbw <= B) and writes a JSON file. Informational:
it exits 0 unless a run fails.

usage: bench.py COLLSCOPE MEMBW [--repeats N] [--out FILE]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

SIZES = [8, 64 << 10, 1 << 20, 16 << 20, 64 << 20]
CONFIGS = [
    {"name": "2 ranks", "ranks": 2, "flags": []},
    {"name": "4 ranks, oversubscribed", "ranks": 4,
     "flags": ["--oversubscribe", "--mca", "mpi_yield_when_idle", "1"]},
]
TARGETS = {"best_vs_mpi": 1.5, "best_vs_ring_bound": 0.8, "rd_8b_latency_vs_mpi": 1.2}


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


def measure_allreduce(binary, cfg, repeats, env):
    """{(algorithm, bytes): {"busbw": [...], "p50_us": [...]}} over the repeats."""
    got = {}
    sizes = ",".join(str(s) for s in SIZES)
    for rep in range(repeats):
        print(f"  {cfg['name']}: allreduce run {rep + 1} of {repeats}", file=sys.stderr)
        d = run_json(mpirun(cfg) + [binary, "allreduce", "--sizes", sizes, "--time-per-size", "0.3"], env)
        for r in d["results"]:
            if "skipped" in r:
                continue
            e = got.setdefault((r["algorithm"], r["bytes"]), {"busbw": [], "p50_us": []})
            e["busbw"].append(r["busbw_gbps"])
            e["p50_us"].append(r["time_us"]["p50"])
    return got


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
    for size in SIZES[2:]:
        chunk = size // cfg["ranks"]
        base = ["links", "--bw-bytes", str(chunk), "--bw-iters", "10", "-n", "10"]
        one = run_json(mpirun(cfg) + [binary] + base + ["--mode", "isolated"], env)
        both = run_json(mpirun(cfg) + [binary] + base + ["--mode", "concurrent"], env)
        out[size] = {
            "oneway": statistics.median(r["bandwidth_gbps"]["p50"] for r in one["results"]),
            "duplex": statistics.median(r["bidirectional_gbps"]["p50"] / 2 for r in both["results"]),
        }
    return out


def analyse(cfg, got, p2p):
    med = {k: {m: statistics.median(v) for m, v in e.items()} for k, e in got.items()}
    algos = sorted({a for a, _ in med})
    rows = []
    for size in SIZES:
        mpi = med.get(("mpi", size))
        for a in algos:
            m = med.get((a, size))
            if not m or not mpi:
                continue
            row = {"config": cfg["name"], "ranks": cfg["ranks"], "algorithm": a, "bytes": size,
                   "p50_us": m["p50_us"], "busbw_gbps": m["busbw"],
                   "vs_mpi_busbw": m["busbw"] / mpi["busbw"] if mpi["busbw"] else None,
                   "vs_mpi_latency": m["p50_us"] / mpi["p50_us"]}
            if size in p2p:
                row["p2p_gbps"] = p2p[size]["duplex"]
                row["vs_ring_bound"] = m["busbw"] / p2p[size]["duplex"]
                row["p2p_oneway_gbps"] = p2p[size]["oneway"]
                row["vs_oneway_bound"] = m["busbw"] / p2p[size]["oneway"]
            rows.append(row)
    return rows


def verdicts(rows):
    out = []
    for cfg in CONFIGS:
        mine = [r for r in rows if r["config"] == cfg["name"]]
        for size in (1 << 20, 16 << 20):
            best = max((r for r in mine if r["bytes"] == size and r["algorithm"] != "mpi"),
                       key=lambda r: r["busbw_gbps"], default=None)
            if best:
                out.append({"config": cfg["name"], "target": f"best busbw vs mpi at {human(size)}",
                            "best": best["algorithm"], "ratio": best["vs_mpi_busbw"],
                            "goal": TARGETS["best_vs_mpi"], "met": best["vs_mpi_busbw"] >= TARGETS["best_vs_mpi"]})
                if "vs_ring_bound" in best:
                    out.append({"config": cfg["name"], "target": f"best busbw vs ring bound at {human(size)}",
                                "best": best["algorithm"], "ratio": best["vs_ring_bound"],
                                "goal": TARGETS["best_vs_ring_bound"],
                                "met": best["vs_ring_bound"] >= TARGETS["best_vs_ring_bound"]})
        rd = next((r for r in mine if r["bytes"] == 8 and r["algorithm"] == "recursive-doubling"), None)
        if rd:
            out.append({"config": cfg["name"], "target": "recursive-doubling 8 B latency vs mpi",
                        "best": "recursive-doubling", "ratio": rd["vs_mpi_latency"],
                        "goal": TARGETS["rd_8b_latency_vs_mpi"],
                        "met": rd["vs_mpi_latency"] <= TARGETS["rd_8b_latency_vs_mpi"]})
    return out


def main():
    binary, membw = os.path.abspath(sys.argv[1]), sys.argv[2]
    repeats = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 3
    out_path = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "bench/results.json"
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    mem = json.loads(subprocess.run([membw, str(16 << 20), str(64 << 20)], check=True,
                                    capture_output=True, text=True).stdout)
    rows = []
    for cfg in CONFIGS:
        got = measure_allreduce(binary, cfg, repeats, env)
        rows += analyse(cfg, got, measure_p2p(binary, cfg, env))
    checks = verdicts(rows)

    print(f"# memcpy, one core: {mem[str(16 << 20)]['memcpy_gbps']:.1f} GB/s at 16 MiB, "
          f"{mem[str(64 << 20)]['memcpy_gbps']:.1f} GB/s at 64 MiB; float32 a += b "
          f"{mem[str(16 << 20)]['add_f32_gbps']:.1f} / {mem[str(64 << 20)]['add_f32_gbps']:.1f} GB/s")
    print(f"# medians of {repeats} runs; vs mpi = busbw / mpi busbw; vs bound = busbw / point-to-point "
          "bandwidth of a ring chunk, every rank sending and receiving at once (p2p); vs 1-way = "
          "busbw / that of one pair alone, one direction (1-way)")
    print(f"{'config':<24} {'size':>8} {'algorithm':<19} {'p50 us':>10} {'busbw GB/s':>10} "
          f"{'vs mpi':>7} {'p2p GB/s':>9} {'vs bound':>8} {'1-way':>7} {'vs 1-way':>8}")
    for r in rows:
        p2p = (f"{r['p2p_gbps']:9.2f} {r['vs_ring_bound']:8.2f} {r['p2p_oneway_gbps']:7.2f} "
               f"{r['vs_oneway_bound']:8.2f}") if "p2p_gbps" in r else ""
        vs = f"{r['vs_mpi_busbw']:7.2f}" if r["vs_mpi_busbw"] is not None else f"{'-':>7}"
        print(f"{r['config']:<24} {human(r['bytes']):>8} {r['algorithm']:<19} {r['p50_us']:10.2f} "
              f"{r['busbw_gbps']:10.3f} {vs} {p2p}")
    print("# targets")
    for c in checks:
        print(f"  {c['config']:<24} {c['target']:<40} {c['best']:<19} {c['ratio']:6.2f} "
              f"(goal {'<=' if 'latency' in c['target'] else '>='} {c['goal']}) {'met' if c['met'] else 'MISSED'}")
    os.makedirs(os.path.dirname(out_path) or ".", exist_ok=True)
    tmp = out_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"schema_version": 1, "command": "bench", "repeats": repeats, "sizes_bytes": SIZES,
                   "memory_bandwidth": mem, "results": rows, "targets": checks, "complete": True}, f, indent=1)
    os.replace(tmp, out_path)
    print(f"# written: {out_path}")


if __name__ == "__main__":
    main()
