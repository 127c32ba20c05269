/* The flight recorder's verdict: see flight.h. */
#include "reports/diagnose/flight.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/io/report_io.h"

void flight_verdict_init(struct flight_verdict *v)
{
	memset(v, 0, sizeof *v);
}

void flight_verdict_release(struct flight_verdict *v)
{
	free(v->state);
	free(v->entered);
	free(v->blocked_by);
	free(v->in_cycle);
	flight_verdict_init(v);
}

const char *flight_state_name(enum flight_state s)
{
	static const char *const names[] = {"unknown",     "not_answering", "idle",
	                                    "not_entered", "waiting",       "between_calls"};
	return s <= FLIGHT_OUTSIDE ? names[s] : "unknown";
}

const char *flight_wait_name(enum flight_wait w)
{
	return w == FLIGHT_WAIT_RECV   ? "receive"
	       : w == FLIGHT_WAIT_SEND ? "send"
	       : w == FLIGHT_WAIT_CALL ? "call"
	                               : NULL;
}

static bool waits_on_peer(const struct flight_rank *r)
{
	return (r->wait == FLIGHT_WAIT_RECV || r->wait == FLIGHT_WAIT_SEND) && r->peer >= 0;
}

static enum flight_state state_of(const struct flight_rank *r, uint64_t most)
{
	if (!r->known)
		return FLIGHT_UNKNOWN;
	if (!r->answering)
		return FLIGHT_SILENT;
	if (r->idle)
		return FLIGHT_IDLE;
	if (r->ticks < most)
		return FLIGHT_NOT_ENTERED;
	if (waits_on_peer(r) || r->wait == FLIGHT_WAIT_CALL)
		return FLIGHT_WAITING;
	return FLIGHT_OUTSIDE;
}

/*
 * Does r wait on a peer? Inside the operation, or behind in the one before
 * (a neighbour of a rank that stopped there waits on it while the others
 * went on to the next barrier).
 */
static bool waits(const struct flight_rank *ranks, const struct flight_verdict *v, int r)
{
	return (v->state[r] == FLIGHT_WAITING || v->state[r] == FLIGHT_NOT_ENTERED) &&
	       waits_on_peer(&ranks[r]) && ranks[r].peer < v->nranks;
}

/* Follows r's waits to the first rank that waits on no one known, or -1 in a cycle. */
static int chain_end(const struct flight_rank *ranks, const struct flight_verdict *v, int r,
                     bool *cycle)
{
	int at = r;
	*cycle = false;
	for (int hops = 0; hops <= v->nranks; hops++) {
		if (!waits(ranks, v, at))
			return at == r ? -1 : at;
		at = ranks[at].peer;
		if (at == r)
			break;
	}
	*cycle = true;
	return -1;
}

int flight_judge(const struct flight_rank *ranks, int n, struct flight_verdict *v)
{
	flight_verdict_init(v);
	if (!ranks || n < 1)
		return -1;
	v->nranks = n;
	v->op_rank = -1;
	v->state = calloc((size_t)n, sizeof *v->state);
	v->entered = calloc((size_t)n, sizeof *v->entered);
	v->blocked_by = calloc((size_t)n, sizeof *v->blocked_by);
	v->in_cycle = calloc((size_t)n, sizeof *v->in_cycle);
	if (!v->state || !v->entered || !v->blocked_by || !v->in_cycle) {
		flight_verdict_release(v);
		return -1;
	}
	for (int r = 0; r < n; r++)
		if (ranks[r].known && !ranks[r].idle && ranks[r].ticks > v->op_ticks)
			v->op_ticks = ranks[r].ticks;
	for (int r = 0; r < n; r++) {
		bool inside = ranks[r].known && !ranks[r].idle && ranks[r].ticks == v->op_ticks;
		v->state[r] = state_of(&ranks[r], v->op_ticks);
		v->entered[r] = inside ? 1 : v->state[r] == FLIGHT_SILENT ? -1 : 0;
		v->never_entered += v->state[r] == FLIGHT_NOT_ENTERED;
		v->not_answering += v->state[r] == FLIGHT_SILENT;
		v->waiting += v->state[r] == FLIGHT_WAITING;
		if (v->op_rank < 0 && inside && v->state[r] != FLIGHT_SILENT)
			v->op_rank = r;
	}
	for (int r = 0; r < n; r++) {
		bool cycle = false;
		bool w = waits(ranks, v, r);
		v->blocked_by[r] = w ? chain_end(ranks, v, r, &cycle) : -1;
		v->in_cycle[r] = w && v->blocked_by[r] < 0 && cycle;
		v->cycles += v->in_cycle[r];
	}
	return 0;
}

