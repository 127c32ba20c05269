/* See buckets.h. */
#include "algorithms/buckets.h"

size_t overlap_buckets(size_t grad_count, size_t bucket_count)
{
	return grad_count && bucket_count ? (grad_count + bucket_count - 1) / bucket_count : 0;
}

size_t overlap_bucket_offset(size_t bucket_count, size_t i)
{
	return i * bucket_count;
}

size_t overlap_bucket_count(size_t grad_count, size_t bucket_count, size_t i)
{
	size_t n = overlap_buckets(grad_count, bucket_count);
	return i + 1 < n ? bucket_count : i + 1 == n ? grad_count - i * bucket_count : 0;
}
