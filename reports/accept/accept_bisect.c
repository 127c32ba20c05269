/*
 * Culprit isolation as a state machine (see accept_bisect.h). The sets
 * still to search are ranges of order[], a permutation of the hosts: the
 * halves of a range are ranges, and the hosts of a range that are not
 * cleared are moved to its front when it is searched again. Suspects are
 * then tested against their complement (the evidence) before any is named.
 */
#include "reports/accept/accept_bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum phase { IDLE, WHOLE, HALF_A, HALF_B, PAIR_A, PAIR_B, EVIDENCE, TOGETHER, DONE };

enum {
	G_DEFERRED =
	    1u, /* its halves were not tested (single hosts): again once hosts are cleared */
	G_RECHECK = 2u, /* never tested beside cleared hosts: test it whole with them first */
};

int accept_bisect_init(struct accept_bisect *b, int nhosts)
{
	size_t n = nhosts > 0 ? (size_t)nhosts : 0;

	memset(b, 0, sizeof *b);
	if (nhosts < 1)
		return -1;
	b->nhosts = nhosts;
	b->qcap = 2 * n + 1; /* the sets in the queue are disjoint and not empty, twice at most */
	b->order = malloc(n * sizeof *b->order);
	b->role = calloc(n, sizeof *b->role);
	b->group = malloc(n * sizeof *b->group);
	b->reason = calloc(n, sizeof *b->reason);
	b->subset = calloc(n, sizeof *b->subset);
	b->queue = malloc(b->qcap * sizeof *b->queue);
	b->evidence = calloc(n, sizeof *b->evidence);
	if (!b->order || !b->role || !b->group || !b->reason || !b->subset || !b->queue ||
	    !b->evidence) {
		accept_bisect_release(b);
		return -1;
	}
	for (int h = 0; h < nhosts; h++) {
		b->order[h] = h;
		b->group[h] = -1;
	}
	/* every host together failed: that is why the search runs */
	b->queue[0] = (struct accept_bisect_group){0, nhosts, 0};
	b->qlen = 1;
	b->phase = IDLE;
	b->repeats = ACCEPT_EVIDENCE_REPEATS;
	return 0;
}

void accept_bisect_release(struct accept_bisect *b)
{
	free(b->order);
	free(b->role);
	free(b->group);
	free(b->reason);
	free(b->subset);
	free(b->queue);
	free(b->evidence);
	memset(b, 0, sizeof *b);
}

int accept_bisect_set_repeats(struct accept_bisect *b, int repeats)
{
	if (!b->order || b->tests > 0 || b->pending || repeats < 0 || repeats > ACCEPT_EVIDENCE_MAX)
		return -1;
	b->repeats = repeats;
	return 0;
}

static void push(struct accept_bisect *b, int lo, int hi, unsigned flags)
{
	if (lo < hi && b->qlen < b->qcap)
		b->queue[(b->qhead + b->qlen++) % b->qcap] =
		    (struct accept_bisect_group){lo, hi, flags};
}

static bool pop(struct accept_bisect *b)
{
	if (b->qlen == 0)
		return false;
	b->cur = b->queue[b->qhead];
	b->qhead = (b->qhead + 1) % b->qcap;
	b->qlen--;
	return true;
}

static int count_cleared(const struct accept_bisect *b)
{
	int n = 0;

	for (int h = 0; h < b->nhosts; h++)
		n += b->role[h] == ACCEPT_ROLE_CLEARED;
	return n;
}

static void set_role(struct accept_bisect *b, int lo, int hi, enum accept_role role)
{
	for (int i = lo; i < hi; i++)
		b->role[b->order[i]] = role;
}

/* The hosts of order[lo .. hi) that are not cleared form a set not isolated, for reason. */
static void not_isolated(struct accept_bisect *b, int lo, int hi, enum accept_group_reason reason)
{
	bool any = false;

	for (int i = lo; i < hi; i++) {
		int h = b->order[i];
		if (b->role[h] == ACCEPT_ROLE_CLEARED)
			continue;
		b->role[h] = ACCEPT_ROLE_NOT_ISOLATED;
		b->group[h] = b->ngroups;
		any = true;
	}
	if (any)
		b->reason[b->ngroups++] = reason;
}