/* snprintf that appends and never overruns: *used may pass len (then nothing more is written). */
__attribute__((format(printf, 4, 5))) static void add(char *buf, size_t len, size_t *used,
                                                      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k =
	    vsnprintf(buf + (*used < len ? *used : len), *used < len ? len - *used : 0, fmt, ap);
	va_end(ap);
	*used += k > 0 ? (size_t)k : 0;
}

static void list_ranks(char *buf, size_t len, size_t *used, const struct flight_rank *ranks,
                       const struct flight_verdict *v,
                       bool (*pick)(const struct flight_verdict *, int), const char *what,
                       int max_listed)
{
	int k = 0, more = 0;
	for (int r = 0; r < v->nranks; r++) {
		if (!pick(v, r))
			continue;
		if (k == max_listed) {
			more++;
			continue;
		}
		if (v->state[r] == FLIGHT_SILENT)
			add(buf, len, used, "%s%s rank %d (for %.0f s; last heard at %s)",
			    k ? "," : "; ", k ? "" : what, r, ranks[r].silent_s,
			    ranks[r].where ? ranks[r].where : "?");
		else
			add(buf, len, used, "%s%s rank %d (at %s)", k ? "," : "; ", k ? "" : what,
			    r, ranks[r].where ? ranks[r].where : "?");
		k++;
	}
	if (more)
		add(buf, len, used, ", and %d more", more);
}

static bool pick_not_entered(const struct flight_verdict *v, int r)
{
	return v->state[r] == FLIGHT_NOT_ENTERED;
}

static bool pick_silent(const struct flight_verdict *v, int r)
{
	return v->state[r] == FLIGHT_SILENT;
}

static void list_waits(char *buf, size_t len, size_t *used, const struct flight_rank *ranks,
                       const struct flight_verdict *v, int max_listed)
{
	int k = 0;
	int all = 0;
	for (int r = 0; r < v->nranks; r++)
		all += v->state[r] == FLIGHT_WAITING || waits(ranks, v, r);
	for (int r = 0; r < v->nranks; r++) {
		const struct flight_rank *q = &ranks[r];
		if (v->state[r] != FLIGHT_WAITING && !waits(ranks, v, r))
			continue;
		if (k++ == max_listed) {
			add(buf, len, used, "; and %d more waiting", all - max_listed);
			return;
		}
		if (q->wait == FLIGHT_WAIT_CALL)
			add(buf, len, used,
			    "; rank %d is inside the call (no steps to tell whom it waits on)", r);
		else
			add(buf, len, used, "; rank %d waits to %s rank %d at step %d%s", r,
			    q->wait == FLIGHT_WAIT_RECV ? "receive from" : "send to", q->peer,
			    q->step,
			    v->state[r] == FLIGHT_NOT_ENTERED ? " of the operation before" : "");
		if (v->blocked_by[r] >= 0 && v->blocked_by[r] != q->peer)
			add(buf, len, used, " (its chain of waits ends at rank %d)",
			    v->blocked_by[r]);
		else if (v->in_cycle[r])
			add(buf, len, used, " (in a cycle of waits)");
	}
}

