/*
 * The watchdog's rendezvous, the parts that need no socket (cmd/run/watchdog.c
 * does the I/O): where rank 0 listens, in which order a rank tries rank 0's
 * listeners, and the proof that a connection comes from a rank of this job.
 * Pure: no MPI, no sockets.
 *
 * Where: rank 0 listens only on the addresses its peers can reach: loopback
 * for the ranks on its own host, and for the others the addresses of rank 0
 * that share a subnet with one of theirs (or, on a routed network where none
 * does, every address of rank 0 but loopback). Never on the wildcard.
 *
 * Who: rank 0 draws a secret of WD_KEY_BYTES and shares it over MPI (it is
 * never printed or written); a connecting rank receives a fresh nonce and
 * answers with its rank and the HMAC-SHA512-256 (libsodium's crypto_auth) of
 * the nonce and its rank under that key. A connection that does not answer
 * rightly within the handshake's deadline is dropped.
 */
#ifndef COLLSCOPE_CMD_WATCHDOG_NET_H
#define COLLSCOPE_CMD_WATCHDOG_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	WD_MAX_ADDRS = 16, /* IPv4 addresses of one rank */
	WD_KEY_BYTES = 32, /* crypto_auth_KEYBYTES */
	WD_NONCE_BYTES = 16,
	WD_TAG_BYTES = 32,                 /* crypto_auth_BYTES */
	WD_HELLO_BYTES = 4 + WD_TAG_BYTES, /* rank (big-endian) and tag */
};

#define WD_LOOPBACK 0x7f000001u /* 127.0.0.1, host order */

/* One IPv4 address and its netmask, host byte order. */
struct wd_addr {
	uint32_t addr, mask;
};

/* The IPv4 addresses of one rank's host (loopback left out). */
struct wd_addrs {
	int n;
	struct wd_addr a[WD_MAX_ADDRS];
};

/* A rank shares rank 0's host when an address is the same, or when neither has one. */
bool wd_same_host(const struct wd_addrs *root, const struct wd_addrs *peer);

/*
 * The addresses rank 0 listens on (host order) for its peers peers[0..n),
 * loopback first when a peer shares its host: at most max, without repeats.
 * Returns the count.
 */
int wd_listen_plan(const struct wd_addrs *root, const struct wd_addrs *peers, int n,
                   uint32_t *listen, int max);

/*
 * The order in which a rank whose addresses are mine tries rank 0's
 * listeners listen[0..n) (indices into order): loopback first on rank 0's
 * host and last elsewhere, the listeners in a subnet of mine before the rest.
 * Returns n.
 */
int wd_connect_order(const struct wd_addrs *mine, const struct wd_addrs *root,
                     const uint32_t *listen, int n, int *order);

/* The hello of rank `rank` answering nonce under key: rank, then the tag. */
void wd_hello(const unsigned char key[WD_KEY_BYTES], const unsigned char nonce[WD_NONCE_BYTES],
              uint32_t rank, unsigned char out[WD_HELLO_BYTES]);
/* True when hello answers nonce under key; *rank is the rank it claims. Constant time in the tag.
 */
bool wd_hello_valid(const unsigned char key[WD_KEY_BYTES],
                    const unsigned char nonce[WD_NONCE_BYTES],
                    const unsigned char hello[WD_HELLO_BYTES], uint32_t *rank);

#endif
