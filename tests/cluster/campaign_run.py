#!/usr/bin/env python3
"""The fault-injection campaign on the virtual cluster (issue 39): runs the draws of
campaign.py, each as a user would (links, allreduce --trace, compare --paired of
clean baseline runs and the draw's runs made in turn), and scores each verdict
against the truth.

usage: campaign_run.py [--seed S] [--draws N] [--smoke] [--budget-s T] [--command C] [--class K]
                       [--load L] [--magnitude PCT]... [--accept] [--bin B]
                       [--against B2 --against-output RESULT2.json] -o RESULT.json

--against: every draw is also judged by the build B2, in the same minute, under the same fault and
the same load, the two builds in turns (the first in even draws, B2 in odd ones), into
RESULT2.json: two builds compared side by side, not an hour apart.

--accept: the draws links judges are judged by `accept SPEC` instead, as a user accepting the
cluster would; SPEC is derived (accept --derive, its default tolerance) from ACCEPT_RUNS clean
topo, links and all-reduce runs of the cluster, made before the first draw and without load.

One cluster of campaign.HOSTS namespace hosts in campaign.RACKS racks, one rank
a host, every host shaped to BASE_MBIT both ways (so that a loss of 5% is one of
5% and not of the machine's mood); a fault reshapes a host, one direction of a
link or the uplink between the racks, or sets COLLSCOPE_FAULT: for one rank its
reductions slower (compute) or a late start (delay); for every rank a slower code
path (slow:rank=all, a regression). Background load: CPU burners or a paced TCP stream between two hosts the fault does not involve, all under
`timeout` and inside the cluster's namespaces. The result is rewritten
atomically after every draw (complete: false until the end).
Environment: VC_PREFIX (default csvccamp<pid>), BASE_MBIT (default 300), CAMPAIGN_KEEP (a
folder to keep each draw's report in, as dN.json), CAMPAIGN_LINKS_MORE (options appended to
links').
Exit status: 0 done, 2 bad usage, 5 the cluster could not be made, 77 no namespaces here.
"""
import argparse
import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import campaign as C  # noqa: E402

VC = os.path.join(HERE, "vcluster.sh")
PREFIX = os.environ.setdefault("VC_PREFIX", "csvccamp%d" % os.getpid())
NET = os.environ.get("VC_NET", "10.213.0")
BASE_MBIT = int(os.environ.get("BASE_MBIT", "300"))
CMD_TIMEOUT_S = 240
LINKS = ["-q", "-n", "300", "-w", "30", "--bw-iters", "5", "--bw-warmup", "0", "--bw-bytes", "256K",
         "--window", "8", "--bw-time", "0.2", "--lat-time", "0.05", "--pattern", "both", "--fail-on-suspect"]
# CAMPAIGN_LINKS_MORE: options appended to links' (the later wins), to measure what a
# setting costs and buys on the same draws, e.g. "--bw-iters 20 --bw-time 0.8"
LINKS_MORE = os.environ.get("CAMPAIGN_LINKS_MORE", "").split()
TRACE = ["allreduce", "-a", "ring", "--sizes", "1M", "-n", "10", "-w", "2", "--trace", "-q"]
COMPARE_RUN = ["allreduce", "-a", "ring", "--sizes", "256K", "-n", "30", "-w", "3", "-q"]
# accept: its links check measures with links' probe options (LINKS without the pattern and
# the verdict's), and its spec's all-reduce point is COMPARE_RUN's; derived from ACCEPT_RUNS runs
ACCEPT_LINKS = LINKS[1:LINKS.index("--pattern")]
ACCEPT_RUNS = 3
# compare: a clean baseline run and the draw's run, in turn, this many times, judged by
# compare --paired (the way to gate a build on a busy cluster: reports/compare/README.md)
COMPARE_PAIRS = 4
TRAFFIC_SHARE = 0.3  # of BASE_MBIT, the background stream's pace
os.environ["PATH"] += ":/usr/sbin:/sbin"


