/*
 * The compressed variants on the allreduce page (issue 40): their points'
 * speed beside their error, in one table; none when no point is compressed.
 */
#include "reports/render/html.h"
#include "report_fixtures.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static char err[1024];

static char *page_of(const cJSON *root)
{
	struct html_input in = {"c.json", root};
	struct html_buf b;
	html_buf_init(&b);
	if (html_render_page(&b, &in, 1, "0.test", err, sizeof err) != 0) {
		html_buf_release(&b);
		return NULL;
	}
	return b.data;
}

Test(html_compressed, error_beside_speed)
{
	cJSON *r = fx_report("allreduce", 2, 1);
	fx_measured(r, "ring", 1 << 20, 100, 0.1, 20, 1);
	cJSON *c = fx_measured(r, "int8", 1 << 20, 80, 0.1, 20, 1);
	cJSON_AddNumberToObject(c, "sent_bytes", 263168);
	cJSON_AddNumberToObject(c, "compression_ratio", 3.98);
	cJSON_AddNumberToObject(c, "wire_busbw_gbps", 2.5);
	cJSON_AddNumberToObject(c, "max_abs_error", 2.9);
	cJSON_AddNumberToObject(c, "rel_l2_error", 0.0222);
	cJSON_AddNumberToObject(c, "beyond_bound_share", 0);
	char *page = page_of(r);
	cr_assert_not_null(page, "%s", err);
	const char *at = strstr(page, "Compressed variants: speed beside error");
	cr_assert_not_null(at);
	cr_expect_not_null(strstr(at, "<th>rel_l2_error</th>"));
	cr_expect_not_null(strstr(at, "<td>int8</td>"));
	cr_expect_not_null(strstr(at, "0.0222"));
	cr_expect_null(strstr(at, "<td>ring</td>"), "an exact variant has no row");
	free(page);
	cJSON_Delete(r);
}

Test(html_compressed, none_without_compressed_points)
{
	cJSON *r = fx_report("allreduce", 2, 1);
	fx_measured(r, "ring", 1 << 20, 100, 0.1, 20, 1);
	char *page = page_of(r);
	cr_assert_not_null(page, "%s", err);
	cr_expect_null(strstr(page, "speed beside error"));
	free(page);
	cJSON_Delete(r);
}
