/*
 * fuzz_manifests.c - the manifests loader (--manifests), and for each
 * workload object it loads: the lookup by its own kind, namespace and
 * name, its pod template and containers, and a copy that must render as
 * YAML that reads back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/manifests.h"

static void exercise(const gs_manifests *m, const gs_manifest *o)
{
	const gs_manifest *found = NULL;
	const gs_node *spec, *c, *list;
	const char *name, *names[8];
	gs_node *copy, *again = NULL;
	char *text = NULL;
	size_t n;
	gs_error err;
	int rc;

	if (!o->workload)
		return;
	/* Every object loaded is found again, or is ambiguous with one that
	 * gives no namespace. */
	rc = gs_manifests_find(m, o->object, o->namespace_, o->name, "default", &found, &err);
	if ((rc < 0 && rc != GS_ESCHEMA) || (rc == 0 && strcmp(found->name, o->name) != 0))
		abort();
	(void)gs_manifest_pod_spec(m, o, &spec, &err);
	(void)gs_manifest_containers(m, o, &list, names, 8, &n, &err);
	(void)gs_manifest_container(m, o, NULL, &c, &name, &err);
	if (!(copy = gs_manifest_copy(o)))
		return;
	if (gs_yaml_render(copy, &text, &err) == 0) {
		if (gs_yaml_read_buffer("copy", text, strlen(text), &again, &err) < 0)
			abort();
		gs_node_free(again);
		free(text);
	}
	gs_node_free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gs_manifests *m = NULL;
	gs_error err;

	if (gs_manifests_load_buffer("fuzz.yaml", (const char *)data, size, &m, &err) == 0)
		for (size_t i = 0; i < gs_manifests_count(m) && i < 64; i++)
			exercise(m, gs_manifests_at(m, i));
	gs_manifests_free(m);
	return 0;
}
