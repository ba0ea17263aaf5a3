/*
 * arch.c - CPU architectures: the names an instance file and a workload
 * file write, which are the values of Kubernetes' kubernetes.io/arch node
 * label (and "any" for a workload whose images are multi-arch).
 */
#include "catalog/catalog.h"

static const char *const names[] = { "amd64", "arm64", "any" };

const char *gs_arch_name(gs_arch a)
{
	return (unsigned)a < GS_ARRAY_LEN(names) ? names[a] : "?";
}
