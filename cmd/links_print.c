/*
 * What `collscope links` prints on stdout (rank 0): a header, the bandwidth
 * matrix (rank x rank, or host x host past 16 ranks), the locality classes,
 * then every confirmed suspect with its evidence.
 */
#include <mpi.h>

#include "cmd/links_cmd.h"
#include "reports/diagnose/scheduler.h"
#include "reports/diagnose/traffic.h"
#include "reports/render/fixed.h"
#include "cmd/cmd.h"
#include "reports/render/report_text.h"

#include <math.h>
#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Matrices past these sizes stay in the report (`collscope report` draws them): a screen's
   width, and 1,024 hosts would print 8 MB */
enum { RANK_MATRIX_MAX = 16, HOST_MATRIX_MAX = 32 };

static void print_bytes(char *buf, size_t len, double bytes)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB"};
	int u = 0;
	while (u < 3 && bytes >= 1024 && fmod(bytes, 1024) == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%.0f %s", bytes, units[u]);
}

static void print_header(const struct links_view *v, const struct links_opts *o)
{
	char lat[32], bw[32];
	const struct probe_link_opts *p = &o->probe;
	print_bytes(lat, sizeof lat, (double)p->lat_bytes);
	print_bytes(bw, sizeof bw, (double)p->bw_bytes);
	printf("# collscope links: %d rank%s on %d host%s, %s mode, pattern %s; latency: %s "
	       "ping-pong x %d; bandwidth: windows of %d x %s, x %d per direction; budgets %g s "
	       "(latency) and %g s (bandwidth) per direction\n",
	       v->nranks, v->nranks == 1 ? "" : "s", v->nhosts, v->nhosts == 1 ? "" : "s",
	       o->mode == PROBE_CONCURRENT ? "concurrent" : "isolated",
	       links_pattern_name(o->pattern), lat, p->lat_iters, p->window, bw, p->bw_iters,
	       p->lat_time_s, p->bw_time_s);
}

static void print_cell(double gbps)
{
	if (isfinite(gbps))
		printf(" %7.2f", gbps);
	else
		printf(" %7s", "-");
}

static void print_rank_matrix(const struct links_view *v)
{
	printf("# p50 bandwidth in GB/s, from the row's rank to the column's\n#    ");
	for (int b = 0; b < v->nranks; b++)
		printf(" %7d", b);
	printf("\n");
	for (int a = 0; a < v->nranks; a++) {
		printf("  %3d", a);
		for (int b = 0; b < v->nranks; b++)
			print_cell(a == b ? NAN
			                  : link_bandwidth_gbps(links_view_record(v, a, b),
			                                        v->window_bytes));
		printf("\n");
	}
}

/* The host x host matrix: of the pairs (all links), or of the shift's receives (judged ones). */
static void print_host_matrix(const struct links_view *v, bool shift)
{
	if (v->nhosts > HOST_MATRIX_MAX) {
		printf("# the host matrix%s of %d hosts is in the report (collscope report draws it)\n",
		       shift ? " of the shift pattern" : "", v->nhosts);
		return;
	}
	double *m = malloc(((size_t)v->nhosts * (size_t)v->nhosts + 1) * sizeof *m);
	if (!m || (shift ? links_judged_host_matrix(v, true, m) : links_host_matrix(v, m)) != 0) {
		printf("# (no memory for the host matrix)\n");
		free(m);
		return;
	}
	if (shift)
		printf("# under load, the shift pattern: median bandwidth in GB/s received from the "
		       "row's host by the column's\n");
	else
		printf("# median p50 bandwidth in GB/s of the links from the row's host to the "
		       "column's\n");
	for (int h = 0; h < v->nhosts; h++)
		cmd_print("#   h%-4d %s", h, v->host_names[h]); /* a name from the system: escaped */
	printf("#      ");
	for (int h = 0; h < v->nhosts; h++) {
		char label[16];
		snprintf(label, sizeof label, "h%d", h);
		printf(" %7s", label);
	}
	printf("\n");
	for (int i = 0; i < v->nhosts; i++) {
		printf("  h%-4d", i);
		for (int j = 0; j < v->nhosts; j++)
			print_cell(m[i * v->nhosts + j]);
		printf("\n");
	}
	free(m);
}

