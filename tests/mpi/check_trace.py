#!/usr/bin/env python3
"""Invariants of the trace of an allreduce or scale report made with --trace.

usage: check_trace.py REPORT.json [--entries N]
Every measured point carries "trace": a schedule variant its hops (a ring its
n hops r -> r+1, each with one message per step and timed iteration, all of
them paired when the ring buffer held the point), a direct variant one call
per rank and timed iteration; the summary lists slow_hops and slow_ranks with
their fields. With --entries N (a ring smaller than a point) entries may be
missing but what is there still pairs up. Prints what it checked; exits 1 on
any violation.
"""
import json
import math
import sys

HOP_FIELDS = ["from_rank", "to_rank", "hosts", "locality", "messages", "hop_time_us", "wait_us",
              "median_hop_us", "ratio", "score", "share", "waited", "slow", "suspect", "retests",
              "retests_confirmed"]
SLOW_HOP_FIELDS = ["algorithm", "bytes", "ranks", "from_rank", "to_rank", "hosts", "locality",
                   "hop_time_us", "median_hop_us", "ratio", "score", "share", "consistency_p",
                   "retests_confirmed"]
SLOW_RANK_FIELDS = ["algorithm", "bytes", "ranks", "rank", "host", "reason", "hops_slow",
                    "hops_total", "reduce_gbps", "median_reduce_gbps", "ratio", "score", "share"]
DIRECT = {"mpi", "shm"}


def ring_steps(nbytes, n, segment=256 * 1024, width=4):
    """Steps per rank of the ring: 2(n-1) chunk transfers, each cut into segments."""
    count = nbytes // width
    seg = max(segment // width, 1)
    chunk = -(-count // n)  # the largest chunk
    return 2 * (n - 1) * max(-(-chunk // seg), 1)


def main():
    path = sys.argv[1]
    small = "--entries" in sys.argv
    d = json.load(open(path))
    bad = []

    def need(cond, what):
        if not cond:
            bad.append(what)

    need(d["config"]["trace"] is True, "config.trace is true")
    world = d["context"]["mpi"]["ranks"]
    host = {r["rank"]: r["host"] for r in d["context"]["ranks"]}
    points = 0
    for r in d["results"]:
        where = f'{r["algorithm"]} {r["bytes"]} B on {r["ranks"]} ranks'
        if "skipped" in r or r.get("predicted"):
            need("trace" not in r, f"{where}: no trace for a point not measured")
            continue
        points += 1
        t = r.get("trace")
        if not need(t is not None, f"{where}: has a trace") and t is None:
            continue
        n, iters = r["ranks"], r["iterations"]
        need(t["clock_error_us"] is None or t["clock_error_us"] >= 0, f"{where}: clock error")
        if r["algorithm"] in DIRECT:
            need(len(t["rank_call_us"]) == n, f"{where}: a call time per rank")
            if not small:
                need(t["calls"] == n * iters, f"{where}: {t['calls']} calls, expected {n * iters}")
                need(all(x is not None and x > 0 for x in t["rank_call_us"]), f"{where}: call times")
            continue
        hops = t["hops"]
        for h in hops:
            need(all(f in h for f in HOP_FIELDS), f"{where}: hop fields {sorted(h)}")
            need(h["from_rank"] != h["to_rank"] and 0 <= h["from_rank"] < world and 0 <= h["to_rank"] < world,
                 f"{where}: hop {h['from_rank']}->{h['to_rank']}")
            need(h["hosts"] == [host[h["from_rank"]], host[h["to_rank"]]], f"{where}: hosts of a hop")
            need(h["hop_time_us"] >= 0 and h["hop_time_us"] <= h["wait_us"] + 1e-6,
                 f"{where}: {h['from_rank']}->{h['to_rank']}: the attributed time is part of the wait")
            # hops.h "Suspects": re-measured at most twice, named only when every one found it
            need(0 <= h["retests_confirmed"] <= h["retests"] <= 2 and not (h["slow"] and h["suspect"]),
                 f"{where}: {h['from_rank']}->{h['to_rank']}: retests {h['retests']}, confirmed "
                 f"{h['retests_confirmed']}, slow {h['slow']}, suspect {h['suspect']}")
            need(not h["slow"] or h["retests_confirmed"] == 0 or h["retests_confirmed"] == h["retests"] == 2,
                 f"{where}: {h['from_rank']}->{h['to_rank']}: named after {h['retests_confirmed']} of "
                 f"{h['retests']} re-measurements")
        need(sum(h["messages"] for h in hops) == t["messages"], f"{where}: messages add up")
        if small:
            continue
        need(t["unmatched"] == 0 and t["dropped"] == 0, f"{where}: every message paired")
        need(t["iterations"] == iters, f"{where}: {t['iterations']} iterations traced of {iters}")
        if r["algorithm"] == "ring" and n > 1 and r["dtype"] == "float32":
            # in scale the communicator's ranks are world ranks in placement order
            order = next((c["world_ranks"] for c in d["summary"].get("communicators", [])
                          if c["ranks"] == n), list(range(n)))
            want = sorted((order[i], order[(i + 1) % n]) for i in range(n))
            got = sorted((h["from_rank"], h["to_rank"]) for h in hops)
            need(got == want, f"{where}: ring hops {got}, expected {want}")
            per = ring_steps(r["bytes"], n) * iters
            need(all(h["messages"] == per for h in hops), f"{where}: {per} messages per hop")
    need(points > 0, "some point was measured")
    s = d["summary"]
    for k, fields in (("slow_hops", SLOW_HOP_FIELDS), ("slow_ranks", SLOW_RANK_FIELDS)):
        need(isinstance(s.get(k), list), f"summary.{k} is a list")
        for e in s.get(k, []):
            need(all(f in e for f in fields), f"summary.{k}: fields {sorted(e)}")
            # hops.h: slow by its score, its ratio past every other, or its consistency;
            # and always past the share. A rank: its slow hops' or its reduction's.
            past = (e["ratio"] >= 2 or (e["score"] or 0) >= 3.5 or
                    (e.get("consistency_p") is not None and e["consistency_p"] <= 1e-3))
            # a suspect re-measured twice and found both times needs a tenth of an iteration
            share = 0.1 if e.get("retests_confirmed", 0) >= 2 else 0.25
            if k == "slow_ranks" and e["reason"] == "reduce" and e["retests_confirmed"] == 2:
                # a slow reducer found again twice: 1.25x, no share asked ("Ranks")
                past, share = e["ratio"] >= 1.25, float("-inf")
            need(past and e["share"] >= share,
                 f"summary.{k}: named past the thresholds (ratio {e['ratio']}, score {e['score']}, "
                 f"consistency_p {e.get('consistency_p')}, share {e['share']})")
    print(f"trace: {points} points; slow hops {[(h['algorithm'], h['from_rank'], h['to_rank']) for h in s.get('slow_hops', [])]}"
          f"; slow ranks {[(k['algorithm'], k['rank'], k['reason']) for k in s.get('slow_ranks', [])]}")
    for b in bad:
        print("violation: " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
