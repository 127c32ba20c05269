/*
 * The watch section of the HTML page (issue 34), on a report written by
 * watch's own writer (reports/watch/watch_jsonl.h): a link slowed and
 * restored charts its series first, with its changes marked, and lists both
 * changes with the classifier's attribution; a watch with no change says so.
 */
#include "reports/render/html.h"
#include "reports/watch/watch_jsonl.h"
#include "report_fixtures.h"

#include <criterion/criterion.h>
#include <string.h>

static const char *const hosts[] = {"h1", "h2", "h3", "h4"};

/* A watch of rounds rounds on 4 hosts; h2 -> h3 at a fifth from round from to round to. */
static cJSON *watch_report(int rounds, int from, int to)
{
	struct watch_state s;
	struct watch_detect_params p;
	struct detect_params dp;
	watch_detect_params_default(&p);
	detect_params_default(&dp);
	cr_assert_eq(watch_state_init(&s, &p, 64, 64, 16), 0);
	cr_assert_eq(watch_state_set_hosts(&s, hosts, 4), 0);
	for (int r = 0; r < rounds; r++) {
		for (int a = 0; a < 4; a++)
			for (int b = 0; b < 4; b++)
				if (a != b) {
					bool hit = a == 1 && b == 2 && r >= from && r < to;
					double v = (hit ? 0.2 : 1) * (1 + 0.01 * ((r + a + 2 * b) % 3));
					watch_add(&s, (size_t)watch_series_get(&s, WATCH_LINK, 0, a, b),
					          1e9 + 60.0 * r, v, (uint64_t)r + 1, NULL);
				}
		watch_attribute_links(&s, (uint64_t)r + 1, &dp);
		s.rounds++;
	}
	cJSON *root = fx_report("watch", 4, 4);
	cJSON_DeleteItemFromObject(root, "results");
	cJSON_DeleteItemFromObject(root, "summary");
	struct watch_totals t = {.rounds = s.rounds, .measure_s = 1, .duty_percent = 2,
	                         .stopped_by = "duration"};
	cr_assert(watch_report_add(root, &s, &t));
	watch_state_release(&s);
	return root;
}

static char *page(cJSON *root)
{
	struct html_input in = {"w.json", root};
	struct html_buf b;
	char err[256];
	html_buf_init(&b);
	cr_assert_eq(html_render_page(&b, &in, 1, "0.test", err, sizeof err), 0, "%s", err);
	return b.data;
}

Test(html_watch, a_slowed_link_is_charted_first_with_its_changes)
{
	cJSON *root = watch_report(30, 10, 20);
	char *html = page(root);
	const char *first = strstr(html, "<svg"), *link = strstr(html, "link:h2-&gt;h3");
	cr_assert_not_null(first);
	cr_assert_not_null(link);
	cr_expect_lt(link - first, 400, "the series that changed is the first chart");
	cr_expect_not_null(strstr(html, "change (new level)"));
	cr_expect_not_null(strstr(html, "<h3>Changes</h3>"));
	cr_expect_not_null(strstr(html, "h2 -&gt; h3"), "the attribution is listed");
	cr_expect_null(strstr(html, "No change was found"));
	free(html);
	cJSON_Delete(root);
}

Test(html_watch, a_quiet_watch_says_no_change)
{
	cJSON *root = watch_report(12, 99, 99);
	char *html = page(root);
	cr_expect_not_null(strstr(html, "No change was found."));
	cr_expect_not_null(strstr(html, "<svg"));
	free(html);
	cJSON_Delete(root);
}
