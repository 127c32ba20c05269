/* See nic_bytes.h. No MPI. */
#include "probes/nic_bytes.h"
#include "probes/proc_file.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One interface line "  eth0: rx_bytes rx_packets ... tx_bytes ...": its rx and tx bytes. */
static bool parse_line(const char *line, struct probe_nic_count *c, bool *loopback)
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
	*c = (struct probe_nic_count){.rx = f[0], .tx = f[8]};
	return true;
}

bool probe_nic_count_parse(const char *text, struct probe_nic_count *count)
{
	bool any = false;
	struct probe_nic_count total = {0, 0};
	while (text && *text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		char line[512];
		if (len < sizeof line) {
			memcpy(line, text, len);
			line[len] = '\0';
			struct probe_nic_count c;
			bool lo;
			if (parse_line(line, &c, &lo)) {
				any = true;
				if (!lo) {
					total.rx += c.rx;
					total.tx += c.tx;
				}
			}
		}
		text += len + (end ? 1 : 0);
	}
	if (any)
		*count = total;
	return any;
}

bool probe_nic_bytes_parse(const char *text, uint64_t *bytes)
{
	struct probe_nic_count c;
	if (!probe_nic_count_parse(text, &c))
		return false;
	*bytes = c.rx + c.tx;
	return true;
}

bool probe_nic_count(struct probe_nic_count *count)
{
	char buf[16384];
	return probe_read_file("/proc/net/dev", buf, sizeof buf) &&
	       probe_nic_count_parse(buf, count);
}

bool probe_nic_bytes(uint64_t *bytes)
{
	struct probe_nic_count c;
	if (!probe_nic_count(&c))
		return false;
	*bytes = c.rx + c.tx;
	return true;
}

double probe_nic_other_gbps(uint64_t counted, uint64_t own_bytes, double wall_s)
{
	return probe_nic_other_way_gbps(counted, own_bytes, 0, wall_s);
}

double probe_nic_other_way_gbps(uint64_t counted, uint64_t own_this_way, uint64_t own_other_way,
                                double wall_s)
{
	if (!(wall_s > 0))
		return NAN;
	double other = (double)counted - NIC_WIRE_OVERHEAD * (double)own_this_way -
	               NIC_ACK_SHARE * (double)own_other_way;
	return other > 0 ? other / wall_s / 1e9 : 0;
}
