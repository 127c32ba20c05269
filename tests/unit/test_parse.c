/*
 * Command-line value parsing: every accepted form, and every form a user
 * might type that must be refused with a reason.
 */
#include "cmd/parse.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

/* Parameters are copied into the test process: no pointers inside. */
struct bytes_case {
	char text[32];
	uint64_t want;
};

ParameterizedTestParameters(parse, bytes_valid)
{
	static struct bytes_case cases[] = {
		{"0", 0},
		{"1", 1},
		{"007", 7},
		{"8K", 8192},
		{"8k", 8192},
		{"8KB", 8192},
		{"8kb", 8192},
		{"8KiB", 8192},
		{"8kib", 8192},
		{"8Ki", 8192},
		{"16B", 16},
		{"16b", 16},
		{"1M", 1ull << 20},
		{"3MiB", 3ull << 20},
		{"1G", 1ull << 30},
		{"4gib", 4ull << 30},
		{"1T", 1ull << 40},
		{"2TB", 2ull << 40},
		{"18446744073709551615", UINT64_MAX},
		{"17179869183G", 17179869183ull << 30},
		{"16777215T", 16777215ull << 40},
	};
	return cr_make_param_array(struct bytes_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct bytes_case *c, parse, bytes_valid)
{
	uint64_t got = 12345;
	const char *why = NULL;

	cr_assert_eq(parse_bytes(c->text, &got, &why), 0, "'%s' refused: %s", c->text, why);
	cr_assert_eq(got, c->want, "'%s' gave %llu", c->text, (unsigned long long)got);
}

struct bad_case {
	char text[32];
};

ParameterizedTestParameters(parse, bytes_invalid)
{
	static struct bad_case cases[] = {
		{""},	 {"-1"},   {"+5"},	{"1.5K"}, {"1e30"},  {"nan"},  {"inf"},
		{"8Gx"}, {"0x10"}, {"18446744073709551616"}, {"16E"},  {"1P"},   {" 8"},
		{"8 "},	 {"8\t"},  {"8 K"},	{"K"},	  {"KiB"},   {"8KK"},  {"8iB"},
		{"8bk"}, {"8KiBB"}, {"17179869184G"},	   {"16777216T"}, {"99999999999999999999"},
		{"1,5"}, {"1_000"}, {"\n"},
	};
	return cr_make_param_array(struct bad_case, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct bad_case *c, parse, bytes_invalid)
{
	uint64_t got = 12345;
	const char *why = NULL;

	cr_assert_eq(parse_bytes(c->text, &got, &why), -1, "'%s' accepted as %llu", c->text,
		     (unsigned long long)got);
	cr_assert_not_null(why, "'%s': no reason given", c->text);
	cr_assert_gt(strlen(why), 0);
	cr_assert_eq(got, 12345, "'%s': output written on failure", c->text);
}

Test(parse, bytes_reasons)
{
	uint64_t got;
	const char *why = NULL;

	parse_bytes("18446744073709551616", &got, &why);
	cr_assert_str_eq(why, "out of range");
	parse_bytes("17179869184G", &got, &why);
	cr_assert_str_eq(why, "out of range");
	parse_bytes("", &got, &why);
	cr_assert_str_eq(why, "empty value");
	parse_bytes("-1", &got, &why);
	cr_assert_str_eq(why, "signs are not accepted");
	parse_bytes("1.5K", &got, &why);
	cr_assert_str_eq(why, "not a whole number");
	parse_bytes("16E", &got, &why);
	cr_assert(strstr(why, "suffix") != NULL, "%s", why);
	parse_bytes("0x10", &got, &why);
	cr_assert(strstr(why, "hex") != NULL, "%s", why);
}

Test(parse, bytes_null_and_no_why)
{
	uint64_t got = 7;

	cr_assert_eq(parse_bytes(NULL, &got, NULL), -1);
	cr_assert_eq(parse_bytes("x", &got, NULL), -1);
	cr_assert_eq(got, 7);
}

Test(parse, u64_range)
{
	uint64_t got = 0;
	const char *why = NULL;

	cr_assert_eq(parse_u64("5", 1, 10, &got, &why), 0);
	cr_assert_eq(got, 5);
	cr_assert_eq(parse_u64("1", 1, 10, &got, &why), 0);
	cr_assert_eq(parse_u64("10", 1, 10, &got, &why), 0);
	cr_assert_eq(got, 10);
	cr_assert_eq(parse_u64("0", 1, 10, &got, &why), -1);
	cr_assert_str_eq(why, "out of range");
	cr_assert_eq(parse_u64("11", 1, 10, &got, &why), -1);
	cr_assert_eq(parse_u64("18446744073709551615", 0, UINT64_MAX, &got, &why), 0);
	cr_assert_eq(got, UINT64_MAX);
	cr_assert_eq(parse_u64("18446744073709551616", 0, UINT64_MAX, &got, &why), -1);
}

Test(parse, u64_rejects_non_digits)
{
	static const char *const bad[] = {"", "-1", "+1", "5K", "1.0", "1e3", " 1", "1 ", "0x10", "nan"};
	uint64_t got = 99;
	const char *why = NULL;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why = NULL;
		cr_assert_eq(parse_u64(bad[i], 0, UINT64_MAX, &got, &why), -1, "'%s' accepted", bad[i]);
		cr_assert_not_null(why);
	}
	cr_assert_eq(got, 99);
}

Test(parse, double_valid)
{
	static const struct {
		const char *text;
		double want;
	} ok[] = {
		{"1", 1.0},     {"0.5", 0.5},	 {"-2.5", -2.5}, {"+3", 3.0},   {"1e3", 1000.0},
		{"1E-3", 1e-3}, {".5", 0.5},	 {"5.", 5.0},	 {"0", 0.0},    {"-0", 0.0},
		{"10", 10.0},	{"-10", -10.0}, {"2.5e+1", 25.0},
	};
	double got;
	const char *why = NULL;

	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		cr_assert_eq(parse_double(ok[i].text, -10, 1000, &got, &why), 0, "'%s': %s",
			     ok[i].text, why);
		cr_assert_eq(got, ok[i].want, "'%s' gave %g", ok[i].text, got);
	}
}