/* "ranks 0, 1 are between calls": inside the operation, in the harness (a barrier). */
static void list_outside(char *buf, size_t len, size_t *used, const struct flight_verdict *v,
                         int max_listed)
{
	int k = 0, more = 0;
	for (int r = 0; r < v->nranks; r++) {
		if (v->state[r] != FLIGHT_OUTSIDE)
			continue;
		if (k == max_listed) {
			more++;
			continue;
		}
		add(buf, len, used, "%s%d",
		    k++ ? ", " : "; between calls (in a barrier of the harness): rank ", r);
	}
	if (more)
		add(buf, len, used, " and %d more", more);
}

/* "every chain of waits ends at rank 2 (not answering)": the distinct ends. */
static void list_ends(char *buf, size_t len, size_t *used, const struct flight_verdict *v)
{
	int k = 0;
	for (int b = 0; b < v->nranks; b++) {
		bool is_end = false;
		for (int r = 0; r < v->nranks && !is_end; r++)
			is_end = v->blocked_by[r] == b;
		if (!is_end)
			continue;
		add(buf, len, used, "%s rank %d (%s)", k++ ? "," : "; the waits lead to", b,
		    v->state[b] == FLIGHT_SILENT        ? "not answering"
		    : v->state[b] == FLIGHT_NOT_ENTERED ? "never entered"
		    : v->state[b] == FLIGHT_OUTSIDE     ? "between calls"
		                                        : flight_state_name(v->state[b]));
	}
	if (v->cycles)
		add(buf, len, used, "; %d ranks wait on each other in a cycle (a deadlock)",
		    v->cycles);
}

int flight_describe(const struct flight_rank *ranks, const struct flight_verdict *v, int max_listed,
                    char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	if (v->op_rank >= 0)
		add(buf, len, &used, "the others are in %s",
		    ranks[v->op_rank].where ? ranks[v->op_rank].where : "?");
	else
		add(buf, len, &used, "no rank that answers is inside an operation");
	if (v->never_entered)
		list_ranks(buf, len, &used, ranks, v, pick_not_entered,
		           "never entered it:", max_listed);
	else
		add(buf, len, &used, "; every rank that answers entered it");
	if (v->not_answering)
		list_ranks(buf, len, &used, ranks, v, pick_silent, "not answering:", max_listed);
	list_waits(buf, len, &used, ranks, v, max_listed);
	list_outside(buf, len, &used, v, max_listed);
	list_ends(buf, len, &used, v);
	return (int)used;
}

static bool add_int_array(cJSON *o, const char *name, const struct flight_verdict *v,
                          bool (*pick)(const struct flight_verdict *, int))
{
	cJSON *a = cJSON_AddArrayToObject(o, name);
	for (int r = 0; a && r < v->nranks; r++)
		if (pick(v, r) && !cJSON_AddItemToArray(a, cJSON_CreateNumber(r)))
			return false;
	return a != NULL;
}

static bool pick_end(const struct flight_verdict *v, int b)
{
	for (int r = 0; r < v->nranks; r++)
		if (v->blocked_by[r] == b)
			return true;
	return false;
}

static bool add_string_or_null(cJSON *o, const char *name, const char *s)
{
	return s ? cJSON_AddStringToObject(o, name, s) != NULL
	         : cJSON_AddNullToObject(o, name) != NULL;
}

static bool add_entry(cJSON *a, const struct flight_entry *e)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddItemToArray(a, o)) {
		cJSON_Delete(o);
		return false;
	}
	return add_string_or_null(o, "algorithm", e->algorithm) &&
	       cJSON_AddNumberToObject(o, "bytes", (double)e->bytes) &&
	       cJSON_AddNumberToObject(o, "iteration", (double)e->iteration) &&
	       cJSON_AddNumberToObject(o, "step", e->step) &&
	       cJSON_AddNumberToObject(o, "send_peer", e->send_peer) &&
	       cJSON_AddNumberToObject(o, "recv_peer", e->recv_peer) &&
	       cJSON_AddNumberToObject(o, "send_bytes", (double)e->send_bytes) &&
	       cJSON_AddNumberToObject(o, "recv_bytes", (double)e->recv_bytes) &&
	       report_add_number(o, "duration_us", e->duration_us) &&
	       report_add_number(o, "recv_wait_us", e->recv_wait_us) &&
	       report_add_number(o, "ended_before_us", e->ended_before_us);
}