static void print_classes(const struct links_view *v, const struct detect_result *r,
                          const struct detect_params *p)
{
	printf("# %-10s %-9s %6s %12s  %s\n", "class", "metric", "links", "median", "judged");
	for (int m = 0; m < DETECT_METRICS; m++)
		for (int l = 0; l < DETECT_LOCALITIES; l++) {
			const struct detect_class *k = &r->classes[m][l];
			int links = 0;
			double med = links_class_median(v, (enum detect_metric)m,
			                                (enum detect_locality)l, &links);
			if (links == 0)
				continue;
			char med_s[32];
			report_fixed(med_s, sizeof med_s, med, 0, 3); /* never "1.23e+03" */
			printf("  %-10s %-9s %6d %7s %-4s  ",
			       detect_locality_name((enum detect_locality)l),
			       detect_metric_name((enum detect_metric)m), links, med_s,
			       m == DETECT_BANDWIDTH ? "GB/s" : "us");
			if (k->judged)
				printf("yes%s\n", k->links < links
				                      ? " (links of oversubscribed hosts left out)"
				                      : "");
			else if (k->links == 0)
				printf("no: every link touches an oversubscribed host\n");
			else
				printf("no: %d judged link%s, %d needed\n", k->links,
				       k->links == 1 ? "" : "s", p->min_class_links);
		}
}

static void print_not_judged(const struct links_view *v)
{
	for (int h = 0; v->host_judged && h < v->nhosts; h++)
		if (!v->host_judged[h])
			printf(
			    "# not judged: host %s is oversubscribed (more ranks than cores): its "
			    "links time the scheduler as much as the link (--judge-oversubscribed "
			    "judges them anyway)\n",
			    v->host_names[h]);
	size_t waiting = links_latency_unjudged(v);
	if (waiting > 0)
		printf("# latency not judged: %zu of %d pairs, whose ranks waited for a core half of "
		       "their ping-pongs or more: their latency is the scheduler's "
		       "(--judge-oversubscribed judges them anyway)\n",
		       waiting, v->nranks * (v->nranks - 1) / 2);
	waiting = links_bandwidth_unjudged(v);
	if (waiting > 0)
		printf("# bandwidth not judged: %zu of %d pairs, inside a host, whose ranks waited "
		       "for a core half their time or more: a rank off its core holds its peer's "
		       "copy too (--judge-oversubscribed judges them anyway)\n",
		       waiting, v->nranks * (v->nranks - 1) / 2);
}

/* A share of waiting for a CPU worth a word: the scheduler, not only the link, is in the figures. */
#define CPU_WAIT_NOTABLE 0.10

/* The largest share of a pair's time its ranks waited for a CPU, and that pair. */
static double worst_cpu_wait(const struct links_view *v, int *pa, int *pb)
{
	double worst = NAN;
	size_t at = 0;
	int a, b;
	while (links_next_measured(v, &at, &a, &b)) {
		int lo = a < b ? a : b, hi = a < b ? b : a;
		double w = link_cpu_wait(v, lo, hi);
		/* a tie goes to the first pair in order of (a, b), as a pass over all pairs gives */
		bool first = !isnan(worst) && w == worst && (lo < *pa || (lo == *pa && hi < *pb));
		if (!isnan(w) && (isnan(worst) || w > worst || first)) {
			worst = w;
			*pa = lo;
			*pb = hi;
		}
	}
	return worst;
}

static void print_cpu_wait(const struct links_view *v)
{
	int a = -1, b = -1;
	double worst = worst_cpu_wait(v, &a, &b);
	if (isnan(worst) || worst < CPU_WAIT_NOTABLE)
		return;
	printf("# cpu: the ranks of pair %d-%d waited for a core %.0f%% of the time they measured "
	       "(the most of any pair): where that share is large, the figures are the scheduler's "
	       "as much as the link's (cpu_wait_fraction in the report)\n",
	       a, b, 100 * worst);
}