Test(parse, double_invalid)
{
	static const char *const bad[] = {
		"",    "nan", "NaN",  "NAN", "inf",  "-inf", "Infinity", "0x1p3", "0x10", "1.5x",
		" 1",  "1 ",  "\t1",  "1e",  "e5",   ".",    "-",        "+",     "1e+",  "--1",
		"1.2.3", "1e400", "-1e400", "1e-400", "1,5",
	};
	double got = 42.0;
	const char *why = NULL;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why = NULL;
		cr_assert_eq(parse_double(bad[i], -1e308, 1e308, &got, &why), -1, "'%s' accepted",
			     bad[i]);
		cr_assert_not_null(why, "'%s': no reason", bad[i]);
	}
	cr_assert_eq(got, 42.0);
	cr_assert_eq(parse_double(NULL, 0, 1, &got, &why), -1);
}

Test(parse, double_range)
{
	double got = 0;
	const char *why = NULL;

	cr_assert_eq(parse_double("1", 0, 1, &got, &why), 0);
	cr_assert_eq(parse_double("0", 0, 1, &got, &why), 0);
	cr_assert_eq(parse_double("1.0000001", 0, 1, &got, &why), -1);
	cr_assert_str_eq(why, "out of range");
	cr_assert_eq(parse_double("-0.1", 0, 1, &got, &why), -1);
	cr_assert_str_eq(why, "out of range");
	cr_assert_eq(parse_double("1e400", -1e308, 1e308, &got, &why), -1);
	cr_assert_str_eq(why, "out of range");
}

Test(parse, list_split)
{
	char buf[] = "ring,tree,mpi";
	char *items[4] = {0};
	const char *why = NULL;

	cr_assert_eq(parse_list(buf, items, 4, &why), 3);
	cr_assert_str_eq(items[0], "ring");
	cr_assert_str_eq(items[1], "tree");
	cr_assert_str_eq(items[2], "mpi");
}

Test(parse, list_single_and_exact_max)
{
	char one[] = "all";
	char two[] = "a,b";
	char *items[2] = {0};

	cr_assert_eq(parse_list(one, items, 1, NULL), 1);
	cr_assert_str_eq(items[0], "all");
	cr_assert_eq(parse_list(two, items, 2, NULL), 2);
	cr_assert_str_eq(items[1], "b");
}

Test(parse, list_rejects)
{
	static const char *const bad[] = {"", ",", "a,", ",a", "a,,b", ",,"};
	char buf[16];
	char *items[8];
	const char *why;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(buf, sizeof buf, "%s", bad[i]);
		why = NULL;
		cr_assert_eq(parse_list(buf, items, 8, &why), -1, "'%s' accepted", bad[i]);
		cr_assert_not_null(why);
		cr_assert_str_eq(buf, bad[i], "'%s' modified on failure", bad[i]);
	}
}

Test(parse, list_too_many_leaves_buffer)
{
	char buf[] = "a,b,c";
	char *items[2];
	const char *why = NULL;

	cr_assert_eq(parse_list(buf, items, 2, &why), -1);
	cr_assert_str_eq(why, "too many items in list");
	cr_assert_str_eq(buf, "a,b,c");
	cr_assert_eq(parse_list(buf, items, 0, &why), -1);
	cr_assert_eq(parse_list(NULL, items, 2, &why), -1);
}
