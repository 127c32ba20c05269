/* See fault.h. */
#include "algorithms/fault.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct fault ar_fault;

static int fail(const char **why, const char *reason)
{
	*why = reason;
	return -1;
}

/* Decimal digits only, at most 2^30. */
static int parse_small(const char *s, uint64_t *out, const char **why)
{
	uint64_t v = 0;
	if (!*s)
		return fail(why, "empty number");
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return fail(why, "not a whole number");
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > (1u << 30))
			return fail(why, "out of range");
	}
	*out = v;
	return 0;
}

/* "key=value" pairs after the kind, comma-separated. */
static int parse_args(char *args, struct fault *f, const char **why)
{
	bool have_rank = false, have_after = false, have_us = false, have_pct = false;
	bool timed = f->kind == FAULT_DELAY || f->kind == FAULT_SLOW;
	for (char *save = NULL, *kv = strtok_r(args, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		uint64_t v;
		if (!eq)
			return fail(why, "expected key=value");
		*eq = '\0';
		if (strcmp(kv, "rank") == 0 && strcmp(eq + 1, "all") == 0 && f->kind == FAULT_SLOW) {
			f->rank = FAULT_EVERY_RANK;
			have_rank = true;
			continue;
		}
		if (parse_small(eq + 1, &v, why) != 0)
			return -1;
		if (strcmp(kv, "rank") == 0) {
			f->rank = (int)v;
			have_rank = true;
		} else if (strcmp(kv, "after") == 0 && f->kind == FAULT_STALL) {
			f->after = (int64_t)v;
			have_after = true;
		} else if (strcmp(kv, "us") == 0 && timed) {
			f->us = (int64_t)v;
			have_us = true;
		} else if (strcmp(kv, "pct") == 0 &&
		           (f->kind == FAULT_SLOW || f->kind == FAULT_COMPUTE)) {
			f->pct = (int64_t)v;
			have_pct = true;
		} else {
			return fail(why,
			            "unknown key (rank=, or rank=all for slow; after= for stall; us= for "
			            "delay and slow; "
			            "pct= for slow and compute)");
		}
	}
	if (!have_rank)
		return fail(why, "rank=R is required");
	if (f->kind == FAULT_STALL && !have_after)
		return fail(why, "stall needs after=K");
	if (f->kind == FAULT_DELAY && !have_us)
		return fail(why, "delay needs us=N");
	if (f->kind == FAULT_SLOW && have_us == have_pct)
		return fail(why, "slow needs one of us=N and pct=P");
	if (f->kind == FAULT_COMPUTE && !have_pct)
		return fail(why, "compute needs pct=P");
	return 0;
}

int fault_parse(const char *spec, struct fault *out, const char **why)
{
	static const struct {
		const char *name;
		enum fault_kind kind;
	} kinds[] = {{"flip", FAULT_FLIP}, {"stall", FAULT_STALL}, {"nomem", FAULT_NOMEM},
	             {"stranger", FAULT_STRANGER}, {"delay", FAULT_DELAY}, {"slow", FAULT_SLOW},
	             {"rendezvous", FAULT_RENDEZVOUS}, {"compute", FAULT_COMPUTE}};
	char buf[256];
	*out = (struct fault){.kind = FAULT_NONE, .rank = -1};
	if (!spec || !*spec)
		return 0;
	if (strlen(spec) >= sizeof buf)
		return fail(why, "too long");
	strcpy(buf, spec);
	char *colon = strchr(buf, ':');
	if (!colon)
		return fail(why, "expected KIND:rank=R[,after=K|,us=N|,pct=P] (flip, stall, nomem, stranger, delay, slow, compute, rendezvous)");
	*colon = '\0';
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(buf, kinds[i].name) == 0)
			out->kind = kinds[i].kind;
	if (out->kind == FAULT_NONE)
		return fail(why, "unknown kind (flip, stall, nomem, stranger, delay, slow, compute, rendezvous)");
	int rc = parse_args(colon + 1, out, why);
	if (rc != 0)
		*out = (struct fault){.kind = FAULT_NONE, .rank = -1};
	return rc;
}

int fault_load(const char **why) { return fault_parse(getenv("COLLSCOPE_FAULT"), &ar_fault, why); }

bool fault_is(enum fault_kind kind, int rank)
{
	return ar_fault.kind == kind && (ar_fault.rank == rank || ar_fault.rank == FAULT_EVERY_RANK);
}

void fault_flip(void *buf, size_t count, size_t elem_bytes)
{
	if (count == 0)
		return;
	unsigned char *e = (unsigned char *)buf + (count / 2) * elem_bytes;
	/* a bit in the upper half of the element: exponent or high bits, never lost in rounding */
	e[elem_bytes - 1 - (elem_bytes > 2)] ^= 0x10;
}

void fault_wait_us(int64_t us)
{
	struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void fault_stall(void)
{
	for (;;) {
		struct timespec ts = {.tv_sec = 3600};
		nanosleep(&ts, NULL);
	}
}

void fault_spin_ns(uint64_t ns)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)(t.tv_nsec - t0.tv_nsec) < ns);
}
