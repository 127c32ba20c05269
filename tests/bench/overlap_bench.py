#!/usr/bin/env python3
"""The overlap part of `make bench` (issue 32): how much of a non-blocking all-reduce hides
behind compute, MPI_Iallreduce against collscope's own schedules, each progress method.

Runs `collscope overlap -a all` at 2 ranks REPEATS times and keeps, per (algorithm, size,
compute, progress), the median over the runs of OSU's and IMB's overlap %. bench.py calls
measure() and report(); alone: overlap_bench.py BINARY [--repeats N]."""
import json
import os
import statistics
import subprocess
import sys
import tempfile

SIZES = "1M,16M"
RANKS = 2


def run_once(binary, env):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        cmd = [os.environ.get("MPIRUN", "mpirun"), "-np", str(RANKS), binary, "overlap", "-a", "all",
               "--sizes", SIZES, "-n", "20", "-q", "-o", path, "--force"]
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
        with open(path) as f:
            return json.load(f)
    finally:
        os.unlink(path)


def measure(binary, repeats, env):
    """{"ranks", "sizes", "rows": [{algorithm, bytes, compute, progress, osu_pct, imb_pct, runs}]}"""
    got = {}
    for _ in range(repeats):
        for r in run_once(binary, env)["results"]:
            if r.get("skipped") or r.get("overlap_osu_percent") is None:
                continue
            key = (r["algorithm"], r["bytes"], r["compute"], r["progress"])
            got.setdefault(key, []).append((r["overlap_osu_percent"], r["overlap_imb_percent"]))
    rows = [{"algorithm": k[0], "bytes": k[1], "compute": k[2], "progress": k[3],
             "osu_pct": statistics.median(x[0] for x in v),
             "imb_pct": statistics.median(x[1] for x in v if x[1] is not None), "runs": len(v)}
            for k, v in got.items()]
    return {"ranks": RANKS, "sizes": SIZES, "repeats": repeats, "rows": rows}


def best_own(rows, bytes_, compute, progress):
    own = [r for r in rows if r["algorithm"] != "mpi" and r["bytes"] == bytes_
           and r["compute"] == compute and r["progress"] == progress]
    return max(own, key=lambda r: r["osu_pct"]) if own else None


def headline(doc):
    """Per size, compute and progress: mpi against the best own variant (OSU %, IMB %)."""
    rows, out = doc["rows"], []
    for b in sorted({r["bytes"] for r in rows}):
        for c in ("gemm", "stream"):
            for p in ("test", "thread", "none"):
                mpi = next((r for r in rows if r["algorithm"] == "mpi" and r["bytes"] == b
                            and r["compute"] == c and r["progress"] == p), None)
                own = best_own(rows, b, c, p)
                if mpi or own:
                    out.append((b, c, p, mpi, own))
    return out


def report(doc, human):
    print(f"# overlap at {doc['ranks']} ranks, medians of {doc['repeats']} runs (collscope overlap -a all): "
          "OSU % / IMB % of the call hidden behind compute")
    print(f"{'size':>8} {'compute':<7} {'progress':<8} {'mpi (MPI_Iallreduce)':>22} {'best own variant':>30}")
    for b, c, p, mpi, own in headline(doc):
        m = f"{mpi['osu_pct']:5.1f} / {mpi['imb_pct']:5.1f}" if mpi else "-"
        o = f"{own['algorithm']} {own['osu_pct']:5.1f} / {own['imb_pct']:5.1f}" if own else "-"
        print(f"{human(b):>8} {c:<7} {p:<8} {m:>22} {o:>30}")


def markdown(doc, human):
    if not doc or "rows" not in doc:
        return []
    lines = ["## Overlap", "",
             f"`collscope overlap -a all` at {doc['ranks']} ranks, medians of {doc['repeats']} runs: the share "
             "of a non-blocking all-reduce hidden behind compute, OSU % / IMB % (definitions: `collscope help "
             "overlap`). `progress test`: test calls inside the compute; `thread`: a progress thread; `none`: no call "
             "between start and wait.", "",
             "| size | compute | progress | mpi (MPI_Iallreduce) | best own variant |", "|---|---|---|---|---|"]
    for b, c, p, mpi, own in headline(doc):
        m = f"{mpi['osu_pct']:.1f} / {mpi['imb_pct']:.1f}" if mpi else "-"
        o = f"{own['algorithm']} {own['osu_pct']:.1f} / {own['imb_pct']:.1f}" if own else "-"
        lines.append(f"| {human(b)} | {c} | {p} | {m} | {o} |")
    return lines + [""]


if __name__ == "__main__":
    reps = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 3
    e = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    report(measure(os.path.abspath(sys.argv[1]), reps, e),
           lambda n: f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1024 else f"{n} B")
