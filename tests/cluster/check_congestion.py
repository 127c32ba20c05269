#!/usr/bin/env python3
"""Checks a `collscope congestion` report of the two-rack test (tests/cluster/congestion.sh).

check_congestion.py REPORT none            no victim degraded at the largest size, no verdict
check_congestion.py REPORT uplink RACK_A RACK_B
    every victim degraded at the largest size and, for each, the classifier names a
    segment between its hosts of RACK_A and of RACK_B (comma-separated host names),
    under the load and not alone.
Prints the figures either way; exit 0 when they hold, 1 when not, 2 on bad usage.
"""
import json
import sys


def figures(rep):
    pts = rep["summary"]["points"]
    largest = max(p["bytes"] for p in pts)
    rows = [p for p in pts if p["bytes"] == largest]
    for p in rows:
        print("    group %d %s %d bytes: busbw %.4g alone, %.4g together GB/s; factors busbw %.2f, mean %.2f, p50 %.2f%s"
              % (p["group"], p["algorithm"], p["bytes"], p["busbw_alone_gbps"], p["busbw_together_gbps"],
                 p["factor_busbw"], p["factor_mean"], p["factor_p50"], ", degraded" if p["degraded"] else ""))
    for w in rep["summary"]["where"]:
        for line in w.get("slow_hops", []):
            print("    traced, group %d: %s" % (w["group"], line))
        for v in w["verdicts"]:
            print("    where, group %d: %s%s" % (w["group"], v["line"], " (also alone)" if v["also_alone"] else ""))
    return rows


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in ("none", "uplink"):
        print(__doc__, file=sys.stderr)
        return 2
    rep = json.load(open(sys.argv[1]))
    rows = figures(rep)
    victims = {g["group"]: g for g in rep["summary"]["groups"] if g["role"] == "victim"}
    if sys.argv[2] == "none":
        bad = [p for p in rows if p["degraded"]]
        named = [v for w in rep["summary"]["where"] for v in w["verdicts"] if not v["also_alone"]]
        return 1 if bad or named else 0
    racks = [set(sys.argv[3].split(",")), set(sys.argv[4].split(","))]
    ok = all(p["degraded"] for p in rows) and len(rows) == len(victims)
    for g, grp in victims.items():
        sides = [set(grp["hosts"]) & r for r in racks]
        hits = [v for w in rep["summary"]["where"] if w["group"] == g for v in w["verdicts"]
                if v["kind"] == "segment" and not v["also_alone"]
                and sorted([set(v["hosts_a"]), set(v["hosts_b"])], key=sorted) == sorted(sides, key=sorted)]
        traced = [w for w in rep["summary"]["where"] if w["group"] == g and w.get("trace", {}).get("hops")]
        if not traced:
            print("    group %d: its all-reduce was not traced under the load" % g)
            ok = False
        if not hits:
            print("    group %d: no segment %s <-> %s named under the load" % (g, sorted(sides[0]), sorted(sides[1])))
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
