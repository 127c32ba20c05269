#!/usr/bin/env python3
"""Checks of collscope's reports from the virtual cluster (tests/cluster/cluster.sh).

usage: check_cluster.py topo REPORT HOSTS RANKS_PER_HOST
       check_cluster.py links REPORT HOSTS RANKS_PER_HOST none|HOST
       check_cluster.py verdict REPORT none|KIND DIRECTION CULPRIT
           KIND host (CULPRIT h3; DIRECTION send, receive, both), link (CULPRIT
           h2,h4: the slowed direction is h2 -> h4 with DIRECTION oneway, both
           with both), segment (CULPRIT h1,h2|h3,h4; DIRECTION both): the
           report names it with that kind and direction, and no other
           bandwidth suspect; with none, no bandwidth suspect at all; prints
           "verdict: INJECTED => NAMED" for the confusion table
       check_cluster.py allreduce REPORT RANKS VARIANT[,VARIANT...]
       check_cluster.py busbw FAST_REPORT SLOW_REPORT BYTES
       check_cluster.py hops REPORT none|FROM-TO       (allreduce --trace: the hops named)
       check_cluster.py flight REPORT RANK              (a hang's flight record: RANK stopped)
       check_cluster.py accept REPORT none|nohost|HOST  (accept: PASS; no host failing or named
                                                        (any verdict); or FAIL with HOST the
           only failing host, every culprit search naming HOST alone)
Prints what it measured on one line (the figures the suite logs), and each
violation; exits 1 if there is any.
"""
import json
import math
import statistics
import sys

BAD = []


def need(cond, what):
    if not cond:
        BAD.append(what)
    return cond


def load(path, command):
    d = json.load(open(path))
    need(d.get("schema_version") in (1, 2) and d.get("command") == command and d.get("complete") is True,
         "%s: not a complete %s report" % (path, command))
    return d


def hosts_of(d, nhosts, per_host):
    """The hosts h1..hN, each with ranks 2i, 2i+1 (the hostfile's slots, filled in order)."""
    c = d["context"]
    names = ["h%d" % (i + 1) for i in range(nhosts)]
    got = {h["name"]: sorted(h["ranks"]) for h in c["hosts"]}
    need(sorted(got) == sorted(names), "hosts %s, expected %s" % (sorted(got), names))
    for i, name in enumerate(names):
        want = list(range(i * per_host, (i + 1) * per_host))
        need(got.get(name) == want, "%s has ranks %s, expected %s" % (name, got.get(name), want))
    return {r["rank"]: r["host"] for r in c["ranks"]}


def topo(path, nhosts, per_host):
    d = load(path, "topo")
    n = nhosts * per_host
    need(d["context"]["mpi"]["ranks"] == n, "ranks %s, expected %d" % (d["context"]["mpi"]["ranks"], n))
    host = hosts_of(d, nhosts, per_host)
    need(d["summary"]["hosts"] == nhosts, "summary.hosts %s" % d["summary"]["hosts"])
    for r in d["results"]:
        need(r["host"] == host[r["rank"]], "rank %d: host %s in results" % (r["rank"], r["host"]))
        need(r["pid"] > 0, "rank %d: pid" % r["rank"])
    # Each namespace sees the whole machine: a host is oversubscribed only when
    # it has more ranks than the machine has cores.
    for h in d["context"]["hosts"]:
        need(h["oversubscribed"] == (len(h["ranks"]) > h["cores"]), "%s: oversubscribed flag" % h["name"])
    print("topo: %d ranks on %d hosts: %s" % (n, len(d["context"]["hosts"]), ", ".join(
        "%s %s" % (h["name"], h["ranks"]) for h in d["context"]["hosts"])))


def involves(s, slow):
    if s["kind"] == "host":
        return s["who"] == slow
    return slow in (s["host_a"], s["host_b"])


def link_records(d, host):
    """The pairs of a links report as records a, b, host_a, host_b, locality, bw_p50:
    from "pairs" (schema 2, arrays) or "results" (schema 1, one object a pair)."""
    if "pairs" in d:
        p, names = d["pairs"], ("same_numa", "same_host", "cross_host")
        return [{"a": a, "b": b, "host_a": host[a], "host_b": host[b], "locality": names[l], "bw_p50": bw}
                for a, b, l, bw in zip(p["a"], p["b"], p["locality"], p["bw_p50_gbps"])]
    return [dict(r, bw_p50=r["bandwidth_gbps"]["p50"]) for r in d["results"]]


