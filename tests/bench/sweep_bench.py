#!/usr/bin/env python3
"""The default sweep's part of `make bench` (issue 36, item 4): the sweep `make run` runs
(`mpirun -np 2 collscope allreduce`, every default), against the same sweep with --ci-width 0,
where every point spends its whole --time-per-size budget, as every point did before adaptive
stopping. The two alternate, REPEATS times each, in one run; the figures are their wall times
(mpirun's start-up included, as a user waits for it), the ratio taken within each repeat, and
from the adaptive sweep's reports each point's p50 interval (p50_ci_low_us, p50_ci_high_us) as a
half-width in percent of the p50 and why it stopped (`stop`).

With BENCH_SWEEP_BASELINE=OLD_BINARY (an earlier build: issue 36 measured f31cd93's) its default
sweep alternates with the two as well, and the goal (at most half its time) is judged against it;
without one the figures stand alone, with no goal.

bench.py calls measure() and report(); alone: sweep_bench.py BINARY [--repeats N]."""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

RANKS = 2
WIDTH_PCT = 2.0  # allreduce's --ci-width default, the width the adaptive points aim at


def git_of(binary):
    """The build's commit as --version prints it, or the path."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout
        return out.split()[-1].strip("()") if out else binary
    except (OSError, subprocess.SubprocessError):
        return binary


def run_once(binary, env, extra):
    """(wall seconds, report) of one default sweep with extra options."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        cmd = [os.environ.get("MPIRUN", "mpirun"), "-np", str(RANKS), binary, "allreduce", "-q",
               "-o", path, "--force"] + extra
        t0 = time.monotonic()
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
        wall = time.monotonic() - t0
        with open(path) as f:
            return wall, json.load(f)
    finally:
        os.unlink(path)


def half_width_pct(r):
    """The p50 interval's larger half, in percent of the p50; None when not known."""
    p50 = (r.get("time_us") or {}).get("p50")
    lo, hi = r.get("p50_ci_low_us"), r.get("p50_ci_high_us")
    if not p50 or lo is None or hi is None:
        return None
    return 100 * max(p50 - lo, hi - p50) / p50


def points(report):
    """Every measured point's half-width and stop reason."""
    out = []
    for r in report["results"]:
        if r.get("skipped"):
            continue
        out.append({"algorithm": r["algorithm"], "bytes": r["bytes"], "half_width_pct": half_width_pct(r),
                    "stop": r.get("stop")})
    return out


def measure(binary, repeats, env):
    """{"ranks", "width_pct", "baseline", "runs": [{adaptive_s, budget_s, ratio, baseline_s,
    vs_baseline, points, within, stops, widest_pct}]}"""
    runs = []
    baseline = os.environ.get("BENCH_SWEEP_BASELINE")
    for _ in range(repeats):
        baseline_s = run_once(os.path.abspath(baseline), env, [])[0] if baseline else None
        adaptive_s, rep = run_once(binary, env, [])
        budget_s, _ = run_once(binary, env, ["--ci-width", "0"])
        pts = points(rep)
        widths = [p["half_width_pct"] for p in pts if p["half_width_pct"] is not None]
        stops = {}
        for p in pts:
            stops[p["stop"]] = stops.get(p["stop"], 0) + 1
        runs.append({"adaptive_s": adaptive_s, "budget_s": budget_s, "ratio": adaptive_s / budget_s,
                     "baseline_s": baseline_s, "vs_baseline": adaptive_s / baseline_s if baseline else None,
                     "points": len(pts), "within": sum(w <= WIDTH_PCT for w in widths),
                     "widest_pct": max(widths) if widths else None, "stops": stops,
                     "wide": sorted(((p["algorithm"], p["bytes"], p["half_width_pct"], p["stop"]) for p in pts
                                     if p["half_width_pct"] is not None and p["half_width_pct"] > WIDTH_PCT),
                                    key=lambda x: -x[2])[:5]})
    med = lambda k: statistics.median(r[k] for r in runs)
    return {"ranks": RANKS, "width_pct": WIDTH_PCT, "repeats": repeats, "runs": runs,
            "adaptive_s": med("adaptive_s"), "budget_s": med("budget_s"), "ratio": med("ratio"),
            "baseline": git_of(baseline) if baseline else None,
            "baseline_s": med("baseline_s") if baseline else None,
            "vs_baseline": med("vs_baseline") if baseline else None}