def vc(*args, check=True, timeout=120, env=None):
    r = subprocess.run(["bash", VC] + [str(a) for a in args], capture_output=True, text=True,
                       timeout=timeout, env=env)
    if check and r.returncode != 0:
        raise RuntimeError("vcluster.sh %s: exit %d: %s" % (" ".join(map(str, args)), r.returncode, r.stderr.strip()))
    return r


def tc(*args):
    subprocess.run(["tc"] + list(args), check=True, capture_output=True, text=True)


def mbit(x):
    return "%dkbit" % max(1, round(x * 1000))


def heal(hosts):
    """Every host at BASE_MBIT both ways, the uplinks unshaped."""
    vc("heal")
    for i in range(1, hosts + 1):
        vc("slow", "h%d" % i, mbit(BASE_MBIT))


def slow_link(a, b, rate):
    """a -> b at rate, a's other traffic still at BASE_MBIT: one htb under a parent at the base."""
    ns, ip = "%s-%s" % (PREFIX, a), "%s.%d" % (NET, 10 + int(b[1:]))
    base = mbit(BASE_MBIT)
    tc("-n", ns, "qdisc", "replace", "dev", "eth0", "root", "handle", "1:", "htb", "default", "10")
    tc("-n", ns, "class", "add", "dev", "eth0", "parent", "1:", "classid", "1:1", "htb", "rate", base,
       "ceil", base, "burst", "64kb")
    tc("-n", ns, "class", "add", "dev", "eth0", "parent", "1:1", "classid", "1:10", "htb", "rate", base,
       "ceil", base, "burst", "64kb")
    tc("-n", ns, "class", "add", "dev", "eth0", "parent", "1:1", "classid", "1:20", "htb", "rate", rate,
       "ceil", rate, "burst", "64kb")
    tc("-n", ns, "filter", "add", "dev", "eth0", "parent", "1:", "protocol", "ip", "prio", "1", "u32",
       "match", "ip", "dst", ip + "/32", "flowid", "1:20")


def inject(d):
    """Shapes the draw's fault; returns COLLSCOPE_FAULT for the ranks ('' for none)."""
    t, pct = d["truth"], d["magnitude_pct"]
    rate = mbit(BASE_MBIT * (1 - pct / 100)) if pct else None
    cls = d["class"]
    if cls == "host-send":
        vc("slow-egress", t["hosts"][0], rate)
    elif cls == "host-receive":
        vc("slow-ingress", t["hosts"][0], rate)
    elif cls == "host-both":
        vc("slow", t["hosts"][0], rate)
    elif cls == "link-oneway":
        slow_link(t["hosts"][0], t["hosts"][1], rate)
    elif cls == "uplink":
        vc("slow-uplink", t["rack"], rate)
    elif cls == "rank-compute":
        return "compute:rank=%d,pct=%d" % (t["rank"], pct)
    elif cls == "regression":  # a build's regression is in every rank's code path: one
        # rank's slack hid one rank's (35% of its call time cost the point 0% beside a stream)
        return "slow:rank=all,pct=%d" % pct
    elif cls == "rank-late":
        return "delay:rank=%d,us=%d" % (t["rank"], d["latency_us"])
    return ""


