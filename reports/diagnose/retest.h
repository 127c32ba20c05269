/*
 * The chain of re-tests (issue 29): under a bursty load a healthy pair can be
 * slow in the first pass and again in one re-test (the burst lasted), so links
 * re-tests its suspects up to LINKS_RETESTS times, each round only the pairs of
 * what still stands, and accuses only what the last round found again and no
 * more than max_misses rounds before it did not (as accept's culprit search
 * asks reproductions). A miss is allowed because the load cuts both ways: the
 * campaign (issue 39) saw a host 35% slow to receive, named by the first pass,
 * cleared by a re-test under CPU load, and named in the next run. Between rounds the
 * suspects still standing are kept as a detect_result of their own, so that
 * detect_confirm can match the next round against them. Pure: no MPI, no I/O.
 */
#ifndef COLLSCOPE_RETEST_H
#define COLLSCOPE_RETEST_H

#include "reports/diagnose/detect.h"

/*
 * Into out (initialised here; the caller releases it) what stands for the
 * next round after round now was matched against before (detect_confirm):
 * every confirmed suspect of now, and every suspect of before that no
 * confirmed suspect of now found again while it has missed fewer than
 * max_misses rounds (its retest_misses then counts this one). Each is kept
 * with the first pass's figures (measured, ratio, score from first_*, where
 * known) and not confirmed, with the sides of its segment, so that a later
 * detect_confirm against out reports the first pass's. before may be NULL
 * (nothing carried). Returns the number kept, or -1 when out of memory (out
 * then empty).
 */
int retest_keep_standing(const struct detect_result *now, const struct detect_result *before,
                         int max_misses, struct detect_result *out);

/*
 * A re-test round's pairs, in the order measured: a step's pairs run at once
 * (one pair: alone, while every other rank waits).
 *
 * A host's or a link's pairs are measured alone, one a step: what is slow is
 * the pair's own path. A segment's are not: the first pass measured its pairs
 * in rounds, several crossing the cut at once, and what is slow is the path
 * they share (an uplink between racks). Alone, one pair has that path to
 * itself: the campaign (issue 39) measured a cross-rack pair at 0.65x alone
 * where the rounds had it at 0.33x, and the re-tests cleared an uplink 35% slow
 * every time. So a segment is measured again as the rounds measured it: one
 * step of its pairs across the cut at once (at most max_per_suspect, no host
 * in two of them), then one step of as many pairs within its sides (half on
 * each side where they have them), the same number of pairs in flight, so that
 * what it is judged against was measured at the same load moments later.
 * A segment of the shift pattern too: the shift measured again whole found its
 * own artefacts again (the campaign's clean draw 91 of seed 3, 2026-12-07: h2
 * h3 -> h4 h5 at 0.52x, twice, where the isolated pairs named nothing; five
 * ranks sending at once on two cores), as the alone test (alone.h) found its
 * links' and hosts'. Its steps may only clear it: when they hold, the shift's
 * own reading stands (found again when the shift is measured again whole). A
 * shift's segment of the wrong cut has pairs that cross the real one in both
 * steps, and held by chance in one run (seed 11's draw 18, 2026-12-07: an uplink
 * 10% slow, the shift's h2 h4 -> h1 h3 h5 confirmed at 0.57x).
 */
struct retest_pair {
	int a, b;    /* ranks, a < b */
	int step;    /* 0, 1, ...: the pairs of a step are consecutive */
	int suspect; /* the segment of r it re-tests (its index), -1, or RETEST_CONTROL */
	int across;  /* 1: across that segment's cut, 0: within a side (or alone) */
};

/*
 * Controls: a host's or a link's pairs measured alone read faster than the
 * first pass's rounds, whose pairs ran at once and shared the cores. On the
 * campaign's 5 namespace hosts (2 cores, 2026-12-07, links with the campaign's
 * options, 3 runs each way, no fault) the median cross-host cell read 0.0345-0.0348
 * GB/s in rounds and 0.0354-0.0358 alone; under 2 CPU burners 0.0269-0.0293 in
 * rounds and 0.0315-0.0338 alone, 12-17% faster. A host 20% slow to receive
 * (0.030 GB/s at the line) measured alone then reads above the rounds' median,
 * and the re-test cleared every such host the first pass named under load. So
 * each round also measures, alone, up to RETEST_CONTROL_PAIRS pairs of hosts
 * no host or link suspect touches (suspect RETEST_CONTROL; each host in as few
 * of them as it can), and a host or a link is judged on its pairs alone
 * against them (retest_judge_alone).
 */
