/*
 * accept's verdicts: the results the spec asks for, each judged on the
 * figures of every repeat (see accept_verdict.h).
 */
#include "reports/accept/accept_verdict.h"

#include "reports/accept/accept_util.h"
#include "reports/stats/stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a result judges. */
enum check {
	CHECK_HOSTS,
	CHECK_RANKS,
	CHECK_CORES,
	CHECK_NUMA,
	CHECK_OVERSUBSCRIBED,
	CHECK_VERIFY,
	CHECK_LINK_BW,
	CHECK_LINK_LAT,
	CHECK_SUSPECTS,
	CHECK_BUSBW,
	CHECK_P99,
	CHECKS
};

/* Per check: its kind, its faults, which way is better, how its figure reads. */
static const struct check_info {
	enum accept_kind kind;
	enum accept_fault fault, missing;
	int better; /* +1: higher is better, -1: lower, 0: equal to the threshold */
	const char *unit, *comparison;
} checks[CHECKS] = {
    [CHECK_HOSTS] = {ACCEPT_TOPOLOGY, ACCEPT_TOPO_HOSTS, ACCEPT_TOPO_NOT_MEASURED, 0, "hosts",
                     "=="},
    [CHECK_RANKS] = {ACCEPT_TOPOLOGY, ACCEPT_TOPO_RANKS, ACCEPT_TOPO_NOT_MEASURED, 0, "ranks",
                     "=="},
    [CHECK_CORES] = {ACCEPT_TOPOLOGY, ACCEPT_TOPO_CORES, ACCEPT_TOPO_NOT_MEASURED, 0, "cores",
                     "=="},
    [CHECK_NUMA] = {ACCEPT_TOPOLOGY, ACCEPT_TOPO_NUMA, ACCEPT_TOPO_NOT_MEASURED, 0, "NUMA nodes",
                    "=="},
    [CHECK_OVERSUBSCRIBED] = {ACCEPT_TOPOLOGY, ACCEPT_TOPO_OVERSUBSCRIBED, ACCEPT_TOPO_NOT_MEASURED,
                              -1, "ranks", "<="},
    [CHECK_VERIFY] = {ACCEPT_VERIFY, ACCEPT_VERIFY_WRONG, ACCEPT_VERIFY_NOT_RUN, -1,
                      "wrong elements", "=="},
    [CHECK_LINK_BW] = {ACCEPT_LINKS, ACCEPT_LINK_BW_LOW, ACCEPT_LINK_NOT_MEASURED, 1, "GB/s", ">="},
    [CHECK_LINK_LAT] = {ACCEPT_LINKS, ACCEPT_LINK_LAT_HIGH, ACCEPT_LINK_NOT_MEASURED, -1, "us",
                        "<="},
    [CHECK_SUSPECTS] = {ACCEPT_LINKS, ACCEPT_LINK_SUSPECT, ACCEPT_LINK_NOT_MEASURED, -1, "suspects",
                        "=="},
    [CHECK_BUSBW] = {ACCEPT_ALLREDUCE, ACCEPT_AR_BUSBW_LOW, ACCEPT_AR_NOT_MEASURED, 1, "GB/s",
                     ">="},
    [CHECK_P99] = {ACCEPT_ALLREDUCE, ACCEPT_AR_P99_HIGH, ACCEPT_AR_NOT_MEASURED, -1, "us", "<="},
};

static const struct {
	const char *name, *meaning;
} faults[ACCEPT_FAULTS] = {
    [ACCEPT_NO_FAULT] = {"", "passed"},
    [ACCEPT_TOPO_HOSTS] = {"TOPO_HOSTS", "not the number of hosts of the spec"},
    [ACCEPT_TOPO_RANKS] = {"TOPO_RANKS", "the host runs another number of ranks"},
    [ACCEPT_TOPO_CORES] = {"TOPO_CORES", "the host has another number of cores"},
    [ACCEPT_TOPO_NUMA] = {"TOPO_NUMA", "the host has another number of NUMA nodes"},
    [ACCEPT_TOPO_OVERSUBSCRIBED] = {"TOPO_OVERSUBSCRIBED",
                                    "the host runs more ranks than it has cores"},
    [ACCEPT_TOPO_NOT_MEASURED] = {"TOPO_NOT_MEASURED", "the placement was not measured"},
    [ACCEPT_VERIFY_WRONG] = {"VERIFY_WRONG", "the variant gave wrong elements"},
    [ACCEPT_VERIFY_NOT_RUN] = {"VERIFY_NOT_RUN", "the variant was not verified (skipped, absent)"},
    [ACCEPT_LINK_BW_LOW] = {"LINK_BW_LOW", "median link bandwidth of the class below the minimum"},
    [ACCEPT_LINK_LAT_HIGH] = {"LINK_LAT_HIGH",
                              "median link latency of the class above the maximum"},
    [ACCEPT_LINK_SUSPECT] = {"LINK_SUSPECT", "links named a suspect link or host"},
    [ACCEPT_LINK_NOT_MEASURED] = {"LINK_NOT_MEASURED",
                                  "no link of a class the spec has a threshold for"},
    [ACCEPT_AR_BUSBW_LOW] = {"AR_BUSBW_LOW", "busbw of the point below the minimum"},
    [ACCEPT_AR_P99_HIGH] = {"AR_P99_HIGH", "p99 time of the point above the maximum"},
    [ACCEPT_AR_WRONG] = {"AR_WRONG", "the point gave wrong elements"},
    [ACCEPT_AR_NOT_MEASURED] = {"AR_NOT_MEASURED",
                                "the point was not run, was skipped, or its figure is undefined"},
};

