#!/usr/bin/env python3
"""The halves part of `make bench` (issue 35): collscope's reduce-scatter and all-gather against
the library's (`mpi`: MPI_Reduce_scatter, MPI_Allgatherv), and the all-reduce against its halves.

For each of bench.py's configurations and each repeat, three `collscope allreduce` calls over
SIZES: `--collective reduce_scatter -a all`, `--collective allgather -a all` (every variant
interleaved within the call, as the main section measures the all-reduce) and the all-reduce of
SPLIT_VARIANTS; their order rotates from repeat to repeat. Which variants offer a half is read
from the reports (records without "skipped"), never listed here. Per (configuration, collective,
variant, size): medians over the repeats of p50 us, busbw GB/s (nccl-tests' factor (n-1)/n for a
half; sizes are the whole buffer) and of busbw / mpi's busbw, each ratio taken within a repeat.
The split: per variant of SPLIT_VARIANTS and size, the all-reduce's p50 / (reduce-scatter p50 +
all-gather p50), within a repeat, then its median: 1.00 when the all-reduce costs its halves
and nothing more; below 1 it costs less than its halves called one after the other (one call's
overhead, or a fused algorithm), above 1 more.

bench.py calls measure(), report() and markdown(); run(cfg, argv) runs `collscope argv` under
mpirun for configuration cfg and returns the report.
"""
import statistics
import sys

SIZES = [8, 4 << 10, 64 << 10, 1 << 20, 16 << 20]
HALVES = ["reduce_scatter", "allgather"]
# the all-reduce measured against its halves; the library's and the ring, whose all-reduce is
# its reduce-scatter then its all-gather
SPLIT_VARIANTS = ["ring", "mpi"]
TITLES = {"allreduce": "all-reduce", "reduce_scatter": "reduce-scatter", "allgather": "all-gather"}


def calls():
    """The three calls of a repeat: (collective, -a)."""
    return [(c, "all") for c in HALVES] + [("allreduce", ",".join(SPLIT_VARIANTS))]


def measure_once(run, cfg, rep, time_per_size_s):
    """One repeat: {(collective, algorithm, bytes): {"p50_us", "busbw"}}, the calls rotated by rep."""
    got, order = {}, calls()
    order = order[rep % len(order):] + order[:rep % len(order)]
    sizes = ",".join(str(s) for s in SIZES)
    for coll, algos in order:
        d = run(cfg, ["allreduce", "--collective", coll, "-a", algos, "--sizes", sizes,
                      "--time-per-size", time_per_size_s])
        for r in d["results"]:
            if "skipped" not in r:
                got[(r.get("collective", "allreduce"), r["algorithm"], r["bytes"])] = {
                    "p50_us": r["time_us"]["p50"], "busbw": r["busbw_gbps"]}
    return got


