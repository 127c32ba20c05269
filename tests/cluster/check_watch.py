#!/usr/bin/env python3
"""Judges a watch's JSON lines for tests/cluster/watch.sh and prints the figures.

    check_watch.py LINES clean
    check_watch.py LINES fault A B SLOW_FROM SLOW_TO RESTORE_FROM RESTORE_TO

clean: no change on a link series. fault: exactly two changes on link
series, both on link:A->B: the first slower, dated at or after SLOW_FROM
(when the command that slowed the link started) and before the end of the
second round that ended after SLOW_TO (when it returned), the second faster,
dated the same way from RESTORE_FROM and RESTORE_TO; each attributed by the
classifier to the link A -> B. Changes of the all-reduce series are listed, not judged. Exit 0 or 1.
"""
import json
import sys


def main(argv):
    recs = [json.loads(l) for l in open(argv[1])]
    start = recs[0]["time_s"]
    rounds = [r for r in recs if r["record"] == "round"]
    ends = [r["time_s"] for r in rounds]
    events = [r for r in recs if r["record"] == "event"]
    links = [e for e in events if e["kind"] == "link"]
    others = [e for e in events if e["kind"] != "link"]
    print("%d rounds, %.1f s; %d changes on links, %d on the all-reduces"
          % (len(rounds), recs[-1]["time_s"] - start, len(links), len(others)))
    for e in events:
        a = e.get("attribution", {})
        print("change at +%.1f s (round %d, confirmed +%.1f s): %s %s %.2fx%s"
              % (e["time_s"] - start, e["round"], e["detected_time_s"] - start, e["series"],
                 e["direction"], e["step"],
                 "; %s %s (%s, by %s)" % (a["kind"], a["who"], a["direction"], a["by"]) if a else ""))
    if argv[2] == "clean":
        return 0 if not links else 1
    a, b = argv[3], argv[4]
    spans = [(float(argv[5]), float(argv[6])), (float(argv[7]), float(argv[8]))]
    print("fault at +%.1f..%.1f s, restored at +%.1f..%.1f s"
          % tuple(t - start for span in spans for t in span))
    ok = len(links) == 2
    for e, (t, t_end), way in zip(links, spans, ("slower", "faster")):
        after = [x for x in ends if x > t_end]
        limit = after[1] if len(after) > 1 else float("inf")
        at = e.get("attribution", {})
        good = (e["series"] == "link:%s->%s" % (a, b) and e["direction"] == way
                and t <= e["time_s"] <= limit and at.get("by") == "classifier"
                and at.get("kind") == "link" and at.get("who") == "%s -> %s" % (a, b))
        print("%s: %s change %.1f s after the %s began (at most %.1f s: the end of the second round after it)"
              % ("ok" if good else "WRONG", way, e["time_s"] - t,
                 "fault" if way == "slower" else "restore", limit - t))
        ok = ok and good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
