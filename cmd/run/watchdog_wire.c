/* See watchdog_wire.h. */
#include "cmd/run/watchdog_wire.h"

#include <string.h>

size_t wd_frame_max_bytes(size_t max)
{
	return (WD_FRAME_HEAD_WORDS + max * (WD_REC_HEAD_WORDS + WD_BEAT_MAX_WORDS)) * 8;
}

static void put_word(uint64_t w, unsigned char *out)
{
	for (int k = 0; k < 8; k++)
		out[k] = (unsigned char)(w >> (56 - 8 * k));
}

static uint64_t get_word(const unsigned char *in)
{
	uint64_t w = 0;
	for (int k = 0; k < 8; k++)
		w = (w << 8) | in[k];
	return w;
}

size_t wd_beat_to_words(const struct wd_beat *b, uint64_t *w)
{
	uint64_t n = b->nentries > WD_FLIGHT_ENTRIES ? WD_FLIGHT_ENTRIES : b->nentries;
	uint64_t head[WD_HB_WORDS] = {b->token,
	                              b->rank,
	                              b->ticks,
	                              b->bytes,
	                              (uint64_t)b->variant,
	                              (uint64_t)b->iteration,
	                              (uint64_t)b->phase,
	                              (uint64_t)b->seq,
	                              b->where,
	                              b->clock_ns,
	                              n};
	memcpy(w, head, sizeof head);
	memcpy(w + WD_HB_WORDS, b->entries, n * TRACE_WORDS * sizeof *w);
	return WD_HB_WORDS + n * TRACE_WORDS;
}

size_t wd_beat_from_words(const uint64_t *w, size_t n, struct wd_beat *b)
{
	if (n < WD_HB_WORDS || w[10] > WD_FLIGHT_ENTRIES)
		return 0;
	size_t words = WD_HB_WORDS + w[10] * TRACE_WORDS;
	if (n < words)
		return 0;
	*b = (struct wd_beat){.token = w[0],
	                      .rank = w[1],
	                      .ticks = w[2],
	                      .bytes = w[3],
	                      .variant = (int64_t)w[4],
	                      .iteration = (int64_t)w[5],
	                      .phase = (int64_t)w[6],
	                      .seq = (int64_t)w[7],
	                      .where = w[8],
	                      .clock_ns = w[9],
	                      .nentries = w[10]};
	memcpy(b->entries, w + WD_HB_WORDS, w[10] * TRACE_WORDS * sizeof *w);
	return words;
}

size_t wd_frame_encode(uint64_t token, uint64_t sender, const struct wd_record *rec, size_t count,
                       unsigned char *out, size_t cap)
{
	uint64_t w[WD_BEAT_MAX_WORDS];
	size_t used = WD_FRAME_HEAD_WORDS * 8;
	if (cap < used)
		return 0;
	for (size_t i = 0; i < count; i++) {
		size_t n = wd_beat_to_words(&rec[i].beat, w);
		if (cap - used < (WD_REC_HEAD_WORDS + n) * 8)
			return 0;
		put_word(rec[i].silent_ms, out + used);
		put_word(rec[i].flags, out + used + 8);
		used += WD_REC_HEAD_WORDS * 8;
		for (size_t k = 0; k < n; k++, used += 8)
			put_word(w[k], out + used);
	}
	put_word(used, out);
	put_word(token, out + 8);
	put_word(sender, out + 16);
	put_word(count, out + 24);
	return used;
}

/* One record from the frame's words p[0..n): the words it took, or 0. */
static size_t parse_record(const unsigned char *p, size_t n, struct wd_record *r)
{
	uint64_t w[WD_BEAT_MAX_WORDS];
	if (n < WD_REC_HEAD_WORDS + WD_HB_WORDS)
		return 0;
	r->silent_ms = get_word(p);
	r->flags = get_word(p + 8);
	n -= WD_REC_HEAD_WORDS;
	p += WD_REC_HEAD_WORDS * 8;
	size_t take = n < WD_BEAT_MAX_WORDS ? n : WD_BEAT_MAX_WORDS;
	/* the fixed words say how many follow: read only those */
	for (size_t k = 0; k < WD_HB_WORDS; k++)
		w[k] = get_word(p + k * 8);
	if (w[10] > WD_FLIGHT_ENTRIES || WD_HB_WORDS + w[10] * TRACE_WORDS > take)
		return 0;
	take = WD_HB_WORDS + w[10] * TRACE_WORDS;
	for (size_t k = WD_HB_WORDS; k < take; k++)
		w[k] = get_word(p + k * 8);
	size_t used = wd_beat_from_words(w, take, &r->beat);
	return used ? WD_REC_HEAD_WORDS + used : 0;
}

int wd_frame_parse(const unsigned char *buf, size_t len, uint64_t token, struct wd_record *rec,
                   size_t max, size_t *count, uint64_t *sender, size_t *frame_bytes)
{
	if (len < 8)
		return 0;
	uint64_t total = get_word(buf);
	if (total < WD_FRAME_HEAD_WORDS * 8 || total % 8 || total > wd_frame_max_bytes(max))
		return -1;
	if (len < total)
		return 0;
	uint64_t n = get_word(buf + 24);
	if (get_word(buf + 8) != token || n > max)
		return -1;
	size_t at = WD_FRAME_HEAD_WORDS, words = (size_t)total / 8;
	for (uint64_t i = 0; i < n; i++) {
		size_t used = parse_record(buf + at * 8, words - at, &rec[i]);
		if (!used)
			return -1;
		at += used;
	}
	if (at != words)
		return -1;
	*count = (size_t)n;
	*sender = get_word(buf + 16);
	*frame_bytes = (size_t)total;
	return 1;
}
