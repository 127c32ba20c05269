/*
 * tree: binomial-tree reduce to rank 0, then binomial-tree broadcast,
 * pipelined in segments.
 *
 * What it does
 *   The binomial tree rooted at rank 0: the parent of rank r > 0 is r with
 *   its lowest set bit cleared; the children of r are r + 1, r + 2, r + 4,
 *   ... below r's lowest set bit (any distance for rank 0) and below n. The
 *   subtree of child r + d holds ranks [r + d, r + 2d).
 *   Reduce: the buffer is cut into m segments of at most segment_count
 *   elements. For each segment a rank receives it from each child, nearest
 *   first, reduces it into its result, then sends it to its parent. The send
 *   of segment k-1 to the parent rides in the same step as the receive of
 *   segment k from the first child, so the levels of the tree overlap.
 *   Broadcast: rank 0 sends every segment to its children, farthest (largest
 *   subtree) first; every other rank receives segment k from its parent in
 *   the same step as it sends segment k-1 to its first child, then sends
 *   segment k-1 to the other children.
 *
 * Cost (S = message bytes, n ranks, L = ceil(log2 n), m segments)
 *   Root: L x m receive steps, L x m send steps; receives and sends L x S
 *   bytes. A rank with c children receives and reduces c x S bytes, sends
 *   S + c x S bytes; leaves send S and receive S. Pipelined time is about
 *   2 (L c_max + m - 1) segment transfers, so large messages approach
 *   2 L x S / bandwidth at the root, latency 2 L alpha for small ones.
 *
 * Restrictions
 *   None beyond associativity: a rank combines its input with its
 *   children's subtrees in increasing rank order, and the subtrees are
 *   contiguous rank ranges, so the result is in0 op in1 op ... op in(n-1)
 *   in rank order. The operator need not be commutative.
 *
 * Non-power-of-two rank counts
 *   The binomial tree is cut at n: children >= n do not exist, so some
 *   subtrees are smaller. Nothing else changes.
 *
 * Memory
 *   Out of place without the initial copy: leaves send from their input;
 *   the first child's segment is reduced with the input as the left
 *   operand, the later children's with the partial result; the broadcast
 *   copies into the result, overwriting the partial results.
 *
 * Reference
 *   The binomial reduce and broadcast of Open MPI coll/base
 *   (ompi_coll_base_reduce_intra_binomial, ompi_coll_base_bcast_intra_binomial
 *   in coll_base_reduce.c and coll_base_bcast.c) and the pipelined trees of
 *   MPICH; R. Thakur et al., IJHPCA 19(1), 2005.
 *
 * Trace, 4 ranks, 2 segments s0, s1 (0 has children 1, 2; 2 has child 3)
 *   reduce:  r3: send s0 -> 2 (in) | send s1 -> 2 (in)
 *            r2: recv s0 <- 3, reduce (in) | send s0 -> 0 + recv s1 <- 3, reduce (in)
 *                | send s1 -> 0
 *            r1: send s0 -> 0 (in) | send s1 -> 0 (in)
 *            r0: recv s0 <- 1 (in) | recv s0 <- 2 | recv s1 <- 1 (in) | recv s1 <- 2
 *   bcast:   r0: send s0 -> 2 | send s0 -> 1 | send s1 -> 2 | send s1 -> 1
 *            r2: recv s0 <- 0 | recv s1 <- 0 + send s0 -> 3 | send s1 -> 3
 *            r1, r3: recv s0 | recv s1  (copies)
 */
#include "algorithms/variant.h"

enum { TREE_MAX_CHILDREN = 32 };

/* Children of r in the binomial tree rooted at 0, nearest (smallest subtree) first. */
static int tree_children(int r, int n, int *children)
{
	int c = 0;
	/* a rank's subtree ends at its lowest set bit; rank 0's at n */
	for (int d = 1; d < n - r && (r == 0 || d < (r & -r)); d <<= 1)
		children[c++] = r + d;
	return c;
}

static size_t segments_of(const struct sched *s)
{
	return s->count / s->segment_count + (s->count % s->segment_count != 0);
}

/* Segment k of the buffer, or nothing when peer < 0. */
static void segment_range(const struct sched *s, int peer, size_t k, size_t *offset, size_t *count)
{
	size_t seg = s->segment_count;
	*offset = 0;
	*count = 0;
	if (peer < 0 || k >= segments_of(s))
		return;
	*offset = k * seg;
	*count = s->count - *offset < seg ? s->count - *offset : seg;
}

/* One step: send segment send_seg to send_peer, receive segment recv_seg from recv_peer. */
static int add_step(struct sched *s, int send_peer, size_t send_seg, int recv_peer, size_t recv_seg,
                    const struct sched_step *tmpl)
{
	struct sched_step st = *tmpl;
	st.send_peer = send_peer;
	st.recv_peer = recv_peer;
	segment_range(s, send_peer, send_seg, &st.send_offset, &st.send_count);
	segment_range(s, recv_peer, recv_seg, &st.recv_offset, &st.recv_count);
	return sched_add(s, &st);
}

static int reduce_up(struct sched *s, const int *children, int nchildren)
{
	int parent = s->rank ? s->rank & (s->rank - 1) : -1;
	size_t nseg = segments_of(s);
	/* k runs one past the last segment to send that one up */
	for (size_t k = 0; k <= nseg; k++) {
		int up = k > 0 ? parent : -1;
		struct sched_step tmpl = {.action = SCHED_REDUCE,
		                          .send_from_input = nchildren == 0};
		if (nchildren == 0 && add_step(s, up, k - 1, -1, 0, &tmpl) != 0)
			return -1;
		for (int i = 0; i < nchildren; i++) {
			int from = k < nseg ? children[i] : -1;
			/* the nearest child's segment is the first one folded into this one */
			tmpl.reduce_from_input = i == 0;
			if (add_step(s, i == 0 ? up : -1, k - 1, from, k, &tmpl) != 0)
				return -1;
		}
	}
	return 0;
}

static int bcast_down(struct sched *s, const int *children, int nchildren)
{
	int parent = s->rank ? s->rank & (s->rank - 1) : -1;
	size_t nseg = segments_of(s);
	struct sched_step tmpl = {.action = SCHED_COPY};
	for (size_t k = 0; k <= nseg; k++) {
		int from = k < nseg ? parent : -1;
		/* farthest child first: its subtree is the deepest */
		int i = nchildren - 1;
		int to = k > 0 && i >= 0 ? children[i] : -1;
		if (add_step(s, to, k - 1, from, k, &tmpl) != 0)
			return -1;
		for (i--; k > 0 && i >= 0; i--)
			if (add_step(s, children[i], k - 1, -1, 0, &tmpl) != 0)
				return -1;
	}
	return 0;
}

static int build_tree(struct sched *s)
{
	int children[TREE_MAX_CHILDREN];
	int nchildren;
	if (s->nranks <= 1) {
		s->copy_input_first = true;
		return 0;
	}
	if (s->count == 0)
		return 0;
	nchildren = tree_children(s->rank, s->nranks, children);
	if (reduce_up(s, children, nchildren) != 0)
		return -1;
	return bcast_down(s, children, nchildren);
}

const struct ar_variant ar_variant_tree = {
    .name = "tree",
    .summary = "binomial-tree reduce to rank 0 then binomial broadcast, pipelined in segments",
    .algorithm =
        "2 ceil(log2 n) levels (+ segments - 1, pipelined), root sends ceil(log2 n) x S bytes",
    .restrictions = 0,
    .build = build_tree,
};
