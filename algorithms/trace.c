/* See trace.h. */
#include "algorithms/trace.h"

#include <stdlib.h>

static _Atomic(struct trace_ring *) published;

int trace_ring_init(struct trace_ring *t, size_t cap)
{
	t->slots = NULL;
	t->cap = t->next = 0;
	atomic_init(&t->head, 0);
	if (cap < TRACE_MIN_ENTRIES || cap > TRACE_MAX_ENTRIES)
		return -1;
	t->slots = calloc(cap, sizeof *t->slots);
	if (!t->slots)
		return -1;
	t->cap = cap;
	return 0;
}

void trace_ring_release(struct trace_ring *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = t->next = 0;
}

uint64_t trace_written(const struct trace_ring *t)
{
	return atomic_load_explicit(&t->head, memory_order_acquire);
}

void trace_unpack(const uint64_t w[TRACE_WORDS], struct trace_entry *e)
{
	e->bytes = w[0];
	e->iteration = (int64_t)w[1];
	e->variant = (int16_t)(uint16_t)(w[2] >> 48);
	e->phase = (int8_t)(uint8_t)(w[2] >> 40);
	e->half = (uint8_t)(w[2] >> 32);
	e->step = (int32_t)(uint32_t)w[2];
	e->send_peer = (int32_t)(uint32_t)(w[3] >> 32);
	e->recv_peer = (int32_t)(uint32_t)w[3];
	e->send_bytes = w[4];
	e->recv_bytes = w[5];
	e->start_ns = w[6];
	e->recv_done_ns = w[7];
	e->reduced_ns = w[8];
	e->end_ns = w[9];
	e->reduce_busy_ns = w[10];
}

/* Entry i if it is whole and still there; false when torn or overwritten. */
static bool read_entry(const struct trace_ring *t, uint64_t i, struct trace_entry *e)
{
	struct trace_slot *s = &t->slots[i % t->cap];
	uint64_t w[TRACE_WORDS];
	uint64_t seq = atomic_load_explicit(&s->seq, memory_order_acquire);
	if (seq != 2 * i + 2)
		return false;
	for (int k = 0; k < TRACE_WORDS; k++)
		w[k] = atomic_load_explicit(&s->w[k], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&s->seq, memory_order_relaxed) != seq)
		return false;
	trace_unpack(w, e);
	return true;
}

size_t trace_snapshot(const struct trace_ring *t, struct trace_entry *out, size_t max)
{
	if (!t->slots || max == 0)
		return 0;
	uint64_t head = trace_written(t);
	uint64_t keep = max < t->cap ? max : t->cap;
	uint64_t first = head > keep ? head - keep : 0;
	size_t n = 0;
	for (uint64_t i = first; i < head; i++)
		n += read_entry(t, i, &out[n]);
	return n;
}

size_t trace_select(struct trace_entry *e, size_t n, int variant, uint64_t bytes, int phase)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (e[i].variant == variant && e[i].bytes == bytes && e[i].phase == phase)
			e[kept++] = e[i];
	return kept;
}

void trace_publish(struct trace_ring *t)
{
	atomic_store_explicit(&published, t, memory_order_release);
}

struct trace_ring *trace_published(void)
{
	return atomic_load_explicit(&published, memory_order_acquire);
}