def links(path, nhosts, per_host, slow):
    d = load(path, "links")
    n = nhosts * per_host
    host = hosts_of(d, nhosts, per_host)
    res = link_records(d, host)
    need(sorted((r["a"], r["b"]) for r in res) == [(a, b) for a in range(n) for b in range(n) if a != b],
         "one record per ordered pair")
    for r in res:
        cross = host[r["a"]] != host[r["b"]]
        need((r["locality"] == "cross_host") == cross, "%d->%d: locality %s" % (r["a"], r["b"], r["locality"]))
    s = d["summary"]
    need(s["not_judged"] == [], "hosts not judged: %s" % s["not_judged"])
    # The figures: median p50 bandwidth of the cross-host links that touch the
    # slow host (h%d, the last one, when none is slowed) and of the others.
    mark = slow if slow != "none" else "h%d" % nhosts
    to = [r["bw_p50"] for r in res if r["locality"] == "cross_host"
          and mark in (r["host_a"], r["host_b"])]
    other = [r["bw_p50"] for r in res if r["locality"] == "cross_host"
             and mark not in (r["host_a"], r["host_b"])]
    med_to, med_other = statistics.median(to) * 1e3, statistics.median(other) * 1e3
    sus = s["suspects"]

    def said(k):
        return k["reason"] if k["kind"] == "host" else "link %s (%s -> %s): %s" % (
            k["who"], k["host_a"], k["host_b"], k["reason"])
    print("links: cross-host bandwidth (p50, median) of %s's links %.1f MB/s, of the others %.1f MB/s;"
          " suspects: %s" % (mark, med_to, med_other, "; ".join(said(k) for k in sus) or "none"))
    if slow == "none":
        need(sus == [], "with no limit, suspects: %s" % "; ".join(said(k) for k in sus))
        return
    need(med_to < 0.5 * med_other, "the limit shows: %s's links %.1f MB/s against %.1f MB/s"
         % (slow, med_to, med_other))
    need([k for k in sus if k["metric"] == "bandwidth" and involves(k, slow)],
         "%s (or its links) is named for bandwidth" % slow)
    others = [said(k) for k in sus if not involves(k, slow)]
    need(not others, "nothing but %s is named; also: %s" % (slow, "; ".join(others)))


def named(k):
    """What a suspect names, as the hosts it accuses: (kind, direction, frozenset of culprit keys)."""
    if k["kind"] == "host":
        return "host", k["direction"], frozenset([k["host"]])
    if k["kind"] == "segment":
        sides = frozenset([frozenset(k["hosts_a"]), frozenset(k["hosts_b"])])
        return "segment", k["direction"], sides
    return "link", k["direction"], frozenset([k["host_a"], k["host_b"]])


def hosts_in(k):
    if k["kind"] == "host":
        return {k["host"]}
    if k["kind"] == "segment":
        return set(k["hosts_a"]) | set(k["hosts_b"])
    return {k["host_a"], k["host_b"]}


def label(k):
    kind, direction, _ = named(k)
    return "%s/%s" % (kind, direction)


def verdict(path, kind, direction, culprit):
    d = load(path, "links")
    sus = d["summary"]["suspects"]
    bw = [k for k in sus if k["metric"] == "bandwidth" and k["locality"] == "cross_host"]
    lines = ["%s%s" % ("[shift] " if k["pattern"] == "shift" else "", k["line"]) for k in sus]
    first = ([k for k in bw if k["pattern"] == "pairs"] + bw)[:1]
    got = label(first[0]) if first else "none"
    injected = "none" if kind == "none" else "%s/%s" % (kind, direction)
    print("verdict: %s %s => %s%s" % (injected, culprit if kind != "none" else "", got,
                                    "".join("\n  named: " + x for x in lines)))
    if kind == "none":
        # bandwidth is what the classes are about; latency suspects are printed above
        # (a descheduled rank's ping-pongs take milliseconds on 2 shared cores)
        need(bw == [], "a clean cluster, yet named: %s" % "; ".join(
            k["line"] for k in bw))
        return
    if kind == "host":
        want = {("host", direction, frozenset([culprit]))}
        culprits = {culprit}
    elif kind == "link":
        a, b = culprit.split(",")
        lo, hi = sorted((a, b), key=lambda h: int(h[1:]))
        way = "both" if direction == "both" else ("a->b" if a == lo else "b->a")
        want = {("link", way, frozenset([a, b]))}
        culprits = {a, b}
    else:
        sa, sb = (frozenset(x.split(",")) for x in culprit.split("|"))
        want = {("segment", direction, frozenset([sa, sb]))}
        culprits = set(sa) | set(sb)
    need([k for k in bw if named(k) in want], "no bandwidth suspect is %s %s %s" % (kind, direction, culprit))
    # any other bandwidth suspect must be the culprit seen another way (the shift's
    # view of it). Latency is not what was injected, and on a machine of 2 cores a
    # descheduled rank's ping-pongs take milliseconds: latency suspects are printed
    # (above), and a clean cluster may have none at all, but here they are not judged.
    for k in bw:
        if named(k) in want:
            continue
        if kind == "segment":
            need(k["kind"] == "segment" and hosts_in(k) <= culprits, "also named: " + k["line"])
        else:
            need(hosts_in(k) <= culprits, "also named: " + k["line"])


