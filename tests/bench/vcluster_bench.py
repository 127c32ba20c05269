"""make bench's run across hosts: a virtual cluster (tests/cluster/vcluster.sh) of HOSTS
namespace hosts with PER_HOST ranks each, every host's link shaped with tbf to RATE both ways,
far below what the CPUs push through a veth unshaped (4-6 Gbit/s here, loaded), so the
network is the bottleneck. Every run measures the variants that can use a link fully (shm,
ring, rabenseifner) and the library's MPI_Allreduce, then, in a run of its own, the library
with Open MPI's hierarchical coll/han (--mca coll_han_priority 100); the two runs alternate
in order from repeat to repeat, and every ratio is taken within one repeat.

The bound: an all-reduce across H hosts must send 2(H-1)/H x S out of every host (and
receive as much), so at a link rate B it takes at least 2(H-1)/H x S / B, and its busbw over
n ranks, 2(n-1)/n x S / t, is at most B x (n-1)/n x H/(H-1): B itself with one rank per host,
1.5 B with 2 hosts of 2 ranks. The links probe's goodput over one shaped link (one message of
16 MiB each way at once) is printed beside it: TCP's headers take about 4% of B.
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile

HOSTS, PER_HOST = 2, 2
RATE = os.environ.get("BENCH_VC_RATE", "1gbit")
SIZES = [16 << 20, 32 << 20, 64 << 20]
VARIANTS = "shm,ring,rabenseifner,mpi"
HAN = "mpi (coll/han)"
ITERS = 3
GOAL = 0.85
HERE = os.path.dirname(os.path.abspath(__file__))
VC = os.path.join(HERE, "..", "cluster", "vcluster.sh")


def rate_gbps(rate):
    """tc's rate ("1gbit", "400mbit") in GB/s."""
    for unit, scale in (("gbit", 1e9), ("mbit", 1e6), ("kbit", 1e3)):
        if rate.endswith(unit):
            return float(rate[: -len(unit)]) * scale / 8 / 1e9
    raise ValueError(f"bad BENCH_VC_RATE '{rate}': a number and gbit, mbit or kbit")


def bound_gbps(rate, hosts, ranks):
    return rate_gbps(rate) * (ranks - 1) / ranks * hosts / (hosts - 1)


def vc(env, *args, timeout=1200, check=True, capture=False):
    return subprocess.run(["bash", VC] + list(args), env=env, timeout=timeout, check=check,
                          stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                          stderr=subprocess.PIPE if capture else None, text=True)


def run_allreduce(binary, env, extra, algos):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        vc(env, "mpirun", "--bind-to", "none", "-np", str(HOSTS * PER_HOST), *extra, binary,
           "allreduce", "-q", "-a", algos, "--sizes", ",".join(str(s) for s in SIZES),
           "-n", str(ITERS), "-w", "1", "-o", path, "--force")
        with open(path) as f:
            return json.load(f)["results"]
    finally:
        os.unlink(path)


