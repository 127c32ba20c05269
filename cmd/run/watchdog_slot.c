/* See watchdog_slot.h. */
#include "cmd/run/watchdog_slot.h"

void wd_slot_write(struct wd_slot *s, const struct wd_beat *b)
{
	uint64_t w[WD_BEAT_MAX_WORDS];
	size_t n = wd_beat_to_words(b, w);
	uint64_t seq = atomic_load_explicit(&s->seq, memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	for (size_t k = 0; k < n; k++)
		atomic_store_explicit(&s->w[k], w[k], memory_order_relaxed);
	atomic_store_explicit(&s->seq, seq + 2, memory_order_release);
}

void wd_slot_done(struct wd_slot *s)
{
	atomic_store_explicit(&s->done, 1, memory_order_release);
}

bool wd_slot_is_done(struct wd_slot *s)
{
	return atomic_load_explicit(&s->done, memory_order_acquire) != 0;
}

bool wd_slot_read(struct wd_slot *s, struct wd_beat *b, uint64_t *seq)
{
	uint64_t w[WD_BEAT_MAX_WORDS];
	uint64_t before = atomic_load_explicit(&s->seq, memory_order_acquire);
	if (before & 1)
		return false;
	for (size_t k = 0; k < WD_HB_WORDS; k++)
		w[k] = atomic_load_explicit(&s->w[k], memory_order_relaxed);
	/* a torn count is caught by the seq check below; keep the copy in bounds meanwhile */
	uint64_t n = w[10] > WD_FLIGHT_ENTRIES ? WD_FLIGHT_ENTRIES : w[10];
	for (size_t k = WD_HB_WORDS; k < WD_HB_WORDS + n * TRACE_WORDS; k++)
		w[k] = atomic_load_explicit(&s->w[k], memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&s->seq, memory_order_relaxed) != before || before == 0)
		return false;
	w[10] = n;
	*seq = before;
	return wd_beat_from_words(w, WD_BEAT_MAX_WORDS, b) != 0;
}
