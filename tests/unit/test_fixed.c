/* Figures in fixed notation (reports/render/fixed.c): never an exponent, never a lost figure. */
#include <criterion/criterion.h>
#include <math.h>

#include "reports/render/fixed.h"

static const char *fx(double v, int min_decimals, int digits)
{
	static char buf[64];
	report_fixed(buf, sizeof buf, v, min_decimals, digits);
	return buf;
}

Test(fixed, no_exponent_for_large_or_small_figures)
{
	cr_expect_str_eq(fx(30, 0, 1), "30", "%%.1g would print 3e+01");
	cr_expect_str_eq(fx(12990, 0, 4), "12990", "%%.4g would print 1.299e+04");
	cr_expect_str_eq(fx(1e6, 0, 3), "1000000");
	cr_expect_str_eq(fx(0.0000312, 0, 3), "0.0000312");
	cr_expect_str_eq(fx(0.00001, 0, 6), "0.00001");
}

Test(fixed, small_figures_keep_their_significant_digits)
{
	cr_expect_str_eq(fx(0.0002937, 3, 3), "0.000294", "%%.3f would print 0.000");
	cr_expect_str_eq(fx(2.259, 3, 3), "2.259", "min_decimals kept as %%.3f had them");
	cr_expect_str_eq(fx(12.6, 3, 3), "12.600");
	cr_expect_str_eq(fx(0.0009996, 0, 3), "0.001", "rounded up, zeros trimmed");
	cr_expect_str_eq(fx(2.5, 0, 3), "2.5");
	cr_expect_str_eq(fx(-0.25, 0, 2), "-0.25");
}

Test(fixed, zero_tiny_and_not_finite)
{
	cr_expect_str_eq(fx(0, 3, 3), "0.000");
	cr_expect_str_eq(fx(0, 0, 3), "0");
	cr_expect_str_eq(fx(1e-20, 0, 3), "0", "past 15 decimals");
	cr_expect_str_eq(fx(NAN, 3, 3), "-");
	cr_expect_str_eq(fx(INFINITY, 0, 3), "-");
	char small[4];
	cr_expect_eq(report_fixed(small, sizeof small, 12345, 0, 3), 5, "snprintf's length");
	cr_expect_str_eq(small, "123", "cut, terminated");
}