const char *accept_status_name(enum accept_status s)
{
	static const char *const names[ACCEPT_STATUSES] = {
	    [ACCEPT_PASS] = "PASS",
	    [ACCEPT_INCONCLUSIVE] = "INCONCLUSIVE",
	    [ACCEPT_INTERMITTENT] = "INTERMITTENT",
	    [ACCEPT_FAIL] = "FAIL",
	};
	return s >= 0 && s < ACCEPT_STATUSES ? names[s] : "FAIL";
}

const char *accept_fault_name(enum accept_fault f)
{
	return f >= 0 && f < ACCEPT_FAULTS ? faults[f].name : "UNKNOWN";
}

const char *accept_fault_meaning(enum accept_fault f)
{
	return f >= 0 && f < ACCEPT_FAULTS ? faults[f].meaning : "unknown";
}

void accept_verdict_init(struct accept_verdict *v)
{
	memset(v, 0, sizeof *v);
}

void accept_verdict_release(struct accept_verdict *v)
{
	for (size_t i = 0; i < v->nresults; i++)
		free(v->results[i].per_repeat);
	for (size_t i = 0; i < v->nisolations; i++) {
		free(v->isolations[i].role);
		free(v->isolations[i].group);
		free(v->isolations[i].reason);
		free(v->isolations[i].evidence);
	}
	free(v->results);
	free(v->isolations);
	free(v->host_names);
	accept_verdict_init(v);
}

/* The results being built. */
struct builder {
	const struct accept_spec *spec;
	struct accept_verdict *v;
	size_t cap;
	bool failed; /* out of memory */
};

__attribute__((format(printf, 6, 7))) static struct accept_result *
add(struct builder *b, enum check c, int host, int index, double threshold, const char *fmt, ...)
{
	struct accept_verdict *v = b->v;
	struct accept_result *r;
	va_list ap;

	if (b->failed || accept_grow((void **)&v->results, &b->cap, v->nresults, sizeof *r) != 0) {
		b->failed = true;
		return NULL;
	}
	r = &v->results[v->nresults];
	memset(r, 0, sizeof *r);
	r->per_repeat = malloc((size_t)v->repeats * sizeof *r->per_repeat);
	if (!r->per_repeat) {
		b->failed = true;
		return NULL;
	}
	v->nresults++;
	r->kind = checks[c].kind;
	r->check = c;
	r->host = host;
	r->index = index;
	r->threshold = threshold;
	r->unit = checks[c].unit;
	r->comparison = checks[c].comparison;
	va_start(ap, fmt);
	vsnprintf(r->label, sizeof r->label, fmt, ap);
	va_end(ap);
	return r;
}

/* A job result and one per host, all judging c against threshold. */
static void add_each(struct builder *b, enum check c, bool job, int index, double threshold,
                     const char *path, const char *label)
{
	struct accept_result *r;

	for (int h = job ? -1 : 0; h < b->v->nhosts; h++)
		if ((r = add(b, c, h, index, threshold, "%s", label)) != NULL)
			snprintf(r->spec_path, sizeof r->spec_path, "%s", path);
}

static void build_topology(struct builder *b)
{
	const struct accept_topology_spec *t = &b->spec->topology;

	struct accept_result *r;

	if (t->hosts >= 0 &&
	    (r = add(b, CHECK_HOSTS, -1, 0, (double)t->hosts, "topology hosts")) != NULL)
		snprintf(r->spec_path, sizeof r->spec_path, "checks.topology.hosts");
	/* per host only: a job line would repeat them */
	if (t->ranks_per_host >= 0)
		add_each(b, CHECK_RANKS, false, 0, (double)t->ranks_per_host,
		         "checks.topology.ranks_per_host", "topology ranks");
	if (t->cores_per_host >= 0)
		add_each(b, CHECK_CORES, false, 0, (double)t->cores_per_host,
		         "checks.topology.cores_per_host", "topology cores");
	if (t->numa_nodes_per_host >= 0)
		add_each(b, CHECK_NUMA, false, 0, (double)t->numa_nodes_per_host,
		         "checks.topology.numa_nodes_per_host", "topology NUMA nodes");
	if (!t->allow_oversubscribed)
		add_each(b, CHECK_OVERSUBSCRIBED, false, 0, NAN,
		         "checks.topology.allow_oversubscribed", "topology oversubscription");
}

static void add_verify(struct builder *b, const char *variant)
{
	struct accept_result *r =
	    add(b, CHECK_VERIFY, -1, 0, 0, "verify %s", variant[0] ? variant : "(any variant)");
	if (!r)
		return;
	snprintf(r->variant, sizeof r->variant, "%s", variant);
	snprintf(r->spec_path, sizeof r->spec_path, "checks.verify.variants");
}

/* With "all" not expanded: every variant any repeat verified, or one result that fails. */
static void build_verify(struct builder *b, const struct accept_figures *runs, size_t nruns)
{
	const struct accept_verify_spec *s = &b->spec->verify;
	size_t first = b->v->nresults;

	for (size_t i = 0; i < s->nvariants; i++)
		add_verify(b, s->variants[i]);
	if (s->nvariants)
		return;
	for (size_t k = 0; k < nruns; k++)
		for (size_t j = 0; j < runs[k].nverify; j++) {
			const char *name = runs[k].verify[j].variant;
			size_t i = first;
			while (i < b->v->nresults && strcmp(b->v->results[i].variant, name) != 0)
				i++;
			if (i == b->v->nresults)
				add_verify(b, name);
		}
	if (b->v->nresults == first)
		add_verify(b, "");
}

