#!/usr/bin/env python3
"""Invariants of an allreduce report (reports/README.md), checked from the outside.
The fields' presence and types are the schema's (check_schema in tests/lib.sh);
this checks their values.

usage: check_allreduce_report.py REPORT.json RANKS VARIANT[,VARIANT...]
Prints each violation and exits 1 if there is any.
"""
import json
import math
import sys


def percentile(xs, q):
    """numpy's default (type 7) percentile, without numpy."""
    s = sorted(xs)
    h = (len(s) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def main():
    path, ranks, variants = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
    d = json.load(open(path))
    bad = []

    def need(cond, what):
        if not cond:
            bad.append(what)

    need(d.get("schema_version") == 1, "schema_version is 1")
    need(d.get("command") == "allreduce", "command is allreduce")
    need(d.get("complete") is True, "complete is true")
    ctx = d["context"]
    need(ctx["mpi"]["ranks"] == ranks, "context.mpi.ranks")
    need(len(ctx["ranks"]) == ranks, "one context.ranks entry per rank")
    need(sum(len(h["ranks"]) for h in ctx["hosts"]) == ranks, "hosts cover every rank")
    need(ctx["tool"]["name"] == "collscope" and ctx["tool"]["version"], "tool name and version")
    need(ctx["started_utc"].endswith("Z") and ctx["finished_utc"].endswith("Z"), "UTC times")
    cs = ctx.get("clock_sync") or {}
    need(isinstance(cs.get("error_us"), (int, float)) and math.isfinite(cs["error_us"])
         and cs.get("syncs", 0) >= 1, "context.clock_sync has a finite error and a sync")
    need(d["config"].get("timing") in ("window", "barrier", "pipelined"), "config.timing")
    seen = set()
    for r in d["results"]:
        where = f'{r["algorithm"]} {r["bytes"]} B'
        seen.add(r["algorithm"])
        need(r["ranks"] == ranks, f"{where}: ranks")
        if "skipped" in r:
            continue
        t = r["time_us"]
        s = r["samples_us"]
        need(len(s) == r["iterations"] and len(s) > 0, f"{where}: one sample per iteration")
        need(r["wrong"] == 0, f"{where}: wrong == 0")
        order = [t["min"], t["p50"], t["p90"], t["p99"], t["p999"], t["max"]]
        defined = [x for x in order if x is not None]
        need(defined == sorted(defined), f"{where}: percentiles ordered {order}")
        need(close(t["p50"], percentile(s, 0.5)), f"{where}: p50 recomputable from samples_us")
        need(close(t["min"], min(s)) and close(t["max"], max(s)), f"{where}: min and max")
        need(close(t["mean"], sum(s) / len(s)), f"{where}: mean")
        need((t["p99"] is None) == (len(s) < 100), f"{where}: p99 null exactly below 100 samples")
        need((t["p999"] is None) == (len(s) < 1000), f"{where}: p999 null exactly below 1000")
        factor = 2 * (ranks - 1) / ranks
        need(close(r["busbw_gbps"], r["algbw_gbps"] * factor), f"{where}: busbw = algbw*2(n-1)/n")
        need(close(r["algbw_gbps"], r["bytes"] / (t["p50"] * 1e-6) / 1e9), f"{where}: algbw from p50")
        need(len(r["rank_mean_us"]) == ranks, f"{where}: a mean per rank")
        need(0 <= r["straggler_rank"] < ranks, f"{where}: straggler is a rank")
        need("timing" in r, f"{where}: timing named")
        if r.get("timing") == "window":
            # late starts are dropped (timed from the start) or, when most were late, all
            # kept and timed from the last arrival: never both, never every sample lost
            frm, late, kept = r["timed_from"], r["late_starts"], r["late_starts_retimed"]
            need(frm in ("start", "last_arrival"), f"{where}: timed_from")
            need(kept == 0 and late <= r["iterations"] if frm == "start"
                 else late == 0 and 2 * kept > r["iterations"],
                 f"{where}: {late} dropped, {kept} retimed, timed from {frm}")
        if r.get("straggler_cause") is None:
            need(r["rank_mean_us"][r["straggler_rank"]] == min(r["rank_mean_us"]),
                 f"{where}: without a cause, the straggler spent least time inside the call")
        else:
            need(len(r["rank_late_us"]) == ranks, f"{where}: a lateness per rank")
            need(r["straggler_us"] is not None and r["straggler_us"] >= 0, f"{where}: straggler_us")
    for v in variants:
        need(v in seen, f"variant {v} present")
    need(d["summary"]["wrong_total"] == 0, "summary wrong_total == 0")
    for b in bad:
        print("violated:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
