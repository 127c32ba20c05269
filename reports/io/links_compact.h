/*
 * The compact form of a links report (schema_version 2, issue 28): one small
 * fixed record per measured ordered pair, held as parallel arrays under
 * "pairs" (a, b, locality, latency p50/p99/count, bandwidth p50/p99/count,
 * bidirectional p50, CPU wait, re-tested), and raw samples only under
 * "pair_samples": for the pairs the re-test measured again (the suspects')
 * and for a bounded, evenly spaced sample of the others, so that compare
 * can still test a sample of them. Figures keep 4 significant digits.
 * A clean run costs about 70 bytes per measured pair (schema 1: about 2 KB);
 * tests/unit/test_links_compact.c measures it.
 *
 * The writer takes the same links_view as the rest of the report; the
 * reader takes "pairs" into struct links_pairs, for compare (and so trend
 * and report) and accept, which read schema 1's results[] records as they
 * always did. Pure: libc, libm and cJSON.
 */
#ifndef COLLSCOPE_LINKS_COMPACT_H
#define COLLSCOPE_LINKS_COMPACT_H

#include "reports/io/links_report.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The links report's schema_version with the compact form; schema 1 had results[]. */
#define LINKS_COMPACT_SCHEMA_VERSION 2
/* Raw samples of each kind written for a pair that keeps them (compare needs 9 a side). */
#define LINKS_REPORT_SAMPLES 16
/* Up to this many measured pairs every pair keeps its samples (about 220 bytes a pair, so
 * at most ~0.25 MB), so that a nightly compare of links tests every pair of a small cluster
 * without --keep-samples: samples missing on a side leave a pair untested. */
#define LINKS_SAMPLES_ALL_UP_TO 1056
/* Above it, of the pairs not re-tested, one in LINKS_SAMPLED_EVERY keeps its samples, at most LINKS_SAMPLED_MAX. */
#define LINKS_SAMPLED_EVERY 16
#define LINKS_SAMPLED_MAX   64

enum pair_sample_why { PAIR_SAMPLE_SUSPECT, PAIR_SAMPLE_SAMPLED, PAIR_SAMPLE_WHYS };
/* "suspect", "sampled", NULL: the one table of pair_samples[].why (schema_table.h). */
extern const char *const pair_sample_why_names[PAIR_SAMPLE_WHYS + 1];

/*
 * Adds "pairs" and "pair_samples" for every measured pair of v and sets the
 * root's schema_version to LINKS_COMPACT_SCHEMA_VERSION. The arrays are
 * built as text (cJSON raw items), so the writer holds about the report's
 * own bytes, not a tree node per number. Returns "pairs", or NULL when out
 * of memory.
 */
cJSON *links_report_add_pairs(cJSON *root, const struct links_view *v);
/*
 * The same from a list of the measured records (list[0 .. n), in the order
 * to write), for a caller that holds what was measured rather than n x n
 * records: v->records may then be NULL (the CPU wait is each record's own).
 */
cJSON *links_report_add_pair_list(cJSON *root, const struct links_view *v,
                                  const struct link_record *list, size_t n);

/* The raw samples of one pair. */
struct links_pair_samples {
	int64_t a, b;
	enum pair_sample_why why;
	double *latency_us, *window_us; /* owned */
	size_t nlatency, nwindow;
};

/*
 * Every measured pair of a compact links report. Arrays of n entries,
 * owned; an undefined figure is NAN. host_of_rank[r] (nranks entries) is
 * the host of rank r from context.ranks[], borrowed from the cJSON tree,
 * NULL when unknown.
 */
struct links_pairs {
	size_t n;
	int64_t *a, *b, *lat_count, *bw_count;
	int *locality; /* enum detect_locality */
	double *lat_p50_us, *lat_p99_us, *bw_p50_gbps, *bw_p99_gbps, *bidir_p50_gbps,
	    *cpu_wait_fraction;
	bool *remeasured;
	double window_bytes;
	struct links_pair_samples *samples;
	size_t nsamples;
	int64_t nranks;
	const char **host_of_rank;
};

/* True when root holds the compact form ("pairs"). */
bool links_report_is_compact(const cJSON *root);

/*
 * Reads the pairs of a links report (root, read from path by report_read)
 * into *out: 0, or -1 with err naming the file and the field
 * ("report 'l.json': pairs.lat_p50_us[3] is not a number"), or that the
 * arrays differ in length, a rank is out of range, two entries name one pair.
 */
int links_pairs_read(const char *path, const cJSON *root, struct links_pairs *out, char *err,
                     size_t errlen);
void links_pairs_release(struct links_pairs *p);

/* The host of rank (from context.ranks[]), or NULL when unknown. */
const char *links_pairs_host(const struct links_pairs *p, int64_t rank);

/* The samples of pair a -> b, or NULL (a binary search: samples are sorted by pair). */
const struct links_pair_samples *links_pairs_samples_of(const struct links_pairs *p, int64_t a,
                                                        int64_t b);

#endif