static void build_links(struct builder *b)
{
	const struct accept_links_spec *s = &b->spec->links;
	char path[128], label[128];

	for (int l = 0; l < DETECT_LOCALITIES; l++) {
		const char *name = detect_locality_name((enum detect_locality)l);
		if (!isnan(s->min_bandwidth_gbps[l])) {
			accept_spec_path_links(path, sizeof path, true, (enum detect_locality)l);
			snprintf(label, sizeof label, "links bandwidth %s", name);
			add_each(b, CHECK_LINK_BW, true, l, s->min_bandwidth_gbps[l], path, label);
		}
		if (!isnan(s->max_latency_us[l])) {
			accept_spec_path_links(path, sizeof path, false, (enum detect_locality)l);
			snprintf(label, sizeof label, "links latency %s", name);
			add_each(b, CHECK_LINK_LAT, true, l, s->max_latency_us[l], path, label);
		}
	}
	if (!s->allow_suspects)
		add_each(b, CHECK_SUSPECTS, true, 0, 0, "checks.links.allow_suspects",
		         "links suspects");
}

static void build_allreduce(struct builder *b)
{
	const struct accept_allreduce_spec *a = &b->spec->allreduce;
	struct accept_result *r;
	char size[32];

	for (size_t i = 0; i < a->npoints; i++) {
		const struct accept_ar_point *p = &a->points[i];
		accept_format_bytes(size, sizeof size, p->bytes);
		for (int busbw = 1; busbw >= 0; busbw--) {
			double t = busbw ? p->min_busbw_gbps : p->max_p99_us;
			if (isnan(t))
				continue;
			/* "allreduce ring 4 MiB busbw", "reduce_scatter ring 4 MiB busbw" */
			r = add(b, busbw ? CHECK_BUSBW : CHECK_P99, -1, (int)i, t, "%s %s %s %s",
			        ar_collective_names[p->collective], p->variant, size,
			        busbw ? "busbw" : "p99");
			if (!r)
				return;
			snprintf(r->variant, sizeof r->variant, "%s", p->variant);
			accept_spec_path_point(r->spec_path, sizeof r->spec_path, i, busbw);
		}
	}
}

/* One repeat's verdict on one result. */
struct eval {
	bool pass;
	bool unconfirmed; /* failed, but passed when measured again: no evidence */
	double value,
	    threshold; /* threshold: when the figures set it (cores, for oversubscription) */
	double again;  /* the figure measured again; NAN: not */
	enum accept_fault fault;
	char detail[ACCEPT_REASON_BYTES];
};

__attribute__((format(printf, 4, 5))) static void
judged(struct eval *e, bool pass, enum accept_fault fault, const char *fmt, ...)
{
	va_list ap;

	e->pass = pass;
	e->fault = pass ? ACCEPT_NO_FAULT : fault;
	va_start(ap, fmt);
	vsnprintf(e->detail, sizeof e->detail, fmt, ap);
	va_end(ap);
}

/* Appends to e's detail what a second look found. */
__attribute__((format(printf, 2, 3))) static void noted(struct eval *e, const char *fmt, ...)
{
	va_list ap;
	size_t used = strlen(e->detail);

	va_start(ap, fmt);
	vsnprintf(e->detail + used, sizeof e->detail - used, fmt, ap);
	va_end(ap);
}

/* Whether link figure v meets a links check's threshold: a minimum bandwidth, a maximum latency. */
static bool meets(const struct accept_result *r, double v)
{
	return r->check == CHECK_LINK_BW ? v >= r->threshold : v <= r->threshold;
}

static void eval_topology(const struct accept_figures *f, const struct accept_result *r,
                          struct eval *e)
{
	enum accept_fault fault = checks[r->check].fault;
	const struct accept_host_figures *h;

	if (r->check == CHECK_HOSTS || r->host < 0) {
		e->value = f->nhosts;
		judged(e, e->value == r->threshold, fault, "%s", "");
		return;
	}
	h = &f->hosts[r->host];
	switch (r->check) {
	case CHECK_RANKS: e->value = h->ranks; break;
	case CHECK_CORES: e->value = h->cores; break;
	case CHECK_NUMA: e->value = h->numa_nodes; break;
	default:
		e->value = h->ranks;
		e->threshold = h->cores;
		judged(e, !h->oversubscribed, fault, "%d ranks on %d cores", h->ranks, h->cores);
		return;
	}
	judged(e, e->value == r->threshold, fault, "%s", "");
}

static void eval_verify(const struct accept_figures *f, const struct accept_result *r,
                        struct eval *e)
{
	const struct accept_verify_figures *v = NULL;

	for (size_t i = 0; i < f->nverify && !v; i++)
		if (strcmp(f->verify[i].variant, r->variant) == 0)
			v = &f->verify[i];
	if (!v)
		judged(e, false, ACCEPT_VERIFY_NOT_RUN, "%s",
		       r->variant[0] ? "not verified" : "no variant verified");
	else if (v->skipped[0])
		judged(e, false, ACCEPT_VERIFY_NOT_RUN, "skipped: %s", v->skipped);
	else {
		e->value = (double)v->wrong;
		judged(e, v->wrong == 0, ACCEPT_VERIFY_WRONG, "%lld wrong elements in %lld checks",
		       (long long)v->wrong, (long long)v->checks);
	}
}

/* What a median leaves out: links a confirmed suspect explains, links whose figure is the
   scheduler's (links does not judge them: their ranks waited for a core, links_report.h). */
struct left_out {
	size_t explained, waited;
	bool judged_only; /* leave out (and count) what links judges no figure of */
	/* each bandwidth with what else its NICs carried its way added (the room it had,
	   as traffic.h reads a suspect), busy counting those that carried any */
	bool room;
	size_t busy;
};

