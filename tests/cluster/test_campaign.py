#!/usr/bin/env python3
"""Unit tests of the campaign's pure half (campaign.py): the generator of draws, the
scorer, the figures. Run by tests/cli/campaign_unit.sh; no cluster, no MPI."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import campaign as C  # noqa: E402
import campaign_text as T  # noqa: E402


def host_suspect(host, direction="both", metric="bandwidth"):
    return {"kind": "host", "host": host, "direction": direction, "metric": metric, "locality": "cross_host"}


def link_suspect(a, b, direction):
    return {"kind": "link", "host_a": a, "host_b": b, "direction": direction, "metric": "bandwidth",
            "locality": "cross_host"}


def links_report(*suspects):
    return {"summary": {"suspects": list(suspects)}}


def scored(d, acc, secs=10.0):
    return dict(d, accusations=acc, score=C.score(d, acc), time_to_verdict_s=secs)


class Generator(unittest.TestCase):
    def test_every_class_in_every_block(self):
        for seed in range(1, 21):
            ds = C.draws(seed, 2 * len(C.CLASSES))
            for b in (0, 1):
                got = sorted(d["class"] for d in ds[b * len(C.CLASSES):(b + 1) * len(C.CLASSES)])
                self.assertEqual(got, sorted(C.CLASSES), "seed %d block %d" % (seed, b))

    def test_seeded(self):
        self.assertEqual(C.draws(7, 30), C.draws(7, 30))
        self.assertNotEqual(C.draws(7, 30), C.draws(8, 30))
        # a draw does not depend on how many were asked for
        self.assertEqual(C.draws(7, 30)[:10], C.draws(7, 10))

    def test_truth_recorded(self):
        seen = set()
        for d in C.draws(3, 400):
            t, cls = d["truth"], d["class"]
            seen.update([d["load"], d["command"]])
            self.assertIn(d["command"], C.COMMANDS[cls])
            if cls in C.BANDWIDTH or cls in ("rank-compute", "regression"):
                self.assertIn(d["magnitude_pct"], C.LADDER_PCT)
            if cls == "rank-late":
                self.assertIn(d["latency_us"], C.LATE_US)
            if cls.startswith("host-"):
                self.assertEqual((t["kind"], t["direction"]), ("host", cls[5:]))
                self.assertEqual(len(t["hosts"]), 1)
            elif cls == "link-oneway":
                a, b = t["hosts"]
                self.assertNotEqual(a, b)
                if d["command"] == "trace":  # a ring hop r -> r+1
                    self.assertEqual(int(b[1:]), int(a[1:]) % C.HOSTS + 1)
            elif cls == "uplink":
                near, far = t["sides"]
                self.assertEqual(sorted(near + far, key=lambda h: int(h[1:])), ["h%d" % i for i in range(1, 6)])
                self.assertTrue(all(C.rack_of(int(h[1:])) == t["rack"] for h in far))
            elif cls in ("rank-compute", "rank-late"):
                self.assertEqual(t["hosts"], ["h%d" % (t["rank"] + 1)])
            elif cls == "none":
                self.assertEqual((t["kind"], t["hosts"]), ("none", []))
        self.assertTrue({"none", "cpu", "traffic", "links", "trace", "compare"} <= seen)

    def test_smoke_draws_are_gross_or_clean_or_one_traced_link(self):
        for d in C.smoke_draws():
            if d["command"] == "trace":  # the one marginal fault: its floor is nothing healthy named
                self.assertEqual((d["class"], d["magnitude_pct"], d["load"]), ("link-oneway", 35, "none"))
                a, b = (int(h[1:]) for h in d["truth"]["hosts"])
                self.assertEqual(b, a % C.HOSTS + 1, "a hop of the traced ring")
                continue
            if d["command"] == "compare":  # a no-change gate under load: it must not fail
                self.assertEqual((d["class"], d["truth"]["kind"], d["load"]), ("none", "none", "cpu"))
                continue
            self.assertIn(d["magnitude_pct"], (None, 90))
            self.assertEqual(d["command"], "links")
            # load only beside a clean draw: its floor is that nothing healthy is accused
            self.assertTrue(d["load"] == "none" or d["class"] == "none")
        self.assertIn("traffic", {d["load"] for d in C.smoke_draws()})
        self.assertEqual(sum(d["command"] == "trace" for d in C.smoke_draws()), 1)
        self.assertEqual(sum(d["command"] == "compare" for d in C.smoke_draws()), 1)


class LinksEvidence(unittest.TestCase):
    def test_matrix_and_line_ratios(self):
        # 3 hosts, h1 and h10 one rank each, h2 two ranks; h2 sends at half the rate
        ranks = [{"rank": 0, "host": "h1"}, {"rank": 1, "host": "h2"}, {"rank": 2, "host": "h2"},
                 {"rank": 3, "host": "h10"}]
        a, b, bw = [], [], []
        for x in range(4):
            for y in range(4):
                if x != y:
                    a.append(x)
                    b.append(y)
                    bw.append(None if (x, y) == (3, 0) else 9.0 if ranks[x]["host"] == ranks[y]["host"]
                              else 0.5 if ranks[x]["host"] == "h2" else 1.0)
        m = C.links_matrix({"context": {"ranks": ranks}, "pairs": {"a": a, "b": b, "bw_p50_gbps": bw}})
        self.assertEqual(m["hosts"], ["h1", "h2", "h10"], "host order is natural, not lexical")
        self.assertEqual(m["bw_gbps"][1][0], 0.5, "the median of the host pair's rank pairs")
        self.assertIsNone(m["bw_gbps"][1][1], "same-host pairs are not cells")
        self.assertIsNone(m["bw_gbps"][2][0], "an unmeasured pair is None")
        self.assertEqual(C.line_ratios(m, "h2"), (0.5, 1.0))
        self.assertEqual(C.line_ratios(m, "h9"), (None, None))


class TraceAccusations(unittest.TestCase):
    def test_a_persistent_straggler_is_named_once(self):
        rep = {"summary": {"slow_hops": [], "slow_ranks": []},
               "results": [{"straggler_rank": 2, "straggler_cause": "late_arrival", "straggler_persistent": True},
                           {"straggler_rank": 2, "straggler_cause": "late_arrival", "straggler_persistent": True},
                           {"straggler_rank": 1, "straggler_cause": "late_arrival", "straggler_persistent": False}]}
        acc = C.trace_accusations(rep)
        self.assertEqual(acc, [{"kind": "rank", "direction": "late", "hosts": [], "ranks": [2]}])
        truth = {"class": "rank-late", "truth": {"kind": "rank", "direction": "late", "rank": 2, "hosts": ["h3"]}}
        self.assertEqual(C.score(truth, acc)["outcome"], "right")


class Scorer(unittest.TestCase):
    host = {"class": "host-send", "truth": {"kind": "host", "direction": "send", "hosts": ["h3"]}}
    link = {"class": "link-oneway", "truth": {"kind": "link", "direction": "oneway", "hosts": ["h4", "h2"]}}
    none = {"class": "none", "truth": {"kind": "none", "direction": "", "hosts": []}}
    uplink = {"class": "uplink", "truth": {"kind": "segment", "direction": "both", "hosts": [],
                                           "sides": [["h1", "h2", "h3"], ["h4", "h5"]]}}
    rank = {"class": "rank-compute", "truth": {"kind": "rank", "direction": "compute", "rank": 2, "hosts": ["h3"]}}
    regression = {"class": "regression", "truth": {"kind": "regression", "direction": "slower", "hosts": []}}

    def outcome(self, d, acc):
        return C.score(d, acc)["outcome"]

    def test_host(self):
        acc = C.links_accusations
        self.assertEqual(self.outcome(self.host, acc(links_report(host_suspect("h3", "send")))), "right")
        self.assertEqual(self.outcome(self.host, acc(links_report(host_suspect("h3", "both")))), "wrong_class")
        self.assertEqual(self.outcome(self.host, acc(links_report(link_suspect("h1", "h3", "b->a")))), "wrong_class")
        self.assertEqual(self.outcome(self.host, acc(links_report())), "missed")
        self.assertEqual(self.outcome(self.host, acc(links_report(host_suspect("h2")))), "healthy_accused")
        both = C.score(self.host, acc(links_report(host_suspect("h3", "send"), host_suspect("h1"))))
        self.assertEqual((both["outcome"], both["culprit_found"]), ("healthy_accused", True))
        # latency suspects are not what was injected
        self.assertEqual(self.outcome(self.host, acc(links_report(host_suspect("h1", metric="latency")))), "missed")

    def test_link_direction(self):
        acc = C.links_accusations
        # h2 < h4: the report's a->b is h2 -> h4, and b->a h4 -> h2 (the slowed one)
        self.assertEqual(self.outcome(self.link, acc(links_report(link_suspect("h2", "h4", "b->a")))), "right")
        self.assertEqual(self.outcome(self.link, acc(links_report(link_suspect("h2", "h4", "a->b")))), "wrong_class")
        self.assertEqual(self.outcome(self.link, acc(links_report(link_suspect("h2", "h4", "both")))), "wrong_class")
        self.assertEqual(self.outcome(self.link, acc(links_report(host_suspect("h4", "send")))), "wrong_class")
        self.assertEqual(self.outcome(self.link, acc(links_report(link_suspect("h1", "h4", "a->b")))),
                         "healthy_accused")

    def test_clean(self):
        self.assertEqual(self.outcome(self.none, []), "clean_ok")
        self.assertEqual(self.outcome(self.none, C.links_accusations(links_report(host_suspect("h1")))),
                         "healthy_accused")
        self.assertEqual(self.outcome(self.none, C.compare_accusations(1)), "healthy_accused")
        self.assertEqual(self.outcome(self.none, C.compare_accusations(0)), "clean_ok")

    def test_uplink(self):
        seg = {"kind": "segment", "direction": "both", "hosts_a": ["h4", "h5"], "hosts_b": ["h1", "h2", "h3"],
               "metric": "bandwidth", "locality": "cross_host"}
        acc = C.links_accusations
        self.assertEqual(self.outcome(self.uplink, acc(links_report(seg))), "right")
        self.assertEqual(self.outcome(self.uplink, acc(links_report(link_suspect("h1", "h4", "both")))),
                         "wrong_class")
        self.assertEqual(self.outcome(self.uplink, acc(links_report(link_suspect("h1", "h2", "both")))),
                         "healthy_accused")
        self.assertEqual(self.outcome(self.uplink, acc(links_report(host_suspect("h4")))), "healthy_accused")

    def test_trace(self):
        rep = {"summary": {"slow_hops": [], "slow_ranks": [{"rank": 2, "host": "h3", "reason": "hops"}]},
               "results": [{"straggler_rank": 2, "straggler_cause": "slow_inside"}]}
        self.assertEqual(self.outcome(self.rank, C.trace_accusations(rep)), "right")
        rep["results"][0]["straggler_cause"] = "late_arrival"
        self.assertEqual(self.outcome(self.rank, C.trace_accusations(rep)), "wrong_class")
        # named for its reduction rate: its core is slow, whatever the straggler's cause says
        rep["summary"]["slow_ranks"][0]["reason"] = "reduce"
        self.assertEqual(self.outcome(self.rank, C.trace_accusations(rep)), "right")
        hop = {"summary": {"slow_hops": [{"from_rank": 1, "to_rank": 2, "hosts": ["h2", "h3"]}], "slow_ranks": []}}
        self.assertEqual(self.outcome(self.rank, C.trace_accusations(hop)), "wrong_class")
        link = {"class": "link-oneway", "truth": {"kind": "link", "direction": "oneway", "hosts": ["h2", "h3"]}}
        self.assertEqual(self.outcome(link, C.trace_accusations(hop)), "right")
        other = {"summary": {"slow_hops": [{"from_rank": 3, "to_rank": 4, "hosts": ["h4", "h5"]}], "slow_ranks": []}}
        self.assertEqual(self.outcome(self.rank, C.trace_accusations(other)), "healthy_accused")
        self.assertEqual(self.outcome(self.none, C.trace_accusations(other)), "healthy_accused")

    def test_accept(self):
        def report(*hosts):
            return {"summary": {"hosts": [{"name": n, "status": s} for n, s in hosts]}}
        acc = C.accept_accusations
        self.assertEqual(self.outcome(self.host, acc(report(("h1", "PASS"), ("h3", "FAIL")))), "right")
        self.assertEqual(self.outcome(self.host, acc(report(("h3", "INTERMITTENT")))), "right")
        # INCONCLUSIVE: noise explained the failure, no host accused
        self.assertEqual(self.outcome(self.host, acc(report(("h3", "INCONCLUSIVE")))), "missed")
        self.assertEqual(self.outcome(self.none, acc(report(("h2", "INCONCLUSIVE")))), "clean_ok")
        self.assertEqual(self.outcome(self.none, acc(report(("h2", "FAIL")))), "healthy_accused")
        self.assertEqual(self.outcome(self.host, acc(report(("h3", "FAIL"), ("h2", "FAIL")))),
                         "healthy_accused")
        # a link's end named as a host: the culprit, the wrong class
        self.assertEqual(self.outcome(self.link, acc(report(("h4", "FAIL")))), "wrong_class")
        # what its links check confirmed: a segment or a link fails the job, no host
        def confirmed(*suspects, hosts=()):
            r = report(*hosts)
            r["summary"]["links_suspects"] = list(suspects)
            return r
        seg = {"kind": "segment", "direction": "both", "hosts_a": ["h4", "h5"],
               "hosts_b": ["h1", "h2", "h3"], "metric": "bandwidth", "locality": "cross_host"}
        self.assertEqual(self.outcome(self.uplink, acc(confirmed(seg, hosts=[("h4", "PASS")]))), "right")
        self.assertEqual(self.outcome(self.uplink, acc(confirmed(seg, hosts=[("h4", "FAIL")]))),
                         "healthy_accused")
        self.assertEqual(self.outcome(self.link, acc(confirmed(link_suspect("h2", "h4", "b->a")))), "right")
        self.assertEqual(self.outcome(self.none, acc(confirmed(host_suspect("h1")))), "healthy_accused")
        self.assertEqual(self.outcome(self.host, acc(confirmed(host_suspect("h3", "send"),
                                                                 hosts=[("h3", "FAIL")]))), "right")
        # latency suspects are not what was injected
        self.assertEqual(self.outcome(self.none, acc(confirmed(host_suspect("h1", metric="latency")))),
                         "clean_ok")
        # a culprit search's set that passed together: the path between it and the rest
        def searched(reason, *far):
            r = report(*[(h, "PASS") for h in ("h1", "h2", "h3", "h4", "h5")])
            r["summary"]["isolations"] = [{"not_isolated": [{"hosts": list(far), "reason": reason}]}]
            return r
        self.assertEqual(self.outcome(self.uplink, acc(searched("across", "h4", "h5"))), "right")
        self.assertEqual(self.outcome(self.uplink, acc(searched("across", "h3", "h5"))),
                         "healthy_accused")
        self.assertEqual(self.outcome(self.uplink, acc(searched("together", "h4", "h5"))), "missed")
        self.assertEqual(self.outcome(self.none, acc(searched("across", "h4", "h5"))), "healthy_accused")

    def test_regression(self):
        self.assertEqual(self.outcome(self.regression, C.compare_accusations(1)), "right")
        self.assertEqual(self.outcome(self.regression, C.compare_accusations(0)), "missed")


class Effective(unittest.TestCase):
    """links' host and link faults by the slowdown they left in the measurement."""

    @staticmethod
    def row(pct, load, ref, found):
        # 3 hosts at 300 Mbit/s (0.0375 GB/s); h3 the culprit; the other cells at ref
        cells = [[None, ref, 0.01], [ref, None, 0.01], [ref, ref, None]]
        d = dict(Scorer.host, command="links", magnitude_pct=pct, latency_us=None, load=load,
                 base_rate_mbit=300, links_matrix={"hosts": ["h1", "h2", "h3"], "bw_gbps": cells})
        return scored(d, [{"kind": "host", "direction": "send", "hosts": ["h3"]}] if found else [])

    def test_a_cap_above_what_the_load_left_slows_nothing(self):
        self.assertEqual(C.reference_gbps({"hosts": ["h1", "h2", "h3"], "bw_gbps": [
            [None, 2, 9], [4, None, 9], [9, 9, None]]}, ["h3"]), 4, "cells off the culprit")
        rows = [self.row(50, "none", 0.03, True),       # E = 0.8: idle, 50% is 50% effective
                self.row(35, "cpu", 0.015, False),      # 0.8 x 0.65 x 0.0375 = 0.0195 above 0.015: 0%
                self.row(70, "cpu", 0.015, True),       # 0.009 against 0.015: 40%
                self.row(35, "traffic", 0.024, False)]  # 0.0195 against 0.024: 19%
        e = C.effective(rows)
        self.assertAlmostEqual(e["link_efficiency"], 0.8)
        self.assertEqual((e["idle_draws"], e["draws"]), (1, 4))
        got = {(b["from_pct"], b["to_pct"]): (b["draws"], b["recall"]["count"]) for b in e["bins"]}
        self.assertEqual(got, {(0, 10): (1, 0), (10, 20): (1, 0), (35, 50): (1, 1), (50, 100): (1, 1)})
        self.assertEqual((e["recall_from_20_pct"]["count"], e["recall_from_20_pct"]["of"]), (2, 2))
        self.assertIn("1 of 4 host and link faults left their pair less than 10% slower",
                      "\n".join(T.blind(C.figures(rows))))
        # without a draw free of load there is no E: none
        self.assertIsNone(C.effective([dict(r, load="cpu") for r in rows]))


