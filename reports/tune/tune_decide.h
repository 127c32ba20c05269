/*
 * collscope tune (issue 33), the decision: per rank count and message size,
 * which all-reduce algorithm of the MPI library the decision file names
 * (rules_ompi.h, rules_mpich.h). Pure: libc and libm, no I/O.
 *
 * A measured set is one algorithm, forced, at one point (ranks, bytes). Its
 * alg is the library's id; alg 0 is the library's own decision, measured like
 * the others (Open MPI's coll_tuned "ignore", MPICH's "auto").
 *
 * The rule, per point: a forced algorithm is a candidate when it gave no
 * wrong result, has at least min_samples samples and its p50 is below the
 * default's. In ascending p50 the first candidate that is faster by the
 * two-sided Mann-Whitney test against the default's samples (p < alpha) and
 * by enough (default p50 / its p50 >= min_gain) is chosen. Otherwise the
 * default stays (alg 0): naming the library's own decision costs nothing
 * where nothing measurably better was found. The test goes down the p50
 * order rather than stopping at the fastest: a noisy fastest whose lead is
 * not significant must not hide a steady runner-up whose lead is.
 *
 * Every candidate is tested at alpha, without a multiple-comparison
 * adjustment: a library offers a handful of algorithms, and min_gain keeps a
 * significant but negligible lead out.
 */
#ifndef COLLSCOPE_TUNE_DECIDE_H
#define COLLSCOPE_TUNE_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TUNE_DEFAULT_ALPHA    0.01
#define TUNE_DEFAULT_MIN_GAIN 1.05
/* stats_mann_whitney's normal approximation is meaningful from about 9 a side. */
#define TUNE_DEFAULT_MIN_SAMPLES 10

/* One algorithm measured at one point. Everything is borrowed from the caller. */
struct tune_set {
	int ranks;
	uint64_t bytes;
	int alg;              /* the library's id, >= 0; 0 = its default decision */
	const char *alg_name; /* the library's name for it ("ring", "auto"); not NULL */
	const double *samples_us;
	size_t nsamples;
	bool wrong; /* a wrong result: never chosen */
};

struct tune_decide_opts {
	double alpha;       /* 0 < alpha < 1 */
	double min_gain;    /* >= 1 */
	size_t min_samples; /* per side, >= 2 (the test needs two) */
};

/* The defaults above. */
void tune_decide_opts_init(struct tune_decide_opts *o);

/* Why a point got its algorithm. */
enum tune_why {
	TUNE_FASTER,          /* changed: significantly and sufficiently faster */
	TUNE_NO_DEFAULT,      /* no set of alg 0 at this point: nothing to compare with */
	TUNE_DEFAULT_WRONG,   /* the default gave wrong results: a bug to report, not tune around */
	TUNE_DEFAULT_FEW,     /* the default has fewer than min_samples samples */
	TUNE_NONE_FASTER,     /* no correct forced algorithm with enough samples has a lower p50 */
	TUNE_NOT_SIGNIFICANT, /* the fastest candidate's p >= alpha (and no other passed) */
	TUNE_GAIN_SMALL,      /* the fastest candidate is significant but below min_gain */
	TUNE_NOT_CONFIRMED,   /* chosen, then not significantly faster when measured again */
	TUNE_WOULD_REGRESS,   /* chosen, then significantly slower when measured again */
	TUNE_WHY_COUNT
};

/* A lowercase phrase for w ("no default measured at this point"); static. */
const char *tune_why_text(enum tune_why w);

/*
 * The decision at one point. Names are borrowed from the sets (the caller
 * keeps the sets alive while it uses the choices).
 */
struct tune_choice {
	int ranks;
	uint64_t bytes;
	int alg;               /* what the file names: 0 = the library's decision */
	const char *alg_name;  /* its set's name; NULL when no default set exists */
	double default_p50_us; /* NAN without a default set or samples */
	double chosen_p50_us;  /* p50 of alg's set: default_p50_us when kept */
	/*
	 * The candidate tested: the chosen one when changed, otherwise the
	 * fastest candidate (the one whose failure why names); -1 and NULL,
	 * and gain and p_value NAN, when there was none.
	 */
	int candidate_alg;
	const char *candidate_name;
	double candidate_p50_us;
	double gain;    /* default p50 / candidate p50 */
	double p_value; /* two-sided Mann-Whitney, candidate against default */
	bool changed;   /* alg != 0 */
	enum tune_why why;
	/*
	 * tune_confirm's second measurement of the choice made (the candidate
	 * chosen, against the default): default p50 / its p50 and the test's p
	 * there; NAN where no choice was made or nothing was measured again.
	 */
	double confirm_gain;
	double confirm_p_value;
};

/*
 * Decides every point (ranks, bytes) present in sets, any order. out has
 * room for nsets choices (a point has at least one set); *nout receives
 * their number, sorted by ranks, then bytes. opts NULL: the defaults.
 * Returns 0, or -1 with err naming the problem: opts out of range, a set
 * with ranks < 1, alg < 0, no name, samples NULL with nsamples > 0, a sample
 * that is not finite or negative, two sets of one algorithm at one point;
 * or out of memory.
 */
/*
 * What every writer of choices needs of them: at least one, each of 1 rank or
 * more and an algorithm id >= 0. 0, or -1 with the first fault in err.
 */
int tune_choices_check(const struct tune_choice *c, size_t n, char *err, size_t errlen);

int tune_decide(const struct tune_set *sets, size_t nsets, const struct tune_decide_opts *opts,
                struct tune_choice *out, size_t *nout, char *err, size_t errlen);

/*
 * The selection's check (the winner of several is biased towards a lucky
 * draw): `again` holds the default and each chosen algorithm measured once
 * more, after tune_decide's choices c[0..n) were made. A changed choice
 * stands when again has it faster than the default at that point, with the
 * test's p < alpha; significantly slower, the file would regress the point
 * (TUNE_WOULD_REGRESS); otherwise TUNE_NOT_CONFIRMED. Either way it reverts
 * to the library's decision (alg 0), its candidate's figures kept. Every
 * choice gets confirm_gain and confirm_p_value (NAN where unchanged, or
 * where again lacks either set or enough samples: then it is not confirmed).
 * Returns the number of choices reverted, or -1 with err (a set of again as
 * tune_decide refuses one, or out of memory).
 */
int tune_confirm(struct tune_choice *c, size_t n, const struct tune_set *again, size_t nagain,
                 const struct tune_decide_opts *opts, char *err, size_t errlen);

/* The distinct rank counts of c, ascending, into out (room for n); returns their number. */
size_t tune_ranks(const struct tune_choice *c, size_t n, int *out);

/*
 * A message-size range of one rank count: [from_bytes, to_bytes), the last
 * with to_bytes = UINT64_MAX (no upper end).
 */
struct tune_range {
	uint64_t from_bytes, to_bytes;
	int alg;
	const char *alg_name; /* borrowed from the first choice of the range */
};

/*
 * The choices of c at `ranks` as message-size ranges, into out (room for
 * n + 2); *nout receives their number. Sizes ascending: the choice measured
 * at s_i applies from s_i up to the next measured size. The file changes the
 * library's decision only where it was measured: below the smallest size and
 * above the largest, the library decides (alg 0, alg_name NULL; a decision
 * file must start at 0 bytes). Consecutive ranges of the same alg merge.
 * Returns 0, or -1 with err naming the problem: no choice at that rank count,
 * two choices at one size, or out of memory.
 */
int tune_ranges(const struct tune_choice *c, size_t n, int ranks, struct tune_range *out,
                size_t *nout, char *err, size_t errlen);

#endif