def allreduce(path, ranks, variants):
    d = load(path, "allreduce")
    need(d["context"]["mpi"]["ranks"] == ranks, "ranks")
    need(len(d["context"]["hosts"]) > 1, "the run spans several hosts")
    seen = {r["algorithm"] for r in d["results"]}
    need(seen == set(variants), "variants %s, expected %s" % (sorted(seen), sorted(variants)))
    for r in d["results"]:
        who = "%s at %d bytes" % (r["algorithm"], r["bytes"])
        need("skipped" not in r, "%s skipped: %s" % (who, r.get("skipped")))
        need(r.get("wrong") == 0, "%s: wrong %s" % (who, r.get("wrong")))
        need(r.get("busbw_gbps") is not None and r["busbw_gbps"] > 0, "%s: busbw" % who)
    need(d["summary"]["wrong_total"] == 0, "summary.wrong_total %s" % d["summary"]["wrong_total"])
    print("allreduce: %d points, wrong 0; busbw at the largest size (GB/s): %s" % (len(d["results"]), ", ".join(
        "%s %.3f" % (v["algorithm"], v["busbw_at_max_bytes_gbps"]) for v in d["summary"]["variants"])))


def busbw(fast_path, slow_path, nbytes):
    fast, slow = load(fast_path, "allreduce"), load(slow_path, "allreduce")

    def at(d):
        return {r["algorithm"]: r["busbw_gbps"] for r in d["results"] if r["bytes"] == nbytes and "skipped" not in r}

    f, s = at(fast), at(slow)
    need(f and sorted(f) == sorted(s), "the same variants at %d bytes in both runs" % nbytes)
    ratios = {a: s[a] / f[a] for a in f if a in s and f[a] > 0}
    print("busbw at %d bytes, no limit -> one host slowed (GB/s): %s" % (nbytes, ", ".join(
        "%s %.3f -> %.3f (%.2fx)" % (a, f[a], s[a], ratios[a]) for a in sorted(ratios))))
    # Every variant moves data through the slow host's link, so each falls. By
    # how much depends on what else bounds it: naive and tree are bound by
    # their root too, and on a busy machine the unlimited runs are bound by
    # the CPU. So: each falls by a tenth at least, and half on average.
    for a, x in sorted(ratios.items()):
        need(x < 0.9, "%s: busbw %.3f -> %.3f GB/s, %.2fx, does not fall" % (a, f[a], s[a], x))
    mean = math.exp(statistics.mean(math.log(x) for x in ratios.values())) if ratios else 1
    print("busbw: geometric mean of the ratios %.2fx" % mean)
    need(mean < 0.5, "busbw falls by %.2fx on average, not below 0.5x" % mean)


def hops(path, expect):
    """The slow hops and ranks a traced all-reduce named: none, or exactly the hop FROM->TO."""
    d = load(path, "allreduce")
    s = d["summary"]
    named = [(h["from_rank"], h["to_rank"]) for h in s["slow_hops"]]

    def said(h):
        return "%d->%d (%s -> %s) %.0f us, %.1fx the others' %.0f us, z %.1f, %.0f%% of an iteration" % (
            h["from_rank"], h["to_rank"], h["hosts"][0], h["hosts"][1], h["hop_time_us"], h["ratio"],
            h["median_hop_us"], h["score"], 100 * h["share"])
    for r in d["results"]:
        t = r["trace"]
        print("hops of %s at %d bytes, %d iterations traced, clock error %s us: %s" % (
            r["algorithm"], r["bytes"], t["iterations"], t["clock_error_us"], ", ".join(
                "%d->%d %.0f us%s" % (h["from_rank"], h["to_rank"], h["hop_time_us"], " SLOW" if h["slow"] else "")
                for h in t["hops"])))
    print("named: %s; ranks: %s" % ("; ".join(said(h) for h in s["slow_hops"]) or "none",
                                    ", ".join("%d (%s)" % (k["rank"], k["reason"]) for k in s["slow_ranks"]) or "none"))
    need(s["slow_ranks"] == [], "no rank is named: %s" % s["slow_ranks"])
    if expect == "none":
        need(named == [], "nothing slowed, nothing named: %s" % named)
        return
    a, b = (int(x) for x in expect.split("-"))
    need(named == [(a, b)], "the hop %d->%d and no other is named: %s" % (a, b, named))


