/* See watchdog_conn.h. */
#include "cmd/run/watchdog_conn.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int wd_conn_init(struct wd_conn *c, int fd, size_t max_in, size_t max_out)
{
	*c = (struct wd_conn){.fd = fd, .max_in = max_in};
	c->in_cap = wd_frame_max_bytes(max_in);
	c->out_cap = wd_frame_max_bytes(max_out);
	c->in = malloc(c->in_cap);
	c->out = malloc(c->out_cap);
	if (!c->in || !c->out) {
		wd_conn_release(c);
		return -1;
	}
	return 0;
}

void wd_conn_release(struct wd_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->in);
	free(c->out);
	*c = (struct wd_conn){.fd = -1};
}

int wd_conn_read(struct wd_conn *c)
{
	while (c->in_len < c->in_cap) {
		ssize_t n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
		if (n > 0) {
			c->in_len += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return 0;
		return -1; /* closed (0) or broken */
	}
	return 0; /* full: wd_conn_frame makes room */
}

int wd_conn_frame(struct wd_conn *c, uint64_t token, struct wd_record *rec, size_t *count,
                  uint64_t *sender)
{
	size_t used = 0;
	int rc = wd_frame_parse(c->in, c->in_len, token, rec, c->max_in, count, sender, &used);
	if (rc == 1) {
		memmove(c->in, c->in + used, c->in_len - used);
		c->in_len -= used;
	}
	return rc;
}

int wd_conn_flush(struct wd_conn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
		                 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n > 0) {
			c->out_off += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			return 0;
		return -1;
	}
	c->out_off = c->out_len = 0;
	return 0;
}

int wd_conn_pending(const struct wd_conn *c)
{
	return c->out_off < c->out_len;
}

int wd_conn_send(struct wd_conn *c, uint64_t token, uint64_t sender, const struct wd_record *rec,
                 size_t count)
{
	if (wd_conn_flush(c) != 0)
		return -1;
	if (wd_conn_pending(c))
		return 0; /* the last frame has not left: the peer is not reading, this one waits */
	c->out_len = wd_frame_encode(token, sender, rec, count, c->out, c->out_cap);
	c->out_off = 0;
	return c->out_len ? wd_conn_flush(c) : -1;
}
