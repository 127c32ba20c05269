#!/usr/bin/env python3
"""How far to trust a verdict: the pure half of the fault-injection campaign (issue 39).

The generator of draws, the scorer of a verdict against the truth, and the
figures (confusion table, precision, recall, attribution, time to verdict,
recall by magnitude, each with a 95% interval). No I/O here but reading and
writing a result file: campaign_run.py runs the draws on the virtual cluster,
tests/cluster/test_campaign.py tests these functions.

usage: campaign.py draws SEED N               the draws of a seed, one JSON line each
       campaign.py table RESULT.json...       the figures of one or more results as text
       campaign.py markdown RESULT.json...    CAMPAIGN_RESULTS.md from the results
       campaign.py floors RESULT.json         the smoke campaign's floors: exit 1 if broken
"""
import json
import math
import os
import random
import sys
import tempfile

FORMAT_VERSION = 1
# One cluster for every class: HOSTS namespace hosts in RACKS racks (vcluster.sh
# deals them in blocks: h1-h3 in rack 0, h4-h5 in rack 1), one rank a host.
HOSTS = 5
RACKS = 2
# Every class once in each block of len(CLASSES) draws, in an order the seed shuffles.
CLASSES = ["host-send", "host-receive", "host-both", "link-oneway", "uplink", "rank-compute",
           "rank-late", "regression", "none"]
BANDWIDTH = {"host-send", "host-receive", "host-both", "link-oneway", "uplink"}
LADDER_PCT = [5, 10, 20, 35, 50, 70, 90]  # less bandwidth, or more compute time
LATE_US = [100, 300, 1000, 3000]          # a late start: added latency per call
LOADS = ["none", "cpu", "traffic"]
# The command a user runs for each class; none is judged by each in turn.
COMMANDS = {"host-send": ["links"], "host-receive": ["links"], "host-both": ["links"],
            "link-oneway": ["links", "trace"], "uplink": ["links"], "rank-compute": ["trace"],
            "rank-late": ["trace"], "regression": ["compare"], "none": ["links", "trace", "compare"]}
OUTCOMES = ["right", "wrong_class", "missed", "healthy_accused", "clean_ok"]
Z95 = 1.959963984540054


def rack_of(i, hosts=HOSTS, racks=RACKS):
    """The rack of host i (1-based), as vcluster.sh deals them."""
    return ((i - 1) * racks) // hosts


def draw(seed, index, hosts=HOSTS, racks=RACKS):
    """Draw `index` of `seed`: class, place, magnitude, load and command, with the truth."""
    block = index // len(CLASSES)
    order = list(CLASSES)
    random.Random("%d/block/%d" % (seed, block)).shuffle(order)
    cls = order[index % len(CLASSES)]
    rng = random.Random("%d/draw/%d" % (seed, index))
    d = {"index": index, "seed": seed, "class": cls, "load": rng.choice(LOADS),
         "command": rng.choice(COMMANDS[cls]), "magnitude_pct": None, "latency_us": None}
    h = rng.randint(1, hosts)
    if cls in BANDWIDTH or cls in ("rank-compute", "regression"):
        d["magnitude_pct"] = rng.choice(LADDER_PCT)
    if cls == "rank-late":
        d["latency_us"] = rng.choice(LATE_US)
    if cls.startswith("host-"):
        d["truth"] = {"kind": "host", "direction": cls[5:], "hosts": ["h%d" % h]}
    elif cls == "link-oneway":
        # a traced ring sees only the hops rank r -> r+1: the link is one of them
        a = h
        b = a % hosts + 1 if d["command"] == "trace" else rng.choice([x for x in range(1, hosts + 1) if x != a])
        d["truth"] = {"kind": "link", "direction": "oneway", "hosts": ["h%d" % a, "h%d" % b]}
    elif cls == "uplink":
        r = rng.randint(1, racks - 1)
        far = ["h%d" % i for i in range(1, hosts + 1) if rack_of(i, hosts, racks) == r]
        near = ["h%d" % i for i in range(1, hosts + 1) if rack_of(i, hosts, racks) != r]
        d["truth"] = {"kind": "segment", "direction": "both", "hosts": near + far, "rack": r,
                      "sides": [near, far]}
    elif cls in ("rank-compute", "rank-late"):
        d["truth"] = {"kind": "rank", "direction": "compute" if cls == "rank-compute" else "late",
                      "rank": h - 1, "hosts": ["h%d" % h]}
    elif cls == "regression":
        d["truth"] = {"kind": "regression", "direction": "slower", "rank": h - 1, "hosts": []}
    else:
        d["truth"] = {"kind": "none", "direction": "", "hosts": []}
    return d