#define RETEST_CONTROL (-2)
#define RETEST_CONTROL_PAIRS 3

/*
 * Adds to pairs (emptied by the caller) every pair of r's suspects to
 * measure again (detect_remeasure_pairs, and a segment's as above; each pair
 * once), then, when a host or a link is among them, the controls (above), and
 * lists them into *out
 * (malloc'd, the caller frees; NULL when none). links and n are those given to
 * detect_run. Returns the number of pairs, or -1 when out of memory (*out
 * NULL).
 */
int retest_plan(const struct detect_result *r, const struct detect_link *links, size_t n,
                int nranks, int max_per_suspect, struct pair_set *pairs, struct retest_pair **out);

/*
 * A host's or a link's own verdict from this round's pairs measured alone,
 * against the controls measured alone in the same round: for each host or
 * link suspect of accused (bandwidth between hosts, not of the shift pattern,
 * not a rail) with at least one cell measured alone this round (its slow
 * ways: a host's out for send, in for receive; a link's one way or both) and
 * at least 2 control cells (both ways of each control pair), the readings of
 * it in now (the same kind, host or link; detect_accused_before) are removed,
 * and when it holds it is put in their place with these figures: the median
 * of its cells at most (1 - tolerance) x the controls' median, and none of
 * its cells at or above that median (as a segment's test below asks of its
 * cells across). One named both ways whose cells do not hold together is
 * judged each way on its own, and put narrowed to the one way that holds. Its
 * score, the modified z of its median's log among the
 * controls' logs (MAD floored as the detector's, with the gain sqrt(2k / pi)
 * of a median of k > 1 cells), is for the reader, not a test: beside another
 * job's stream the controls split into two levels (3 cells at 0.0357 GB/s and
 * 3 at 0.0244, seed 3's draw 62, 2026-12-07), their spread as wide as the
 * levels, and a z against it cleared a link 70% slow at 0.38x and a host 50%
 * slow to send at 0.6x (draw 109). Without controls (every host a
 * suspect's) nothing changes: the classifier's reading of the whole matrix
 * stands, as before. Returns 0, or -1 when out of memory (now then as it was
 * or with readings removed only).
 */
int retest_judge_alone(struct detect_result *now, const struct detect_result *accused,
                       const struct retest_pair *pairs, int count,
                       const struct detect_link *links, size_t n, const struct detect_params *p);

/*
 * A segment's own verdict from its two steps, which were measured moments
 * apart with as many pairs in flight: it holds when the median of its cells
 * across (in its direction) is at most (1 - tolerance) x the median of those
 * within (both directions) and no cell across reaches that median. (Not every
 * cell below every cell within: a pair across whose partner across ended
 * its window early has the uplink to itself, at 0.65x for one 35% slow,
 * and a pair within on a busy core falls to 0.63x: seed 11's 35% draw,
 * with such cells in its last round, lost its segment.) The classifier's reading of
 * the whole matrix cannot say this: its other cells were measured in other
 * moments, alone or in rounds, and a slow uplink's cells are 0.35x or 0.67x of
 * the rest by how many pairs crossed it at once (seed 11, 35%: a round read
 * links, the next hosts, the next a segment, and nothing stood).
 *
 * For each segment of accused (the suspects retest_plan planned pairs[0 ..
 * count - 1] from) whose steps both have a value: in now (this round's
 * judgement, before detect_confirm) the classifier's readings of the segment
 * (detect_same_segment) are removed; a segment that holds is put in their
 * place, with its sides and these figures (the z of the median across among
 * the cells within, MAD floored as the detector's), and the links across its
 * cut (its cells) are removed. links and n give each ordered pair's bandwidth
 * (detect_run's input of the round). Returns 0, or -1 when out of memory (now
 * then as it was or with readings removed only).
 */
int retest_judge_segments(struct detect_result *now, const struct detect_result *accused,
                          const struct retest_pair *pairs, int count,
                          const struct detect_link *links, size_t n,
                          const struct detect_params *p);

#endif
