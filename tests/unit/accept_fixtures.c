/* See accept_fixtures.h. */
#include "accept_fixtures.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

void fx_accept_hosts(struct accept_figures *f, int nhosts)
{
	struct ctx_host hosts[FX_ACCEPT_MAX_HOSTS];
	struct report_context c;
	int ranks[FX_ACCEPT_MAX_HOSTS][2];

	cr_assert(nhosts > 0 && nhosts <= FX_ACCEPT_MAX_HOSTS);
	report_context_init(&c);
	memset(hosts, 0, sizeof hosts);
	for (int h = 0; h < nhosts; h++) {
		snprintf(hosts[h].name, sizeof hosts[h].name, "h%d", h);
		hosts[h].cores = 2;
		hosts[h].numa_nodes = 1;
		hosts[h].nranks = 2;
		ranks[h][0] = 2 * h;
		ranks[h][1] = 2 * h + 1;
		hosts[h].ranks = ranks[h];
	}
	c.nhosts = nhosts;
	c.hosts = hosts;
	accept_figures_init(f);
	cr_assert_eq(accept_figures_set_hosts(f, &c), 0);
}

const struct accept_result *fx_result(const struct accept_verdict *v, const char *label, int host)
{
	for (size_t i = 0; i < v->nresults; i++)
		if (strcmp(v->results[i].label, label) == 0 && v->results[i].host == host)
			return &v->results[i];
	cr_assert_fail("no result '%s' on host %d", label, host);
	return NULL;
}
