"""The campaign's figures as text: the table it prints, CAMPAIGN_RESULTS.md, and the
smoke campaign's floors (campaign.py calls these; pure but for their return values)."""



def _share(m):
    """A late start's share of the traced call, where the results have it: the slowdown it is.
    A rank is named late only from 1% of the call (TIMING_STRAGGLER_MIN_SHARE)."""
    x = m.get("median_share_of_call_pct")
    return "" if x is None else " (%.2g%% of the call)" % x

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
        out.append("  clean draws that failed, by command (compare: its no-change false alarms): " + "; ".join(
            "%s %s" % (b["command"], _p(b["clean_false_accusation"])) for b in s["commands"]))
        out.append("  recall by magnitude: " + "; ".join(
            "%d%% %s" % (x["magnitude_pct"], _p(x["recall"])) for x in s["sensitivity"]))
        if s["late_start"]:
            out.append("  recall of late starts: " + "; ".join(
                "%d us%s %s" % (x["latency_us"], _share(x), _p(x["recall"])) for x in s["late_start"]))
        out.append("  smallest magnitude from which recall stays >= 0.9: %s" % (
            "%d%%" % s["smallest_pct_with_recall_0_9"] if s["smallest_pct_with_recall_0_9"] else "none"))
    return "\n".join(out) + "\n"


def floors(res):
    """The smoke campaign's floors: the clean draw accuses nothing healthy, and at
    least one of its gross faults is found. (A healthy host named beside a gross
    fault is counted in the precision the table prints, not a floor: one smoke
    run in a few did so under a load average of 12 on 2 cores.) Prints the
    table; 0 when they hold."""
    print(table([res]), end="")
    rows = [r for r in res["results"] if "score" in r]
    clean = [r for r in rows if r["truth"]["kind"] == "none"]
    gross = [r for r in rows if r["truth"]["kind"] != "none" and r.get("magnitude_pct") == 90]
    marginal = [r for r in rows if r["truth"]["kind"] != "none" and r.get("magnitude_pct") != 90]
    bad = []
    if any(r["score"]["healthy_accused"] for r in clean):
        bad.append("a clean draw accused a healthy host or link")
    for r in marginal:  # its culprit may go unnamed; nothing healthy may be
        print("marginal fault (%s %d%%, %s): %s" % (r["class"], r["magnitude_pct"], r["command"],
                                                    r["score"]["outcome"]))
        if r["score"]["healthy_accused"]:
            bad.append("a marginal fault's draw accused a healthy hop, host or link")
    if len(rows) < len(res["results"]) or not clean or not gross:
        bad.append("%d of %d draws ran" % (len(rows), len(res["results"])))
    if gross and not any(r["score"]["culprit_found"] for r in gross):
        bad.append("none of %d gross faults (90%% less bandwidth) was found" % len(gross))
    for b in bad:
        print("floor broken: " + b)
    return 1 if bad else 0


def _mp(x):
    """A proportion for markdown: 0.83 [0.55, 0.95], 5/6."""
    if x["value"] is None:
        return "-"
    return "%.2f [%.2f, %.2f], %d/%d" % (x["value"], x["ci_low"], x["ci_high"], x["count"], x["of"])


def _overlap(a, b):
    if a["value"] is None or b["value"] is None:
        return "-"
    return "yes" if a["ci_low"] <= b["ci_high"] and b["ci_low"] <= a["ci_high"] else "**no**"


def blind(summary):
    """Where collscope is still blind: classes whose recall is below 0.5, and
    magnitudes whose recall is below 0.9 (each with its interval)."""
    out = []
    for c in summary["classes"]:
        r = c["recall"]
        if r["value"] is not None and r["value"] < 0.5:
            out.append("%s: recall %s" % (c["class"], _mp(r)))
    for m in summary["sensitivity"]:
        if m["recall"]["value"] is not None and m["recall"]["value"] < 0.9:
            out.append("%d%% less bandwidth or more compute: recall %s" % (m["magnitude_pct"], _mp(m["recall"])))
    for m in summary["late_start"]:
        if m["recall"]["value"] is not None and m["recall"]["value"] < 0.9:
            out.append("a rank %d us late%s: recall %s" % (m["latency_us"], _share(m), _mp(m["recall"])))
    e = summary.get("links_effective")
    unbound = [b for b in (e or {}).get("bins", []) if b["to_pct"] <= 10]
    if unbound:
        out.append("`links`: %d of %d host and link faults left their pair less than 10%% slower than a "
                   "healthy pair ran under the draw's load (the load, not the fault, bounded it), which no "
                   "bandwidth test can tell; of those that slowed it 20%% or more, recall %s" % (
                       unbound[0]["draws"], e["draws"], _mp(e["recall_from_20_pct"])))
    return out


