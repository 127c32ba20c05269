"""The campaign's figures as text: the table it prints, CAMPAIGN_RESULTS.md, and the
smoke campaign's floors (campaign.py calls these; pure but for their return values)."""


def _p(x):
    """A proportion with its interval: 0.83 [0.55, 0.95] (6)."""
    if x["value"] is None:
        return "-"
    return "%.2f [%.2f, %.2f] (%d/%d)" % (x["value"], x["ci_low"], x["ci_high"], x["count"], x["of"])


def _t(t):
    if t["p50_s"] is None:
        return "-"
    f = lambda v: "?" if v is None else "%.0f" % v  # noqa: E731
    return "%.1f [%s, %s] / %.1f [%s, %s]" % (t["p50_s"], f(t["p50_ci_low_s"]), f(t["p50_ci_high_s"]),
                                              t["p90_s"], f(t["p90_ci_low_s"]), f(t["p90_ci_high_s"]))


def table(results):
    out = []
    for res in results:
        s, c = res["summary"], res["config"]
        ctx = res["context"]
        out.append("campaign seed %s: %d draws, %s s, load average %s (1 min, min-max %s-%s)%s" % (
            c["seed"], s["overall"]["draws"], ctx.get("duration_s"), ctx["load_average_1m"]["mean"],
            ctx["load_average_1m"]["min"], ctx["load_average_1m"]["max"],
            "; %d runs failed" % s["runs_failed"] if s.get("runs_failed") else ""))
        out.append("  %-13s %5s %5s %5s %5s %5s %5s  %-26s %-26s %s" % (
            "class", "draws", "right", "wrong", "miss", "heal", "clean", "recall [95% CI]",
            "precision [95% CI]", "verdict s p50 / p90"))
        for b in s["classes"] + [dict(s["overall"], **{"class": "overall"})]:
            k = b["cells"]
            out.append("  %-13s %5d %5d %5d %5d %5d %5d  %-26s %-26s %s" % (
                b["class"], b["draws"], k["right"], k["wrong_class"], k["missed"], k["healthy_accused"],
                k["clean_ok"], _p(b["recall"]), _p(b["precision"]), _t(b["time_to_verdict"])))
        o = s["overall"]
        out.append("  attribution %s; clean draws with a healthy host, link or rank accused %s" % (
            _p(o["attribution"]), _p(o["clean_false_accusation"])))
        out.append("  recall by magnitude: " + "; ".join(
            "%d%% %s" % (x["magnitude_pct"], _p(x["recall"])) for x in s["sensitivity"]))
        if s["late_start"]:
            out.append("  recall of late starts: " + "; ".join(
                "%d us %s" % (x["latency_us"], _p(x["recall"])) for x in s["late_start"]))
        out.append("  smallest magnitude from which recall stays >= 0.9: %s" % (
            "%d%%" % s["smallest_pct_with_recall_0_9"] if s["smallest_pct_with_recall_0_9"] else "none"))
    return "\n".join(out) + "\n"


def floors(res):
    """The smoke campaign's floors: no clean draw accuses anything healthy, and at
    least one of its gross faults is found. Prints the table; 0 when they hold."""
    print(table([res]), end="")
    rows = [r for r in res["results"] if "score" in r]
    clean = [r for r in rows if r["truth"]["kind"] == "none"]
    gross = [r for r in rows if r["truth"]["kind"] != "none"]
    bad = []
    if any(r["score"]["healthy_accused"] for r in clean):
        bad.append("a clean draw accused a healthy host or link")
    if len(rows) < len(res["results"]) or not clean or not gross:
        bad.append("%d of %d draws ran" % (len(rows), len(res["results"])))
    if gross and not any(r["score"]["culprit_found"] for r in gross):
        bad.append("none of %d gross faults (90%% less bandwidth) was found" % len(gross))
    for b in bad:
        print("floor broken: " + b)
    return 1 if bad else 0


def markdown(results, paths):
    return table(results)