/* Link i of class l with a finite figure into x[n], unless links left it unjudged (counted). */
static void class_value(const struct accept_figures *f, size_t i, int l, bool bandwidth, double *x,
                        size_t *n, struct left_out *out)
{
	const struct accept_link_figures *k = &f->links[i];
	double v = bandwidth ? k->bandwidth_gbps : k->latency_us;
	if ((int)k->locality != l || !isfinite(v))
		return;
	bool other = out->room && bandwidth && k->other_gbps > 0;
	if (out->judged_only && !bandwidth && k->unjudged_lat)
		out->waited++;
	else
		x[(*n)++] = other ? v + k->other_gbps : v;
	out->busy += other;
}

/* Whether links named host h itself (its NIC) among f's suspects. */
static bool host_suspected(const struct accept_figures *f, int h)
{
	for (size_t i = 0; h >= 0 && i < f->nsuspects; i++)
		if (f->suspects[i].host == h)
			return true;
	return false;
}

/*
 * The same for a host's own check: not a link that a confirmed segment or
 * link suspect explains (a slow uplink makes every host's links across it
 * slow: the segment is the job's suspect, and its hosts are healthy), nor a
 * link to another host that links named (a slow NIC makes every link to it
 * slow, in latency as well: that is its host's failure, as the suspects
 * check has it), which out->explained counts.
 */
static void own_value(const struct accept_figures *f, size_t i, int l, bool bandwidth, int host,
                      double *x, size_t *n, struct left_out *out)
{
	const struct accept_link_figures *k = &f->links[i];
	bool named_end = (k->host_a != host && host_suspected(f, k->host_a)) ||
	                 (k->host_b != host && host_suspected(f, k->host_b));
	if ((int)k->locality == l && ((bandwidth ? k->explained_bw : k->explained_lat) || named_end))
		out->explained++;
	else
		class_value(f, i, l, bandwidth, x, n, out);
}

/*
 * The links of class l (touching host, unless -1: then every one) with a
 * finite figure into x, through the host index when there is one; their
 * count. A host's leave out what a suspect explains (own_value); with
 * VALUES_JUDGED_ONLY, every median leaves out what links judges no figure of;
 * with VALUES_ROOM, a bandwidth is its room (struct left_out). What was left
 * out is counted into *out.
 */
enum { VALUES_JUDGED_ONLY = 1, VALUES_ROOM = 2 };
static size_t class_values(const struct accept_figures *f, const struct accept_link_index *idx,
                           int l, bool bandwidth, int host, unsigned mode, double *x,
                           struct left_out *out)
{
	size_t n = 0;
	*out = (struct left_out){.judged_only = mode & VALUES_JUDGED_ONLY,
	                         .room = mode & VALUES_ROOM};
	if (host >= 0 && idx && idx->first) {
		for (size_t j = idx->first[host]; j < idx->first[host + 1]; j++)
			own_value(f, idx->by_host[j], l, bandwidth, host, x, &n, out);
		return n;
	}
	for (size_t i = 0; i < f->nlinks; i++)
		if (host < 0)
			class_value(f, i, l, bandwidth, x, &n, out);
		else if (f->links[i].host_a == host || f->links[i].host_b == host)
			own_value(f, i, l, bandwidth, host, x, &n, out);
	return n;
}

/*
 * Whether what else the host's NIC carried (links cleared a suspect of it by
 * the interface counters, here or when measured again) explains its
 * cross-host figures, bandwidth and the latency of a queue behind another
 * job's stream alike.
 */
static bool traffic_on_nic(const struct accept_figures *f, const struct accept_result *r)
{
	const struct accept_figures *g = f->links_again;
	return r->index == DETECT_CROSS_HOST &&
	       (f->hosts[r->host].traffic_cleared ||
	        (g && r->host < g->nhosts && g->hosts[r->host].traffic_cleared));
}

/*
 * The controls of host r->host's class measured again (f->links_again) into c
 * (room for every link), their count: the class's links that touch neither
 * the host nor a host links named (its links are slow for a reason of its
 * own), less what a suspect explains (own_value); with room, each its room.
 */
static size_t control_values(const struct accept_figures *f, const struct accept_result *r,
                             bool bandwidth, bool room, double *c)
{
	const struct accept_figures *g = f->links_again;
	struct left_out out = {.room = room};
	size_t nc = 0;
	for (size_t i = 0; i < g->nlinks; i++) {
		const struct accept_link_figures *k = &g->links[i];
		if (k->host_a != r->host && k->host_b != r->host && !host_suspected(f, k->host_a) &&
		    !host_suspected(f, k->host_b))
			own_value(g, i, r->index, bandwidth, r->host, c, &nc, &out);
	}
	return nc;
}

/* The room medians of a host and its controls measured again; busy: the host's links that
   carried other traffic. */
struct room {
	double host, control;
	size_t busy;
};

/*
 * Does another job's traffic explain a host's bandwidth failure that
 * reproduced and separated? Its links measured again with what else their
 * NICs carried their way added (the room they had, as traffic.h judges a
 * links suspect) against the controls' the same way: where the host's room
 * median is within tol of the controls', the NIC was busy, not broken (the
 * campaign's seed 11, draw 29: h3, the source of a stream to h1, failed 12%
 * under the controls). Only where some of its links carried other traffic
 * (room->busy); c: room for every link.
 */
static bool room_explains(const struct accept_figures *f, const struct accept_result *r,
                          double tol, double *c, struct room *room)
{
	const struct accept_figures *g = f->links_again;
	struct left_out out;
	*room = (struct room){.host = NAN, .control = NAN};
	size_t n = class_values(g, NULL, r->index, true, r->host, VALUES_ROOM, c, &out);
	room->busy = out.busy;
	if (n == 0 || out.busy == 0)
		return false;
	room->host = stats_median_inplace(c, n);
	size_t nc = control_values(f, r, true, true, c);
	room->control = nc ? stats_median_inplace(c, nc) : NAN;
	return room->host > (1 - tol) * room->control;
}

