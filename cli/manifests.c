/*
 * manifests.c - the workloads' manifests named by --manifests: loaded once
 * when the option is read, and kept until the process ends, as options
 * hold them by pointer for as long as a command (or a session) runs.
 */
#include <stdlib.h>

#include "cli.h"

/* Every file loaded, freed at exit. */
static gs_manifests **loaded;
static size_t n_loaded;

static void free_manifests(void)
{
	for (size_t i = 0; i < n_loaded; i++)
		gs_manifests_free(loaded[i]);
	free(loaded);
	loaded = NULL;
	n_loaded = 0;
}

int cli_load_manifests(const char *path, const gs_manifests **out)
{
	gs_manifests *m = NULL, **v;
	gs_error err;
	if (gs_manifests_load(path, &m, &err) < 0)
		return cli_fail(&err);
	if (!(v = realloc(loaded, (n_loaded + 1) * sizeof *v))) {
		gs_manifests_free(m);
		return cli_error(EXIT_FAIL, "out of memory");
	}
	if (n_loaded == 0 && !loaded)
		atexit(free_manifests);
	loaded = v;
	loaded[n_loaded++] = m;
	*out = m;
	return 0;
}

int cli_set_placement(gs_scenario *s, const char *placement, gs_error *err)
{
	return placement ? gs_scenario_set(s, NULL, "placement", placement, err) : 0;
}
