#!/usr/bin/env python3
"""How often compare cries wolf under load, and whether it still catches a slowdown (issue 29).

Run by hand (not in make check: a few minutes of a loaded machine):

    python3 tests/bench/compare_noise.py [--pairs N] [--load K] [--bin build/collscope]

Runs N no-change pairs of quick sweeps and N pairs whose second run is made slower by the fault
switch (COLLSCOPE_FAULT=slow:rank=all,pct=25: every timed call of every rank spins a further 25%
of its own time, a regression of the build; one rank's spin can hide in the other's waits), each
run `allreduce -a ring,mpi -b 8 -e 256K -f 4 --time-per-size 0.05` on 2 ranks, while K busy
loops load the CPUs (each busy for 50-500 ms, idle for 0-300 ms, at random, until the pair is
done: load that comes and goes, as other jobs do). The two kinds of pair alternate, so both see
the same machine. Each pair is judged by `collscope compare` with its defaults.

Prints one line per pair and then the counts: false alarms (no-change pairs that exit 1),
detections (slowed pairs that exit 1), and the pairs that were untestable only. --keep DIR keeps
the reports; --rejudge DIR judges the kept reports again (after a change to compare) without
measuring anything.

--paired K: each trial is K pairs of runs made one after the other (baseline, current,
baseline, current, ...), under the same load, judged by `compare --paired`: the way to gate a
build on a busy machine (reports/compare/README.md). Trials of both kinds alternate; --slowed M
makes M slowed ones (default: as many as --pairs), so a false-alarm rate can be bounded on many
no-change trials without as many slowed ones. The false-alarm line gives the rate's one-sided
95% upper bound (Clopper-Pearson): 0 false alarms in 60 trials bound it at 4.9%.
"""
import argparse
import glob
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

SWEEP = ["allreduce", "-q", "-a", "ring,mpi", "-b", "8", "-e", "256K", "-f", "4",
         "--time-per-size", "0.05"]
SLOW = "slow:rank=all,pct=25"


def busy_loop(deadline, seed):
    """A child process: busy 50-500 ms, idle 0-300 ms, until the deadline (bounded in time)."""
    pid = os.fork()
    if pid:
        return pid
    rng = random.Random(seed)
    try:
        while time.time() < deadline:
            until = min(deadline, time.time() + rng.uniform(0.05, 0.5))
            while time.time() < until:
                pass
            time.sleep(rng.uniform(0.0, 0.3))
    finally:
        os._exit(0)


class Load:
    """K busy loops for at most max_s seconds; stopped (by their pids) on exit."""

    def __init__(self, k, max_s, seed):
        self.k, self.max_s, self.seed, self.pids = k, max_s, seed, []

    def __enter__(self):
        deadline = time.time() + self.max_s
        self.pids = [busy_loop(deadline, self.seed * 100 + i) for i in range(self.k)]
        return self

    def __exit__(self, *exc):
        for pid in self.pids:
            try:
                os.kill(pid, 15)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)


def mpirun(args, env_extra):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.setdefault("OMPI_MCA_pml", "ob1")
    env.update(env_extra)
    cmd = ["mpirun", "--oversubscribe", "--mca", "mpi_yield_when_idle", "1", "-n", "2"] + args
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("compare_noise: %s exited %d:\n%s" % (" ".join(cmd), r.returncode, r.stdout))