/*
 * A host's failing class median measured again (f->links_again): the
 * failure stands where it reproduces and separates from the control hosts
 * measured beside it (their links of the class, not touching the host,
 * pass); where it passes there, or the controls fail as well (the whole
 * cluster was slow that moment), it was noise: e->unconfirmed. With no
 * control link of the class, reproducing is the evidence. Appends what it
 * found to e's detail.
 */
static void eval_again(const struct accept_figures *f, const struct accept_result *r,
                       struct eval *e)
{
	const struct accept_figures *g = f->links_again;
	bool bandwidth = r->check == CHECK_LINK_BW;
	size_t n = 0, nc = 0;
	struct left_out out = {0};
	double *x = malloc((g->nlinks ? g->nlinks : 1) * sizeof *x);
	double *c = x; /* x is free again once the host's median is taken */

	if (x)
		n = class_values(g, NULL, r->index, bandwidth, r->host, 0, x, &out);
	if (n == 0) {
		noted(e, "; not measured again");
		free(x);
		return;
	}
	e->again = stats_median_inplace(x, n);
	bool fails = !meets(r, e->again);
	nc = control_values(f, r, bandwidth, false, c);
	double control = nc ? stats_median_inplace(c, nc) : NAN;
	bool control_fails = nc && !meets(r, control);
	/* separated: worse than the controls' worse tail (c is sorted), not only than the
	   threshold: on a busy cluster a healthy host's median can cross it twice while the
	   controls' own links spread past it */
	double tail = nc ? stats_percentile(c, nc, bandwidth ? 0.1 : 0.9) : NAN;
	bool within = nc && (bandwidth ? e->again >= tail : e->again <= tail);
	/* and apart from their median by as much as links asks to name a host (detect.h's
	   tolerance): two control hosts are one pair, whose tail is its slower link, and under
	   CPU burners a healthy host measured again stood 2% under the minimum and a hair
	   under that link (seed 3, draw 2 of 113ee92, 0.0314 against 0.032 GB/s) */
	struct detect_params dp;
	detect_params_default(&dp);
	double tol = detect_tolerance(&dp, bandwidth ? DETECT_BANDWIDTH : DETECT_LATENCY,
	                              (enum detect_locality)r->index);
	bool close = nc && !within &&
	             (bandwidth ? e->again > (1 - tol) * control : e->again < control / (1 - tol));
	e->unconfirmed = !fails || control_fails || within || close;
	/* across hosts only: a NIC's other traffic says nothing of a copy within a host */
	struct room room = {0};
	bool busy = !e->unconfirmed && bandwidth && nc && r->index == DETECT_CROSS_HOST &&
	            room_explains(f, r, tol, c, &room);
	e->unconfirmed = e->unconfirmed || busy;
	if (!fails)
		noted(e, "; measured again: %.4g %s, passed: not reproduced", e->again,
		      checks[r->check].unit);
	else if (control_fails)
		noted(e,
		      "; measured again: %.4g %s, but the control hosts beside it failed too (%.4g "
		      "%s): not separated",
		      e->again, checks[r->check].unit, control, checks[r->check].unit);
	else if (within)
		noted(e,
		      "; measured again: %.4g %s, but within the control hosts' links (%s %.4g %s): "
		      "not separated",
		      e->again, checks[r->check].unit,
		      bandwidth ? "10th percentile" : "90th percentile", tail, checks[r->check].unit);
	else if (close)
		noted(e,
		      "; measured again: %.4g %s, but within %.0f%% of the control hosts' links "
		      "(median %.4g %s): not separated",
		      e->again, checks[r->check].unit, 100 * tol, control, checks[r->check].unit);
	else if (busy)
		noted(e,
		      "; measured again: %.4g %s, but another job's traffic was in the way of %zu of "
		      "its links (interface counters): with it, %.4g %s, within %.0f%% of the control "
		      "hosts' links (%.4g %s with theirs): not separated",
		      e->again, checks[r->check].unit, room.busy, room.host, checks[r->check].unit,
		      100 * tol, room.control, checks[r->check].unit);
	else
		noted(e, "; measured again: %.4g %s, %s", e->again, checks[r->check].unit,
		      nc ? "reproduced, the control hosts passed" : "reproduced");
	free(x);
}

/*
 * The job's failing class median beside what was measured again (the
 * failing hosts and the controls, f->links_again): the hosts that pull a
 * job's median down are the ones measured again, so where their class passes
 * there the job's failure did not reproduce either (e->unconfirmed); on one
 * host, the job's median is that host's.
 */
static void eval_job_again(const struct accept_figures *f, const struct accept_result *r,
                           struct eval *e)
{
	const struct accept_figures *g = f->links_again;
	size_t n = 0;
	struct left_out out;
	double *x = malloc((g->nlinks ? g->nlinks : 1) * sizeof *x);
	if (x)
		n = class_values(g, NULL, r->index, r->check == CHECK_LINK_BW, -1, 0, x, &out);
	if (n > 0) {
		e->again = stats_median_inplace(x, n);
		e->unconfirmed = meets(r, e->again);
		noted(e, "; measured again on the failing hosts and controls: %.4g %s, %s", e->again,
		      checks[r->check].unit,
		      e->unconfirmed ? "passed: not reproduced" : "reproduced");
	}
	free(x);
}

/*
 * A failing class median, before it is charged: a host links named was
 * reproduced by links' own re-tests; another job's traffic on a host's NIC
 * explains it; else it is judged on what was measured again, if anything was.
 */