class Figures(unittest.TestCase):
    def rows(self):
        h = dict(Scorer.host, command="links", magnitude_pct=50, latency_us=None)
        n = dict(Scorer.none, command="links", magnitude_pct=None, latency_us=None)
        small = dict(h, magnitude_pct=5)
        return [scored(h, [{"kind": "host", "direction": "send", "hosts": ["h3"]}], 10),
                scored(h, [{"kind": "host", "direction": "both", "hosts": ["h3"]}], 20),
                scored(small, [], 30),
                scored(h, [{"kind": "host", "direction": "send", "hosts": ["h1"]}], 40),
                scored(n, [], 50),
                scored(n, [{"kind": "host", "direction": "both", "hosts": ["h2"]}], 60)]

    def test_cells_and_proportions(self):
        f = C.figures(self.rows())
        o = f["overall"]
        self.assertEqual(o["cells"], {"right": 1, "wrong_class": 1, "missed": 1, "healthy_accused": 2,
                                      "clean_ok": 1})
        self.assertEqual((o["recall"]["count"], o["recall"]["of"]), (2, 4))  # h1 accused: h3 not found
        self.assertEqual((o["precision"]["count"], o["precision"]["of"]), (2, 4))
        self.assertEqual((o["attribution"]["count"], o["attribution"]["of"]), (1, 2))
        self.assertEqual((o["clean_false_accusation"]["count"], o["clean_false_accusation"]["of"]), (1, 2))
        self.assertEqual([c["class"] for c in f["classes"]], ["host-send", "none"])
        self.assertEqual([(s["magnitude_pct"], s["recall"]["count"], s["draws"]) for s in f["sensitivity"]],
                         [(5, 0, 1), (50, 2, 3)])
        self.assertIsNone(f["smallest_pct_with_recall_0_9"])
        self.assertEqual(o["time_to_verdict"]["p50_s"], 35)

    def test_goals(self):
        rows = self.rows()
        for r, load in zip(rows, ["none", "cpu", "none", "none", "none", "cpu"]):
            r["load"] = load
        g = {x["goal"]: x for x in C.goals(rows)}
        self.assertEqual(len(g), 6)
        p = g["precision >= 0.99"]
        self.assertEqual((p["figure"]["count"], p["figure"]["of"], p["met"]), (2, 4, False))
        r20 = g["recall >= 0.99 at 20% or more"]["figure"]
        self.assertEqual((r20["count"], r20["of"]), (2, 3))  # the 5% draw is not counted
        self.assertEqual(g["recall >= 0.95 at 10%"]["figure"]["of"], 0)
        self.assertFalse(g["recall >= 0.95 at 10%"]["met"])  # no draw: not met
        clean = g["no healthy host, link or rank accused in a clean draw under load"]
        self.assertEqual((clean["figure"]["count"], clean["figure"]["of"], clean["met"]), (1, 1, False))
        rows[5]["load"] = "none"  # the accusing clean draw was quiet: no loaded clean draw left
        clean = {x["goal"]: x for x in C.goals(rows)}[clean["goal"]]
        self.assertEqual((clean["figure"]["of"], clean["met"]), (0, False))
        smallest = g["the smallest slowdown caught with recall 0.9 stated (aim: 5%)"]
        self.assertEqual((smallest["smallest_pct"], smallest["met"]), (None, False))

    def test_a_late_start_is_given_as_its_share_of_the_call(self):
        late = {"class": "rank-late", "command": "trace", "magnitude_pct": None, "latency_us": 100,
                "load": "none", "truth": {"kind": "rank", "direction": "late", "rank": 2, "hosts": ["h3"]}}
        rows = [scored(dict(late, call_p50_us=p50), []) for p50 in (40000.0, 50000.0, 60000.0)]
        rows.append(scored(dict(late), []))  # an older result, without the call's p50
        (m,) = C.figures(rows)["late_start"]
        self.assertEqual((m["latency_us"], m["draws"]), (100, 4))
        self.assertAlmostEqual(m["median_share_of_call_pct"], 0.2)
        self.assertIn("a rank 100 us late (0.2% of the call): recall 0.00", "\n".join(T.blind(C.figures(rows))))
        del rows[:3]
        self.assertIsNone(C.figures(rows)["late_start"][0]["median_share_of_call_pct"])

    def test_the_late_start_judges_evidence_is_kept_named_or_not(self):
        def report(rank, cause, count, p, lead, persistent, p50=50000.0):
            return {"results": [{"straggler_rank": rank, "straggler_cause": cause, "straggler_count": count,
                                 "iterations": 10, "straggler_p_value": p, "straggler_us": lead,
                                 "straggler_persistent": persistent, "time_us": {"p50": p50}}]}
        ev = C.straggler_evidence(report(2, "late_arrival", 8, 3.9e-4, 400.0, False))
        self.assertEqual((ev["rank"], ev["count"], ev["calls"], ev["share_pct"], ev["persistent"]),
                         (2, 8, 10, 0.8, False))
        self.assertIsNone(C.straggler_evidence({"results": [{"time_us": {"p50": 1.0}}]}))
        late = {"class": "rank-late", "command": "trace", "magnitude_pct": None, "load": "none",
                "truth": {"kind": "rank", "direction": "late", "rank": 2, "hosts": ["h3"]}}
        rows = [dict(late, latency_us=100, straggler=C.straggler_evidence(report(2, "late_arrival", 8, 3.9e-4,
                                                                                   400.0, False))),
                dict(late, latency_us=100, straggler=C.straggler_evidence(report(2, "late_arrival", 7, 4e-3,
                                                                                   600.0, False))),
                # another rank blamed: not the late rank's evidence
                dict(late, latency_us=100, straggler=C.straggler_evidence(report(0, "late_arrival", 9, 2e-5,
                                                                                   900.0, False))),
                dict(late, latency_us=3000, straggler=C.straggler_evidence(report(2, "late_arrival", 10, 5e-7,
                                                                                    3500.0, True))),
                {"class": "none", "command": "trace", "latency_us": None, "truth": {"kind": "none"},
                 "straggler": C.straggler_evidence(report(0, "late_arrival", 8, 3.9e-4, 1000.0, False))}]
        le = C.late_spread(rows)
        by = {x["latency_us"]: x for x in le["by_latency"]}
        self.assertEqual((by[100]["draws"], by[100]["blamed"], by[100]["p_passed"]), (3, 2, 1))
        self.assertEqual(by[100]["median_lead_us"], 600.0)
        self.assertEqual((by[3000]["blamed"], by[3000]["p_passed"]), (1, 1))
        self.assertEqual((le["clean_draws"], le["clean_max_share_pct"], le["clean_p_passed"]), (1, 2.0, 1))
        text = "\n".join(T.evidence({"late_evidence": le}))
        self.assertIn("100 us: the late rank blamed in 2 of 3 draws, its lead 600 us a call (1.2% of it), "
                      "p passed in 1", text)
        self.assertIn("in 1 clean traced draws a rank blamed for arriving late reached 2% of the call", text)

    def test_wilson(self):
        v, lo, hi = C.wilson(0, 10)
        self.assertEqual((v, lo), (0, 0))
        self.assertAlmostEqual(hi, 0.2775, places=3)
        v, lo, hi = C.wilson(10, 10)
        self.assertEqual((v, hi), (1, 1))
        self.assertAlmostEqual(lo, 0.7225, places=3)
        self.assertEqual(C.wilson(0, 0), (None, None, None))

    def test_quantiles(self):
        xs = list(range(1, 101))
        self.assertEqual(C.quantile(xs, 0.5), 50.5)
        lo, hi = C.quantile_ci(xs, 0.5)
        self.assertTrue(lo <= 50.5 <= hi and 35 < lo and hi < 65)
        self.assertEqual(C.quantile_ci([3.0], 0.5), (None, None))
        self.assertEqual(C.quantile_ci([], 0.9), (None, None))

    def test_result_written_atomically_and_rendered(self):
        rows = self.rows()
        res = {"schema_version": 1, "command": "campaign", "complete": True,
               "context": {"duration_s": 1, "load_average_1m": {"min": 1, "max": 2, "mean": 1.5}},
               "config": {"seed": 1}, "summary": dict(C.figures(rows), runs_failed=0), "results": rows}
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.json")
            C.write_atomic(p, res)
            with open(p) as f:
                self.assertEqual(json.load(f)["summary"]["overall"]["draws"], 6)
            self.assertEqual(os.listdir(d), ["r.json"])
        text = T.table([res])
        self.assertIn("host-send", text)
        self.assertIn("0.50 [", text)
        # the clean draws that failed, per command: compare's are its no-change false alarms
        self.assertRegex(text, r"clean draws that failed, by command .*links 0\.50 \[[0-9., ]+\] \(1/2\)")


