#!/usr/bin/env python3
"""Synthetic collscope reports for the compare and report suites (tests/cli).

usage: fake_reports.py KIND OUT [options]
  KIND allreduce: 3 variants x 3 sizes, samples drawn from a seeded generator
       --ranks N --hosts N --dtype T --op OP --n SAMPLES --spread S --seed K
       --victim ALGO:BYTES:FACTOR (scale that point's times) --host NAME --arg TEXT
       --yardstick B0,B1,... (summary.yardstick with these burst medians; record i
       gets yardstick_burst i, the last burst for the records past them)
  KIND links: every ordered pair of --ranks ranks on --hosts hosts, one slow link
       (--slow A:B) reported as a suspect, and a suspect host (--suspect-host NAME);
       --host-suspects N adds N host suspects, the hosts in turn
  KIND scale: measured and predicted rows of two variants at two sizes
  KIND mystery: a report of a kind collscope report does not know
  KIND scaled: a copy of the real report --from FILE with every time (samples_us,
       time_us, rank_mean_us) multiplied by --factor F and the bandwidths divided,
       each sample also by 1 + --jitter J x uniform(-1, 1) (seeded by --seed)
  KIND halves: the real report --from FILE with each point's samples shuffled (seeded
       by --seed) and only the first or second half kept (--half 0|1): two halves of one
       seed are a run and a re-run made in the same moments
  KIND yardstick: the real report --from FILE with its yardstick's burst --burst K
       multiplied by --factor F (the machine disturbed around the points next to it), or
       with no yardstick at all (--factor 0: a report from before the yardstick)
  Any KIND: --started TIME sets context.started_utc.
The numbers follow the report schema (reports/README.md, reports/SCHEMA.md); only their shape matters.
"""
import argparse
import json
import random