static void second_look(const struct accept_figures *f, const struct accept_result *r,
                        struct eval *e)
{
	bool again = f->links_again && f->links_again->has[ACCEPT_LINKS];
	if (r->host >= 0 && host_suspected(f, r->host))
		noted(e, "; reproduced by links' re-tests (a suspect host)");
	else if (r->host >= 0 && traffic_on_nic(f, r)) {
		e->unconfirmed = true;
		noted(e, "; links found another job's traffic on its NIC (interface counters), "
		         "which explains it");
	} else if (again && r->host >= 0)
		eval_again(f, r, e);
	else if (again)
		eval_job_again(f, r, e);
}

/*
 * A failing class median without the links whose figure links judges none of
 * (their ranks waited for a core that share of the time: the scheduler's, as
 * links_report.h has it; x: room for every link): where the rest passes, or
 * nothing is left, the failure is the scheduler's and no evidence against the
 * host (e->unconfirmed, true returned), as links clears a suspect the
 * scheduler explains. It never makes a failure of a pass.
 */
static bool scheduler_s(const struct accept_figures *f, const struct accept_link_index *idx,
                        const struct accept_result *r, double *x, struct eval *e)
{
	struct left_out out;
	size_t n = class_values(f, idx, r->index, r->check == CHECK_LINK_BW, r->host,
	                        VALUES_JUDGED_ONLY, x, &out);
	if (out.waited == 0)
		return false;
	double rest = n ? stats_median_inplace(x, n) : NAN;
	if (n && !meets(r, rest))
		return false;
	e->unconfirmed = true;
	if (n)
		noted(e,
		      "; without the %zu whose ranks waited for a core (links judges none): %.4g %s, "
		      "passed: the scheduler's",
		      out.waited, rest, checks[r->check].unit);
	else
		noted(e, "; the ranks of every one waited for a core (links judges none): the "
		         "scheduler's");
	return true;
}

static void eval_class(const struct accept_figures *f, const struct accept_link_index *idx,
                       const struct accept_result *r, struct eval *e)
{
	bool bandwidth = r->check == CHECK_LINK_BW;
	size_t cap = r->host >= 0 && idx && idx->first
	                 ? idx->first[r->host + 1] - idx->first[r->host]
	                 : f->nlinks;
	double *x = malloc((cap ? cap : 1) * sizeof *x);
	size_t n, beyond = 0;

	if (!x) {
		judged(e, false, checks[r->check].missing, "out of memory");
		return;
	}
	struct left_out out;
	char more[96] = "";
	n = class_values(f, idx, r->index, bandwidth, r->host, 0, x, &out);
	for (size_t i = 0; i < n; i++)
		beyond += !meets(r, x[i]);
	if (out.explained)
		snprintf(more, sizeof more, "; %zu more a confirmed suspect's", out.explained);
	if (n == 0 && out.explained)
		judged(e, true, checks[r->check].fault,
		       "every %s link of the host a confirmed suspect's (%zu): "
		       "judged by the suspects check",
		       detect_locality_name((enum detect_locality)r->index), out.explained);
	else if (n == 0)
		judged(e, false, ACCEPT_LINK_NOT_MEASURED, "no %s link measured%s",
		       detect_locality_name((enum detect_locality)r->index),
		       r->host >= 0 ? " on this host" : "");
	else {
		e->value = stats_median_inplace(x, n);
		judged(e, meets(r, e->value), checks[r->check].fault,
		       "median of %zu link%s, %zu %s%s", n, n == 1 ? "" : "s", beyond,
		       bandwidth ? "below the minimum" : "above the maximum", more);
		if (!e->pass && !scheduler_s(f, idx, r, x, e))
			second_look(f, r, e);
	}
	free(x);
}


/*
 * A host's own suspects: it named, or a link of it. A link whose other end is
 * a host suspect is that host's (a slow NIC makes every link to it look slow,
 * in latency as well): it does not fail the healthy end as well.
 */
static bool suspect_of_host(const struct accept_figures *f, const struct accept_suspect_figures *s,
                            int h)
{
	if (s->host >= 0)
		return s->host == h;
	if (s->host_a == h)
		return !host_suspected(f, s->host_b) || host_suspected(f, h);
	if (s->host_b == h)
		return !host_suspected(f, s->host_a) || host_suspected(f, h);
	return false;
}

static void eval_suspects(const struct accept_figures *f, const struct accept_result *r,
                          struct eval *e)
{
	const struct accept_suspect_figures *first = NULL;
	size_t n = 0;

	for (size_t i = 0; i < f->nsuspects; i++) {
		const struct accept_suspect_figures *s = &f->suspects[i];
		if (r->host >= 0 && !suspect_of_host(f, s, r->host))
			continue;
		if (!first)
			first = s;
		n++;
	}
	e->value = (double)n;
	if (!first)
		judged(e, true, ACCEPT_LINK_SUSPECT, "none");
	else if (first->host >= 0 || first->host_a < 0 || n > 1)
		judged(e, false, ACCEPT_LINK_SUSPECT, "%s%s", first->reason,
		       n > 1 ? " (and more)" : "");
	else if (first->a < 0) /* a link between two hosts, all their ranks */
		judged(e, false, ACCEPT_LINK_SUSPECT, "link %s -> %s: %s", f->hosts[first->host_a].name,
		       f->hosts[first->host_b].name, first->reason);
	else
		judged(e, false, ACCEPT_LINK_SUSPECT, "link %d->%d (%s -> %s): %s", first->a,
		       first->b, f->hosts[first->host_a].name, f->hosts[first->host_b].name,
		       first->reason);
}