/* Moves the hosts of order[lo .. hi) that are not cleared to its front; returns how many. */
static int uncleared_first(struct accept_bisect *b, int lo, int hi)
{
	int k = lo;

	for (int i = lo; i < hi; i++)
		if (b->role[b->order[i]] != ACCEPT_ROLE_CLEARED) {
			int t = b->order[k];
			b->order[k++] = b->order[i];
			b->order[i] = t;
		}
	return k - lo;
}

/*
 * Hands out the subset in b->subset when it has two hosts or more (true);
 * never all hosts (that set is known to fail): then the last cleared host
 * stays out.
 */
static bool hand_out_subset(struct accept_bisect *b)
{
	int n = 0;

	for (int h = 0; h < b->nhosts; h++)
		n += b->subset[h];
	for (int h = b->nhosts - 1; n == b->nhosts && h >= 0; h--)
		if (b->role[h] == ACCEPT_ROLE_CLEARED) {
			b->subset[h] = false;
			n--;
		}
	if (n < 2 || n == b->nhosts)
		return false;
	b->last_size = n;
	b->pending = true;
	return true;
}

/* order[lo .. hi) and every cleared host; false (nothing handed out) when that is one host. */
static bool hand_out(struct accept_bisect *b, int lo, int hi)
{
	memset(b->subset, 0, (size_t)b->nhosts * sizeof *b->subset);
	for (int i = lo; i < hi; i++)
		b->subset[b->order[i]] = true;
	for (int h = 0; h < b->nhosts; h++)
		b->subset[h] |= b->role[h] == ACCEPT_ROLE_CLEARED;
	return hand_out_subset(b);
}

static int mid_of(const struct accept_bisect_group *g)
{
	return g->lo + (g->hi - g->lo + 1) / 2;
}

/* Starts on the set just taken from the queue: the phase it is in. */
static enum phase begin(struct accept_bisect *b)
{
	struct accept_bisect_group *g = &b->cur;
	bool cleared = count_cleared(b) > 0;

	if (uncleared_first(b, g->lo, g->hi) == 0) /* cleared meanwhile (by a pair) */
		return IDLE;
	g->hi = g->lo + uncleared_first(b, g->lo, g->hi);
	if (g->flags & G_RECHECK) /* nothing to test it beside: it stays untested */
		return cleared ? WHOLE : IDLE;
	if ((g->flags & G_DEFERRED) && !cleared) {
		not_isolated(b, g->lo, g->hi, ACCEPT_GROUP_TOO_SMALL);
		return IDLE;
	}
	if (g->hi - g->lo == 1) {
		set_role(b, g->lo, g->hi, ACCEPT_ROLE_CULPRIT); /* a suspect, until the evidence */
		return IDLE;
	}
	return HALF_A;
}

/* A host outside the current set g that is not suspected, or -1. */
static int outside(const struct accept_bisect *b, const struct accept_bisect_group *g)
{
	for (int i = 0; i < b->nhosts; i++)
		if ((i < g->lo || i >= g->hi) && b->role[b->order[i]] == ACCEPT_ROLE_UNTESTED)
			return b->order[i];
	return -1;
}

/* {x, z} with x = order[lo + which] and z = pair_z. */
static bool hand_out_pair(struct accept_bisect *b, int which)
{
	memset(b->subset, 0, (size_t)b->nhosts * sizeof *b->subset);
	b->subset[b->order[b->cur.lo + which]] = true;
	b->subset[b->pair_z] = true;
	return hand_out_subset(b);
}

/*
 * The two pairs {x, z}, {y, z} of the current set {x, y}: a passing pair is
 * cleared; the other host then failed beside a cleared host: a suspect.
 */
