#!/usr/bin/env python3
"""The compressed variants' part of `make bench` (issue 40).

Kernels: tests/bench/codec_rate (built beside membw) runs every cast, quantise and top-k kernel
on every core at once, each core over 64 MiB of its own in the executor's 256 KiB segments, and
memcpy on every core at once in the same run. Per repeat the ratio kernel / memcpy; medians over
the repeats. Goal: at least half the copy's rate, so that a slow kernel cannot pass for a slow link.

Where it pays, on one host: `collscope allreduce -a ring,direct,bf16,fp16,int8,topk` at 2 ranks
from 4 KiB to 64 MiB, every variant interleaved within a run; per size the p50 of each compressed
variant against the exact ring's, within a run, then the median. The crossover is the smallest
size from which the compressed variant stays faster than the ring (none: it never does). Shared
memory moves bytes about as fast as the kernels touch them, so compression rarely pays there: the
same measurement on a slow link is the recipe in the README.

bench.py calls measure(), report() and markdown(); alone:
  python3 tests/bench/codec_bench.py build/collscope build/bench/codec_rate [--repeats N]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

KERNELS = ["bf16 encode", "bf16 decode-add", "fp16 encode", "fp16 decode-add", "int8 encode",
           "int8 encode stochastic", "int8 decode-add", "topk 0.01 encode", "topk 0.01 decode-add"]
GOAL = 0.5
COMPRESSED = ["bf16", "fp16", "int8", "topk"]
SIZES = [4 << 10, 64 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20]


def kernel_rates(tool, repeats):
    runs = [json.loads(subprocess.run([tool, str(64 << 20)], check=True, capture_output=True,
                                      text=True).stdout) for _ in range(repeats)]
    rows = []
    for k in KERNELS:
        ratios = [r["gbps"][k] / r["gbps"]["memcpy"] for r in runs]
        rows.append({"kernel": k, "gbps": statistics.median(r["gbps"][k] for r in runs),
                     "memcpy_gbps": statistics.median(r["gbps"]["memcpy"] for r in runs),
                     "vs_memcpy": statistics.median(ratios), "met": statistics.median(ratios) >= GOAL})
    return {"threads": runs[0]["threads"], "repeats": repeats, "rows": rows}


def crossover_run(binary, env):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.json")
        cmd = ["mpirun", "-np", "2", binary, "allreduce", "-a", "ring," + ",".join(COMPRESSED),
               "--sizes", ",".join(str(s) for s in SIZES), "--time-per-size", "0.3", "-q", "-o", out]
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return {(r["algorithm"], r["bytes"]): r for r in json.load(f)["results"] if not r.get("skipped")}


def crossover(binary, repeats, env):
    runs = [crossover_run(binary, env) for _ in range(repeats)]
    rows = []
    for a in COMPRESSED:
        per_size = []
        for s in SIZES:
            ratios = [run[("ring", s)]["time_us"]["p50"] / run[(a, s)]["time_us"]["p50"] for run in runs]
            last = runs[-1][(a, s)]
            per_size.append({"bytes": s, "speedup_vs_ring": statistics.median(ratios),
                             "compression_ratio": last["compression_ratio"],
                             "rel_l2_error": last["rel_l2_error"]})
        cross = None
        for i in range(len(SIZES)):
            if all(p["speedup_vs_ring"] > 1 for p in per_size[i:]):
                cross = SIZES[i]
                break
        rows.append({"algorithm": a, "crossover_bytes": cross, "sizes": per_size})
    return {"ranks": 2, "repeats": repeats, "rows": rows}


def measure(binary, tool, repeats, env):
    return {"kernels": kernel_rates(tool, repeats), "one_host": crossover(binary, repeats, env)}


def report(doc, human):
    k = doc["kernels"]
    print(f"# codec kernels on all {k['threads']} cores, 64 MiB each, medians of {k['repeats']} runs; "
          f"rate = float32 bytes per second; vs memcpy = against memcpy on every core in the same run "
          f"(goal >= {GOAL})")
    for r in k["rows"]:
        print(f"  {r['kernel']:<24} {r['gbps']:8.2f} GB/s  memcpy {r['memcpy_gbps']:7.2f} GB/s  "
              f"{r['vs_memcpy']:5.2f} {'met' if r['met'] else 'MISSED'}")
    h = doc["one_host"]
    print(f"# compressed against the exact ring at {h['ranks']} ranks on one host, medians of {h['repeats']} "
          "runs: ring p50 / variant p50 (above 1: the variant is faster), compression ratio, relative L2 error")
    for r in h["rows"]:
        cells = "  ".join(f"{human(p['bytes'])} {p['speedup_vs_ring']:.2f}x" for p in r["sizes"])
        cross = human(r["crossover_bytes"]) if r["crossover_bytes"] else "none"
        last = r["sizes"][-1]
        print(f"  {r['algorithm']:<5} crossover {cross:>8}; {cells}; ratio {last['compression_ratio']:.2f}, "
              f"rel L2 {last['rel_l2_error']:.2g}")


def markdown(doc, human):
    if not doc or "kernels" not in doc:
        return []
    k, h = doc["kernels"], doc["one_host"]
    lines = ["## Compressed variants", "",
             f"Kernels on all {k['threads']} cores at once, 64 MiB each, against memcpy on every core in the same "
             f"run (goal: at least {GOAL}); medians of {k['repeats']} runs.", "",
             "| kernel | GB/s | memcpy GB/s | vs memcpy |", "|---|---|---|---|"]
    for r in k["rows"]:
        lines.append(f"| {r['kernel']} | {r['gbps']:.2f} | {r['memcpy_gbps']:.2f} | {r['vs_memcpy']:.2f} "
                     f"{'met' if r['met'] else 'MISSED'} |")
    lines += ["", f"Against the exact ring at {h['ranks']} ranks on one host: ring p50 / variant p50, "
              "and the crossover, the smallest size from which the variant stays faster.", "",
              "| variant | crossover | " + " | ".join(human(s) for s in SIZES) + " | rel L2 error |",
              "|---|---|" + "---|" * len(SIZES) + "---|"]
    for r in h["rows"]:
        cross = human(r["crossover_bytes"]) if r["crossover_bytes"] else "none"
        lines.append(f"| {r['algorithm']} | {cross} | " + " | ".join(f"{p['speedup_vs_ring']:.2f}x" for p in r["sizes"])
                     + f" | {r['sizes'][-1]['rel_l2_error']:.2g} |")
    return lines + [""]


if __name__ == "__main__":
    reps = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 3
    e = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    d = measure(os.path.abspath(sys.argv[1]), sys.argv[2], reps, e)
    report(d, lambda n: f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1024 else f"{n} B")
    print("\n".join(markdown(d, lambda n: f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB")))
