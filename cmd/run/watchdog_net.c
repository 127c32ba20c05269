/* See watchdog_net.h. */
#include "cmd/run/watchdog_net.h"

#include <sodium.h>
#include <string.h>

_Static_assert(WD_KEY_BYTES == crypto_auth_KEYBYTES, "the key is crypto_auth's");
_Static_assert(WD_TAG_BYTES == crypto_auth_BYTES, "the tag is crypto_auth's");

bool wd_same_host(const struct wd_addrs *root, const struct wd_addrs *peer)
{
	if (root->n == 0 && peer->n == 0)
		return true;
	for (int i = 0; i < root->n; i++)
		for (int k = 0; k < peer->n; k++)
			if (root->a[i].addr == peer->a[k].addr)
				return true;
	return false;
}

/* Does rank 0's address r share a subnet (r's mask) with one of peer's? */
static bool reaches(const struct wd_addr *r, const struct wd_addrs *peer)
{
	for (int k = 0; k < peer->n; k++)
		if ((r->addr & r->mask) == (peer->a[k].addr & r->mask))
			return true;
	return false;
}

static int add_unique(uint32_t *listen, int n, int max, uint32_t a)
{
	for (int i = 0; i < n; i++)
		if (listen[i] == a)
			return n;
	if (n < max)
		listen[n++] = a;
	return n;
}

int wd_listen_plan(const struct wd_addrs *root, const struct wd_addrs *peers, int n,
                   uint32_t *listen, int max)
{
	int count = 0;
	for (int p = 0; p < n; p++)
		if (wd_same_host(root, &peers[p]))
			count = add_unique(listen, count, max, WD_LOOPBACK);
	for (int p = 0; p < n; p++) {
		bool any = false;
		if (wd_same_host(root, &peers[p]))
			continue;
		for (int i = 0; i < root->n; i++)
			if (reaches(&root->a[i], &peers[p])) {
				count = add_unique(listen, count, max, root->a[i].addr);
				any = true;
			}
		/* a routed network: no subnet says which address reaches it, so all may */
		for (int i = 0; !any && i < root->n; i++)
			count = add_unique(listen, count, max, root->a[i].addr);
	}
	return count;
}

/* How soon a rank with addresses mine should try listener a: lower first. */
static int rank_of(const struct wd_addrs *mine, bool local, uint32_t a)
{
	if (a == WD_LOOPBACK)
		return local ? 0 : 3;
	for (int k = 0; k < mine->n; k++)
		if ((a & mine->a[k].mask) == (mine->a[k].addr & mine->a[k].mask))
			return 1;
	return 2;
}

int wd_connect_order(const struct wd_addrs *mine, const struct wd_addrs *root,
                     const uint32_t *listen, int n, int *order)
{
	bool local = wd_same_host(root, mine);
	int k = 0;
	for (int level = 0; level <= 3; level++)
		for (int i = 0; i < n; i++)
			if (rank_of(mine, local, listen[i]) == level)
				order[k++] = i;
	return k;
}

static void message(const unsigned char nonce[WD_NONCE_BYTES], uint32_t rank,
                    unsigned char out[WD_NONCE_BYTES + 4])
{
	memcpy(out, nonce, WD_NONCE_BYTES);
	for (int i = 0; i < 4; i++)
		out[WD_NONCE_BYTES + i] = (unsigned char)(rank >> (24 - 8 * i));
}

void wd_hello(const unsigned char key[WD_KEY_BYTES], const unsigned char nonce[WD_NONCE_BYTES],
              uint32_t rank, unsigned char out[WD_HELLO_BYTES])
{
	unsigned char m[WD_NONCE_BYTES + 4];
	message(nonce, rank, m);
	memcpy(out, m + WD_NONCE_BYTES, 4);
	crypto_auth(out + 4, m, sizeof m, key);
}

bool wd_hello_valid(const unsigned char key[WD_KEY_BYTES],
                    const unsigned char nonce[WD_NONCE_BYTES],
                    const unsigned char hello[WD_HELLO_BYTES], uint32_t *rank)
{
	unsigned char m[WD_NONCE_BYTES + 4];
	uint32_t r = 0;
	for (int i = 0; i < 4; i++)
		r = r << 8 | hello[i];
	message(nonce, r, m);
	*rank = r;
	return crypto_auth_verify(hello + 4, m, sizeof m, key) == 0;
}
