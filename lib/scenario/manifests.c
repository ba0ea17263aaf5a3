/*
 * manifests.c - the workloads' real Kubernetes objects (--manifests).
 * Placeholder until the loader lands in this round: refuses every file.
 */
#include <stdlib.h>

#include "base/base.h"

struct gs_manifests {
	int unused;
};

int gs_manifests_load(const char *path, gs_manifests **out, gs_error *err)
{
	(void)path;
	*out = NULL;
	return gs_fail(err, GS_EINVAL, "--manifests is not supported yet");
}

void gs_manifests_free(gs_manifests *m) { free(m); }
