/*
 * Culprit isolation as a state machine (see accept_bisect.h). The sets
 * still to search are ranges of order[], a permutation of the hosts: the
 * halves of a range are ranges, and the hosts of a range that are not
 * cleared are moved to its front when it is searched again.
 */
#include "reports/accept/accept_bisect.h"

#include <stdlib.h>
#include <string.h>

enum phase { IDLE, WHOLE, HALF_A, HALF_B, DONE };

enum {
	G_DEFERRED = 1u, /* both halves passed with no host cleared yet: wait for some */
	G_RETRIED = 2u,  /* searched again with cleared hosts beside it */
	G_CONFIRM = 4u,  /* must fail with cleared hosts beside it before it is split */
	G_RECHECK = 8u,  /* passed alone only: test again with cleared hosts beside it */
};

int accept_bisect_init(struct accept_bisect *b, int nhosts)
{
	size_t n = nhosts > 0 ? (size_t)nhosts : 0;

	memset(b, 0, sizeof *b);
	if (nhosts < 1)
		return -1;
	b->nhosts = nhosts;
	b->qcap = n + 1; /* the sets in the queue are disjoint and not empty */
	b->order = malloc(n * sizeof *b->order);
	b->role = calloc(n, sizeof *b->role);
	b->group = malloc(n * sizeof *b->group);
	b->subset = calloc(n, sizeof *b->subset);
	b->queue = malloc(b->qcap * sizeof *b->queue);
	if (!b->order || !b->role || !b->group || !b->subset || !b->queue) {
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
	return 0;
}

void accept_bisect_release(struct accept_bisect *b)
{
	free(b->order);
	free(b->role);
	free(b->group);
	free(b->subset);
	free(b->queue);
	memset(b, 0, sizeof *b);
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

static bool any_cleared(const struct accept_bisect *b)
{
	for (int h = 0; h < b->nhosts; h++)
		if (b->role[h] == ACCEPT_ROLE_CLEARED)
			return true;
	return false;
}

static void set_role(struct accept_bisect *b, int lo, int hi, enum accept_role role)
{
	for (int i = lo; i < hi; i++)
		b->role[b->order[i]] = role;
}

/* The hosts of order[lo .. hi) that are not cleared form a set that fails together. */
static void not_isolated(struct accept_bisect *b, int lo, int hi)
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
	b->ngroups += any;
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
 * The subset to test: order[lo .. hi) and every cleared host, but never all
 * hosts (that set is known to fail): then the last cleared host stays out.
 */
static void hand_out(struct accept_bisect *b, int lo, int hi)
{
	int n = 0;

	memset(b->subset, 0, (size_t)b->nhosts * sizeof *b->subset);
	for (int i = lo; i < hi; i++)
		b->subset[b->order[i]] = true;
	for (int h = 0; h < b->nhosts; h++) {
		b->subset[h] |= b->role[h] == ACCEPT_ROLE_CLEARED;
		n += b->subset[h];
	}
	for (int h = b->nhosts - 1; n == b->nhosts && h >= 0; h--)
		if (b->role[h] == ACCEPT_ROLE_CLEARED) {
			b->subset[h] = false;
			n--;
		}
	b->last_size = n;
	b->pending = true;
}

static int mid_of(const struct accept_bisect_group *g)
{
	return g->lo + (g->hi - g->lo + 1) / 2;
}

/* Starts on the set just taken from the queue: true when it hands out a test. */
static bool begin(struct accept_bisect *b)
{
	struct accept_bisect_group *g = &b->cur;
	bool cleared = any_cleared(b);

	if (g->flags & (G_CONFIRM | G_RECHECK)) {
		if (!cleared) /* nothing to test it beside: a recheck stays untested */
			return false;
		b->phase = WHOLE;
		hand_out(b, g->lo, g->hi);
		return true;
	}
	if ((g->flags & G_DEFERRED) && !cleared) {
		not_isolated(b, g->lo, g->hi);
		return false;
	}
	if (g->hi - g->lo == 1) {
		set_role(b, g->lo, g->hi, ACCEPT_ROLE_CULPRIT);
		return false;
	}
	b->phase = HALF_A;
	hand_out(b, g->lo, mid_of(g));
	return true;
}

bool accept_bisect_next(struct accept_bisect *b, bool *hosts_in_subset)
{
	if (!b->order)
		return false;
	while (!b->pending && b->phase != DONE) {
		if (b->phase == HALF_A)
			hand_out(b, b->cur.lo, mid_of(&b->cur));
		else if (b->phase == HALF_B)
			hand_out(b, mid_of(&b->cur), b->cur.hi);
		else if (!pop(b))
			b->phase = DONE;
		else if (!begin(b))
			b->phase = IDLE;
	}
	if (!b->pending)
		return false;
	memcpy(hosts_in_subset, b->subset, (size_t)b->nhosts * sizeof *b->subset);
	return true;
}

/* Both halves passed: the set fails only whole, unless a half proved little. */
static void both_passed(struct accept_bisect *b, bool a_strong, bool b_strong)
{
	struct accept_bisect_group g = b->cur;
	int mid = mid_of(&g), left;

	if (a_strong && b_strong) {
		not_isolated(b, g.lo, g.hi);
		return;
	}
	if (a_strong)
		set_role(b, g.lo, mid, ACCEPT_ROLE_CLEARED);
	if (b_strong)
		set_role(b, mid, g.hi, ACCEPT_ROLE_CLEARED);
	left = uncleared_first(b, g.lo, g.hi);
	if (any_cleared(b) && !(g.flags & G_RETRIED))
		push(b, g.lo, g.lo + left, G_RETRIED | (left == 1 ? G_CONFIRM : 0u));
	else if (!any_cleared(b) && !(g.flags & G_DEFERRED))
		push(b, g.lo, g.hi, g.flags | G_DEFERRED);
	else
		not_isolated(b, g.lo, g.lo + left);
}

/* The outcome of both halves of the current set. */
static void judge_halves(struct accept_bisect *b, bool b_passed)
{
	struct accept_bisect_group g = b->cur;
	int mid = mid_of(&g);
	bool a_strong = b->a_size >= 2, b_strong = b->last_size >= 2;

	if (!b->a_passed && !b_passed) {
		push(b, g.lo, mid, 0);
		push(b, mid, g.hi, 0);
	} else if (!b->a_passed) {
		push(b, g.lo, mid, 0);
		if (b_strong)
			set_role(b, mid, g.hi, ACCEPT_ROLE_CLEARED);
		else
			push(b, mid, g.hi, G_RECHECK);
	} else if (!b_passed) {
		push(b, mid, g.hi, 0);
		if (a_strong)
			set_role(b, g.lo, mid, ACCEPT_ROLE_CLEARED);
		else
			push(b, g.lo, mid, G_RECHECK);
	} else
		both_passed(b, a_strong, b_strong);
}

/* The outcome of the test of a whole set (a confirmation or a recheck). */
static void judge_whole(struct accept_bisect *b, bool passed)
{
	struct accept_bisect_group *g = &b->cur;

	b->phase = IDLE;
	if (passed) {
		if (g->flags & G_CONFIRM)
			not_isolated(b, g->lo, g->hi);
		else if (b->last_size >= 2)
			set_role(b, g->lo, g->hi, ACCEPT_ROLE_CLEARED);
		return;
	}
	/* it fails beside cleared hosts: a set known to fail, to divide */
	g->flags &= ~(G_CONFIRM | G_RECHECK);
	if (g->hi - g->lo == 1)
		set_role(b, g->lo, g->hi, ACCEPT_ROLE_CULPRIT);
	else
		b->phase = HALF_A;
}

int accept_bisect_result(struct accept_bisect *b, bool passed)
{
	if (!b->pending)
		return -1;
	b->pending = false;
	b->tests++;
	if (b->phase == WHOLE)
		judge_whole(b, passed);
	else if (b->phase == HALF_A) {
		b->a_passed = passed;
		b->a_size = b->last_size;
		b->phase = HALF_B;
	} else {
		judge_halves(b, passed);
		b->phase = IDLE;
	}
	return 0;
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

int accept_bisect_tests(const struct accept_bisect *b)
{
	return b->tests;
}

bool accept_bisect_isolated(const struct accept_bisect *b)
{
	bool culprit = false;

	for (int h = 0; h < b->nhosts; h++)
		culprit |= b->role[h] == ACCEPT_ROLE_CULPRIT;
	return culprit && b->ngroups == 0;
}

const char *accept_role_name(enum accept_role r)
{
	static const char *const names[] = {"untested", "cleared", "culprit", "not isolated"};
	return r >= 0 && r <= ACCEPT_ROLE_NOT_ISOLATED ? names[r] : "unknown";
}
