/*
 * accept --derive: a threshold's bound from the run-to-run distribution of
 * its figure (one value per known-good run). Pure: libc and libm.
 *
 * Bandwidths and times are positive and their noise multiplicative (a busy
 * core halves a bandwidth; it does not take a constant off it), so the
 * spread is taken of their logarithms: s = 1.4826 x MAD(ln x) (the median
 * absolute deviation, scaled to estimate the standard deviation of a normal
 * sample; one wild run moves it little; s = 0.1 is about 10%). The bound of a
 * minimum (bandwidth) is the lower of median x e^(-k s) and the lowest run,
 * so every known-good run passes the spec derived from it; a maximum (a time)
 * is the higher of median x e^(k s) and the highest run. On a linear scale,
 * median - k x spread went below zero for the busbw runs of the virtual
 * cluster at load 18 (tests/cluster/accept.sh), leaving nothing to gate; on a
 * log scale the bound stays a fraction of the median. The tolerance is then applied to the bound by the
 * caller.
 *
 * A figure from one run has no measured spread: its bound is that run's
 * value and it is fragile (the next run moves by whatever the cluster's
 * noise is, and nothing in the spec allows for it).
 */
#ifndef COLLSCOPE_ACCEPT_SPREAD_H
#define COLLSCOPE_ACCEPT_SPREAD_H

#include <stdbool.h>
#include <stddef.h>

/* Spreads between the median and the bound: 3, about 99.7% of a normal's runs above it. */
#define ACCEPT_SPREAD_K 3.0
/* 1.4826: MAD x this estimates sigma of a normal sample (here of ln x). */
#define ACCEPT_MAD_TO_SIGMA 1.4826

struct accept_spread {
	size_t runs;    /* values it was derived from */
	double median;  /* of the runs */
	double spread;  /* 1.4826 x MAD of ln x (0.1: about 10%); NAN for one run */
	double extreme; /* the lowest run (a minimum) or the highest (a maximum) */
	double bound;   /* before the tolerance; > 0 */
	bool fragile;   /* one run: no spread measured */
};

/*
 * The bound of a minimum (min) or a maximum from x[0 .. n) (finite, > 0;
 * not reordered), k spreads from the median. 0, or -1 for n = 0, k < 0, a
 * value <= 0 or no memory.
 */
int accept_spread_bound(const double *x, size_t n, bool min, double k, struct accept_spread *out);

#endif