def start_load(d, hosts, seconds):
    """The draw's background load, as processes in new sessions (killed by their ids)."""
    procs = []

    def bg(ns, *cmd):
        # nsenter: enters the network namespace alone, as vcluster.sh does where
        # ip netns exec cannot make / a slave mount
        procs.append(subprocess.Popen(["nsenter", "--net=/run/netns/" + ns, "--", "timeout", str(seconds)]
                                      + list(cmd),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                      start_new_session=True))
    if d["load"] == "cpu":
        for _ in range(2):
            bg(PREFIX + "-br", "sh", "-c", "while :; do :; done")
    elif d["load"] == "traffic":
        free = [h for h in range(1, hosts + 1) if "h%d" % h not in d["truth"]["hosts"]]
        if len(free) < 2:  # the uplink: a stream within rack 0, which does not cross it
            free = [h for h in range(1, hosts + 1) if C.rack_of(h) == 0]
        x, y = free[d["index"] % len(free)], free[(d["index"] + 1) % len(free)]
        bg("%s-h%d" % (PREFIX, y), sys.executable, __file__, "_sink", "5999")
        time.sleep(0.3)
        bg("%s-h%d" % (PREFIX, x), sys.executable, __file__, "_source", "%s.%d" % (NET, 10 + y), "5999",
           str(int(BASE_MBIT * TRAFFIC_SHARE * 1e6 / 8)))
        d["traffic"] = "h%d -> h%d at %d%% of the base rate" % (x, y, TRAFFIC_SHARE * 100)
    return procs


def stop_load(procs):
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        p.wait()


def mpirun(bin_, fault, args, np):
    env = dict(os.environ)
    xs = []
    if fault:
        env["COLLSCOPE_FAULT"] = fault
        xs = ["-x", "COLLSCOPE_FAULT"]
    return vc("mpirun", "--bind-to", "none", "-np", np, *xs, bin_, *args, check=False,
              timeout=CMD_TIMEOUT_S, env=env)


def run_command(d, bin_, fault, work, np, suffix=""):
    """The user's command; returns (accusations, seconds, error or None)."""
    out = os.path.join(work, "d%d%s.json" % (d["index"], suffix))
    t0 = time.monotonic()
    if d["command"] == "links":
        r = mpirun(bin_, fault, ["links"] + LINKS + LINKS_MORE + ["-o", out], np)
        ok = r.returncode in (0, 1) and os.path.exists(out)
        report = json.load(open(out)) if ok else None
        acc = C.links_accusations(report) if ok else None
        if ok:  # what the re-tests, the scheduler and other traffic cleared
            cleared, detail = {}, []
            for k in report.get("summary", {}).get("cleared", []):
                cleared[k["cleared_by"]] = cleared.get(k["cleared_by"], 0) + 1
                t = k.get("retest") or {}
                detail.append([k["cleared_by"], k.get("line", ""), t.get("first_ratio"), t.get("ratio")])
            d["cleared"] = cleared
            d["cleared_detail"] = detail  # what was named first and why it went
            d["links_matrix"] = C.links_matrix(report)  # the evidence, judged or not
    elif d["command"] == "accept":
        r = mpirun(bin_, fault, ["accept", "-q"] + ACCEPT_LINKS + [spec_path(work), "-o", out], np)
        ok = r.returncode in (0, 1) and os.path.exists(out)
        acc = C.accept_accusations(json.load(open(out))) if ok else None
        if ok:  # what it said of each host that did not pass
            d["accept_hosts"] = {h["name"]: [h["status"]] + h.get("faults", []) + h.get("unconfirmed_faults", [])
                                 for h in json.load(open(out))["summary"]["hosts"] if h["status"] != "PASS"}
    elif d["command"] == "trace":
        r = mpirun(bin_, fault, TRACE + ["-o", out], np)
        ok = r.returncode == 0 and os.path.exists(out)
        acc = C.trace_accusations(json.load(open(out))) if ok else None
        if ok:  # the evidence, judged or not: what thresholds from measured spread need
            report = json.load(open(out))
            d["trace_hops"] = C.trace_evidence(report)
            d["straggler"] = C.straggler_evidence(report)
            # the traced call's p50: a late start is a slowdown of latency_us / call_p50_us
            d["call_p50_us"] = next((x["time_us"]["p50"] for x in report.get("results", [])
                                     if x.get("time_us")), None)
    else:
        files = []
        for i in range(COMPARE_PAIRS):
            for side, env in (("b", ""), ("c", fault)):
                files.append(os.path.join(work, "d%d-%s%d.json" % (d["index"], side, i)))
                r = mpirun(bin_, env, COMPARE_RUN + ["-o", files[-1]], np)
                if r.returncode != 0:
                    break
            if r.returncode != 0:
                break
        ok = r.returncode == 0
        if ok:
            shutil.copy2(files[-1], out)
            r = subprocess.run([bin_, "compare", "-q", "--paired"] + files, capture_output=True,
                               text=True)
            ok = r.returncode in (0, 1)
        acc = C.compare_accusations(r.returncode) if ok else None
    secs = time.monotonic() - t0
    keep = os.environ.get("CAMPAIGN_KEEP")  # a folder: each draw's report, to read its evidence
    if keep and os.path.exists(out):
        os.makedirs(keep, exist_ok=True)
        shutil.copy2(out, os.path.join(keep, "d%d%s.json" % (d["index"], suffix)))
    err = None if ok else "exit %d: %s" % (r.returncode, (r.stderr or r.stdout).strip()[-300:])
    return acc, secs, err


