/*
 * The unit tests link the pure core without MPI, so the variants that call
 * MPI directly are replaced here by descriptors that carry no code. The
 * registry then links, and the simulator skips what it cannot play.
 */
#include "algorithms/variant.h"

/* Never called: it makes the stand-ins offer the halves their real variants offer (data). */
static int not_linked(const struct ar_call *c)
{
	(void)c;
	return -1;
}

const struct ar_variant ar_variant_mpi = {
	.name = "mpi",
	.summary = "stand-in for the unit tests (MPI is not linked)",
	.run_reduce_scatter = not_linked,
	.run_allgather = not_linked,
};

const struct ar_variant ar_variant_shm = {
	.name = "shm",
	.summary = "stand-in for the unit tests (MPI is not linked)",
	.shared_buffers = true,
	.run_reduce_scatter = not_linked,
	.run_allgather = not_linked,
	.halves_restrictions = AR_NEEDS_COMMUTATIVE | AR_NEEDS_ONE_HOST,
};

const struct ar_variant ar_variant_mpi_reduce_bcast = {
	.name = "mpi-reduce-bcast",
	.summary = "stand-in for the unit tests (MPI is not linked)",
	.guideline = true,
};

const struct ar_variant ar_variant_mpi_rs_allgather = {
	.name = "mpi-rs-allgather",
	.summary = "stand-in for the unit tests (MPI is not linked)",
	.guideline = true,
};