def effective_lines(e):
    """links' host and link faults by the slowdown they left in the measurement (campaign.effective)."""
    if not e:
        return []
    out = ["`links`' host and link faults by the slowdown they left in the measurement: 1 - min(1, E x "
           "cap / reference), the cap (1 - magnitude) x the shaped rate, E = %.3f a healthy pair's bandwidth "
           "over the shaped rate without load (median of %d draws), the reference what a healthy pair ran "
           "at in the draw, under its load (a fault whose cap is above it slows nothing):" % (
               e["link_efficiency"], e["idle_draws"]), "",
           "| effective slowdown | draws | of them none / cpu / traffic | recall [95%] |", "|---|---|---|---|"]
    out += ["| %d-%d%% | %d | %d / %d / %d | %s |" % (
        b["from_pct"], b["to_pct"], b["draws"], b["loads"]["none"], b["loads"]["cpu"], b["loads"]["traffic"],
        _mp(b["recall"])) for b in e["bins"]]
    return out + ["", "From 20%% effective: recall %s." % _mp(e["recall_from_20_pct"]), ""]


def _seed_section(res, path):
    s, c, ctx = res["summary"], res["config"], res["context"]
    la = ctx["load_average_1m"]
    only = c.get("only_command")
    out = ["## Seed %s%s" % (c["seed"], ", only the draws judged by `%s`" % only if only else ""), "",
           "`%s` (%s), %d draws in %.0f min from %s, %s; %d hosts in %d racks, one rank a host, "
           "every host shaped to %d Mbit/s; load average (1 min) of the machine during the draws %s "
           "(%s to %s) on %s cores.%s" % (
               c["command_line"], path, s["overall"]["draws"], (ctx.get("duration_s") or 0) / 60,
               ctx.get("started_utc"), ctx.get("tool", {}).get("collscope_version", "?"), c["hosts"], c["racks"],
               c["base_rate_mbit"], la["mean"], la["min"], la["max"], ctx.get("machine", {}).get("cores", "?"),
               " %d runs failed and are not scored." % s["runs_failed"] if s.get("runs_failed") else ""), ""]
    if c.get("note"):
        out += ["Note: %s." % c["note"], ""]
    out += ["| class | draws | right | wrong class | missed | healthy accused | clean | recall [95%] "
            "| precision [95%] | attribution [95%] | time to verdict p50 / p90 (s) |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for b in s["classes"] + [dict(s["overall"], **{"class": "**overall**"})]:
        k = b["cells"]
        out.append("| %s | %d | %d | %d | %d | %d | %d | %s | %s | %s | %s |" % (
            b["class"], b["draws"], k["right"], k["wrong_class"], k["missed"], k["healthy_accused"],
            k["clean_ok"], _mp(b["recall"]), _mp(b["precision"]), _mp(b["attribution"]),
            _t(b["time_to_verdict"])))
    o = s["overall"]
    out += ["", "Clean draws in which a healthy host, link or rank was accused: %s." % _mp(o["clean_false_accusation"]),
            "", "By command:", ""]
    for b in s["commands"]:
        out.append("- `%s`: %d draws, recall %s, precision %s, clean draws that failed %s, time p50 / p90 %s s" % (
            b["command"], b["draws"], _mp(b["recall"]), _mp(b["precision"]),
            _mp(b["clean_false_accusation"]), _t(b["time_to_verdict"])))
    lk = {m["magnitude_pct"]: m for m in s.get("sensitivity_links_bandwidth", [])}
    out += ["", "Recall by magnitude (the sensitivity curve): every class with a magnitude, and the "
            "bandwidth faults (host, link, uplink) judged by `links` alone:", "",
            "| magnitude | draws | recall [95%] | `links` draws | `links` recall [95%] |", "|---|---|---|---|---|"]
    out += ["| %d%% | %d | %s | %s | %s |" % (
        m["magnitude_pct"], m["draws"], _mp(m["recall"]), lk[m["magnitude_pct"]]["draws"] if m["magnitude_pct"] in lk else "-",
        _mp(lk[m["magnitude_pct"]]["recall"]) if m["magnitude_pct"] in lk else "-") for m in s["sensitivity"]]
    out += ["| %d us late%s | %d | %s | | |" % (m["latency_us"], _share(m), m["draws"], _mp(m["recall"]))
            for m in s["late_start"]]
    sm = s["smallest_pct_with_recall_0_9"]
    out += ["", "Smallest magnitude from which recall stays at 0.9 or more: %s." % ("%d%%" % sm if sm else "none"), ""]
    return out + effective_lines(s.get("links_effective")) + evidence(s)


def evidence(s):
    """The traced runs' own evidence behind a seed's figures, named or not: the slowed hop's
    and the late rank's, beside what the clean draws reached."""
    out = []
    te = s.get("trace_evidence") or {}
    if te.get("slowed_hop_draws") or te.get("clean_draws"):
        out += ["The traced runs' own evidence, named or not: the slowed ring hop had the largest ratio of "
                "its ring in %d of %d draws (ratio, score: %s); in %d clean traced draws no hop passed "
                "ratio %s or score %s." % (
                    te["slowed_hop_has_top_ratio"], te["slowed_hop_draws"], "; ".join(
                        "%d%%: %.2f, %.1f" % (x["magnitude_pct"], x["ratio"], x["score"]) for x in te["slowed_hops"]),
                    te["clean_draws"], te["clean_max_ratio"], te["clean_max_score"]), ""]
    le = s.get("late_evidence") or {}
    if le.get("by_latency"):
        out += ["The late-start judge's evidence, named or not (a rank is named late from 1%% of the call, "
                "with p at most 0.001 and 3x the other ranks' own lateness): %s; in %d clean traced draws "
                "a rank blamed for arriving late reached %s of the call, with p at most 0.001 in %d." % (
                    "; ".join("%d us: the late rank blamed in %d of %d draws%s" % (
                        x["latency_us"], x["blamed"], x["draws"],
                        "" if not x["blamed"] else ", its lead %.0f us a call (%.2g%% of it), p passed in %d" % (
                            x["median_lead_us"], x["median_share_pct"], x["p_passed"]))
                              for x in le["by_latency"]),
                    le["clean_draws"], "-" if le["clean_max_share_pct"] is None else "%.2g%%" % le["clean_max_share_pct"],
                    le["clean_p_passed"]), ""]
    return out


def _before(results, after):
    """What after (one command's draws) is set beside: an earlier result of the same seed and
    command (a build before a change), else the seed's full result."""
    only, seed = after["config"].get("only_command"), after["config"]["seed"]

    def earlier(r):  # a result measured after it is no "before", a later full run's neither
        return r["config"]["seed"] == seed and r["context"].get("started_utc", "") < after[
            "context"].get("started_utc", "")
    same = [r for r in results if earlier(r) and r["config"].get("only_command") == only]
    full = [r for r in results if earlier(r) and not r["config"].get("only_command")]
    return (same or full or [None])[-1 if same else 0]


def before_after(results):
    """A result of one command's draws (a detector changed since) beside the same
    draws of an earlier result of that command, or of the full result of its seed:
    their figures before and after."""
    import campaign as C
    out = []
    for after in results:
        only, seed = after["config"].get("only_command"), after["config"]["seed"]
        before = _before(results, after)
        if not only or not before:
            continue
        full = [before]
        done = {r["index"] for r in after["results"]}
        rows_b = [r for r in full[0]["results"] if r["command"] == only and r["index"] in done]
        common = {r["index"] for r in rows_b}
        rows_a = [r for r in after["results"] if r["index"] in common]
        if not rows_a:  # the full result judged these draws by another command
            continue
        out += ["## Seed %s, `%s` before and after: the same %d draws" % (seed, only, len(rows_a)), "",
                "Before: %s; after: %s." % (full[0]["context"].get("tool", {}).get("collscope_version", "?"),
                                            after["config"].get("note") or after["context"].get("tool", {}).get(
                                                "collscope_version", "?")), "",
                "| class | draws | recall before | recall after | precision before | precision after |",
                "|---|---|---|---|---|---|"]
        for c in C.CLASSES + ["overall"]:
            b = [r for r in rows_b if c in ("overall", r["class"]) and "score" in r]
            a = [r for r in rows_a if c in ("overall", r["class"]) and "score" in r]
            if not b or not a:
                continue
            fb, fa = C.block(b), C.block(a)
            out.append("| %s | %d | %s | %s | %s | %s |" % (c, len(a), _mp(fb["recall"]), _mp(fa["recall"]),
                                                         _mp(fb["precision"]), _mp(fa["precision"])))
        out.append("")
    return out


def command_seeds(results):
    """Each command judged alone (only_command) on two seeds or more: the latest result of each
    seed, side by side, recall and precision per class (issue 39: a second seed agrees)."""
    import campaign as C
    out = []
    for only in sorted({r["config"].get("only_command") for r in results} - {None}):
        latest = {}
        for r in results:
            if r["config"].get("only_command") == only:
                seed = r["config"]["seed"]
                if seed not in latest or r["context"].get("started_utc", "") > latest[seed]["context"].get(
                        "started_utc", ""):
                    latest[seed] = r
        if len(latest) < 2:
            continue
        (sa, a), (sb, b) = sorted(latest.items())[:2]
        va = a["config"].get("note") or a["context"].get("tool", {}).get("collscope_version", "?")
        vb = b["config"].get("note") or b["context"].get("tool", {}).get("collscope_version", "?")
        out += ["## `%s`: seed %s beside seed %s" % (only, sa, sb), "",
                "Seed %s: %s. Seed %s: %s." % (sa, va, sb, vb), "",
                "| class | recall, seed %s | recall, seed %s | precision, seed %s | precision, seed %s "
                "| intervals overlap |" % (sa, sb, sa, sb), "|---|---|---|---|---|---|"]
        for c in C.CLASSES + ["overall"]:
            ra = [r for r in a["results"] if c in ("overall", r["class"]) and "score" in r]
            rb = [r for r in b["results"] if c in ("overall", r["class"]) and "score" in r]
            if not ra or not rb:
                continue
            fa, fb = C.block(ra), C.block(rb)
            # "-": a figure with nothing to count on a side, no disagreement
            both = _overlap(fa["recall"], fb["recall"]) != "**no**" and _overlap(
                fa["precision"], fb["precision"]) != "**no**"
            out.append("| %s | %s | %s | %s | %s | %s |" % (
                c, _mp(fa["recall"]), _mp(fb["recall"]), _mp(fa["precision"]), _mp(fb["precision"]),
                "yes" if both else "**no**"))
        out.append("")
    return out


def pooled(results):
    """The seeds' draws together: issue 39's goals, each with its figure and interval."""
    import campaign as C
    rows = [r for res in results for r in res["results"]]
    seeds = ", ".join(str(res["config"]["seed"]) for res in results)
    out = ["## Seeds %s together: the goals" % seeds, "",
           "%d draws. The goals are issue 39's; each figure is over every draw of these seeds." % len(
               [r for r in rows if "score" in r]), "",
           "| goal | measured [95%] | met |", "|---|---|---|"]
    for g in C.goals(rows):
        if "figure" in g:
            fig = _mp(g["figure"])
        else:
            fig = "%s (recall by magnitude: %s)" % (
                "%d%%" % g["smallest_pct"] if g["smallest_pct"] else "none", "; ".join(
                    "%d%% %.2f" % (x["magnitude_pct"], x["recall"]["value"]) for x in g["sensitivity"]))
        out.append("| %s | %s | %s |" % (g["goal"], fig, "yes" if g["met"] else "**no**"))
    return out + [""]


def markdown(results, paths):
    """CAMPAIGN_RESULTS.md: each seed's figures, the seeds side by side, where collscope is blind."""
    out = ["# How far to trust a verdict: campaign results", "",
           "Written by `make campaign-results` from the results of `make campaign` "
           "(tests/cluster/campaign_run.py; issue 39). Every draw plants one fault or none on the virtual "
           "cluster, runs the command a user would (`links`; `allreduce -a ring --trace`; `compare --paired` "
           "of a clean baseline run and the draw's run made in turn, 4 times), and scores its verdict: right culprit and class; right culprit, wrong class or "
           "direction; missed; a healthy host, link or rank accused (that cell wins when a draw has both). "
           "Precision: of the draws that named something, those that named nothing healthy. Recall: of the "
           "faults, those whose culprit was named. Attribution: of those, named with the right class. "
           "Intervals are 95%: Wilson for proportions, order statistics for the time percentiles ('?' where "
           "the sample is too small to bound an end). `collscope report RESULT.json -o page.html` renders "
           "a result.", ""]
    for res, p in zip(results, paths):
        out += _seed_section(res, p)
    out += before_after(results)
    out += command_seeds(results)
    full = [r for r in results if not r["config"].get("only_command")]
    if len(full) >= 2:
        results = full
        a, b = results[0]["summary"], results[1]["summary"]
        sa, sb = results[0]["config"]["seed"], results[1]["config"]["seed"]
        out += ["## Seed %s beside seed %s" % (sa, sb), "",
                "| class | recall, seed %s | recall, seed %s | intervals overlap |" % (sa, sb), "|---|---|---|---|"]
        cb = {c["class"]: c for c in b["classes"]}
        for c in a["classes"] + [dict(a["overall"], **{"class": "overall"})]:
            other = cb.get(c["class"]) if c["class"] != "overall" else b["overall"]
            if other:
                out.append("| %s | %s | %s | %s |" % (c["class"], _mp(c["recall"]), _mp(other["recall"]),
                                                    _overlap(c["recall"], other["recall"])))
        out.append("")
        out += pooled(results)
    out += ["## Where collscope is still blind", ""]
    for res in results:
        out.append("Seed %s:" % res["config"]["seed"])
        out.append("")
        out += ["- " + x for x in blind(res["summary"])] or ["- nothing below the bars"]
        out.append("")
    return "\n".join(out)
