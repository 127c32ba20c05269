/*
 * Bytes through this host's network interfaces (issue 29): the kernel's
 * counters of /proc/net/dev, which are those of the caller's network
 * namespace, every interface but loopback, received and sent added. Read
 * around a pair's bandwidth phases, they say what else the host's NICs
 * carried meanwhile: a link slow because another job shares the NIC is
 * busy, not broken. Only what the kernel's stack moves is counted (MPI over
 * TCP, not RDMA: an InfiniBand port's counters are elsewhere).
 */
#ifndef COLLSCOPE_NIC_BYTES_H
#define COLLSCOPE_NIC_BYTES_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The total of the receive and transmit byte columns of every interface of
 * the text of /proc/net/dev but "lo"; false when the text holds no
 * interface line (headers alone are not a reading).
 */
bool probe_nic_bytes_parse(const char *text, uint64_t *bytes);

/* This host's total now; false when /proc/net/dev cannot be read or parsed. */
bool probe_nic_bytes(uint64_t *bytes);

/*
 * The same, each way: another job's stream out of a host takes its sending
 * side, not its receiving one, so the room a pair had one way is told by
 * that way's counter (reports/diagnose/traffic.h, traffic_clear_cells).
 */
struct probe_nic_count {
	uint64_t rx, tx;
};
bool probe_nic_count_parse(const char *text, struct probe_nic_count *count);
bool probe_nic_count(struct probe_nic_count *count);

/*
 * What the interfaces carried besides our own payload, in GB/s: the counters
 * moved by `counted` bytes in wall_s seconds while this rank sent and received
 * own_bytes. The counters see frames (headers, acknowledgements): own bytes
 * count NIC_WIRE_OVERHEAD times. 0 when nothing else is seen, NAN when
 * wall_s is not positive.
 */
#define NIC_WIRE_OVERHEAD 1.1
double probe_nic_other_gbps(uint64_t counted, uint64_t own_bytes, double wall_s);

/*
 * The same one way (sent, or received): counted bytes that way while this
 * rank moved own_this_way bytes that way and own_other_way the other. Own
 * bytes count NIC_WIRE_OVERHEAD times; the other way's NIC_ACK_SHARE times
 * (TCP's acknowledgements of them travel this way: about 2 % of the
 * payload with delayed ACKs; the margin errs towards seeing less traffic).
 */
#define NIC_ACK_SHARE 0.1
double probe_nic_other_way_gbps(uint64_t counted, uint64_t own_this_way, uint64_t own_other_way,
                                double wall_s);

#endif
