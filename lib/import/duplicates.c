/*
 * duplicates.c - lists of one kind are merged (gs_import_read takes
 * several node lists and several pod lists), and lists overlap: two
 * `kubectl get pods` of the same cluster, a namespace's list beside the
 * whole cluster's. A node or pod read before is kept as it was first
 * read; its repeats are counted, and one warning per kind says how many.
 */
#include <stdio.h>

#include "import/import.h"

int gs_import_duplicate(gs_inventory *inv, int pods, const char *key)
{
	if (inv->dup_count[pods]++ == 0)
		snprintf(inv->dup_first[pods], sizeof inv->dup_first[pods], "%s", key);
	return 0;
}

int gs_import_warn_duplicates(gs_inventory *inv)
{
	static const char *const kind[2] = { "node", "pod" };
	int rc = 0;
	for (int k = 0; k < 2 && rc == 0; k++) {
		size_t n = inv->dup_count[k];
		if (n == 1)
			rc = gs_import_warn(inv, "%s '%s' is in the %s lists twice: it is "
			                    "counted once", kind[k], inv->dup_first[k], kind[k]);
		else if (n > 1)
			rc = gs_import_warn(inv, "%zu repeated %ss in the %s lists (the first: "
			                    "'%s'): each %s is counted once", n, kind[k], kind[k],
			                    inv->dup_first[k], kind[k]);
	}
	return rc;
}
