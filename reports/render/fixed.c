/* See fixed.h. */
#include "reports/render/fixed.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { MAX_DECIMALS = 15 };

int report_fixed(char *buf, size_t len, double v, int min_decimals, int digits)
{
	if (!isfinite(v))
		return snprintf(buf, len, "-");
	int dec = min_decimals < 0 ? 0 : min_decimals;
	if (v != 0) {
		int need = digits - 1 - (int)floor(log10(fabs(v)));
		dec = need > dec ? need : dec;
	}
	dec = dec > MAX_DECIMALS ? MAX_DECIMALS : dec;
	int n = snprintf(buf, len, "%.*f", dec, v);
	if (n < 0 || (size_t)n >= len || dec <= min_decimals)
		return n;
	/* trim the zeros the significant digits did not need, down to min_decimals */
	char *dot = strchr(buf, '.'), *end = buf + n;
	while (dot && end > dot + 1 + min_decimals && end[-1] == '0')
		end--;
	if (dot && end == dot + 1)
		end--;
	*end = '\0';
	return (int)(end - buf);
}