def link_goodput(binary, env):
    """GB/s per direction over one shaped link, both directions at once (median of the two)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    try:
        vc(env, "mpirun", "--bind-to", "none", "--map-by", "node", "-np", str(HOSTS), binary,
           "links", "-q", "--bw-bytes", "16M", "--bw-iters", "3", "--window", "1", "-n", "20",
           "--mode", "concurrent", "-o", path, "--force")
        with open(path) as f:
            return statistics.median(x / 2 for x in json.load(f)["pairs"]["bidir_p50_gbps"])
    finally:
        os.unlink(path)


def one_repeat(binary, env, rep):
    got = {}
    runs = [("plain", [], VARIANTS), ("han", ["--mca", "coll_han_priority", "100"], "mpi")]
    for name, extra, algos in runs if rep % 2 == 0 else runs[::-1]:
        for r in run_allreduce(binary, env, extra, algos):
            if "skipped" not in r:
                label = HAN if name == "han" else r["algorithm"]
                got[(label, r["bytes"])] = {"busbw": r["busbw_gbps"], "p50_us": r["time_us"]["p50"]}
    return got


def measure(binary, repeats, env):
    """{"skipped": why} or {"rows": [...], "goodput_gbps": ..., ...}; the cluster is always torn down."""
    env = dict(env, VC_PREFIX=f"csbench{os.getpid()}", VC_NET="10.214.0")
    probe = vc(env, "probe", check=False, capture=True)
    if probe.returncode != 0:
        return {"skipped": (probe.stderr.strip() or "no namespaces here").replace("vcluster: ", "")}
    old_term = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        vc(env, "up", str(HOSTS), str(PER_HOST))
        for h in range(1, HOSTS + 1):
            vc(env, "slow", f"h{h}", RATE)
        reps, goodput = [], []
        for rep in range(repeats):
            print(f"  virtual cluster, {HOSTS} hosts x {PER_HOST} ranks at {RATE}: run {rep + 1} of {repeats}",
                  file=sys.stderr)
            reps.append(one_repeat(binary, env, rep))
            goodput.append(link_goodput(binary, env))
    finally:
        vc(env, "down", check=False)
        signal.signal(signal.SIGTERM, old_term)
    return analyse(reps, goodput)


def analyse(reps, goodput):
    ranks = HOSTS * PER_HOST
    bound = bound_gbps(RATE, HOSTS, ranks)
    rows = []
    for size in SIZES:
        for a in sorted({k[0] for r in reps for k in r if k[1] == size}):
            per = [r for r in reps if (a, size) in r]
            row = {"algorithm": a, "bytes": size, "repeats": len(per), "bound_gbps": bound,
                   "p50_us": statistics.median(r[(a, size)]["p50_us"] for r in per),
                   "busbw_gbps": statistics.median(r[(a, size)]["busbw"] for r in per),
                   "vs_bound": statistics.median(r[(a, size)]["busbw"] / bound for r in per)}
            for ref, key in (("mpi", "vs_mpi"), (HAN, "vs_han")):
                both = [r[(a, size)]["busbw"] / r[(ref, size)]["busbw"] for r in per if (ref, size) in r]
                row[key] = statistics.median(both) if both else None
            rows.append(row)
    checks = []
    for size in SIZES:
        mine = [r for r in rows if r["bytes"] == size and r["algorithm"] not in ("mpi", HAN)]
        if mine:
            best = max(mine, key=lambda r: r["busbw_gbps"])
            checks.append({"size": size, "best": best["algorithm"], "vs_bound": best["vs_bound"],
                           "vs_mpi": best["vs_mpi"], "vs_han": best["vs_han"], "goal": GOAL,
                           "met": best["vs_bound"] >= GOAL and (best["vs_mpi"] or 0) > 1
                           and (best["vs_han"] or 0) > 1})
    return {"hosts": HOSTS, "ranks_per_host": PER_HOST, "rate": RATE, "rate_gbps": rate_gbps(RATE),
            "bound_gbps": bound, "repeats": len(reps), "link_goodput_gbps": statistics.median(goodput),
            "rows": rows, "targets": checks}


def report(c, human):
    if "skipped" in c:
        print(f"# across hosts: SKIP ({c['skipped']})")
        return
    print(f"# across hosts: virtual cluster, {c['hosts']} hosts x {c['ranks_per_host']} ranks, every host's "
          f"link shaped to {c['rate']} ({c['rate_gbps']:.3f} GB/s) both ways; bound busbw = B x (n-1)/n x "
          f"H/(H-1) = {c['bound_gbps']:.3f} GB/s; TCP goodput over one link, both ways at once: "
          f"{c['link_goodput_gbps']:.3f} GB/s ({c['link_goodput_gbps'] / c['rate_gbps']:.2f} of B); "
          f"medians of {c['repeats']} runs, ratios within a run")
    print(f"{'size':>8} {'algorithm':<16} {'p50 us':>12} {'busbw GB/s':>10} {'bound':>6} {'vs bound':>8} "
          f"{'vs mpi':>7} {'vs han':>7}")
    fmt = lambda v: f"{v:7.2f}" if v is not None else f"{'-':>7}"
    for r in c["rows"]:
        print(f"{human(r['bytes']):>8} {r['algorithm']:<16} {r['p50_us']:12.0f} {r['busbw_gbps']:10.3f} "
              f"{r['bound_gbps']:6.3f} {r['vs_bound']:8.2f} {fmt(r['vs_mpi'])} {fmt(r['vs_han'])}")
    for t in c["targets"]:
        print(f"  across hosts {human(t['size']):>7}: best {t['best']:<14} {t['vs_bound']:.2f} of the bound, "
              f"{t['vs_mpi']:.2f}x mpi, {t['vs_han']:.2f}x coll/han (goal >= {t['goal']} and ahead of both) "
              f"{'met' if t['met'] else 'MISSED'}")