static void judge_pairs(struct accept_bisect *b, enum accept_outcome yo)
{
	struct accept_bisect_group g = b->cur;
	enum accept_outcome xo = b->a_outcome;
	int x = b->order[g.lo], y = b->order[g.lo + 1];

	b->phase = IDLE;
	if (xo == ACCEPT_TEST_PASS && yo == ACCEPT_TEST_PASS) {
		b->role[b->pair_z] = ACCEPT_ROLE_CLEARED;
		not_isolated(b, g.lo, g.hi, ACCEPT_GROUP_TOGETHER);
		return;
	}
	if (xo != ACCEPT_TEST_PASS && yo != ACCEPT_TEST_PASS) {
		not_isolated(b, g.lo, g.hi, ACCEPT_GROUP_TOO_SMALL);
		return;
	}
	b->role[b->pair_z] = ACCEPT_ROLE_CLEARED;
	b->role[xo == ACCEPT_TEST_PASS ? x : y] = ACCEPT_ROLE_CLEARED;
	if ((xo == ACCEPT_TEST_PASS ? yo : xo) == ACCEPT_TEST_FAIL)
		b->role[xo == ACCEPT_TEST_PASS ? y : x] = ACCEPT_ROLE_CULPRIT;
	else /* unknown: test it beside the cleared hosts */
		push(b, xo == ACCEPT_TEST_PASS ? g.lo + 1 : g.lo,
		     xo == ACCEPT_TEST_PASS ? g.hi : g.lo + 1, G_RECHECK);
}

/* The outcome of both halves of the current set. */
static void judge_halves(struct accept_bisect *b, enum accept_outcome bo)
{
	struct accept_bisect_group g = b->cur;
	int mid = mid_of(&g);
	enum accept_outcome ao = b->a_outcome;

	b->phase = IDLE;
	if (ao == ACCEPT_TEST_PASS && bo == ACCEPT_TEST_PASS) {
		not_isolated(b, g.lo, g.hi, ACCEPT_GROUP_TOGETHER);
		return;
	}
	if (ao == ACCEPT_TEST_UNKNOWN && bo == ACCEPT_TEST_UNKNOWN) {
		if (g.hi - g.lo == 2 && count_cleared(b) == 0 && (b->pair_z = outside(b, &g)) >= 0)
			b->phase = PAIR_A;
		else if (g.flags & G_DEFERRED)
			not_isolated(b, g.lo, g.hi, ACCEPT_GROUP_TOO_SMALL);
		else
			push(b, g.lo, g.lo + uncleared_first(b, g.lo, g.hi), g.flags | G_DEFERRED);
		return;
	}
	/* the failing halves first: they are searched; the untested ones are rechecked later */
	if (ao == ACCEPT_TEST_FAIL)
		push(b, g.lo, mid, 0);
	if (bo == ACCEPT_TEST_FAIL)
		push(b, mid, g.hi, 0);
	if (ao == ACCEPT_TEST_PASS)
		set_role(b, g.lo, mid, ACCEPT_ROLE_CLEARED);
	if (bo == ACCEPT_TEST_PASS)
		set_role(b, mid, g.hi, ACCEPT_ROLE_CLEARED);
	if (ao == ACCEPT_TEST_UNKNOWN)
		push(b, g.lo, mid, G_RECHECK);
	if (bo == ACCEPT_TEST_UNKNOWN)
		push(b, mid, g.hi, G_RECHECK);
}

/* The outcome of the test of a whole set beside cleared hosts (a recheck). */
static void judge_whole(struct accept_bisect *b, enum accept_outcome o)
{
	struct accept_bisect_group *g = &b->cur;

	b->phase = IDLE;
	if (o == ACCEPT_TEST_PASS)
		set_role(b, g->lo, g->hi, ACCEPT_ROLE_CLEARED);
	if (o != ACCEPT_TEST_FAIL)
		return;
	/* it fails beside cleared hosts: a set known to fail, to divide */
	g->flags &= ~G_RECHECK;
	if (g->hi - g->lo == 1)
		set_role(b, g->lo, g->hi, ACCEPT_ROLE_CULPRIT);
	else
		b->phase = HALF_A;
}