static bool add_rank(cJSON *a, const struct flight_rank *q, const struct flight_verdict *v, int r,
                     const char *host)
{
	cJSON *o = cJSON_CreateObject(), *entries = NULL;
	bool peer =
	    waits_on_peer(q) && (v->state[r] == FLIGHT_WAITING ||
	                         v->state[r] == FLIGHT_NOT_ENTERED || v->state[r] == FLIGHT_SILENT);
	if (!o || !cJSON_AddItemToArray(a, o)) {
		cJSON_Delete(o);
		return false;
	}
	bool ok =
	    cJSON_AddNumberToObject(o, "rank", r) && add_string_or_null(o, "host", host) &&
	    cJSON_AddStringToObject(o, "state", flight_state_name(v->state[r])) &&
	    cJSON_AddBoolToObject(o, "answering", q->known && q->answering) &&
	    report_add_number(o, "silent_s", q->known ? q->silent_s : NAN) &&
	    (v->entered[r] >= 0 ? cJSON_AddBoolToObject(o, "entered", v->entered[r] == 1)
	                        : cJSON_AddNullToObject(o, "entered")) &&
	    add_string_or_null(o, "where", q->where) &&
	    add_string_or_null(o, "algorithm", q->algorithm) &&
	    cJSON_AddNumberToObject(o, "bytes", (double)q->bytes) &&
	    cJSON_AddNumberToObject(o, "iteration", (double)q->iteration) &&
	    (q->step >= 0 ? cJSON_AddNumberToObject(o, "step", q->step)
	                  : cJSON_AddNullToObject(o, "step")) &&
	    (peer ? cJSON_AddNumberToObject(o, "waits_on", q->peer)
	          : cJSON_AddNullToObject(o, "waits_on")) &&
	    add_string_or_null(o, "wait", flight_wait_name(q->wait)) &&
	    (v->blocked_by[r] >= 0 ? cJSON_AddNumberToObject(o, "blocked_by", v->blocked_by[r])
	                           : cJSON_AddNullToObject(o, "blocked_by")) &&
	    (entries = cJSON_AddArrayToObject(o, "last_entries"));
	for (size_t i = 0; ok && i < q->nentries; i++)
		ok = add_entry(entries, &q->entries[i]);
	return ok;
}

cJSON *flight_to_json(cJSON *root, const struct flight_rank *ranks, const struct flight_verdict *v,
                      const char *const *hosts)
{
	cJSON *h = cJSON_AddObjectToObject(root, "hang");
	cJSON *op = h ? cJSON_AddObjectToObject(h, "operation") : NULL, *arr = NULL;
	const struct flight_rank *in = v->op_rank >= 0 ? &ranks[v->op_rank] : NULL;
	bool ok = op && add_string_or_null(op, "where", in ? in->where : NULL) &&
	          add_string_or_null(op, "algorithm", in ? in->algorithm : NULL) &&
	          (in ? cJSON_AddNumberToObject(op, "bytes", (double)in->bytes)
	              : cJSON_AddNullToObject(op, "bytes")) &&
	          (in ? cJSON_AddNumberToObject(op, "iteration", (double)in->iteration)
	              : cJSON_AddNullToObject(op, "iteration")) &&
	          add_int_array(h, "never_entered", v, pick_not_entered) &&
	          add_int_array(h, "not_answering", v, pick_silent) &&
	          add_int_array(h, "blocked_by", v, pick_end) &&
	          cJSON_AddBoolToObject(h, "cycle", v->cycles > 0) &&
	          (arr = cJSON_AddArrayToObject(h, "ranks"));
	for (int r = 0; ok && r < v->nranks; r++)
		ok = add_rank(arr, &ranks[r], v, r, hosts ? hosts[r] : NULL);
	return ok ? h : NULL;
}
