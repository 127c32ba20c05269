/*
 * The unit tests link the pure core without MPI, so the variants that call
 * MPI directly are replaced here by descriptors that carry no code. The
 * registry then links, and the simulator skips what it cannot play.
 */
#include "algorithms/variant.h"

const struct ar_variant ar_variant_mpi = {
	.name = "mpi",
	.summary = "stand-in for the unit tests (MPI is not linked)",
};

const struct ar_variant ar_variant_shm = {
	.name = "shm",
	.summary = "stand-in for the unit tests (MPI is not linked)",
	.shared_buffers = true,
};