class Text(unittest.TestCase):
    def result(self, clean_accused, seed=1):
        n = dict(Scorer.none, command="links", magnitude_pct=None, latency_us=None, load="none", index=0)
        h = dict(Scorer.host, command="links", magnitude_pct=90, latency_us=None, load="none", index=1)
        rows = [scored(n, [{"kind": "host", "direction": "both", "hosts": ["h2"]}] if clean_accused else []),
                scored(h, [{"kind": "host", "direction": "send", "hosts": ["h3"]}])]
        return {"schema_version": 1, "command": "campaign", "complete": True,
                "context": {"duration_s": 60, "started_utc": "x", "load_average_1m": {"min": 1, "max": 2, "mean": 1.5},
                            "tool": {"collscope_version": "collscope 0.1.0"}, "machine": {"cores": 2}},
                "config": {"seed": seed, "command_line": "make campaign", "hosts": 5, "racks": 2,
                           "base_rate_mbit": 300},
                "summary": dict(C.figures(rows), runs_failed=0), "results": rows}

    def test_floors(self):
        with open(os.devnull, "w") as null:
            out, sys.stdout = sys.stdout, null
            try:
                self.assertEqual(T.floors(self.result(False)), 0)
                self.assertEqual(T.floors(self.result(True)), 1)
            finally:
                sys.stdout = out

    def test_markdown_side_by_side_and_blind(self):
        md = T.markdown([self.result(False, 1), self.result(True, 2)], ["a.json", "b.json"])
        self.assertIn("clean draws that failed 1.00 [", md)  # seed 2's clean links draw
        self.assertIn("## Seed 1 beside seed 2", md)
        self.assertIn("| host-send | 1.00 [0.21, 1.00], 1/1 | 1.00 [0.21, 1.00], 1/1 | yes |", md)
        self.assertIn("## Where collscope is still blind", md)
        self.assertIn("load average (1 min)", md)
        self.assertIn("## Seeds 1, 2 together: the goals", md)
        self.assertIn("| precision >= 0.99 | 0.67 [0.21, 0.94], 2/3 | **no** |", md)

    def test_before_after_an_earlier_build_of_the_same_command(self):
        def accept_only(clean_accused, started, version):
            r = self.result(clean_accused)
            for row in r["results"]:
                row["command"] = "accept"
            r["config"]["only_command"] = "accept"
            r["context"]["started_utc"] = started
            r["context"]["tool"] = {"collscope_version": version}
            return r
        old, new = accept_only(True, "2026-12-07T00:20", "old"), accept_only(False, "2026-12-07T01:00", "new")
        self.assertIs(T._before([new, old], new), old)
        self.assertIsNone(T._before([new, old], old), "nothing earlier, no full result")
        full = self.result(False)
        full["context"]["started_utc"] = "2026-12-07T02:00"
        self.assertIsNone(T._before([full, new, old], old), "a full run after it is no before")
        full["context"]["started_utc"] = "2026-12-06T23:00"
        self.assertIs(T._before([full, new, old], old), full, "a full run before it is")
        md = T.markdown([old, new], ["old.json", "new.json"])
        self.assertIn("## Seed 1, `accept` before and after: the same 2 draws", md)
        self.assertIn("Before: old; after: new.", md)
        self.assertIn("| overall | 2 | 1.00 [0.21, 1.00], 1/1 | 1.00 [0.21, 1.00], 1/1 | "
                      "0.50 [0.09, 0.91], 1/2 | 1.00 [0.21, 1.00], 1/1 |", md)

    def test_one_command_on_two_seeds_side_by_side(self):
        def accept_only(clean_accused, seed):
            r = self.result(clean_accused, seed)
            for row in r["results"]:
                row["command"] = "accept"
            r["config"]["only_command"] = "accept"
            r["config"]["note"] = "accept as of X"
            return r
        md = T.markdown([accept_only(False, 3), accept_only(True, 11)], ["a.json", "b.json"])
        self.assertIn("## `accept`: seed 3 beside seed 11", md)
        self.assertIn("Seed 3: accept as of X. Seed 11: accept as of X.", md)
        self.assertIn("| overall | 1.00 [0.21, 1.00], 1/1 | 1.00 [0.21, 1.00], 1/1 | "
                      "1.00 [0.21, 1.00], 1/1 | 0.50 [0.09, 0.91], 1/2 | yes |", md)
        self.assertNotIn("`accept`: seed 3 beside seed 11", T.markdown([accept_only(False, 3)], ["a"]))


if __name__ == "__main__":
    unittest.main()