static void print_suspect(const struct links_view *v, const struct detect_result *r,
                          const struct detect_suspect *s)
{
	char line[1024];
	classify_describe(r, s, v->host_names, line, sizeof line);
	printf("  %s", s->loaded ? "under load (shift): " : "");
	report_fput_escaped(stdout, line); /* it names hosts: escaped */
	char first[32], again[32];
	report_fixed(first, sizeof first, s->first_measured, 0, 3);
	report_fixed(again, sizeof again, s->measured, 0, 3);
	if (isfinite(s->first_measured))
		printf("; first pass %s, re-test %s %s", first, again,
		       s->metric == DETECT_BANDWIDTH ? "GB/s" : "us");
	double w = s->kind == DETECT_LINK && !s->between_hosts ? link_cpu_wait(v, s->a, s->b) : NAN;
	if (!isnan(w) && w >= CPU_WAIT_NOTABLE)
		printf("; its ranks waited for a core %.0f%% of the time", 100 * w);
	printf("\n");
}

/* A suspect the re-test confirmed and the wait for a core explains (scheduler.h). */
static void print_scheduler_cleared(const struct links_view *v, const struct detect_suspect *s,
                                    double w0)
{
	char line[1024], ran[32];
	detect_describe(s, v->host_names, line, sizeof line);
	report_fixed(ran, sizeof ran, scheduler_discounted(s, s->cpu_wait_fraction, w0), 0, 3);
	printf("# cleared, the scheduler's: ");
	report_fput_escaped(stdout, line);
	printf("; its ranks waited for a core %.0f%% of the time (the typical pair's %.0f%%), and "
	       "for the time they ran it measured %s us, within the class\n",
	       100 * s->cpu_wait_fraction, isnan(w0) ? 0.0 : 100 * w0, ran);
}

/* "# cleared, <by>: <the suspect>; <why>" */
static void print_cleared(const struct links_view *v, const struct detect_result *r,
                          const struct detect_suspect *s, const char *by, const char *why)
{
	char line[1024];
	classify_describe(r, s, v->host_names, line, sizeof line);
	printf("# cleared, %s: ", by);
	report_fput_escaped(stdout, line);
	printf("; %s\n", why);
}

/*
 * A suspect the re-test confirmed and another job's traffic explains
 * (traffic.h): its own figures add up (traffic_explains), or the cells read
 * again with each pair's other traffic added no longer name it
 * (traffic_clear_cells), which its own sum need not show.
 */
static void print_traffic_cleared(const struct links_view *v, const struct detect_result *r,
                                  const struct detect_suspect *s, const struct detect_params *p)
{
	char why[512], got[32], other[32], want[32], most[32];
	report_fixed(got, sizeof got, s->measured, 0, 3);
	report_fixed(other, sizeof other, s->other_traffic_gbps, 0, 3);
	report_fixed(want, sizeof want, s->expected, 0, 3);
	report_fixed(most, sizeof most, s->other_traffic_most_gbps, 0, 3);
	if (traffic_explains(s, s->other_traffic_gbps, detect_tolerance(p, s->metric, s->locality)))
		snprintf(why, sizeof why,
		         "while measured again its NICs carried %s GB/s besides it, and %s + %s GB/s "
		         "is within the tolerance of the class's %s GB/s: busy, not broken",
		         other, got, other, want);
	else
		snprintf(why, sizeof why,
		         "another job's stream was in the way of some of its pairs (up to %s GB/s "
		         "besides one), and read again with what each pair's NICs carried besides it "
		         "added, the cells no longer name it: the stream's and a fault beside it, not "
		         "its own",
		         most);
	print_cleared(v, r, s, "other traffic", why);
}