def flight(path, stopped):
    """The partial report of a hang: the stopped rank, and the peers that wait on it."""
    d = json.load(open(path))
    need(d.get("complete") is False, "the report is partial")
    h = d.get("hang")
    if not need(h is not None, "the report has the flight record"):
        return
    ranks = h["ranks"]
    n = len(ranks)
    nxt = (stopped + 1) % n
    print("flight record: %s; %s" % ({k: v for k, v in h.items() if k != "ranks"}, ", ".join(
        "%d %s%s" % (r["rank"], r["state"], " on %d" % r["waits_on"] if r["waits_on"] is not None else "")
        for r in ranks)))
    need(n == d["context"]["mpi"]["ranks"], "a record per rank")
    need(h["not_answering"] == [stopped], "rank %d alone is not answering" % stopped)
    # (its neighbours may be stuck in the iteration before, waiting on it: never_entered)
    need(h["blocked_by"] == [stopped], "every chain of waits ends at rank %d" % stopped)
    need(ranks[stopped]["state"] == "not_answering", "rank %d: not answering" % stopped)
    need(ranks[nxt]["waits_on"] == stopped and ranks[nxt]["wait"] == "receive",
         "rank %d waits to receive from rank %d" % (nxt, stopped))
    need(all(r["blocked_by"] == stopped for r in ranks if r["state"] == "waiting"),
         "every waiting rank is blocked by rank %d" % stopped)
    need(all(r["host"] for r in ranks), "every rank has its host")
    need(all(len(r["last_entries"]) == 8 for r in ranks), "every rank's last 8 trace entries")


def accept(path, culprit):
    d = load(path, "accept")
    s = d["summary"]
    # INCONCLUSIVE is no charge against a host: noise explained its failure
    failing = sorted(h["name"] for h in s["hosts"] if h["status"] in ("FAIL", "INTERMITTENT"))
    faults = sorted({r["fault"] for r in d["results"] if r["status"] != "PASS"})
    named = [sorted(i["culprits"]) for i in s["isolations"]]
    print("accept: %s; failing hosts %s; faults %s; searches named %s" %
          (s["verdict"], failing or "none", faults or "none", named or "none"))
    if culprit == "none":
        need(s["verdict"] == "PASS", "verdict %s, expected PASS" % s["verdict"])
        return
    if culprit == "nohost":  # under load: any verdict, but no host accused
        need(not failing, "hosts failing %s on a clean cluster: a false accusation" % failing)
        need(not any(named), "the searches named %s on a clean cluster" % named)
        return
    need(s["verdict"] == "FAIL", "verdict %s, expected FAIL" % s["verdict"])
    need(failing == [culprit], "failing hosts %s, expected %s alone" % (failing, culprit))
    # the links check's confirmed suspects, in the report: the slowed host is one of them
    hosts = [k.get("host") for k in s.get("links_suspects", []) if k["kind"] == "host"]
    need(culprit in hosts, "summary.links_suspects names hosts %s, expected %s" % (hosts, culprit))
    # a search runs only for an all-reduce point the spec gates (--derive leaves out a
    # point too noisy to gate); then every search names the culprit alone
    gated = d.get("config", {}).get("spec", {}).get("checks", {}).get("allreduce")
    need(not gated or (named and all(n == [culprit] for n in named)),
         "the searches named %s, expected %s alone in each" % (named, culprit))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "topo":
        topo(args[0], int(args[1]), int(args[2]))
    elif cmd == "links":
        links(args[0], int(args[1]), int(args[2]), args[3])
    elif cmd == "verdict":
        verdict(args[0], args[1], args[2] if len(args) > 2 else "", args[3] if len(args) > 3 else "")
    elif cmd == "allreduce":
        allreduce(args[0], int(args[1]), args[2].split(","))
    elif cmd == "busbw":
        busbw(args[0], args[1], int(args[2]))
    elif cmd == "hops":
        hops(args[0], args[1])
    elif cmd == "flight":
        flight(args[0], int(args[1]))
    elif cmd == "accept":
        accept(args[0], args[1])
    else:
        sys.exit(__doc__)
    for b in BAD:
        print("violation: " + b)
    sys.exit(1 if BAD else 0)


if __name__ == "__main__":
    main()