/* The point of the spec a result judges, as measured: the worst of any duplicates. */
static const struct accept_point_figures *find_point(const struct accept_spec *s,
                                                     const struct accept_figures *f,
                                                     const struct accept_result *r)
{
	const struct accept_allreduce_spec *a = &s->allreduce;
	const struct accept_ar_point *want = &a->points[r->index];
	const struct accept_point_figures *best = NULL;

	for (size_t i = 0; i < f->npoints; i++) {
		const struct accept_point_figures *p = &f->points[i];
		if (p->bytes != want->bytes || p->collective != want->collective ||
		    strcmp(p->variant, want->variant) != 0 || strcmp(p->dtype, a->dtype) != 0 ||
		    strcmp(p->op, a->op) != 0 || p->in_place != a->in_place)
			continue;
		double v = r->check == CHECK_BUSBW ? p->busbw_gbps : -p->p99_us;
		double w = best ? (r->check == CHECK_BUSBW ? best->busbw_gbps : -best->p99_us) : 0;
		if (!best || p->skipped[0] || p->wrong > 0 || !(v >= w))
			best = p;
	}
	return best;
}

static void eval_point(const struct accept_spec *s, const struct accept_figures *f,
                       const struct accept_result *r, struct eval *e)
{
	const struct accept_point_figures *p = find_point(s, f, r);
	bool busbw = r->check == CHECK_BUSBW;

	if (!p)
		judged(e, false, ACCEPT_AR_NOT_MEASURED, "not run (%s %s%s)", s->allreduce.dtype,
		       s->allreduce.op, s->allreduce.in_place ? " in place" : "");
	else if (p->skipped[0])
		judged(e, false, ACCEPT_AR_NOT_MEASURED, "skipped: %s", p->skipped);
	else if (p->wrong > 0)
		judged(e, false, ACCEPT_AR_WRONG, "%lld wrong elements", (long long)p->wrong);
	else if (p->ranks < 2) /* busbw 0, a p99 of a local copy: nothing to gate */
		judged(e, false, ACCEPT_AR_NOT_MEASURED, "%d rank: one rank moves no data",
		       p->ranks);
	else if (!isfinite(busbw ? p->busbw_gbps : p->p99_us)) /* inf: a time of 0, not measured */
		judged(e, false, ACCEPT_AR_NOT_MEASURED, "%s",
		       busbw ? "busbw undefined (one rank?)"
		             : "p99 undefined (fewer than 100 iterations)");
	else {
		e->value = busbw ? p->busbw_gbps : p->p99_us;
		judged(e, busbw ? e->value >= r->threshold : e->value <= r->threshold,
		       checks[r->check].fault, "%d ranks", p->ranks);
	}
}

static void evaluate(const struct accept_spec *s, const struct accept_figures *f,
                     const struct accept_link_index *idx, const struct accept_result *r,
                     struct eval *e)
{
	*e = (struct eval){.value = NAN, .threshold = NAN, .again = NAN};
	switch (r->kind) {
	case ACCEPT_TOPOLOGY: eval_topology(f, r, e); break;
	case ACCEPT_VERIFY: eval_verify(f, r, e); break;
	case ACCEPT_LINKS:
		if (r->check == CHECK_SUSPECTS)
			eval_suspects(f, r, e);
		else
			eval_class(f, idx, r, e);
		break;
	default: eval_point(s, f, r, e); break;
	}
}

/* Is a worse than b, for a check whose better direction is better (undefined is worst)? */
static bool worse(double a, double b, int better)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && !isnan(b);
	return better > 0 ? a < b : better < 0 ? a > b : false;
}

/* How bad a repeat's verdict is: passed, failed but not reproduced, failed. */
static int badness(const struct eval *e)
{
	return e->pass ? 0 : e->unconfirmed ? 1 : 2;
}

/* Every repeat of one result: the status, and the worst repeat's figure and detail. */
static void judge_result(const struct accept_spec *s, const struct accept_figures *runs,
                         const struct accept_link_index *idx, size_t nruns,
                         struct accept_result *r)
{
	struct eval e, chosen = {.pass = true, .again = NAN};
	bool have = false;

	for (size_t i = 0; i < nruns; i++) {
		r->per_repeat[i] = NAN;
		if (!runs[i].has[r->kind])
			continue;
		evaluate(s, &runs[i], idx ? &idx[i] : NULL, r, &e);
		r->per_repeat[i] = e.value;
		r->measured_repeats++;
		r->failed_repeats += badness(&e) == 2;
		r->unconfirmed_repeats += badness(&e) == 1;
		if (!have || badness(&e) > badness(&chosen) ||
		    (badness(&e) == badness(&chosen) &&
		     worse(e.value, chosen.value, checks[r->check].better))) {
			chosen = e;
			have = true;
		}
	}
	if (!have) {
		judged(&chosen, false, checks[r->check].missing, "no repeat ran the %s checks",
		       accept_kind_name(r->kind));
		chosen.value = chosen.threshold = NAN;
	}
	r->measured = chosen.value;
	r->again = chosen.again;
	if (!isnan(chosen.threshold))
		r->threshold = chosen.threshold;
	r->fault = chosen.fault;
	snprintf(r->detail, sizeof r->detail, "%s", chosen.detail);
	if (!have)
		r->status = ACCEPT_FAIL;
	else if (r->failed_repeats == 0)
		r->status = r->unconfirmed_repeats ? ACCEPT_INCONCLUSIVE : ACCEPT_PASS;
	else
		r->status =
		    r->failed_repeats < r->measured_repeats ? ACCEPT_INTERMITTENT : ACCEPT_FAIL;
}

/* The runs name the same hosts; their names into v. */
static int take_hosts(struct accept_verdict *v, const struct accept_figures *runs, size_t nruns,
                      char *err, size_t len)
{
	for (size_t i = 1; i < nruns; i++) {
		bool same = runs[i].nhosts == runs[0].nhosts;
		for (int h = 0; same && h < runs[0].nhosts; h++)
			same = strcmp(runs[i].hosts[h].name, runs[0].hosts[h].name) == 0;
		if (!same) {
			snprintf(err, len, "repeat %zu names other hosts than repeat 1", i + 1);
			return -1;
		}
	}
	v->nhosts = runs[0].nhosts;
	v->host_names = calloc(v->nhosts > 0 ? (size_t)v->nhosts : 1, sizeof *v->host_names);
	if (!v->host_names) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (int h = 0; h < v->nhosts; h++)
		memcpy(v->host_names[h], runs[0].hosts[h].name, sizeof v->host_names[h]);
	return 0;
}