static void print_suspects(const struct links_view *v, const struct links_judgement *j)
{
	const struct detect_result *first = j->first, *final = j->final;
	int confirmed = detect_confirmed_count(final);
	if (confirmed == 0)
		printf("# suspects: none");
	else
		printf("# suspects: %d, each confirmed by a re-test", confirmed);
	if (first->nsuspects > 0)
		printf(" (%d accused by the first pass; %d pair%s measured again%s)",
		       first->nsuspects, j->remeasured_pairs, j->remeasured_pairs == 1 ? "" : "s",
		       j->shift_retested ? ", the shift pattern run again" : "");
	printf("\n");
	for (int i = 0; i < final->nsuspects; i++)
		if (final->suspects[i].confirmed)
			print_suspect(v, final, &final->suspects[i]);
	double w0 = NAN;
	for (int i = 0; i < final->nsuspects; i++)
		if (final->suspects[i].scheduler_cleared) {
			if (isnan(w0))
				w0 = links_typical_cpu_wait_latency(v);
			print_scheduler_cleared(v, &final->suspects[i], w0);
		}
	for (int i = 0; i < final->nsuspects; i++)
		if (final->suspects[i].traffic_cleared)
			print_traffic_cleared(v, final, &final->suspects[i], j->params);
	/* a link of the shift pattern that is fine alone (alone.h) */
	for (int i = 0; i < final->nsuspects; i++)
		if (final->suspects[i].alone_cleared)
			print_cleared(v, final, &final->suspects[i], "fine alone",
			              final->suspects[i].kind == DETECT_HOST
			                  ? "its pairs measured alone run within the tolerance of their "
			                    "class, one way and both ways at once: the pattern's load "
			                    "slowed it, not its NIC"
			                  : "its pair measured alone runs within the tolerance of its "
			                    "class: the pattern's load slowed it, not the link");
	/* a host or link at the level of a confirmed segment across whose cut it runs */
	for (int i = 0; i < final->nsuspects; i++)
		if (final->suspects[i].segment_cleared)
			print_cleared(v, final, &final->suspects[i], "the segment's",
			              final->suspects[i].kind == DETECT_SEGMENT
			                  ? "another confirmed segment names the same cut with as many "
			                    "hosts or more: one uplink, one accusation"
			              : final->suspects[i].kind == DETECT_HOST
			                  ? "it sits on a side of a confirmed segment, is no slower "
			                    "across its cut than the segment by more than the tolerance, "
			                    "and runs within its side as the other cells within the "
			                    "sides do: the segment's cells, not a fault of its own"
			                  : "it crosses a confirmed segment's cut the segment's way and "
			                    "is no slower than the segment by more than the tolerance: "
			                    "one of its cells, not a fault of its own");
}

/* With nothing named: the smallest slowdown of each class that would have been. */
static void print_sensitivity(const struct links_judgement *j)
{
	struct links_sensitivity sens[LINKS_SENSITIVITY_MAX];
	int k = links_sensitivity(j, sens);
	for (int i = 0; i < j->final->nsuspects; i++)
		if (j->final->suspects[i].confirmed)
			return;
	for (int i = 0; i < k; i++) {
		const char *where = sens[i].pattern == SUSPECT_SHIFT ? " under load (shift)" : "";
		const char *loc = detect_locality_name(sens[i].locality);
		char med[32];
		report_fixed(med, sizeof med, sens[i].median, 0, 3);
		if (sens[i].metric == DETECT_BANDWIDTH)
			printf("# rules out%s: a %s link %.0f%% slower than the median (%s GB/s) "
			       "would have been named\n",
			       where, loc, 100 * sens[i].fraction, med);
		else
			printf("# rules out%s: a %s link with latency %.0f%% above the median (%s us) "
			       "would have been named\n",
			       where, loc, 100 * sens[i].fraction, med);
	}
}

void links_print(const struct links_view *v, const struct links_opts *o,
                 const struct links_judgement *j)
{
	print_header(v, o);
	if (v->nranks < 2) {
		printf("# no pairs to measure: links needs at least 2 ranks\n");
		fflush(stdout);
		return;
	}
	if (o->pattern & LINKS_PAIRS && v->nranks <= RANK_MATRIX_MAX)
		print_rank_matrix(v);
	else if (o->pattern & LINKS_PAIRS)
		print_host_matrix(v, false);
	if (v->shift && v->nhosts > 1)
		print_host_matrix(v, true);
	print_classes(v, j->final, &o->detect);
	print_not_judged(v);
	print_cpu_wait(v);
	print_suspects(v, j);
	print_sensitivity(j);
	fflush(stdout);
}
