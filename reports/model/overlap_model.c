/* The two overlap definitions (reports/model/overlap_model.h). Pure. */
#include "reports/model/overlap_model.h"

#include <math.h>
#include <stdbool.h>

const char *const overlap_progress_names[] = {"test", "thread", "none", NULL};

struct overlap_times overlap_mean(const struct overlap_times *r, int n)
{
	struct overlap_times m = {0};
	for (int i = 0; i < n; i++) {
		m.pure_us += r[i].pure_us / n;
		m.cpu_alone_us += r[i].cpu_alone_us / n;
		m.overall_us += r[i].overall_us / n;
		m.cpu_us += r[i].cpu_us / n;
		m.test_us += r[i].test_us / n;
		m.tests += r[i].tests / n;
	}
	return m;
}

int overlap_slowest(const struct overlap_times *r, int n)
{
	int worst = 0;
	for (int i = 1; i < n; i++)
		if (r[i].overall_us > r[worst].overall_us)
			worst = i;
	return worst;
}

static bool all_finite(const struct overlap_times *t)
{
	return isfinite(t->pure_us) && isfinite(t->cpu_alone_us) && isfinite(t->overall_us) &&
	       isfinite(t->cpu_us) && isfinite(t->test_us);
}

double overlap_osu_percent(const struct overlap_times *m)
{
	if (!all_finite(m) || m->pure_us <= 0)
		return NAN;
	return fmax(0, 100 - 100 * (m->overall_us - (m->cpu_us - m->test_us)) / m->pure_us);
}

double overlap_imb_percent(const struct overlap_times *s)
{
	double longer = fmax(s->pure_us, s->cpu_alone_us);
	if (!all_finite(s) || longer <= 0)
		return NAN;
	return 100 * fmax(0, fmin(1, (s->pure_us + s->cpu_alone_us - s->overall_us) / longer));
}

struct overlap_step overlap_step_of(const double *per_rank, int n)
{
	struct overlap_step s = {0};
	for (int i = 0; i < n; i++) {
		s.compute_us = fmax(s.compute_us, per_rank[3 * i]);
		s.serial_us = fmax(s.serial_us, per_rank[3 * i + 1]);
		s.step_us = fmax(s.step_us, per_rank[3 * i + 2]);
	}
	s.exposed_us = s.step_us - s.compute_us;
	s.hidden_fraction = s.serial_us > s.compute_us
	                        ? (s.serial_us - s.step_us) / (s.serial_us - s.compute_us)
	                        : NAN;
	return s;
}
