/*
 * The watchdog's rendezvous without sockets (cmd/run/watchdog_net.h): where rank
 * 0 listens for which peers, the order a rank tries the listeners, and the
 * hello that proves a connection belongs to the job.
 */
#include "cmd/run/watchdog_net.h"

#include <criterion/criterion.h>
#include <sodium.h>
#include <string.h>

#define IP(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (d))
#define MASK24         0xffffff00u

/* rank 0: on the cluster network and on a management network */
static const struct wd_addrs root = {2,
                                     {{IP(10, 213, 0, 11), MASK24}, {IP(192, 168, 7, 2), MASK24}}};
static const struct wd_addrs same_host = root;
static const struct wd_addrs cluster_peer = {1, {{IP(10, 213, 0, 12), MASK24}}};
static const struct wd_addrs routed_peer = {1, {{IP(172, 16, 9, 9), MASK24}}};

static bool has(const uint32_t *l, int n, uint32_t a)
{
	for (int i = 0; i < n; i++)
		if (l[i] == a)
			return true;
	return false;
}

Test(watchdog_net, same_host)
{
	const struct wd_addrs none = {0};
	cr_expect(wd_same_host(&root, &same_host));
	cr_expect(wd_same_host(&none, &none), "two hosts with loopback only are one");
	cr_expect(!wd_same_host(&root, &cluster_peer));
	cr_expect(!wd_same_host(&root, &none));
}

Test(watchdog_net, one_host_listens_on_loopback_only)
{
	uint32_t l[8];
	struct wd_addrs peers[3] = {same_host, same_host, same_host};
	int n = wd_listen_plan(&root, peers, 3, l, 8);
	cr_assert_eq(n, 1);
	cr_expect_eq(l[0], WD_LOOPBACK);
}

Test(watchdog_net, remote_peers_get_the_address_of_their_subnet_only)
{
	uint32_t l[8];
	struct wd_addrs peers[3] = {same_host, cluster_peer, cluster_peer};
	int n = wd_listen_plan(&root, peers, 3, l, 8);
	cr_assert_eq(n, 2);
	cr_expect_eq(l[0], WD_LOOPBACK, "loopback first, for the local ranks");
	cr_expect(has(l, n, IP(10, 213, 0, 11)));
	cr_expect(!has(l, n, IP(192, 168, 7, 2)), "the management network is nobody's way in");
	cr_expect(!has(l, n, 0), "never the wildcard");
}

Test(watchdog_net, a_routed_peer_may_come_through_any_address_but_loopback)
{
	uint32_t l[8];
	struct wd_addrs peers[1] = {routed_peer};
	int n = wd_listen_plan(&root, peers, 1, l, 8);
	cr_assert_eq(n, 2);
	cr_expect(has(l, n, IP(10, 213, 0, 11)) && has(l, n, IP(192, 168, 7, 2)));
	cr_expect(!has(l, n, WD_LOOPBACK));
}

Test(watchdog_net, the_order_to_try)
{
	uint32_t l[3] = {WD_LOOPBACK, IP(192, 168, 7, 2), IP(10, 213, 0, 11)};
	int order[3];
	cr_assert_eq(wd_connect_order(&same_host, &root, l, 3, order), 3);
	cr_expect_eq(order[0], 0, "on rank 0's host, loopback first");
	cr_assert_eq(wd_connect_order(&cluster_peer, &root, l, 3, order), 3);
	cr_expect_eq(order[0], 2, "elsewhere, the listener in my subnet first");
	cr_expect_eq(order[2], 0, "and loopback last");
}

Test(watchdog_net, only_the_job_can_say_hello)
{
	unsigned char key[WD_KEY_BYTES], other[WD_KEY_BYTES], nonce[WD_NONCE_BYTES],
	    nonce2[WD_NONCE_BYTES], hello[WD_HELLO_BYTES], bad[WD_HELLO_BYTES];
	uint32_t rank = 0;
	cr_assert_geq(sodium_init(), 0);
	randombytes_buf(key, sizeof key);
	randombytes_buf(other, sizeof other);
	randombytes_buf(nonce, sizeof nonce);
	randombytes_buf(nonce2, sizeof nonce2);
	wd_hello(key, nonce, 5, hello);
	cr_expect(wd_hello_valid(key, nonce, hello, &rank));
	cr_expect_eq(rank, 5);
	cr_expect(!wd_hello_valid(other, nonce, hello, &rank), "another job's key");
	cr_expect(!wd_hello_valid(key, nonce2, hello, &rank), "a replay to a fresh nonce");
	memcpy(bad, hello, sizeof bad);
	bad[3] ^= 1; /* claim rank 4 with rank 5's tag */
	cr_expect(!wd_hello_valid(key, nonce, bad, &rank));
	memcpy(bad, hello, sizeof bad);
	bad[WD_HELLO_BYTES - 1] ^= 0x80;
	cr_expect(!wd_hello_valid(key, nonce, bad, &rank), "a tampered tag");
	memset(bad, 0x5a, sizeof bad);
	cr_expect(!wd_hello_valid(key, nonce, bad, &rank), "junk");
}
