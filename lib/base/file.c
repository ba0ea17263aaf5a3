/* file.c - reading a whole input file with a size limit, through the
 * byte sources of source.c. Path "-" is the caller's stdin: the library's
 * own readers that take paths (workload files, lint) keep that meaning. */
#include <string.h>

#include "base/base.h"

int gs_file_read(const char *path, char **buf, size_t *len, gs_error *err)
{
	gs_source src;
	int rc = strcmp(path, "-") == 0 ? gs_source_open_fd(&src, 0, "<stdin>", err)
	                                : gs_source_open_file(&src, path, err);
	if (rc == 0)
		rc = gs_source_read_all(&src, buf, len, err);
	gs_source_close(&src);
	return rc;
}
