/* See nic_bytes.h. No MPI. */
#include "probes/nic_bytes.h"
#include "probes/proc_file.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One interface line "  eth0: rx_bytes rx_packets ... tx_bytes ...": its rx + tx bytes. */
static bool parse_line(const char *line, uint64_t *bytes, bool *loopback)
{
	const char *colon = strchr(line, ':');
	if (!colon)
		return false;
	const char *name = line;
	while (*name == ' ' || *name == '\t')
		name++;
	*loopback = colon - name == 2 && strncmp(name, "lo", 2) == 0;
	uint64_t f[9];
	/* receive: bytes packets errs drop fifo frame compressed multicast; transmit: bytes */
	if (sscanf(colon + 1,
	           " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
	           " %" SCNu64 " %" SCNu64 " %" SCNu64,
	           &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8]) != 9)
		return false;
	*bytes = f[0] + f[8];
	return true;
}

bool probe_nic_bytes_parse(const char *text, uint64_t *bytes)
{
	bool any = false;
	uint64_t total = 0;
	while (text && *text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		char line[512];
		if (len < sizeof line) {
			memcpy(line, text, len);
			line[len] = '\0';
			uint64_t b;
			bool lo;
			if (parse_line(line, &b, &lo)) {
				any = true;
				if (!lo)
					total += b;
			}
		}
		text += len + (end ? 1 : 0);
	}
	if (any)
		*bytes = total;
	return any;
}

bool probe_nic_bytes(uint64_t *bytes)
{
	char buf[16384];
	return probe_read_file("/proc/net/dev", buf, sizeof buf) &&
	       probe_nic_bytes_parse(buf, bytes);
}

double probe_nic_other_gbps(uint64_t counted, uint64_t own_bytes, double wall_s)
{
	if (!(wall_s > 0))
		return NAN;
	double other = (double)counted - NIC_WIRE_OVERHEAD * (double)own_bytes;
	return other > 0 ? other / wall_s / 1e9 : 0;
}