def draws(seed, n, hosts=HOSTS, racks=RACKS):
    return [draw(seed, i, hosts, racks) for i in range(n)]


def smoke_draws():
    """The smoke campaign: a clean run of links, two gross faults (90% less
    bandwidth) it must find, no load, a clean run beside another job's
    stream (h4 -> h5 at 30% of the link), whose hosts it must not accuse: the
    first pass names them, the interface counters clear them (traffic.h); and
    a traced ring with one link 35% slower one way, a suspect hop that the
    re-measurements confirm or clear (hops.h), which must accuse nothing
    healthy (found or not: printed, not a floor); and a no-change compare
    --paired under CPU burners, which must not fail (issue 29: make check
    prints the false alarm, the campaign's table counts it by command). Fixed,
    so that its floors are honest."""
    out = []
    for i, (cls, truth, load, cmd, pct) in enumerate([
            ("none", {"kind": "none", "direction": "", "hosts": []}, "none", "links", None),
            ("host-both", {"kind": "host", "direction": "both", "hosts": ["h2"]}, "none", "links", 90),
            ("link-oneway", {"kind": "link", "direction": "oneway", "hosts": ["h4", "h1"]}, "none", "links", 90),
            ("none", {"kind": "none", "direction": "", "hosts": []}, "traffic", "links", None),
            ("link-oneway", {"kind": "link", "direction": "oneway", "hosts": ["h2", "h3"]}, "none", "trace", 35),
            ("none", {"kind": "none", "direction": "", "hosts": []}, "cpu", "compare", None)]):
        out.append({"index": i, "seed": 0, "class": cls, "load": load, "command": cmd,
                     "magnitude_pct": pct, "latency_us": None, "truth": truth})
    return out


# --- what a report accuses: a list of {kind, direction, hosts, ...} -------------------

def links_accusations(report):
    """The bandwidth suspects between hosts of a links report (latency is not what is injected)."""
    out = []
    for k in report.get("summary", {}).get("suspects", []):
        if k.get("metric") != "bandwidth" or k.get("locality") != "cross_host":
            continue
        if k["kind"] == "host":
            out.append({"kind": "host", "direction": k["direction"], "hosts": [k["host"]], "line": k.get("line", "")})
        elif k["kind"] == "segment":
            out.append({"kind": "segment", "direction": k["direction"], "hosts": k["hosts_a"] + k["hosts_b"],
                        "sides": [k["hosts_a"], k["hosts_b"]], "line": k.get("line", "")})
        else:
            a, b = k["host_a"], k["host_b"]
            if k["direction"] == "b->a":
                a, b = b, a
            out.append({"kind": "link", "direction": "both" if k["direction"] == "both" else "oneway",
                        "hosts": [a, b], "line": k.get("line", "")})
    return out


