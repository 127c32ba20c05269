/*
 * The accept spec written back as JSON, in the form accept_spec_parse reads
 * (see accept_spec.h): what `accept --derive` writes.
 */
#include "reports/accept/accept_spec.h"

#include <math.h>

/* min_bandwidth_gbps or max_latency_us with the classes that have a threshold. */
static bool add_classes(cJSON *links, const char *key, const double *v)
{
	cJSON *o = NULL;

	for (int l = 0; l < DETECT_LOCALITIES; l++) {
		if (isnan(v[l]))
			continue;
		if (!o && !(o = cJSON_AddObjectToObject(links, key)))
			return false;
		if (!cJSON_AddNumberToObject(o, detect_locality_name((enum detect_locality)l),
		                             v[l]))
			return false;
	}
	return true;
}

static bool add_topology(cJSON *checks, const struct accept_topology_spec *t)
{
	static const char *const keys[] = {"hosts", "ranks_per_host", "cores_per_host",
	                                   "numa_nodes_per_host"};
	const int64_t values[] = {t->hosts, t->ranks_per_host, t->cores_per_host,
	                          t->numa_nodes_per_host};
	cJSON *o = cJSON_AddObjectToObject(checks, "topology");

	for (size_t i = 0; o && i < sizeof keys / sizeof keys[0]; i++)
		if (values[i] >= 0 && !cJSON_AddNumberToObject(o, keys[i], (double)values[i]))
			return false;
	return o && cJSON_AddBoolToObject(o, "allow_oversubscribed", t->allow_oversubscribed);
}

static bool add_verify(cJSON *checks, const struct accept_verify_spec *v)
{
	cJSON *o = cJSON_AddObjectToObject(checks, "verify"), *list;

	if (!o)
		return false;
	if (v->all && v->nvariants == 0)
		return cJSON_AddStringToObject(o, "variants", "all") != NULL;
	list = cJSON_AddArrayToObject(o, "variants");
	for (size_t i = 0; list && i < v->nvariants; i++)
		if (!cJSON_AddItemToArray(list, cJSON_CreateString(v->variants[i])))
			return false;
	return list != NULL;
}

static bool add_allreduce(cJSON *checks, const struct accept_allreduce_spec *a)
{
	cJSON *o = cJSON_AddObjectToObject(checks, "allreduce"), *points;

	if (!o || !cJSON_AddStringToObject(o, "dtype", a->dtype) ||
	    !cJSON_AddStringToObject(o, "op", a->op) ||
	    !cJSON_AddBoolToObject(o, "in_place", a->in_place) ||
	    !(points = cJSON_AddArrayToObject(o, "points")))
		return false;
	for (size_t i = 0; i < a->npoints; i++) {
		const struct accept_ar_point *p = &a->points[i];
		cJSON *q = cJSON_CreateObject();
		if (!q || !cJSON_AddItemToArray(points, q)) {
			cJSON_Delete(q);
			return false;
		}
		/* the all-reduce's points without the field: a spec of them reads as before */
		if ((p->collective != AR_ALLREDUCE &&
		     !cJSON_AddStringToObject(q, "collective",
		                              ar_collective_names[p->collective])) ||
		    !cJSON_AddStringToObject(q, "variant", p->variant) ||
		    !cJSON_AddNumberToObject(q, "bytes", (double)p->bytes) ||
		    (!isnan(p->min_busbw_gbps) &&
		     !cJSON_AddNumberToObject(q, "min_busbw_gbps", p->min_busbw_gbps)) ||
		    (!isnan(p->max_p99_us) &&
		     !cJSON_AddNumberToObject(q, "max_p99_us", p->max_p99_us)))
			return false;
	}
	return true;
}

cJSON *accept_spec_to_json(cJSON *root, const struct accept_spec *s)
{
	cJSON *checks, *links;

	if (!cJSON_AddNumberToObject(root, "spec_version", ACCEPT_SPEC_VERSION) ||
	    (s->name[0] && !cJSON_AddStringToObject(root, "name", s->name)) ||
	    !(checks = cJSON_AddObjectToObject(root, "checks")))
		return NULL;
	if (s->has[ACCEPT_TOPOLOGY] && !add_topology(checks, &s->topology))
		return NULL;
	if (s->has[ACCEPT_VERIFY] && !add_verify(checks, &s->verify))
		return NULL;
	if (s->has[ACCEPT_LINKS]) {
		links = cJSON_AddObjectToObject(checks, "links");
		if (!links ||
		    !add_classes(links, "min_bandwidth_gbps", s->links.min_bandwidth_gbps) ||
		    !add_classes(links, "max_latency_us", s->links.max_latency_us) ||
		    !cJSON_AddBoolToObject(links, "allow_suspects", s->links.allow_suspects))
			return NULL;
	}
	if (s->has[ACCEPT_ALLREDUCE] && !add_allreduce(checks, &s->allreduce))
		return NULL;
	return root;
}
