#!/usr/bin/env python3
"""Invariants of a `collscope scale` report.

usage: check_scale_report.py REPORT WORLD RANKS SIZES VARIANTS EXTRAPOLATE GRAD_BYTES OVERLAP
  RANKS, SIZES, VARIANTS, EXTRAPOLATE: comma-separated (EXTRAPOLATE may be empty);
  GRAD_BYTES: 0 when the step model is off. Exits 1 naming the first broken invariant.
"""
import json
import sys


def fail(msg):
    print("check_scale_report: " + msg)
    sys.exit(1)


def near(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def ints(s):
    return [int(x) for x in s.split(",") if x]


def check_measured(r, grad, overlap, ref):
    key = (r["algorithm"], r["bytes"], r["ranks"])
    if r.get("skipped"):
        return
    for f in ("iterations", "wrong", "time_us", "busbw_gbps", "samples_us", "hosts", "placement",
              "bandwidth_efficiency", "latency_growth", "model"):
        if f not in r:
            fail(f"{key}: no field {f}")
    if r["wrong"] != 0:
        fail(f"{key}: {r['wrong']} wrong elements")
    if not r["time_us"]["p50"] > 0:
        fail(f"{key}: p50 {r['time_us']['p50']}")
    base = ref[(r["algorithm"], r["bytes"])]
    if r["ranks"] == base["ranks"]:
        if r["latency_growth"] != 1:
            fail(f"{key}: latency growth at the smallest count is {r['latency_growth']}")
    elif not near(r["latency_growth"], r["time_us"]["p50"] / base["time_us"]["p50"]):
        fail(f"{key}: latency growth is not t(n)/t(n_min)")
    if r["ranks"] > 1 and base["ranks"] > 1 and not near(
            r["bandwidth_efficiency"], r["busbw_gbps"] / base["busbw_gbps"]):
        fail(f"{key}: bandwidth efficiency is not busbw(n)/busbw(n_min)")
    m = r["model"]
    if m["shape"] != r["algorithm"] and not m["shape_borrowed"]:
        fail(f"{key}: a shape not its own, not marked borrowed")
    check_step(r, key, grad, overlap)


def check_step(r, key, grad, overlap):
    if not grad or r["bytes"] != grad:
        if "efficiency" in r:
            fail(f"{key}: step model away from the gradient size")
        return
    for f in ("efficiency", "speedup", "strong_speedup", "strong_efficiency", "overlapped"):
        if f not in r:
            fail(f"{key}: no step model field {f}")
    if not 0 < r["efficiency"] <= 1:
        fail(f"{key}: efficiency {r['efficiency']}")
    if not near(r["speedup"], r["ranks"] * r["efficiency"]):
        fail(f"{key}: speedup is not n E(n)")
    if not 0 < r["strong_speedup"] <= r["ranks"] * (1 + 1e-12):
        fail(f"{key}: strong speedup {r['strong_speedup']} of {r['ranks']}")
    o = r["overlapped"]
    if o["overlap"] != overlap or o["efficiency"] < r["efficiency"] - 1e-12:
        fail(f"{key}: overlap {o['overlap']} makes efficiency {o['efficiency']} worse")


def check_predicted(r, grad):
    key = (r["algorithm"], r["bytes"], r["ranks"], "predicted")
    for f in ("time_us", "busbw_gbps", "bandwidth_efficiency", "latency_growth", "model"):
        if f not in r:
            fail(f"{key}: no field {f}")
    if "samples_us" in r or "hosts" in r:
        fail(f"{key}: a prediction with samples or hosts")
    if not r["time_us"]["p50"] > 0:
        fail(f"{key}: predicted time {r['time_us']['p50']}")
    if not near(r["model"]["time_us"], r["time_us"]["p50"]):
        fail(f"{key}: time is not the model's")
    if grad and r["bytes"] == grad and "speedup" not in r:
        fail(f"{key}: no step model at the gradient size")


def check_summary(d, variants, grad):
    s = d["summary"]
    names = [v["algorithm"] for v in s["variants"]]
    if names != variants:
        fail(f"summary variants {names}, expected {variants}")
    for v in s["variants"]:
        fit = v["fit"]
        if fit is None:
            fail(f"{v['algorithm']}: no fit")
        for f in ("alpha_us", "beta_us_per_byte", "gamma_us_per_byte", "rms_error", "max_error",
                  "points", "shape", "shape_borrowed"):
            if f not in fit:
                fail(f"{v['algorithm']}: fit without {f}")
        for f in ("alpha_us", "beta_us_per_byte", "gamma_us_per_byte"):
            if fit[f] < 0:
                fail(f"{v['algorithm']}: negative {f}")
        if (v["algorithm"] == "mpi") != fit["shape_borrowed"]:
            fail(f"{v['algorithm']}: shape_borrowed {fit['shape_borrowed']}")
        if grad:
            for k in ("sweet_spot", "sweet_spot_overlapped"):
                p = v[k]["predicted"]
                if p is None or not p["predicted"] or p["ranks"] < 1:
                    fail(f"{v['algorithm']}: {k} {p}")
                if v[k]["measured"] is None or v[k]["measured"]["predicted"]:
                    fail(f"{v['algorithm']}: {k} measured {v[k]['measured']}")
    if grad and s["step_model"]["grad_bytes"] != grad:
        fail("step_model.grad_bytes")
    if s["verdict"] != "ok" or s["wrong_total"] != 0:
        fail(f"verdict {s['verdict']}")


def main():
    path, world = sys.argv[1], int(sys.argv[2])
    ranks, sizes = ints(sys.argv[3]), ints(sys.argv[4])
    variants = sys.argv[5].split(",")
    extrapolate, grad, overlap = ints(sys.argv[6]), int(sys.argv[7]), float(sys.argv[8])
    with open(path) as f:
        d = json.load(f, parse_constant=lambda c: fail(f"{c} in the report: not JSON"))
    if d.get("schema_version") != 1 or d.get("command") != "scale" or d.get("complete") is not True:
        fail("schema_version, command or complete")
    if d["context"]["mpi"]["ranks"] != world:
        fail("context.mpi.ranks")
    if d["config"]["ranks"] != ranks or d["config"]["algorithms"] != variants:
        fail(f"config ranks {d['config']['ranks']} algorithms {d['config']['algorithms']}")
    measured = [r for r in d["results"] if not r["predicted"]]
    predicted = [r for r in d["results"] if r["predicted"]]
    want = {(v, b, n) for v in variants for b in sizes for n in ranks}
    got = [(r["algorithm"], r["bytes"], r["ranks"]) for r in measured]
    if len(got) != len(set(got)) or set(got) != want:
        fail(f"measured points {sorted(got)}, expected {sorted(want)}")
    want = {(v, b, n) for v in variants for b in sizes for n in extrapolate}
    got = [(r["algorithm"], r["bytes"], r["ranks"]) for r in predicted]
    if len(got) != len(set(got)) or set(got) != want:
        fail(f"predicted points {sorted(got)}, expected {sorted(want)}")
    ref = {}
    for r in measured:
        k = (r["algorithm"], r["bytes"])
        if not r.get("skipped") and (k not in ref or r["ranks"] < ref[k]["ranks"]):
            ref[k] = r
    for r in measured:
        check_measured(r, grad, overlap, ref)
    for r in predicted:
        check_predicted(r, grad)
    comms = d["summary"]["communicators"]
    if [c["ranks"] for c in comms] != ranks or any(len(c["world_ranks"]) != c["ranks"] or
                                                     c["world_ranks"][0] != 0 for c in comms):
        fail(f"communicators {comms}")
    check_summary(d, variants, grad)


main()