def judge(binary, base, cur, out):
    """compare's exit code and its summary counts (base, cur: lists of runs with --paired)."""
    files = [f for pair in zip(base, cur) for f in pair] if isinstance(base, list) else [base, cur]
    paired = ["--paired"] if isinstance(base, list) else []
    r = subprocess.run([binary, "compare", "-q", "-o", out, "--force"] + paired + files,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode > 1:
        sys.exit("compare_noise: compare %s exited %d:\n%s" % (" ".join(files), r.returncode, r.stdout))
    with open(out) as f:
        counts = json.load(f)["summary"]["counts"]
    return r.returncode, counts


def yardstick_spread(path):
    """100 x (p75 / p25 - 1) of the report's yardstick bursts, as compare computes it."""
    with open(path) as f:
        y = json.load(f).get("summary", {}).get("yardstick")
    xs = sorted(y["samples_us"]) if y else []
    if len(xs) < 4:
        return None

    def q(p):
        h = (len(xs) - 1) * p
        lo = int(h)
        return xs[lo] + (h - lo) * (xs[min(lo + 1, len(xs) - 1)] - xs[lo])
    return (q(0.75) / q(0.25) - 1) * 100


def line(kind, k, rc, counts, base, cur):
    ys = [yardstick_spread(p) for p in ((base[0], cur[0]) if isinstance(base, list) else (base, cur))]
    ys_text = "/".join("-" if s is None else "%.1f%%" % s for s in ys)
    print("%-9s pair %2d: exit %d  regression %2d  untestable %2d  unchanged %2d  "
          "not-significant %2d  yardstick spread %s" %
          (kind, k, rc, counts.get("regression", 0), counts.get("untestable", 0),
           counts.get("unchanged", 0), counts.get("not-significant", 0), ys_text), flush=True)


def kinds(args):
    """(k, kind) in turn: args.pairs no-change trials and args.slowed slowed ones, alternating."""
    for k in range(1, max(args.pairs, args.slowed) + 1):
        for kind, n in (("no-change", args.pairs), ("slowed", args.slowed)):
            if k <= n:
                yield k, kind


def upper_95(failed, n):
    """The one-sided 95% upper bound of a rate seen failed times in n (Clopper-Pearson)."""
    if n == 0:
        return 1.0
    lo, hi = failed / n, 1.0
    for _ in range(60):  # bisection on P(X <= failed | p) = 0.05
        mid = (lo + hi) / 2
        tail = sum(math.comb(n, i) * mid ** i * (1 - mid) ** (n - i) for i in range(failed + 1))
        lo, hi = (mid, hi) if tail > 0.05 else (lo, mid)
    return hi


def measure_paired(args, d):
    """Trials of args.paired pairs, each pair a baseline run and a current run, in turn."""
    for k, kind in kinds(args):
        base, cur = [], []
        with Load(args.load, 600, args.seed * 1000 + k * 2 + (kind == "slowed")):
            for i in range(args.paired):
                base.append(os.path.join(d, "%s-%02d-a%d.json" % (kind, k, i)))
                cur.append(os.path.join(d, "%s-%02d-b%d.json" % (kind, k, i)))
                mpirun([args.bin] + SWEEP + ["-o", base[-1], "--force"], {})
                mpirun([args.bin] + SWEEP + ["-o", cur[-1], "--force"],
                       {"COLLSCOPE_FAULT": SLOW} if kind == "slowed" else {})
        yield kind, k, base, cur


def measure(args, d):
    if args.paired:
        yield from measure_paired(args, d)
        return
    for k, kind in kinds(args):
        base = os.path.join(d, "%s-%02d-a.json" % (kind, k))
        cur = os.path.join(d, "%s-%02d-b.json" % (kind, k))
        with Load(args.load, 120, args.seed * 1000 + k * 2 + (kind == "slowed")):
            mpirun([args.bin] + SWEEP + ["-o", base, "--force"], {})
            mpirun([args.bin] + SWEEP + ["-o", cur, "--force"],
                   {"COLLSCOPE_FAULT": SLOW} if kind == "slowed" else {})
        yield kind, k, base, cur


def kept(d):
    for base in sorted(glob.glob(os.path.join(d, "*-a0.json"))):  # --paired trials
        stem = base[:-len("a0.json")]
        n = len(glob.glob(stem + "a*.json"))
        name = os.path.basename(base)
        yield name.rsplit("-", 2)[0], int(name.rsplit("-", 2)[1]), \
            ["%sa%d.json" % (stem, i) for i in range(n)], ["%sb%d.json" % (stem, i) for i in range(n)]
    for base in sorted(glob.glob(os.path.join(d, "*-a.json"))):
        name = os.path.basename(base)
        kind, k = name.rsplit("-", 2)[0], int(name.rsplit("-", 2)[1])
        yield kind, k, base, base[:-len("a.json")] + "b.json"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--pairs", type=int, default=20, help="no-change pairs or trials (20)")
    p.add_argument("--slowed", type=int, help="slowed pairs or trials (as many as --pairs)")
    p.add_argument("--load", type=int, default=3, help="busy loops (3)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bin", default="build/collscope")
    p.add_argument("--keep", help="keep the reports in this directory")
    p.add_argument("--rejudge", help="judge the reports kept in this directory again")
    p.add_argument("--paired", type=int, default=0, metavar="K",
                   help="each trial K pairs made in turn, judged by compare --paired (0: off)")
    args = p.parse_args()
    if args.slowed is None:
        args.slowed = args.pairs
    # a TERM stops the busy loops too (Load.__exit__), as an interrupt does
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("compare_noise: terminated"))
    args.bin = os.path.realpath(args.bin)
    d = args.rejudge or args.keep or tempfile.mkdtemp(prefix="compare-noise.")
    os.makedirs(d, exist_ok=True)
    started = time.time()
    load0 = os.getloadavg()[0]
    tally = {"no-change": [0, 0, 0], "slowed": [0, 0, 0]}  # pairs, exit 1, untestable only
    pairs = kept(d) if args.rejudge else measure(args, d)
    for kind, k, base, cur in pairs:
        rc, counts = judge(args.bin, base, cur, os.path.join(d, "compare-%s-%02d.json" % (kind, k)))
        line(kind, k, rc, counts, base, cur)
        t = tally[kind]
        t[0] += 1
        t[1] += rc == 1
        t[2] += rc == 0 and counts.get("untestable", 0) > 0
    nc, sl = tally["no-change"], tally["slowed"]
    if args.rejudge:
        print("# rejudged the reports kept in %s by %s" % (d, args.bin))
    else:
        print("# measured: %d busy loops, load average %.1f at the start and %.1f at the end, "
              "%.0f s" % (args.load, load0, os.getloadavg()[0], time.time() - started))
    if args.paired:
        print("# each trial: %d pairs made in turn, judged by compare --paired" % args.paired)
    print("# no-change pairs: %d of %d failed (false alarms, %.0f%%, at most %.1f%% at 95%% "
          "confidence); %d more passed with untestable points" %
          (nc[1], nc[0], 100.0 * nc[1] / max(nc[0], 1), 100 * upper_95(nc[1], nc[0]), nc[2]))
    print("# 25%% slower (%s): %d of %d caught (exit 1); %d passed with untestable points" %
          (SLOW, sl[1], sl[0], sl[2]))
    if not args.keep and not args.rejudge:
        for f in glob.glob(os.path.join(d, "*.json")):
            os.remove(f)
        os.rmdir(d)


if __name__ == "__main__":
    main()
