/*
 * The compressed variants on the allreduce page (issue 40): each measured
 * point's speed beside the accuracy it cost, one row per point: busbw on
 * the logical (float32) size as the exact variants report it, the wire's
 * busbw, bytes sent, the compression ratio, the largest and the relative L2
 * error against the float64 sum, and the share beyond the format's bound.
 */
#include "reports/render/html_sections.h"

#include "reports/io/report_schema.h"

static const char *const columns[] = {
    "algorithm",
    "bytes",
    "ranks",
    "busbw_gbps",
    "wire_busbw_gbps",
    "sent_bytes",
    "compression_ratio",
    "max_abs_error",
    "rel_l2_error",
    "beyond_bound_share",
    NULL,
};

int html_compressed(struct html_buf *b, const cJSON *root)
{
	const cJSON *rec;
	cJSON *rows = cJSON_CreateArray();
	size_t n = 0;
	if (!rows)
		return -1;
	cJSON_ArrayForEach(rec, cJSON_GetObjectItemCaseSensitive(root, "results"))
	{
		if (!cJSON_GetObjectItemCaseSensitive(rec, SK_AR_COMPRESSION_RATIO))
			continue;
		cJSON *copy = cJSON_Duplicate(rec, true);
		if (!copy || !cJSON_AddItemToArray(rows, copy)) {
			cJSON_Delete(copy);
			cJSON_Delete(rows);
			return -1;
		}
		n++;
	}
	if (n) {
		html_raw(b, "<h3>Compressed variants: speed beside error</h3>\n");
		html_para(
		    b, "note",
		    "busbw is on the logical (float32) size, as the exact variants'; wire busbw "
		    "is busbw / compression ratio; sent bytes per call, the most of any rank, as "
		    "the executor counted them. Errors are against the sum taken in float64 over "
		    "every rank's elements; an element beyond its format's bound is wrong.");
		html_array_table(b, rows, columns, NULL, NULL);
	}
	cJSON_Delete(rows);
	return 0;
}