def report(doc, human=str):
    print(f"# default sweep (make run: {doc['ranks']} ranks, allreduce with its defaults) against the same "
          f"with --ci-width 0 (every point to its budget or ceiling), alternating, {doc['repeats']} runs each")
    for i, r in enumerate(doc["runs"]):
        stops = ", ".join(f"{k} {v}" for k, v in sorted(r["stops"].items()))
        old = (f"; {doc['baseline']}'s default sweep {r['baseline_s']:.1f} s ({r['vs_baseline']:.2f})"
               if r.get("baseline_s") else "")
        print(f"  run {i + 1}: {r['adaptive_s']:.1f} s against {r['budget_s']:.1f} s ({r['ratio']:.2f}){old}; "
              f"{r['within']} of {r['points']} points within +-{doc['width_pct']:g}% (widest "
              f"{r['widest_pct']:.1f}%); stopped: {stops}")
        for a, b, w, s in r["wide"]:
            print(f"        wider: {a} {human(b)} +-{w:.1f}% ({s})")
    print(f"# median: {doc['adaptive_s']:.1f} s against {doc['budget_s']:.1f} s, ratio {doc['ratio']:.2f}" +
          (f"; against {doc['baseline']}'s {doc['baseline_s']:.1f} s, {doc['vs_baseline']:.2f} (goal <= 0.5)"
           if doc.get("baseline") else " (BENCH_SWEEP_BASELINE=OLD_BINARY judges the goal)"))


def target(doc):
    """The goal as bench.py's targets list it: the default sweep's time over the baseline build's
    (no goal without one: against --ci-width 0 the start-up and the points' fixed costs weigh)."""
    if not doc.get("baseline"):
        return {"config": f"{doc['ranks']} ranks", "target": "default sweep time vs --ci-width 0",
                "best": "allreduce", "ratio": doc["ratio"], "goal": None, "met": True,
                "why": "without a baseline build, start-up and fixed costs weigh"}
    return {"config": f"{doc['ranks']} ranks", "target": f"default sweep time vs {doc['baseline']}'s",
            "best": "allreduce", "ratio": doc["vs_baseline"], "goal": 0.5, "met": doc["vs_baseline"] <= 0.5}


def markdown(doc, human=str):
    if not doc:
        return []
    lines = ["## The default sweep", "",
             f"`make run`'s sweep ({doc['ranks']} ranks, `allreduce` with its defaults: adaptive points that stop "
             f"once their p50's 95% interval is within +-{doc['width_pct']:g}%) against the same sweep with "
             "`--ci-width 0` (every point runs to its `--time-per-size` or its 1,000-sample ceiling, as before adaptive stopping), "
             f"alternating, {doc['repeats']} runs each; wall times include mpirun's start-up.", "",
             "| run | default | `--ci-width 0` | ratio | " + (f"{doc['baseline']} | ratio | " if doc.get("baseline") else "")
             + "points within the width | widest | stopped |",
             "|---|---|---|---|" + ("---|---|" if doc.get("baseline") else "") + "---|---|---|"]
    for i, r in enumerate(doc["runs"]):
        stops = ", ".join(f"{k} {v}" for k, v in sorted(r["stops"].items()))
        widest = f"+-{r['widest_pct']:.1f}%" if r["widest_pct"] is not None else "-"
        old = f"{r['baseline_s']:.1f} s | {r['vs_baseline']:.2f} | " if r.get("baseline_s") else ""
        lines.append(f"| {i + 1} | {r['adaptive_s']:.1f} s | {r['budget_s']:.1f} s | {r['ratio']:.2f} | {old}"
                     f"{r['within']} of {r['points']} | {widest} | {stops} |")
    t = target(doc)
    goal = (f"against {doc['baseline']}'s default sweep {doc['vs_baseline']:.2f} (goal at most 0.5: "
            f"{'met' if t['met'] else 'MISSED'})" if doc.get("baseline") else
            "no goal without a baseline build (BENCH_SWEEP_BASELINE)")
    lines += ["", f"Median ratio to `--ci-width 0` {doc['ratio']:.2f}; {goal}. "
              "A point stopped by `time` or `samples` spent its budget or its ceiling before its interval "
              "narrowed: its width is what the budget bought.", ""]
    return lines


if __name__ == "__main__":
    n = int(sys.argv[sys.argv.index("--repeats") + 1]) if "--repeats" in sys.argv else 3
    e = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    report(measure(os.path.abspath(sys.argv[1]), n, e))