def median_of(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def half_rows(cfg, reps):
    """A row per (collective, variant, size) that some repeat measured, mpi's first."""
    rows = []
    keys = {k for r in reps for k in r if k[0] in HALVES}
    order = lambda k: (HALVES.index(k[0]), SIZES.index(k[2]), k[1] != "mpi", k[1])
    for coll, algo, size in sorted(keys, key=order):
        per = [(r[(coll, algo, size)], r.get((coll, "mpi", size))) for r in reps if (coll, algo, size) in r]
        rows.append({"config": cfg["name"], "ranks": cfg["ranks"], "collective": coll, "algorithm": algo,
                     "bytes": size, "repeats": len(per),
                     "p50_us": median_of(m["p50_us"] for m, _ in per),
                     "busbw_gbps": median_of(m["busbw"] for m, _ in per),
                     "vs_mpi_busbw": median_of(m["busbw"] / mpi["busbw"] if mpi and mpi["busbw"] else None
                                               for m, mpi in per)})
    return rows


def split_rows(cfg, reps):
    """Per SPLIT_VARIANTS variant and size: the all-reduce against its halves, within each repeat."""
    rows = []
    for size in SIZES:
        for algo in SPLIT_VARIANTS:
            keys = [(c, algo, size) for c in ["allreduce"] + HALVES]
            per = [[r[k]["p50_us"] for k in keys] for r in reps if all(k in r for k in keys)]
            if not per:
                continue
            rows.append({"config": cfg["name"], "ranks": cfg["ranks"], "algorithm": algo, "bytes": size,
                         "repeats": len(per),
                         "allreduce_p50_us": median_of(p[0] for p in per),
                         "reduce_scatter_p50_us": median_of(p[1] for p in per),
                         "allgather_p50_us": median_of(p[2] for p in per),
                         "halves_p50_us": median_of(p[1] + p[2] for p in per),
                         "ratio": median_of(p[0] / (p[1] + p[2]) for p in per)})
    return rows


def measure(run, configs, repeats, time_per_size_s):
    """{"sizes_bytes", "repeats", "variants": {config: {collective: [offered]}}, "rows", "split"}"""
    doc = {"sizes_bytes": SIZES, "repeats": repeats, "split_variants": SPLIT_VARIANTS,
           "variants": {}, "rows": [], "split": []}
    for cfg in configs:
        reps = []
        for rep in range(repeats):
            print(f"  halves, {cfg['name']}: run {rep + 1} of {repeats}", file=sys.stderr)
            reps.append(measure_once(run, cfg, rep, time_per_size_s))
        doc["variants"][cfg["name"]] = {c: sorted({k[1] for r in reps for k in r if k[0] == c}) for c in HALVES}
        doc["rows"] += half_rows(cfg, reps)
        doc["split"] += split_rows(cfg, reps)
    return doc


def fmt(v, spec, none="-"):
    return none if v is None else format(v, spec)


def report(doc, human):
    if not doc:
        return
    print(f"# halves: each variant that offers reduce_scatter / allgather (from the report) against mpi "
          f"(MPI_Reduce_scatter, MPI_Allgatherv); medians of {doc['repeats']} runs; busbw = algbw x (n-1)/n; "
          "vs mpi = busbw / mpi's busbw within a run")
    print(f"{'config':<24} {'collective':<15} {'size':>8} {'algorithm':<14} {'p50 us':>10} {'busbw GB/s':>10} "
          f"{'vs mpi':>7}")
    for r in doc["rows"]:
        print(f"{r['config']:<24} {r['collective']:<15} {human(r['bytes']):>8} {r['algorithm']:<14} "
              f"{r['p50_us']:10.2f} {r['busbw_gbps']:10.3f} {fmt(r['vs_mpi_busbw'], '7.2f', '      -')}")
    print("# the all-reduce against its halves: allreduce p50 / (reduce_scatter p50 + allgather p50), "
          "within a run; 1.00: the split costs nothing beyond its halves")
    print(f"{'config':<24} {'size':>8} {'algorithm':<10} {'allreduce us':>12} {'rs us':>10} {'ag us':>10} "
          f"{'rs+ag us':>10} {'ratio':>6}")
    for r in doc["split"]:
        print(f"{r['config']:<24} {human(r['bytes']):>8} {r['algorithm']:<10} {r['allreduce_p50_us']:12.2f} "
              f"{r['reduce_scatter_p50_us']:10.2f} {r['allgather_p50_us']:10.2f} {r['halves_p50_us']:10.2f} "
              f"{r['ratio']:6.2f}")


def sig3(v):
    """Three significant digits, trailing zeros kept: 5.20, 0.00421 (busbw spans six decades here)."""
    return format(v, "#.3g").rstrip(".")


def md_half_table(doc, config, coll, human):
    rows = [r for r in doc["rows"] if r["config"] == config and r["collective"] == coll]
    algos = sorted({r["algorithm"] for r in rows}, key=lambda a: (a != "mpi", a))
    if not rows:
        return []
    out = [f"| {config}, {TITLES[coll]} | " + " | ".join(f"`{a}`" for a in algos) + " |",
           "|---" * (len(algos) + 1) + "|"]
    for size in sorted({r["bytes"] for r in rows}):
        at = {r["algorithm"]: r for r in rows if r["bytes"] == size}
        cells = [f"{at[a]['p50_us']:.2f} us, {sig3(at[a]['busbw_gbps'])} GB/s"
                 + (f" ({at[a]['vs_mpi_busbw']:.2f}x)" if a != "mpi" and at[a]["vs_mpi_busbw"] is not None else "")
                 if a in at else "-" for a in algos]
        out.append(f"| {human(size)} | " + " | ".join(cells) + " |")
    return out + [""]


def markdown(doc, human):
    """The section, or nothing for a results file from before it."""
    if not doc or "rows" not in doc:
        return []
    lines = ["## The all-reduce's halves", "",
             "`collscope allreduce --collective reduce_scatter|allgather -a all`: every variant that offers the "
             "half (read from the report) against `mpi` (MPI_Reduce_scatter, MPI_Allgatherv), interleaved in one "
             f"call, medians of {doc['repeats']} runs. Each cell: p50, busbw (algbw x (n-1)/n; sizes are the whole "
             "buffer) and in brackets busbw / `mpi`'s, taken within a run.", ""]
    configs = list(dict.fromkeys(r["config"] for r in doc["rows"]))
    for config in configs:
        for coll in HALVES:
            lines += md_half_table(doc, config, coll, human)
    if doc.get("split"):
        lines += ["The all-reduce against its halves: its p50 and the halves' p50s (reduce-scatter + all-gather), "
                  "and all-reduce / (reduce-scatter + all-gather) within a run: 1.00 when the all-reduce costs its "
                  "halves and nothing more, below 1 less.", "",
                  "| config | size | variant | all-reduce | reduce-scatter + all-gather | ratio |",
                  "|---|---|---|---|---|---|"]
        for r in doc["split"]:
            lines.append(f"| {r['config']} | {human(r['bytes'])} | `{r['algorithm']}` | {r['allreduce_p50_us']:.2f} us | "
                         f"{r['reduce_scatter_p50_us']:.2f} + {r['allgather_p50_us']:.2f} us | {r['ratio']:.2f} |")
        lines.append("")
    return lines