/*
 * The evidence's next test: for the suspect ev_host, its sub-test S (even
 * steps: it and the cleared hosts but the last) or the complement C (odd:
 * every cleared host). false when every suspect is judged.
 */
static bool evidence_next(struct accept_bisect *b)
{
	int cleared = count_cleared(b);

	for (; b->ev_host < b->nhosts; b->ev_host++, b->ev_step = 0) {
		int h = b->ev_host, dropped = 0;
		struct accept_evidence *e = &b->evidence[h];
		if (b->role[h] != ACCEPT_ROLE_CULPRIT || b->repeats == 0)
			continue;
		if (b->ev_step == 0) {
			*e = (struct accept_evidence){.tested = true, .possible = cleared >= 2};
			if (!e->possible) {
				b->role[h] = ACCEPT_ROLE_INCONCLUSIVE;
				continue;
			}
		}
		if (b->ev_step == 2 * b->repeats) {
			b->role[h] = e->s_failed == b->repeats && e->c_passed == b->repeats
			                 ? ACCEPT_ROLE_CULPRIT
			                 : ACCEPT_ROLE_INCONCLUSIVE;
			continue;
		}
		for (int k = 0; k < b->nhosts; k++)
			b->subset[k] = b->role[k] == ACCEPT_ROLE_CLEARED;
		if (b->ev_step % 2 == 0) {
			for (int k = b->nhosts - 1; k >= 0 && !dropped; k--)
				if (b->subset[k])
					b->subset[k] = false, dropped = 1;
			b->subset[h] = true;
		}
		if (hand_out_subset(b))
			return true;
		b->role[h] = ACCEPT_ROLE_INCONCLUSIVE; /* no test to run: never named untested */
	}
	return false;
}

/* After the evidence: the culprits together, alone, when there are two or more. */
static bool together_next(struct accept_bisect *b)
{
	int n = 0;
	for (int h = 0; h < b->nhosts; h++)
		n += b->subset[h] = b->role[h] == ACCEPT_ROLE_CULPRIT;
	return b->repeats > 0 && n >= 2 && hand_out_subset(b);
}

/* Culprits that passed together are slow only with the others: the path between. */
static void judge_together(struct accept_bisect *b, enum accept_outcome o)
{
	b->phase = DONE;
	if (o != ACCEPT_TEST_PASS)
		return;
	for (int h = 0; h < b->nhosts; h++)
		if (b->role[h] == ACCEPT_ROLE_CULPRIT) {
			b->role[h] = ACCEPT_ROLE_NOT_ISOLATED;
			b->group[h] = b->ngroups;
		}
	b->reason[b->ngroups++] = ACCEPT_GROUP_ACROSS;
}

bool accept_bisect_next(struct accept_bisect *b, bool *hosts_in_subset)
{
	if (!b->order)
		return false;
	while (!b->pending && b->phase != DONE) {
		if (b->phase == HALF_A && !hand_out(b, b->cur.lo, mid_of(&b->cur))) {
			b->a_outcome = ACCEPT_TEST_UNKNOWN; /* one host: no evidence */
			b->phase = HALF_B;
		} else if (b->phase == HALF_B && !hand_out(b, mid_of(&b->cur), b->cur.hi)) {
			judge_halves(b, ACCEPT_TEST_UNKNOWN);
		} else if (b->phase == PAIR_A && !hand_out_pair(b, 0)) {
			b->a_outcome = ACCEPT_TEST_UNKNOWN;
			b->phase = PAIR_B;
		} else if (b->phase == PAIR_B && !hand_out_pair(b, 1)) {
			judge_pairs(b, ACCEPT_TEST_UNKNOWN);
		} else if (b->phase == WHOLE && !hand_out(b, b->cur.lo, b->cur.hi)) {
			judge_whole(b, ACCEPT_TEST_UNKNOWN);
		} else if (b->phase == EVIDENCE && !evidence_next(b)) {
			b->phase = together_next(b) ? TOGETHER : DONE;
		} else if (b->phase == IDLE) {
			b->phase = pop(b) ? begin(b) : EVIDENCE;
		}
	}
	if (!b->pending)
		return false;
	memcpy(hosts_in_subset, b->subset, (size_t)b->nhosts * sizeof *b->subset);
	return true;
}