int accept_judge(const struct accept_spec *spec, const struct accept_figures *runs, size_t nruns,
                 struct accept_verdict *v, char *err, size_t len)
{
	struct builder b = {.spec = spec, .v = v};

	accept_verdict_init(v);
	if (nruns == 0 || nruns > 100000) {
		snprintf(err, len, "%zu repeats: expected 1 to 100000", nruns);
		return -1;
	}
	v->repeats = (int)nruns;
	if (take_hosts(v, runs, nruns, err, len) != 0)
		goto fail;
	if (spec->has[ACCEPT_TOPOLOGY])
		build_topology(&b);
	if (spec->has[ACCEPT_VERIFY])
		build_verify(&b, runs, nruns);
	if (spec->has[ACCEPT_LINKS])
		build_links(&b);
	if (spec->has[ACCEPT_ALLREDUCE])
		build_allreduce(&b);
	if (b.failed) {
		snprintf(err, len, "out of memory");
		goto fail;
	}
	/* without memory for the index, every check scans every link: slower, the same verdict */
	struct accept_link_index *idx = calloc(nruns, sizeof *idx);
	for (size_t i = 0; idx && i < nruns; i++)
		accept_link_index_build(&idx[i], &runs[i]);
	for (size_t i = 0; i < v->nresults; i++)
		judge_result(spec, runs, idx, nruns, &v->results[i]);
	for (size_t i = 0; idx && i < nruns; i++)
		accept_link_index_release(&idx[i]);
	free(idx);
	return 0;
fail:
	accept_verdict_release(v);
	return -1;
}

/*
 * Host h's own links checks (a class's bandwidth or latency) on f: whether
 * one fails (*fails), and one that nothing explains or reproduced already
 * (*again: to measure again).
 */
static void own_links(const struct accept_spec *spec, const struct accept_figures *f,
                      const struct accept_link_index *idx, int h, bool *fails, bool *again)
{
	const struct accept_links_spec *ls = &spec->links;
	*fails = *again = false;
	for (int k = 0; spec->has[ACCEPT_LINKS] && k < 2 * DETECT_LOCALITIES; k++) {
		int l = k / 2;
		bool bw = k % 2 == 0;
		struct accept_result r = {
		    .kind = ACCEPT_LINKS,
		    .check = bw ? CHECK_LINK_BW : CHECK_LINK_LAT,
		    .host = h,
		    .index = l,
		    .threshold = bw ? ls->min_bandwidth_gbps[l] : ls->max_latency_us[l]};
		struct eval e = {.value = NAN, .threshold = NAN, .again = NAN};
		if (isnan(r.threshold))
			continue;
		eval_class(f, idx, &r, &e);
		*fails |= !e.pass;
		/* a class not measured on the host is not a figure to measure again, and
		   a suspect host was measured again by links' own re-tests */
		*again |= !e.pass && e.fault != ACCEPT_LINK_NOT_MEASURED && !host_suspected(f, h) &&
		          !e.unconfirmed;
	}
}

int accept_links_failing_hosts(const struct accept_spec *spec, const struct accept_figures *f,
                               bool *failing, bool *control)
{
	/* through the index: every host's checks over every link was O(hosts x links) */
	struct accept_link_index idx = {0};
	bool indexed = accept_link_index_build(&idx, f) == 0;
	int count = 0;
	for (int h = 0; h < f->nhosts; h++) {
		bool fails;
		own_links(spec, f, indexed ? &idx : NULL, h, &fails, &failing[h]);
		control[h] = !fails && !host_suspected(f, h);
		count += failing[h];
	}
	if (indexed)
		accept_link_index_release(&idx);
	return count;
}

bool accept_verdict_failed(const struct accept_verdict *v)
{
	for (size_t i = 0; i < v->nresults; i++)
		if (v->results[i].status != ACCEPT_PASS)
			return true;
	return false;
}

size_t accept_verdict_searchable(const struct accept_verdict *v, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < v->nresults; i++) {
		const struct accept_result *r = &v->results[i];
		if (r->host < 0 && r->status != ACCEPT_PASS &&
		    (r->fault == ACCEPT_AR_BUSBW_LOW || r->fault == ACCEPT_AR_P99_HIGH ||
		     r->fault == ACCEPT_AR_WRONG || r->fault == ACCEPT_VERIFY_WRONG))
			out[n++] = i;
	}
	return n;
}

bool accept_result_passes(const struct accept_spec *spec, const struct accept_verdict *v,
                          size_t result, const struct accept_figures *f)
{
	double figure;
	return accept_result_outcome(spec, v, result, f, &figure) == ACCEPT_TEST_PASS;
}

enum accept_outcome accept_result_outcome(const struct accept_spec *spec,
                                          const struct accept_verdict *v, size_t result,
                                          const struct accept_figures *f, double *figure)
{
	struct eval e;

	*figure = NAN;
	if (result >= v->nresults || !f->has[v->results[result].kind])
		return ACCEPT_TEST_UNKNOWN;
	evaluate(spec, f, NULL, &v->results[result], &e);
	*figure = e.value;
	if (e.pass)
		return ACCEPT_TEST_PASS;
	return e.fault == checks[v->results[result].check].missing ? ACCEPT_TEST_UNKNOWN
	                                                             : ACCEPT_TEST_FAIL;
}
