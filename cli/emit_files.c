/*
 * emit_files.c - writing a plan's configuration into a directory: every
 * file is rendered first, then the whole set is swapped in at once
 * (gs_write_dir), so the directory never mixes two plans.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* mkdir -p for the directories above dir: dir itself is swapped in whole
 * by gs_write_dir, beside them. */
static int make_parents(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof path)
		return cli_error(EXIT_USAGE, "invalid directory '%s'", dir);
	memcpy(path, dir, n + 1);
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	for (char *p = path + 1; *p; p++) {
		if (*p != '/' || !strchr(p + 1, '/'))
			continue;
		*p = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST)
			return cli_error(EXIT_FAIL, "cannot create '%s': %s", path,
			                 strerror(errno));
		*p = '/';
	}
	if ((n = (size_t)(strrchr(path, '/') ? strrchr(path, '/') - path : 0)) > 0) {
		path[n] = '\0';
		if (mkdir(path, 0777) < 0 && errno != EEXIST)
			return cli_error(EXIT_FAIL, "cannot create '%s': %s", path,
			                 strerror(errno));
	}
	return EXIT_OK;
}

int cli_emit_dir(const gs_plan *plan, const gs_emit_opts *o, const char *dir,
                 int karpenter, int force)
{
	gs_emit_set *set = NULL;
	gs_error err;
	int rc = EXIT_OK, wrote = 0;

	if (gs_emit_set_make(plan, o, karpenter, &set, &err) < 0)
		return cli_fail(&err);
	for (size_t i = 0; i < gs_emit_set_count(set); i++)
		wrote += gs_emit_set_texts(set)[i] != NULL;
	rc = make_parents(dir);
	if (rc == EXIT_OK && gs_write_dir(dir, gs_emit_set_names(set), gs_emit_set_texts(set),
	                                  gs_emit_set_count(set), force, &err) < 0)
		rc = cli_fail(&err);
	gs_emit_set_free(set);
	if (rc == EXIT_OK)
		cli_info("wrote %d files to %s", wrote, dir);
	/* kustomize skips, silently, a patch whose object it does not hold. */
	if (rc == EXIT_OK && !o->manifests && !o->example_deployments)
		cli_warning("the patches apply to objects that %s/kustomization.yaml holds: "
		            "add the workloads' manifests to its resources, or plan with "
		            "--manifests, or apply each with its kubectl patch line", dir);
	return rc;
}

int cli_emit_option(const cli_cmd *self, int opt_rename, int idx, const char *arg,
                    gs_emit_opts *o)
{
	switch (idx - opt_rename) {
	case 0: o->rename_shared = 1; return 0;
	case 1: o->example_deployments = 1; return 0;
	case 2: o->dra = 1; return 0;
	case 3:
		if (strcmp(arg, "v1") == 0)
			o->dra_api = GS_DRA_V1;
		else if (strcmp(arg, "v1beta2") == 0)
			o->dra_api = GS_DRA_V1BETA2;
		else if (strcmp(arg, "v1beta1") == 0)
			o->dra_api = GS_DRA_V1BETA1;
		else
			return cli_usage_error(self,
			                       "--dra-api must be v1, v1beta2 or v1beta1, not '%s'",
			                       arg);
		return 0;
	case 4: o->namespace_ = arg; return 0;
	case 5: return cli_parse_kube(self, arg, &o->kube_minor);
	case 6: return cli_load_manifests(arg, &o->manifests);
	}
	return 0;
}
