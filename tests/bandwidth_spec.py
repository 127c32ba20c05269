#!/usr/bin/env python3
"""bandwidth_spec.py DERIVED OUT [--no-verify]: the spec DERIVED (accept --derive) with its
latency and p99 maxima dropped (and with --no-verify its verify check), into OUT. On this repository's test machines the ranks share two cores, and
latency and p99 of two runs minutes apart are the scheduler's: the suites judge bandwidth and
busbw against derived thresholds, and latency and p99 by hand."""
import json
import sys

d = json.load(open(sys.argv[1]))
c = d["checks"]
c.get("links", {}).pop("max_latency_us", None)
for p in c.get("allreduce", {}).get("points", []):
    p.pop("max_p99_us", None)
if "--no-verify" in sys.argv[3:]:
    c.pop("verify", None)
json.dump(d, open(sys.argv[2], "w"))