/* One test of the evidence about ev_host. */
static void evidence_record(struct accept_bisect *b, enum accept_outcome o, double figure)
{
	struct accept_evidence *e = &b->evidence[b->ev_host];
	int r = b->ev_step / 2;

	if (b->ev_step % 2 == 0) {
		e->s_hosts = b->last_size;
		e->s_failed += o == ACCEPT_TEST_FAIL;
		e->s_figure[r] = figure;
		e->c_figure[r] = NAN;
	} else {
		e->c_hosts = b->last_size;
		e->c_passed += o == ACCEPT_TEST_PASS;
		e->c_figure[r] = figure;
		e->repeats = r + 1;
	}
	b->ev_step++;
}

int accept_bisect_record(struct accept_bisect *b, enum accept_outcome outcome, double figure)
{
	if (!b->pending || outcome < ACCEPT_TEST_PASS || outcome > ACCEPT_TEST_UNKNOWN)
		return -1;
	b->pending = false;
	b->tests++;
	if (b->phase == EVIDENCE)
		evidence_record(b, outcome, figure);
	else if (b->phase == TOGETHER)
		judge_together(b, outcome);
	else if (b->phase == WHOLE)
		judge_whole(b, outcome);
	else if (b->phase == HALF_A || b->phase == PAIR_A) {
		b->a_outcome = outcome;
		b->phase = b->phase == HALF_A ? HALF_B : PAIR_B;
	} else if (b->phase == PAIR_B)
		judge_pairs(b, outcome);
	else
		judge_halves(b, outcome);
	return 0;
}

int accept_bisect_result(struct accept_bisect *b, bool passed)
{
	return accept_bisect_record(b, passed ? ACCEPT_TEST_PASS : ACCEPT_TEST_FAIL, NAN);
}

enum accept_role accept_bisect_role(const struct accept_bisect *b, int host)
{
	return host >= 0 && host < b->nhosts ? b->role[host] : ACCEPT_ROLE_UNTESTED;
}

int accept_bisect_culprits(const struct accept_bisect *b, int *hosts)
{
	int n = 0;

	for (int h = 0; h < b->nhosts; h++)
		if (b->role[h] == ACCEPT_ROLE_CULPRIT)
			hosts[n++] = h;
	return n;
}

int accept_bisect_group_of(const struct accept_bisect *b, int host)
{
	return host >= 0 && host < b->nhosts ? b->group[host] : -1;
}

enum accept_group_reason accept_bisect_group_reason(const struct accept_bisect *b, int group)
{
	return group >= 0 && group < b->ngroups ? b->reason[group] : ACCEPT_GROUP_TOGETHER;
}

int accept_bisect_tests(const struct accept_bisect *b)
{
	return b->tests;
}

bool accept_bisect_isolated(const struct accept_bisect *b)
{
	bool culprit = false;

	for (int h = 0; h < b->nhosts; h++) {
		if (b->role[h] == ACCEPT_ROLE_INCONCLUSIVE)
			return false;
		culprit |= b->role[h] == ACCEPT_ROLE_CULPRIT;
	}
	return culprit && b->ngroups == 0;
}

const struct accept_evidence *accept_bisect_evidence(const struct accept_bisect *b, int host)
{
	static const struct accept_evidence none;
	return host >= 0 && host < b->nhosts ? &b->evidence[host] : &none;
}

const char *accept_group_reason_name(enum accept_group_reason r)
{
	static const char *const names[] = {"together", "too small", "across"};
	return r >= 0 && r <= ACCEPT_GROUP_ACROSS ? names[r] : "unknown";
}

const char *accept_role_name(enum accept_role r)
{
	static const char *const names[] = {"untested", "cleared", "culprit", "not isolated",
	                                    "inconclusive"};
	return r >= 0 && r <= ACCEPT_ROLE_INCONCLUSIVE ? names[r] : "unknown";
}
