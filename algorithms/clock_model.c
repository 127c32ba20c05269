/* See clock_model.h. */
#include "algorithms/clock_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void clock_model_init(struct clock_model *m)
{
	memset(m, 0, sizeof *m);
}

double clock_to_ref(const struct clock_model *m, double local_s)
{
	return local_s + m->offset_s + m->drift * (local_s - m->anchor_s);
}

int clock_best(const struct clock_pingpong *p, size_t n, struct clock_point *out)
{
	size_t best = 0;
	if (n == 0)
		return -1;
	for (size_t i = 1; i < n; i++)
		if (p[i].recv_s - p[i].send_s < p[best].recv_s - p[best].send_s)
			best = i;
	double mid = 0.5 * (p[best].send_s + p[best].recv_s);
	*out = (struct clock_point){.local_s = mid,
	                            .offset_s = p[best].ref_s - mid,
	                            .rtt_s = p[best].recv_s - p[best].send_s};
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int clock_burst(const struct clock_point *pts, size_t n, struct clock_point *out)
{
	if (n == 0)
		return -1;
	double *off = malloc(n * sizeof *off);
	if (!off)
		return -1;
	double local = 0, rtt = pts[0].rtt_s;
	for (size_t i = 0; i < n; i++) {
		off[i] = pts[i].offset_s;
		local += pts[i].local_s;
		rtt = pts[i].rtt_s < rtt ? pts[i].rtt_s : rtt;
	}
	qsort(off, n, sizeof *off, cmp_double);
	double median = n % 2 ? off[n / 2] : 0.5 * (off[n / 2 - 1] + off[n / 2]);
	free(off);
	*out = (struct clock_point){.local_s = local / (double)n, .offset_s = median, .rtt_s = rtt};
	return 0;
}

int clock_fit_line(const double *x, const double *y, size_t n, double *a, double *b,
                   double *xmean)
{
	if (n < 2)
		return -1;
	double mx = 0, my = 0, sxx = 0, sxy = 0;
	for (size_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	/* centred sums: the local times are large (seconds since start), their spread small */
	for (size_t i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (!(sxx > 0))
		return -1;
	*a = my;
	*b = sxy / sxx;
	*xmean = mx;
	return 0;
}

void clock_model_update(struct clock_model *m, const struct clock_point *est,
                        double min_drift_span_s, double *jump_s)
{
	if (jump_s)
		*jump_s = m->syncs ? fabs(clock_to_ref(m, est->local_s) - est->local_s - est->offset_s)
		                   : NAN;
	if (m->nhist == CLOCK_HISTORY) {
		memmove(m->hist, m->hist + 1, (CLOCK_HISTORY - 1) * sizeof m->hist[0]);
		m->nhist--;
	}
	m->hist[m->nhist++] = *est;
	m->anchor_s = est->local_s;
	m->offset_s = est->offset_s;
	m->rtt_s = est->rtt_s;
	m->drift = 0;
	m->syncs++;
	double x[CLOCK_HISTORY], y[CLOCK_HISTORY], a, b, xm;
	for (int i = 0; i < m->nhist; i++) {
		x[i] = m->hist[i].local_s;
		y[i] = m->hist[i].offset_s;
	}
	if (m->nhist >= 2 && x[m->nhist - 1] - x[0] >= min_drift_span_s &&
	    clock_fit_line(x, y, (size_t)m->nhist, &a, &b, &xm) == 0)
		m->drift = b;
}

double clock_residual(const struct clock_model *m, const struct clock_point *p)
{
	double off = fabs(clock_to_ref(m, p->local_s) - p->local_s - p->offset_s) - p->rtt_s / 2;
	return off > 0 ? off : 0;
}