def links_matrix(report):
    """The host x host bandwidth of a links report (one-way p50, GB/s, rounded; the median of
    the host pair's rank pairs; None where not measured): {"hosts": [...], "bw_gbps": rows}."""
    hosts = sorted({r["host"] for r in report.get("context", {}).get("ranks", [])},
                   key=lambda h: (len(h), h))
    host = {r["rank"]: r["host"] for r in report.get("context", {}).get("ranks", [])}
    at = {h: i for i, h in enumerate(hosts)}
    cells = {}
    p = report.get("pairs") or {}
    for a, b, bw in zip(p.get("a", []), p.get("b", []), p.get("bw_p50_gbps", [])):
        if bw is not None and host.get(a) != host.get(b) and a in host and b in host:
            cells.setdefault((at[host[a]], at[host[b]]), []).append(bw)
    rows = [[None] * len(hosts) for _ in hosts]
    for (i, j), v in cells.items():
        v = sorted(v)
        rows[i][j] = round(v[len(v) // 2], 5)
    return {"hosts": hosts, "bw_gbps": rows}


def line_ratios(matrix, name):
    """How far host name's row (send) and column (receive) stand below the cells that do not
    touch it: (send, receive), each its line's median over the others' median; None: unknown."""
    hosts, rows = matrix["hosts"], matrix["bw_gbps"]
    if name not in hosts:
        return None, None
    i = hosts.index(name)

    def med(v):
        v = sorted(x for x in v if x is not None)
        return v[len(v) // 2] if v else None
    rest = med([rows[a][b] for a in range(len(hosts)) for b in range(len(hosts)) if i not in (a, b)])
    send, recv = med(rows[i]), med([rows[a][i] for a in range(len(hosts))])
    return tuple(None if x is None or not rest else round(x / rest, 3) for x in (send, recv))


def trace_accusations(report):
    """The slow hops and slow ranks of a traced all-reduce, with the straggler's cause per rank."""
    s = report.get("summary", {})
    causes = {}
    for r in report.get("results", []):
        if r.get("straggler_rank") is not None:
            causes.setdefault(r["straggler_rank"], r.get("straggler_cause"))
    out = []
    for h in s.get("slow_hops", []):
        out.append({"kind": "hop", "direction": "oneway", "hosts": list(h["hosts"]),
                    "ranks": [h["from_rank"], h["to_rank"]]})
    for k in s.get("slow_ranks", []):
        # named for its reduction rate: its core is slow at its own work; else the straggler's cause
        cause = "slow_inside" if k.get("reason") == "reduce" else causes.get(k["rank"])
        out.append({"kind": "rank", "direction": {"slow_inside": "compute", "late_arrival": "late"}.get(cause, cause),
                    "hosts": [k["host"]] if k.get("host") else [], "ranks": [k["rank"]]})
    # a persistent straggler (algorithms/timing.h): late to arrive in more calls than chance allows
    named = {k["rank"] for k in s.get("slow_ranks", [])}
    for r in report.get("results", []):
        x = r.get("straggler_rank")
        if r.get("straggler_persistent") and x is not None and x not in named:
            named.add(x)
            out.append({"kind": "rank", "direction": "late", "hosts": [], "ranks": [x]})
    return out


def trace_evidence(report):
    """Every hop of a traced report's points: (from, to, ratio, score, share, slow, retests,
    retests_confirmed), rounded."""
    out = []
    for r in report.get("results", []):
        for h in (r.get("trace") or {}).get("hops", []):
            f = [h.get(k) for k in ("ratio", "score", "share")]
            out.append([h["from_rank"], h["to_rank"]] + [None if x is None else round(x, 3) for x in f]
                       + [bool(h.get("slow")), h.get("retests", 0), h.get("retests_confirmed", 0)])
    return out


def straggler_evidence(report):
    """The late-start judge's view of a traced report's first point (algorithms/timing.h): the
    rank it blamed, why, in how many calls that rank was the last, the chance of that, its lead
    per call (us) and that lead's share of the call's p50 (%), and whether it was named; None
    without a point."""
    for r in report.get("results", []):
        p50 = (r.get("time_us") or {}).get("p50")
        lead = r.get("straggler_us")
        if r.get("straggler_rank") is None or not p50 or lead is None:
            continue
        return {"rank": r["straggler_rank"], "cause": r.get("straggler_cause"),
                "count": r.get("straggler_count"), "calls": r.get("iterations"),
                "p_value": r.get("straggler_p_value"), "lead_us": round(lead, 1),
                "share_pct": round(100.0 * lead / p50, 3), "persistent": bool(r.get("straggler_persistent"))}
    return None


def accept_accusations(report):
    """The hosts an accept report fails (FAIL or INTERMITTENT: its own checks, or named by a
    culprit search; an INCONCLUSIVE host is not accused), what its links check confirmed
    (summary.links_suspects: a slow link or segment fails the job, no host), and the path a
    culprit search found (a set not isolated for "across": its hosts passed together and
    failed only with the others, a segment between them and the rest). accept names a host to
    pull, not a direction: "any" matches the truth's."""
    summary = report.get("summary", {})
    names = [h["name"] for h in summary.get("hosts", [])]
    paths = []
    for iso in summary.get("isolations", []):
        for s in iso.get("not_isolated", []):
            far = s.get("hosts", [])
            near = [h for h in names if h not in far]
            if s.get("reason") == "across" and far and near:
                paths.append({"kind": "segment", "direction": "both", "hosts": near + far,
                              "sides": [near, far]})
    return [{"kind": "host", "direction": "any", "hosts": [h["name"]]}
            for h in summary.get("hosts", []) if h.get("status") in ("FAIL", "INTERMITTENT")] + \
        links_accusations({"summary": {"suspects": summary.get("links_suspects", [])}}) + paths


def compare_accusations(exit_status):
    """compare's verdict: exit 1 is a regression of the code path."""
    return [{"kind": "regression", "direction": "slower", "hosts": []}] if exit_status == 1 else []


# --- the scorer ------------------------------------------------------------------------

def _judge(truth, acc):
    """One accusation against the truth: 'right', 'wrong_class' or 'healthy'."""
    kind, want = truth["kind"], set(truth["hosts"])
    if kind == "none":
        return "healthy"
    if kind == "regression":
        return "right" if acc["kind"] == "regression" else "healthy"
    if acc["kind"] == "regression":
        return "healthy"
    if kind == "segment":
        if acc["kind"] == "segment":
            same = {frozenset(x) for x in acc["sides"]} == {frozenset(x) for x in truth["sides"]}
            return "right" if same else "healthy"
        near, far = (set(x) for x in truth["sides"])
        h = set(acc["hosts"])
        # a link across the uplink has the culprit on its path; a host or a link within a rack has not
        if acc["kind"] in ("link", "hop") and h & near and h & far:
            return "wrong_class"
        return "healthy"
    if kind == "rank":
        ranks = set(acc.get("ranks", []))
        if truth["rank"] not in ranks and not (acc["kind"] != "rank" and set(acc["hosts"]) & want):
            return "healthy"
        ok = acc["kind"] == "rank" and acc["ranks"] == [truth["rank"]] and acc["direction"] == truth["direction"]
        return "right" if ok else "wrong_class"
    got = acc["hosts"]
    if not set(got) <= want and not (kind == "host" and acc["kind"] in ("link", "hop") and want & set(got)):
        return "healthy"
    if kind == "host":
        ok = acc["kind"] == "host" and acc["direction"] in (truth["direction"], "any")
    else:
        ok = acc["kind"] in ("link", "hop") and acc["direction"] == "oneway" and got == truth["hosts"]
    return "right" if ok else "wrong_class"


def score(d, accusations):
    """The draw's cell of the confusion table, and the flags the figures count."""
    judged = [_judge(d["truth"], a) for a in accusations]
    healthy = "healthy" in judged
    found = any(j != "healthy" for j in judged)
    if d["truth"]["kind"] == "none":
        outcome = "healthy_accused" if healthy else "clean_ok"
    elif healthy:
        outcome = "healthy_accused"
    elif "right" in judged:
        outcome = "right"
    elif found:
        outcome = "wrong_class"
    else:
        outcome = "missed"
    return {"outcome": outcome, "culprit_found": found, "attributed": "right" in judged,
            "healthy_accused": healthy, "accused": bool(accusations), "judged": judged}


# --- the figures -----------------------------------------------------------------------

def wilson(k, n, z=Z95):
    """k successes of n: (value, low, high), or Nones when n is 0."""
    if n == 0:
        return None, None, None
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # at k = 0 and k = n the ends are 0 and 1 exactly, not rounded near them
    return p, 0.0 if k == 0 else max(0.0, mid - half), 1.0 if k == n else min(1.0, mid + half)


def quantile(xs, q):
    """Type-7 quantile of xs (sorted or not); None when empty."""
    if not xs:
        return None
    s = sorted(xs)
    h = (len(s) - 1) * q
    lo = math.floor(h)
    return s[lo] + (h - lo) * (s[min(lo + 1, len(s) - 1)] - s[lo])


def quantile_ci(xs, q, level=0.95):
    """Distribution-free interval for the q quantile: order statistics s[l], s[u] with
    P(s[l] <= x_q <= s[u]) >= level (binomial); None for an end that n cannot bound."""
    n = len(xs)
    if n == 0:
        return None, None
    s = sorted(xs)
    cdf, acc = [], 0.0
    for i in range(n + 1):
        acc += math.comb(n, i) * q ** i * (1 - q) ** (n - i)
        cdf.append(acc)
    tail = (1 - level) / 2
    # the lower end: the largest l with P(B < l) <= tail; the upper: the smallest u with P(B >= u) <= tail
    lo = max([l for l in range(1, n + 1) if cdf[l - 1] <= tail], default=None)
    hi = min([u for u in range(1, n + 1) if 1 - cdf[u - 1] <= tail], default=None)
    return (s[lo - 1] if lo else None), (s[hi - 1] if hi else None)


def _prop(k, n):
    v, lo, hi = wilson(k, n)
    return {"value": v, "ci_low": lo, "ci_high": hi, "count": k, "of": n}


def _times(rows):
    t = [r["time_to_verdict_s"] for r in rows if r.get("time_to_verdict_s") is not None]
    out = {"n": len(t)}
    for name, q in (("p50", 0.5), ("p90", 0.9)):
        lo, hi = quantile_ci(t, q)
        out[name + "_s"] = quantile(t, q)
        out[name + "_ci_low_s"], out[name + "_ci_high_s"] = lo, hi
    return out


def block(rows):
    """The figures of a set of scored draws."""
    cells = {o: sum(1 for r in rows if r["score"]["outcome"] == o) for o in OUTCOMES}
    faults = [r for r in rows if r["truth"]["kind"] != "none"]
    accused = [r for r in rows if r["score"]["accused"]]
    found = [r for r in faults if r["score"]["culprit_found"]]
    clean = [r for r in rows if r["truth"]["kind"] == "none"]
    return {"draws": len(rows), "cells": cells,
            "precision": _prop(sum(1 for r in accused if not r["score"]["healthy_accused"]), len(accused)),
            "recall": _prop(len(found), len(faults)),
            "attribution": _prop(sum(1 for r in found if r["score"]["attributed"]), len(found)),
            "clean_false_accusation": _prop(sum(1 for r in clean if r["score"]["healthy_accused"]), len(clean)),
            "time_to_verdict": _times(rows)}


def figures(rows):
    """Overall, per class, per command, and recall by magnitude (the sensitivity curve)."""
    done = [r for r in rows if "score" in r]
    classes = []
    for c in CLASSES:
        sub = [r for r in done if r["class"] == c]
        if sub:
            classes.append(dict(block(sub), **{"class": c}))
    commands = []
    for c in ("links", "accept", "trace", "compare"):
        sub = [r for r in done if r["command"] == c]
        if sub:
            commands.append(dict(block(sub), **{"command": c}))
    sens = curve([r for r in done if r["truth"]["kind"] != "none"])
    links_sens = curve([r for r in done if r["class"] in BANDWIDTH and r["command"] == "links"])
    late = []
    for us in LATE_US:
        sub = [r for r in done if r["latency_us"] == us]
        if sub:
            shares = sorted(100.0 * us / r["call_p50_us"] for r in sub if r.get("call_p50_us"))
            late.append({"latency_us": us, "draws": len(sub),
                         "recall": _prop(sum(1 for r in sub if r["score"]["culprit_found"]), len(sub)),
                         # the slowdown it is: its share of the traced call (older results: None)
                         "median_share_of_call_pct": shares[len(shares) // 2] if shares else None})
    smallest = next((s["magnitude_pct"] for s in sens if all(
        t["recall"]["value"] is not None and t["recall"]["value"] >= 0.9 for t in sens
        if t["magnitude_pct"] >= s["magnitude_pct"])), None)
    return {"overall": block(done), "classes": classes, "commands": commands,
            "sensitivity": sens, "sensitivity_links_bandwidth": links_sens, "late_start": late,
            "smallest_pct_with_recall_0_9": smallest, "links_effective": effective(done),
            "trace_evidence": trace_spread(done), "late_evidence": late_spread(done)}


def goals(rows):
    """Issue 39's goals, each measured over the given draws (pooled seeds): the
    figure, its interval and whether it is met. Recall at 20% and up, and at
    10%, counts the magnitude faults (bandwidth or compute); a late start is no
    slowdown of a percentage."""
    done = [r for r in rows if "score" in r]
    faults = [r for r in done if r["truth"]["kind"] != "none" and r["magnitude_pct"] is not None]
    overall = block(done)

    def found(sub):
        return _prop(sum(1 for r in sub if r["score"]["culprit_found"]), len(sub))

    loaded_clean = [r for r in done if r["truth"]["kind"] == "none" and r["load"] != "none"]
    sens = curve(faults)
    smallest = figures(done)["smallest_pct_with_recall_0_9"]
    out = [{"goal": "precision >= 0.99", "figure": overall["precision"], "met": None},
           {"goal": "recall >= 0.99 at 20% or more", "figure": found([r for r in faults if r["magnitude_pct"] >= 20]),
            "met": None},
           {"goal": "recall >= 0.95 at 10%", "figure": found([r for r in faults if r["magnitude_pct"] == 10]),
            "met": None},
           {"goal": "attribution >= 0.97", "figure": overall["attribution"], "met": None},
           {"goal": "no healthy host, link or rank accused in a clean draw under load",
            "figure": _prop(sum(1 for r in loaded_clean if r["score"]["healthy_accused"]), len(loaded_clean)),
            "met": None}]
    for g, floor in zip(out, (0.99, 0.99, 0.95, 0.97)):
        g["met"] = g["figure"]["value"] is not None and g["figure"]["value"] >= floor
    out[4]["met"] = out[4]["figure"]["of"] > 0 and out[4]["figure"]["count"] == 0
    out.append({"goal": "the smallest slowdown caught with recall 0.9 stated (aim: 5%)",
                "smallest_pct": smallest, "sensitivity": sens, "met": smallest == 5})
    return out


# Results written before rows recorded their shaped rate were all run at this one.
BASE_MBIT_DEFAULT = 300
# links' host and link faults, each shaping its own pair's path (an uplink's rate is shared by
# the pairs crossing it at once, so what one of them would run at is not its rate)
OWN_PATH = {"host-send", "host-receive", "host-both", "link-oneway"}
EFFECTIVE_BINS_PCT = [0, 10, 20, 35, 50, 101]


def reference_gbps(matrix, culprits):
    """The median cell of a links matrix that touches no culprit host: what a healthy pair ran
    at in that run, under that draw's load. None when no such cell."""
    hosts, rows = matrix["hosts"], matrix["bw_gbps"]
    out = [i for i, h in enumerate(hosts) if h in culprits]
    v = sorted(rows[a][b] for a in range(len(hosts)) for b in range(len(hosts))
               if a != b and a not in out and b not in out and rows[a][b] is not None)
    return v[len(v) // 2] if v else None


def effective(rows):
    """links' host and link faults by the slowdown they left in the measurement. A fault caps
    its pair at (1 - magnitude) x the shaped rate; a pair runs at E x its cap, E the median over
    the draws without load of a healthy pair's bandwidth over the shaped rate; under load a
    healthy pair runs at the run's reference (reference_gbps), often below a mild fault's cap:
    the fault then slows nothing, for any tool. Effective slowdown: 1 - min(1, E x cap /
    reference). None when no draw without load has a matrix."""
    pts = []
    for r in rows:
        if (r.get("command") != "links" or r["class"] not in OWN_PATH or not r.get("magnitude_pct")
                or "score" not in r or not r.get("links_matrix")):
            continue
        ref = reference_gbps(r["links_matrix"], r["truth"]["hosts"])
        base = r.get("base_rate_mbit", BASE_MBIT_DEFAULT) / 8000.0  # GB/s
        if ref:
            pts.append((r, ref, base))
    idle = sorted(ref / base for r, ref, base in pts if r["load"] == "none")
    if not idle:
        return None
    e = idle[len(idle) // 2]
    eff = [(r, 1 - min(1.0, e * (1 - r["magnitude_pct"] / 100.0) * base / ref)) for r, ref, base in pts]
    bins = []
    for lo, hi in zip(EFFECTIVE_BINS_PCT, EFFECTIVE_BINS_PCT[1:]):
        sub = [r for r, x in eff if lo <= 100 * x < hi]
        if sub:
            bins.append({"from_pct": lo, "to_pct": min(hi, 100), "draws": len(sub),
                         "loads": {ld: sum(1 for r in sub if r["load"] == ld) for ld in LOADS},
                         "recall": _prop(sum(1 for r in sub if r["score"]["culprit_found"]), len(sub))})
    from20 = [r for r, x in eff if x >= 0.2]
    return {"link_efficiency": round(e, 3), "idle_draws": len(idle), "draws": len(eff), "bins": bins,
            "recall_from_20_pct": _prop(sum(1 for r in from20 if r["score"]["culprit_found"]), len(from20))}


def curve(rows):
    """Recall by magnitude over the given fault draws."""
    out = []
    for pct in LADDER_PCT:
        sub = [r for r in rows if r["magnitude_pct"] == pct]
        if sub:
            out.append({"magnitude_pct": pct, "draws": len(sub),
                        "recall": _prop(sum(1 for r in sub if r["score"]["culprit_found"]), len(sub))})
    return out


def late_spread(rows):
    """What the late-start judge saw in the draws of a late rank, named or not, by its delay:
    in how many the late rank itself was blamed for arriving late, and there the median of its
    lead per call and of that lead's share of the call (a rank is named late from 1% of it,
    with p at most 0.001 and 3x the other ranks' own lateness); in the clean traced draws, the
    largest share a rank blamed for arriving late reached, and in how many p passed."""
    def p_passed(xs):  # TIMING_STRAGGLER_ALPHA
        return sum(1 for x in xs if x["p_value"] is not None and x["p_value"] <= 1e-3)
    out = []
    for us in LATE_US:
        sub = [r for r in rows if r["class"] == "rank-late" and r["latency_us"] == us and r.get("straggler")]
        mine = sorted((r["straggler"] for r in sub if r["straggler"]["rank"] == r["truth"]["rank"]
                       and r["straggler"]["cause"] == "late_arrival"), key=lambda x: x["share_pct"])
        if sub:
            lead = sorted(x["lead_us"] for x in mine)
            out.append({"latency_us": us, "draws": len(sub), "blamed": len(mine),
                        "median_lead_us": lead[len(lead) // 2] if lead else None,
                        "median_share_pct": mine[len(mine) // 2]["share_pct"] if mine else None,
                        "p_passed": p_passed(mine)})
    clean = [r["straggler"] for r in rows if r["class"] == "none" and r["command"] == "trace" and r.get("straggler")]
    late = [x for x in clean if x["cause"] == "late_arrival"]
    return {"by_latency": out, "clean_draws": len(clean),
            "clean_max_share_pct": max((x["share_pct"] for x in late), default=None),
            "clean_p_passed": p_passed(late)}


def trace_spread(rows):
    """What the traced runs measured, named or not: in the draws of one slowed ring hop,
    how often that hop had the largest ratio of all, and its ratios and scores; in the
    clean traced draws, the largest ratio and score of any hop (the measured spread)."""
    link, clean = [], []
    for r in rows:
        hops = [h for h in r.get("trace_hops", []) if h[2] is not None]
        if not hops or r["command"] != "trace":
            continue
        if r["class"] == "link-oneway":
            a, b = (int(x[1:]) - 1 for x in r["truth"]["hosts"])
            mine = [h for h in hops if (h[0], h[1]) == (a, b)]
            if mine:
                link.append({"magnitude_pct": r["magnitude_pct"], "ratio": mine[0][2], "score": mine[0][3],
                             "top": mine[0][2] == max(h[2] for h in hops)})
        elif r["class"] == "none":
            clean.append({"max_ratio": max(h[2] for h in hops), "max_score": max(h[3] for h in hops)})
    return {"slowed_hop_draws": len(link), "slowed_hop_has_top_ratio": sum(x["top"] for x in link),
            "slowed_hops": link, "clean_draws": len(clean),
            "clean_max_ratio": max((x["max_ratio"] for x in clean), default=None),
            "clean_max_score": max((x["max_score"] for x in clean), default=None)}


def write_atomic(path, obj):
    """The JSON into a temporary file beside path, then renamed over it."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".campaign.", dir=d)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(obj, f, separators=(",", ":"), allow_nan=False)
            f.write("\n")
        os.chmod(tmp, 0o644)  # mkstemp's 0600 is for secrets; a result is read by others
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv):
    if len(argv) >= 3 and argv[0] == "draws":
        for d in draws(int(argv[1]), int(argv[2])):
            print(json.dumps(d))
        return 0
    if len(argv) >= 2 and argv[0] in ("table", "markdown", "floors"):
        from campaign_text import floors, markdown, table
        results = []
        for p in argv[1:]:
            with open(p) as f:
                res = json.load(f)
            # the figures of this code from the draws as recorded (a result written by
            # an older runner, or one still running, lacks the newer ones)
            res["summary"] = dict(figures(res["results"]), runs_failed=sum(1 for r in res["results"] if "score" not in r))
            results.append(res)
        if argv[0] == "floors":
            return floors(results[0])
        print(table(results) if argv[0] == "table" else markdown(results, argv[1:]), end="")
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
