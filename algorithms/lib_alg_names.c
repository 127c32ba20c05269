/* See lib_alg_names.h. */
#include "algorithms/lib_alg_names.h"

#include <ctype.h>
#include <string.h>

enum { NAME_BYTES = 48 };

static int name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The name that ends at end (exclusive) in desc, with the previous entry's tail cut. */
static int name_before(const char *desc, const char *end, char *out)
{
	const char *start = end;
	while (start > desc && name_char(start[-1]))
		start--;
	/* "...Force smp algorithm" + "recursive_doubling": the previous text's last word */
	static const char tail[] = "algorithm";
	size_t tl = sizeof tail - 1;
	if ((size_t)(end - start) > tl && strncmp(start, tail, tl) == 0)
		start += tl;
	size_t len = (size_t)(end - start);
	if (len == 0 || len >= NAME_BYTES)
		return -1;
	memcpy(out, start, len);
	out[len] = '\0';
	return 0;
}

int lib_alg_names_parse(const char *desc, char (*names)[48], int max)
{
	int n = 0;
	/* an entry: its name, spaces, "- " */
	for (const char *p = desc ? strstr(desc, " - ") : NULL; p; p = strstr(p + 3, " - ")) {
		const char *end = p;
		while (end > desc && end[-1] == ' ')
			end--;
		if (n == max || name_before(desc, end, names[n]) != 0)
			return -1;
		n++;
	}
	return n > 0 && strcmp(names[0], "auto") == 0 ? n : -1;
}