def spec_path(work):
    return os.path.join(work, "accept-spec.json")


def derive_spec(bin_, work, np):
    """accept's spec from ACCEPT_RUNS clean runs of the healed cluster, no load (--accept)."""
    reports = []
    for what, args in [("topo", ["topo", "-q"])] + [
            ("links%d" % i, ["links", "-q"] + ACCEPT_LINKS) for i in range(ACCEPT_RUNS)] + [
            ("ar%d" % i, COMPARE_RUN) for i in range(ACCEPT_RUNS)]:
        path = os.path.join(work, "spec-%s.json" % what)
        for _ in range(3):  # a clean links run may name a suspect now and then: --derive refuses it
            r = mpirun(bin_, "", args + ["-o", path], np)
            if r.returncode == 0 and not json.load(open(path)).get("summary", {}).get("suspects"):
                break
        else:
            raise RuntimeError("accept's spec: %s did not run clean: %s" % (what, (r.stderr or r.stdout)[-300:]))
        reports.append(path)
    r = subprocess.run([bin_, "accept", "--derive", spec_path(work), "--force"] + reports,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("accept --derive: exit %d: %s" % (r.returncode, r.stderr.strip()[-300:]))
    return json.load(open(spec_path(work)))


def context(bin_, started):
    v = subprocess.run([bin_, "--version"], capture_output=True, text=True).stdout.strip()
    git = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return {"tool": {"name": "collscope campaign", "collscope_version": v, "commit": git.stdout.strip()},
            "started_utc": started, "machine": {"cores": os.cpu_count(), "hostname": socket.gethostname()}}


def result_doc(args, ctx, rows, complete, started_s):
    loads = [r["load_average_1m"] for r in rows]
    ctx = dict(ctx, finished_utc=now_utc(), duration_s=round(time.monotonic() - started_s, 1),
               load_average_1m={"min": min(loads, default=None), "max": max(loads, default=None),
                                "mean": round(sum(loads) / len(loads), 2) if loads else None})
    failed = [r for r in rows if "score" not in r]
    return {"schema_version": 1, "command": "campaign", "campaign_format_version": C.FORMAT_VERSION,
            "complete": complete, "context": ctx,
            "config": {"seed": 0 if args.smoke else args.seed, "draws": args.draws, "smoke": args.smoke,
                       "only_command": args.command,
                       "only_class": args.only_class, "hosts": C.HOSTS,
                       "racks": C.RACKS, "ranks": C.HOSTS, "base_rate_mbit": BASE_MBIT,
                       "traffic_share_of_base": TRAFFIC_SHARE, "ladder_pct": C.LADDER_PCT,
                       "late_us": C.LATE_US, "command_line": " ".join(sys.argv),
                       "links_options": LINKS + LINKS_MORE, "accept": args.accept,
                       "accept_spec": getattr(args, "spec", None)},
            "summary": dict(C.figures(rows), runs_failed=len(failed)), "results": rows}


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def one(d, args, work):
    """The draw judged by each build (one, or two in turns: --against); a row for each."""
    d = dict(d, load_average_1m=round(os.getloadavg()[0], 2), base_rate_mbit=BASE_MBIT)
    heal(C.HOSTS)
    fault = inject(d)
    builds = [(0, args.bin, "")] + ([(1, args.against, "-b")] if args.against else [])
    if d["index"] % 2:
        builds.reverse()
    procs = start_load(d, C.HOSTS, len(builds) * CMD_TIMEOUT_S + 30)
    rows = [None] * len(builds)
    try:
        for k, bin_, suffix in builds:
            row = dict(d)
            acc, secs, err = run_command(row, bin_, fault, work, C.HOSTS, suffix)
            row.update(fault_env=fault or None, time_to_verdict_s=round(secs, 2))
            if err:
                row["run_error"] = err
            else:
                row["accusations"] = acc
                row["score"] = C.score(row, acc)
            rows[k] = row
    finally:
        stop_load(procs)
    return rows


def run(args):
    started, t0 = now_utc(), time.monotonic()
    plan = C.smoke_draws() if args.smoke else C.draws(args.seed, args.draws)
    if args.accept:  # judged by accept instead of links: the same draws, a user's other command
        plan = [dict(d, command="accept") if d["command"] == "links" else d for d in plan]
    if args.command:  # the draws of one command: a detector's before and after, quickly
        plan = [d for d in plan if d["command"] == args.command]
    if args.only_class:  # one fault class's draws (and the clean ones, for what it accuses)
        plan = [d for d in plan if d["class"] in (args.only_class, "none")]
    if args.load:  # one background load's draws: what it costs a detector
        plan = [d for d in plan if d["load"] == args.load]
    if args.magnitude:  # the small faults, say, and the clean draws
        plan = [d for d in plan if d["magnitude_pct"] in args.magnitude or d["class"] == "none"]
    ctx = context(args.bin, started)
    ctx_b = context(args.against, started) if args.against else None
    r = vc("up", C.HOSTS, 1, "--racks", C.RACKS, check=False)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        return r.returncode
    rows, rows_b = [], []
    try:
        with tempfile.TemporaryDirectory(prefix="campaign.") as work:
            # a copy: a rebuild during a long campaign must not change the binary under it
            shutil.copy2(args.bin, os.path.join(work, "collscope"))
            args.bin = os.path.join(work, "collscope")
            if args.against:
                shutil.copy2(args.against, os.path.join(work, "collscope-b"))
                args.against = os.path.join(work, "collscope-b")
            heal(C.HOSTS)
            if args.accept:
                args.spec = derive_spec(args.bin, work, C.HOSTS)
                print("accept: a spec derived from %d clean runs of each: %s" % (
                    ACCEPT_RUNS, json.dumps(args.spec["checks"].get("links", {}))), flush=True)
            for d in plan:
                if args.budget_s and time.monotonic() - t0 > args.budget_s:
                    break
                both = one(d, args, work)
                rows.append(both[0])
                rows_b += both[1:]
                for label, row in zip(("", "against: ") if args.against else ("",), both):
                    report_row(row, label)
                C.write_atomic(args.output, result_doc(args, ctx, rows, False, t0))
                if args.against:
                    C.write_atomic(args.against_output, result_doc(args, ctx_b, rows_b, False, t0))
    finally:
        vc("down", check=False)
    C.write_atomic(args.output, result_doc(args, ctx, rows, True, t0))
    if args.against:
        C.write_atomic(args.against_output, result_doc(args, ctx_b, rows_b, True, t0))
    return 0


def report_row(row, label):
    """A draw's lines on stdout: its verdict, what was cleared, the evidence."""
    s = row.get("score", {})
    size = "%d%%" % row["magnitude_pct"] if row["magnitude_pct"] else (
        "%d us" % row["latency_us"] if row["latency_us"] else "-")
    print("%sdraw %3d %-12s %-7s %-7s load %-7s %5.1f s  %s%s" % (
        label, row["index"], row["class"], row["command"], size,
        row["load"], row["time_to_verdict_s"], s.get("outcome", "run failed"),
        "" if s else ": " + row.get("run_error", "")), flush=True)
    for a, j in zip(row.get("accusations", []), s.get("judged", [])):
        print("         named (%s): %s %s %s" % (j, a["kind"], a["direction"], ",".join(a["hosts"])))
    if row.get("cleared"):
        print("         cleared: %s" % ", ".join("%d by %s" % (n, by) for by, n in sorted(row["cleared"].items())))
        for by, line, r1, r2 in row.get("cleared_detail", []):
            print("           by %s: %s (first ratio %s, re-test %s)" % (by, line, r1, r2))
    for name in row["truth"]["hosts"][:2] if row.get("links_matrix") and row["truth"]["kind"] in ("host", "link") else []:
        snd, rcv = C.line_ratios(row["links_matrix"], name)  # the evidence behind a links verdict
        print("         %s: sends at %sx, receives at %sx the cells not touching it" % (name, snd, rcv))
    top = sorted((h for h in row.get("trace_hops") or [] if h[2] is not None), key=lambda h: -h[2])[:1]
    for h in top:  # the evidence behind a traced verdict: its slowest hop
        print("         slowest hop %d->%d: %.2fx, z %.1f, share %.2f, %s" % (
            h[0], h[1], h[2], h[3] or 0, h[4] or 0, "slow" if h[5] else
            "re-measured %d, found %d" % (h[6], h[7]) if len(h) > 7 and h[6] else "not a suspect"))


def sink(port):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", port))
    s.listen(1)
    c, _ = s.accept()
    while c.recv(1 << 16):
        pass


def source(ip, port, bytes_per_s):
    """A stream paced to bytes_per_s, in 64 KiB writes."""
    c = socket.create_connection((ip, port), timeout=10)
    chunk, sent, t0 = b"\0" * 65536, 0, time.monotonic()
    while True:
        c.sendall(chunk)
        sent += len(chunk)
        ahead = sent / bytes_per_s - (time.monotonic() - t0)
        if ahead > 0:
            time.sleep(ahead)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "_sink":
        return sink(int(sys.argv[2]))
    if len(sys.argv) > 1 and sys.argv[1] == "_source":
        return source(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    p = argparse.ArgumentParser(description="the fault-injection campaign (issue 39)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--draws", type=int, default=200)
    p.add_argument("--smoke", action="store_true", help="the smoke campaign's fixed draws")
    p.add_argument("--budget-s", type=float, default=0, help="start no draw after this many seconds")
    p.add_argument("--command", choices=["links", "trace", "compare", "accept"],
                   help="run only the draws judged by this command")
    p.add_argument("--class", dest="only_class", choices=C.CLASSES,
                   help="run only this fault class's draws and the draws without a fault")
    p.add_argument("--load", choices=C.LOADS,
                   help="run only the draws under this background load")
    p.add_argument("--magnitude", type=int, action="append", choices=C.LADDER_PCT,
                   help="run only the draws of this magnitude (repeatable) and those without a fault")
    p.add_argument("--accept", action="store_true",
                   help="judge the draws links judges by accept SPEC instead (a spec derived first)")
    p.add_argument("--bin", default="build/collscope")
    p.add_argument("--against", help="a second build judging every draw in turn with --bin")
    p.add_argument("--against-output", help="the second build's result (with --against)")
    p.add_argument("-o", "--output", required=True)
    args = p.parse_args()
    args.bin = os.path.realpath(args.bin)
    if bool(args.against) != bool(args.against_output):
        p.error("--against and --against-output go together")
    if args.against:
        args.against = os.path.realpath(args.against)
    if os.geteuid() != 0:
        print("campaign: SKIP (not root: network namespaces need CAP_SYS_ADMIN)")
        return 77
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return run(args)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        sys.stderr.write("campaign: %s\n" % e)
        return 5


if __name__ == "__main__":
    sys.exit(main())
