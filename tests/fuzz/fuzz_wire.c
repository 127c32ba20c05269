/*
 * The fuzz target wire (fuzz.h): what the watchdog's rendezvous reads from
 * others, through its pure parts (cmd/run/watchdog_net.c). The input is a
 * key, a nonce and a hello as a connection sends it, then the addresses of
 * rank 0 and of its peers as the ranks share them. Oracles: a hello is valid
 * exactly when it is the one the claimed rank would send (and that one is
 * valid, naming that rank); the listen plan has at most max addresses, none
 * twice, loopback first when a peer shares rank 0's host; the connect order
 * is a permutation of the listeners. The whole input is also a stream of
 * the frames a host leader sends rank 0 (cmd/run/watchdog_wire.c), under the
 * token of its words 1: a frame parsed whole is as long as it says, within
 * the input, a whole number of words, at most max records; one byte short of
 * it has not arrived yet; and encoding what was parsed gives its bytes back.
 */
#include "fuzz.h"

#include "cmd/run/watchdog_net.h"
#include "cmd/run/watchdog_wire.h"

#include <sodium.h>
#include <stdbool.h>
#include <string.h>

enum { PEERS_MAX = 8, LISTEN_MAX = 2 * WD_MAX_ADDRS };

/* n addresses from the input at *p (8 bytes each: address, mask), as many as are left. */
static void addrs_from(const uint8_t **p, const uint8_t *end, struct wd_addrs *out)
{
	int want = *p < end ? *(*p)++ % (WD_MAX_ADDRS + 1) : 0;

	memset(out, 0, sizeof *out);
	for (; out->n < want && end - *p >= 8; out->n++, *p += 8) {
		out->a[out->n].addr = (uint32_t)(*p)[0] << 24 | (uint32_t)(*p)[1] << 16 |
		                      (uint32_t)(*p)[2] << 8 | (*p)[3];
		out->a[out->n].mask = (uint32_t)(*p)[4] << 24 | (uint32_t)(*p)[5] << 16 |
		                      (uint32_t)(*p)[6] << 8 | (*p)[7];
	}
}

static void hello_oracle(const uint8_t *key, const uint8_t *nonce, const uint8_t *hello)
{
	unsigned char expect[WD_HELLO_BYTES];
	uint32_t claimed = (uint32_t)hello[0] << 24 | (uint32_t)hello[1] << 16 |
	                   (uint32_t)hello[2] << 8 | hello[3];
	uint32_t rank = 0;
	bool valid = wd_hello_valid(key, nonce, hello, &rank);

	wd_hello(key, nonce, claimed, expect);
	if (valid != (memcmp(expect, hello, WD_HELLO_BYTES) == 0))
		fuzz_failed("wd_hello_valid", valid ? "took a hello no rank sent" : "refused a rank's hello");
	if (!wd_hello_valid(key, nonce, expect, &rank) || rank != claimed)
		fuzz_failed("wd_hello_valid", "refused or misread the hello of the rank it claims");
}

static void plan_oracle(const struct wd_addrs *root, const struct wd_addrs *peers, int n)
{
	uint32_t listen[LISTEN_MAX];
	int order[LISTEN_MAX], count, seen[LISTEN_MAX] = {0};
	bool local = false;

	count = wd_listen_plan(root, peers, n, listen, LISTEN_MAX);
	if (count < 0 || count > LISTEN_MAX)
		fuzz_failed("wd_listen_plan", "a count outside 0..max");
	for (int i = 0; i < count; i++)
		for (int j = 0; j < i; j++)
			if (listen[i] == listen[j])
				fuzz_failed("wd_listen_plan", "an address twice");
	for (int i = 0; i < n; i++)
		local |= wd_same_host(root, &peers[i]);
	if (local && (count == 0 || listen[0] != WD_LOOPBACK))
		fuzz_failed("wd_listen_plan", "a peer on rank 0's host, and loopback not first");
	for (int i = 0; i < n; i++) {
		if (wd_connect_order(&peers[i], root, listen, count, order) != count)
			fuzz_failed("wd_connect_order", "not one index per listener");
		memset(seen, 0, sizeof seen);
		for (int k = 0; k < count; k++) {
			if (order[k] < 0 || order[k] >= count || seen[order[k]]++)
				fuzz_failed("wd_connect_order", "not a permutation of the listeners");
		}
	}
}

enum { FRAME_RECORDS_MAX = 4 };

static void frame_oracle(const uint8_t *data, size_t size)
{
	static struct wd_record rec[FRAME_RECORDS_MAX], again[FRAME_RECORDS_MAX];
	static unsigned char out[65536];
	uint64_t token = 0, sender = 0, sender2 = 0;
	size_t count = 0, count2 = 0, bytes = 0, bytes2 = 0;

	for (size_t k = 8; k < 16 && size >= 16; k++)
		token = token << 8 | data[k]; /* big-endian, as the frame carries it */
	int rc = wd_frame_parse(data, size, token, rec, FRAME_RECORDS_MAX, &count, &sender, &bytes);
	if (rc < -1 || rc > 1)
		fuzz_failed("wd_frame_parse", "a result other than -1, 0 or 1");
	if (rc != 1)
		return;
	if (bytes > size || bytes < WD_FRAME_HEAD_WORDS * 8 || bytes % 8 || count > FRAME_RECORDS_MAX)
		fuzz_failed("wd_frame_parse", "a frame outside the input, not whole words, or too many records");
	if (wd_frame_parse(data, bytes - 1, token, again, FRAME_RECORDS_MAX, &count2, &sender2,
	                   &bytes2) != 0)
		fuzz_failed("wd_frame_parse", "a frame one byte short is not 'not arrived yet'");
	if (bytes <= sizeof out &&
	    (wd_frame_encode(token, sender, rec, count, out, sizeof out) != bytes ||
	     memcmp(out, data, bytes) != 0))
		fuzz_failed("wd_frame_encode", "what was parsed does not encode to its bytes");
}

int fuzz_wire(const uint8_t *data, size_t size)
{
	static bool ready;
	const uint8_t *p = data + WD_KEY_BYTES + WD_NONCE_BYTES + WD_HELLO_BYTES, *end = data + size;
	struct wd_addrs root, peers[PEERS_MAX];
	int n = 0;

	if (!ready) {
		if (sodium_init() < 0)
			fuzz_failed("libsodium", "sodium_init failed");
		ready = true;
	}
	frame_oracle(data, size);
	if (size < WD_KEY_BYTES + WD_NONCE_BYTES + WD_HELLO_BYTES)
		return 0;
	hello_oracle(data, data + WD_KEY_BYTES, data + WD_KEY_BYTES + WD_NONCE_BYTES);
	addrs_from(&p, end, &root);
	while (p < end && n < PEERS_MAX)
		addrs_from(&p, end, &peers[n++]);
	plan_oracle(&root, peers, n);
	return 0;
}