def percentile(xs, q):
    s = sorted(xs)
    h = (len(s) - 1) * q
    lo = int(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def envelope(kind, ranks, hosts, args):
    names = [args.host or "node%d" % h for h in range(hosts)]
    if args.host and hosts > 1:
        names = [args.host] + ["node%d" % h for h in range(1, hosts)]
    per = [[r for r in range(ranks) if r % hosts == h] for h in range(hosts)]
    argv = ["collscope", kind] + ([args.arg] if args.arg else [])
    return {
        "schema_version": 1,
        "command": kind,
        "context": {
            "tool": {"name": "collscope", "version": "0.1.0", "git": "test"},
            "argv": argv,
            "started_utc": "2026-01-01T00:00:00Z",
            "finished_utc": "2026-01-01T00:01:00Z",
            "mpi": {"library": "Open MPI v4.1.4 (test)", "ranks": ranks},
            "hosts": [{"name": names[h], "ranks": per[h], "cores": 8, "pus": 8,
                       "numa_nodes": 1, "packages": 1, "oversubscribed": False}
                      for h in range(hosts)],
            "oversubscribed": False,
            "timer_resolution_us": 0.001,
        },
        "config": {"dtype": args.dtype, "op": args.op},
        "results": [],
        "summary": {},
        "complete": True,
    }


def allreduce(args):
    rep = envelope("allreduce", args.ranks, args.hosts, args)
    victim = None
    if args.victim:
        algo, size, factor = args.victim.split(":")
        victim = (algo, int(size), float(factor))
    rng = random.Random(args.seed)
    for algo in ("ring", "tree", "mpi"):
        for size in (1024, 65536, 1048576):
            center = 10.0 + size / 1000.0
            if victim and victim[0] == algo and victim[1] == size:
                center *= victim[2]
            xs = [center * (1 + args.spread * (2 * rng.random() - 1)) for _ in range(args.n)]
            p50 = percentile(xs, 0.5)
            busbw = size / (p50 * 1e-6) / 1e9 * 2 * (args.ranks - 1) / args.ranks
            rep["results"].append({
                "algorithm": algo, "bytes": size, "count": size // 4, "dtype": args.dtype,
                "op": args.op, "ranks": args.ranks, "in_place": False, "iterations": args.n,
                "wrong": 0,
                "time_us": {"min": min(xs), "p50": p50,
                            "p99": percentile(xs, 0.99) if args.n >= 100 else None,
                            "max": max(xs)},
                "algbw_gbps": busbw * args.ranks / (2 * (args.ranks - 1)), "busbw_gbps": busbw,
                "samples_us": xs,
            })
    rep["results"].append({"algorithm": "naive", "bytes": 1048576, "count": 262144,
                           "dtype": args.dtype, "op": args.op, "ranks": args.ranks,
                           "skipped": "needs more memory than --max-memory (test)"})
    rep["summary"] = {"variants": [{"algorithm": a, "peak_busbw_gbps": 1.5, "points": 3,
                                    "skipped": 0, "wrong": 0} for a in ("ring", "tree", "mpi")],
                      "verdict": "ok"}
    if args.yardstick:
        bursts = [float(x) for x in args.yardstick.split(",")]
        rep["summary"]["yardstick"] = {"algorithm": "mpi", "bytes": 1024, "iterations": 32,
                                       "samples": len(bursts), "samples_us": bursts}
        for i, rec in enumerate(rep["results"]):
            rec["yardstick_burst"] = min(i, len(bursts) - 1)
    return rep


def links(args):
    rep = envelope("links", args.ranks, args.hosts, args)
    host = [h["name"] for h in rep["context"]["hosts"]]
    host_of = {r: host[r % args.hosts] for r in range(args.ranks)}
    slow = tuple(int(x) for x in args.slow.split(":")) if args.slow else None
    for a in range(args.ranks):
        for b in range(args.ranks):
            if a == b:
                continue
            same = host_of[a] == host_of[b]
            bw = (20.0 if same else 10.0) * (0.1 if (a, b) == slow else 1.0) + (a + b) * 0.05
            lat = (1.0 if same else 5.0) + a * 0.01
            rep["results"].append({
                "a": a, "b": b, "host_a": host_of[a], "host_b": host_of[b],
                "locality": "same_host" if same else "inter_host",
                "latency_us": {"p50": lat, "p99": lat * 2, "iterations": 1000},
                "bandwidth_gbps": {"p50": bw, "min": bw / 2, "iterations": 10},
                "remeasured": False,
            })
    suspects = []
    if slow:
        suspects.append({"kind": "link", "who": "%d->%d" % slow, "metric": "bandwidth",
                         "locality": "inter_host", "unit": "GB/s", "measured": 1.0,
                         "expected": 10.0, "ratio": 0.1, "score": 9.5,
                         "reason": "bandwidth 10x below the median of its class",
                         "a": slow[0], "b": slow[1],
                         "host_a": host_of[slow[0]], "host_b": host_of[slow[1]]})
    if args.suspect_host:
        suspects.append({"kind": "host", "who": args.suspect_host, "metric": "latency",
                         "locality": "inter_host", "unit": "us", "measured": 9.0,
                         "expected": 5.0, "ratio": 1.8, "score": 6.1,
                         "reason": "every link of this host is slow"})
    for i in range(args.host_suspects):
        suspects.append({"kind": "host", "who": host[i % len(host)], "metric": "bandwidth",
                         "locality": "inter_host", "unit": "GB/s", "measured": 1.0,
                         "expected": 10.0, "ratio": 0.1, "score": 9.5,
                         "reason": "host suspect %d" % i})
    rep["summary"] = {"ranks": args.ranks, "suspects_count": len(suspects),
                      "suspects": suspects, "cleared": [], "not_judged": [],
                      "classes": [{"metric": "bandwidth", "locality": "inter_host",
                                   "links": args.ranks, "median": 10.0, "judged": True}]}
    return rep


def scale(args):
    rep = envelope("scale", 16, 2, args)
    for size in (1 << 20, 1 << 26):
        for algo, alpha in (("ring", 0.02), ("tree", 0.05)):
            for n in (2, 4, 8, 16, 32, 64):
                eff = 1.0 / (1.0 + alpha * n ** 0.5 * (size / 2 ** 20) ** 0.1)
                p50 = 100.0 * (size / 2 ** 20) / eff
                busbw = size / (p50 * 1e-6) / 1e9 * 2 * (n - 1) / n
                rep["results"].append({
                    "algorithm": algo, "bytes": size, "count": size // 4, "dtype": "float32",
                    "op": "sum", "ranks": n, "in_place": False, "time_us": {"p50": p50},
                    "busbw_gbps": busbw, "predicted": n > 16, "hosts": 1 + n // 8,
                    "bandwidth_efficiency": eff ** 0.5, "latency_growth": 1 / eff,
                    "efficiency": eff, "speedup": n * eff, "strong_speedup": n * eff * 0.8,
                })
    rep["summary"] = {"sweet_spot_ranks": 16, "verdict": "ok"}
    return rep


def mystery(args):
    rep = envelope("mystery", 2, 1, args)
    rep["results"] = [{"anything": [1, 2, 3]}]
    rep["summary"] = {"verdict": "<b>unknown</b>", "nested": {"deep": [1, {"x": None}]}}
    return rep


def restat(rec, xs):
    """Sets rec's samples to xs, its time statistics from them, and its bandwidths by the p50's change."""
    stats = rec.get("time_us")
    old_p50 = stats.get("p50") if isinstance(stats, dict) else None
    rec["samples_us"] = xs
    if isinstance(stats, dict):
        for q, name in ((0.5, "p50"), (0.9, "p90"), (0.99, "p99"), (0.999, "p999")):
            if stats.get(name) is not None:
                stats[name] = percentile(xs, q) if len(xs) >= round(1 / (1 - q)) else None
        for name, fn in (("min", min), ("max", max)):
            if stats.get(name) is not None:
                stats[name] = fn(xs)
        if stats.get("mean") is not None:
            stats["mean"] = sum(xs) / len(xs)
    if old_p50 and stats.get("p50"):
        for bw in ("algbw_gbps", "busbw_gbps"):
            if rec.get(bw) is not None:
                rec[bw] *= old_p50 / stats["p50"]


def measured(rep):
    return [r for r in rep["results"] if r.get("samples_us") and not r.get("skipped")]


def scaled(args):
    with open(args.source) as f:
        rep = json.load(f)
    rng = random.Random(args.seed)
    for rec in measured(rep):
        xs = [x * args.factor * (1 + args.jitter * (2 * rng.random() - 1)) for x in rec["samples_us"]]
        if "rank_mean_us" in rec:
            rec["rank_mean_us"] = [x * args.factor for x in rec["rank_mean_us"]]
        if isinstance(rec.get("time_us"), dict) and rec["time_us"].get("stddev") is not None:
            rec["time_us"]["stddev"] *= args.factor
        restat(rec, xs)
    return rep


def halves(args):
    with open(args.source) as f:
        rep = json.load(f)
    rng = random.Random(args.seed)
    for rec in measured(rep):
        xs = list(rec["samples_us"])
        rng.shuffle(xs)
        half = xs[: len(xs) // 2] if args.half == 0 else xs[len(xs) // 2:]
        rec["iterations"] = len(half)
        restat(rec, half)
    return rep


def yardstick(args):
    with open(args.source) as f:
        rep = json.load(f)
    if args.factor == 0:
        rep["summary"].pop("yardstick", None)
        for rec in rep["results"]:
            rec.pop("yardstick_burst", None)
    else:
        rep["summary"]["yardstick"]["samples_us"][args.burst] *= args.factor
    return rep


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kind", choices=["allreduce", "links", "scale", "mystery", "scaled", "halves",
                                    "yardstick"])
    p.add_argument("out")
    p.add_argument("--ranks", type=int, default=4)
    p.add_argument("--hosts", type=int, default=1)
    p.add_argument("--dtype", default="float32")
    p.add_argument("--op", default="sum")
    p.add_argument("--n", type=int, default=50)
    p.add_argument("--spread", type=float, default=0.02)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--victim")
    p.add_argument("--host")
    p.add_argument("--arg")
    p.add_argument("--slow")
    p.add_argument("--suspect-host")
    p.add_argument("--host-suspects", type=int, default=0)
    p.add_argument("--started")
    p.add_argument("--from", dest="source")
    p.add_argument("--factor", type=float, default=1.0)
    p.add_argument("--jitter", type=float, default=0.0)
    p.add_argument("--half", type=int, choices=[0, 1], default=0)
    p.add_argument("--yardstick")
    p.add_argument("--burst", type=int, default=0)
    args = p.parse_args()
    rep = globals()[args.kind](args)
    if args.started:
        rep["context"]["started_utc"] = args.started
    with open(args.out, "w") as f:
        json.dump(rep, f, indent=1)


if __name__ == "__main__":
    main()
