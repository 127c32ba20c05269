/* See shm_small.h. */
#include "algorithms/shm_small.h"
#include "algorithms/shm_sync.h"

#include <string.h>

struct line {
	char data[SHM_LINE_DATA_BYTES];
	_Atomic uint64_t flag; /* 2 x seq + ok of the call whose data this is */
};
_Static_assert(sizeof(struct line) == SHM_LINE_BYTES, "a slot line is one cache line");

size_t shm_small_lines(size_t bytes)
{
	return bytes ? (bytes + SHM_LINE_DATA_BYTES - 1) / SHM_LINE_DATA_BYTES : 1;
}

size_t shm_small_rank_bytes(size_t capacity_bytes)
{
	return 2 * shm_small_lines(capacity_bytes) * SHM_LINE_BYTES;
}

/* Rank i's slot of call seq: by parity. */
static struct line *slot_of(const struct shm_small *h, int i, uint64_t seq)
{
	return (struct line *)h->region[i] + (seq & 1) * shm_small_lines(h->capacity_bytes);
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

static void publish(const struct shm_small *h, uint64_t seq, bool ok, const char *in, size_t bytes)
{
	struct line *l = slot_of(h, h->me, seq);
	for (size_t j = 0, n = shm_small_lines(bytes); j < n; j++) {
		size_t at = j * SHM_LINE_DATA_BYTES;
		memcpy(l[j].data, in + at,
		       min_size(SHM_LINE_DATA_BYTES, bytes - min_size(at, bytes)));
		atomic_store_explicit(&l[j].flag, 2 * seq + ok, memory_order_release);
	}
}

/*
 * Every line of every peer's call seq is here: whether all were ok. Last
 * line first: its owner writes it last, so by the time it shows the call the
 * others mostly do too, and we spin on one line instead of pulling each one
 * across while its owner is still writing it (which made 1 KiB twice as slow).
 */
static bool await_peers(const struct shm_small *h, uint64_t seq, size_t bytes)
{
	bool ok = true;
	for (int i = 0; i < h->count; i++) {
		struct line *l = slot_of(h, i, seq);
		for (size_t j = shm_small_lines(bytes); j-- > 0;) {
			shm_sync_wait(&l[j].flag, 2 * seq, h->crowded);
			ok = ok && (atomic_load_explicit(&l[j].flag, memory_order_relaxed) & 1);
		}
	}
	return ok;
}

bool shm_small_allreduce(const struct shm_small *h, uint64_t seq, bool ok, const void *input,
                         void *result, size_t count, enum ar_dtype t, enum ar_op op)
{
	const size_t w = ar_dtype_bytes(t), bytes = count * w, per_line = SHM_LINE_DATA_BYTES / w;
	publish(h, seq, ok, input, bytes);
	if (!await_peers(h, seq, bytes))
		return false;
	/* rank order on every rank: the same bits everywhere; input may be result, so slots only */
	for (size_t j = 0, n = shm_small_lines(bytes); j < n; j++) {
		size_t at = j * per_line, k = min_size(per_line, count - min_size(at, count));
		char *out = (char *)result + at * w;
		const char *first = slot_of(h, 0, seq)[j].data;
		if (h->count == 1)
			memcpy(out, first, k * w);
		for (int i = 1; i < h->count; i++)
			ar_reduce(out, i == 1 ? first : out, slot_of(h, i, seq)[j].data, k, t, op);
	}
	return true;
}
