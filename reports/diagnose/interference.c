/* Interference factors (reports/diagnose/interference.h). Pure. */
#include "reports/diagnose/interference.h"

#include <math.h>

double interference_ratio(double num, double den)
{
	return isfinite(num) && isfinite(den) && num > 0 && den > 0 ? num / den : NAN;
}

void interference_factors_of(const struct interference_figures *alone,
                             const struct interference_figures *together,
                             struct interference_factors *out)
{
	out->busbw = interference_ratio(alone->busbw_gbps, together->busbw_gbps);
	out->mean = interference_ratio(together->mean_us, alone->mean_us);
	out->p50 = interference_ratio(together->p50_us, alone->p50_us);
	out->p99 = interference_ratio(together->p99_us, alone->p99_us);
}

bool interference_degraded(const struct interference_factors *f, double tolerance)
{
	/* NAN compares false: an unknown factor never accuses */
	return f->p50 >= 1 + tolerance || f->mean >= 1 + tolerance;
}
