/*
 * emit_files.c - writing a plan's configuration into a directory: every
 * file is rendered first, existing files are refused before anything is
 * written (unless --force), and each file is written atomically.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* mkdir -p, for the directory the user named. */
static int make_dirs(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof path)
		return cli_error(EXIT_USAGE, "invalid directory '%s'", dir);
	memcpy(path, dir, n + 1);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return cli_error(EXIT_FAIL, "cannot create '%s': %s", path,
			                 strerror(errno));
		*p = '/';
	}
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return cli_error(EXIT_FAIL, "cannot create '%s': %s", path, strerror(errno));
	return EXIT_OK;
}

int cli_emit_dir(const gs_plan *plan, const gs_emit_opts *o, const char *dir,
                 int karpenter, int force)
{
	char *text[GS_EMIT_KIND_COUNT] = { NULL };
	char path[4096];
	gs_error err;
	int rc = EXIT_OK, wrote = 0;

	for (int k = 0; k < GS_EMIT_KIND_COUNT && rc == EXIT_OK; k++) {
		if (!gs_emit_wanted(plan, (gs_emit_kind)k, o) ||
		    (k == GS_EMIT_KARPENTER && !karpenter))
			continue;
		if (gs_emit(plan, (gs_emit_kind)k, o, &text[k], &err) < 0)
			rc = cli_fail(&err);
	}
	if (rc == EXIT_OK)
		rc = make_dirs(dir);
	for (int k = 0; k < GS_EMIT_KIND_COUNT && rc == EXIT_OK && !force; k++) {
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, gs_emit_file_name((gs_emit_kind)k));
		if (text[k] && lstat(path, &st) == 0)
			rc = cli_error(EXIT_FAIL, "%s exists already (use --force to replace it)",
			               path);
	}
	for (int k = 0; k < GS_EMIT_KIND_COUNT && rc == EXIT_OK; k++) {
		if (!text[k])
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, gs_emit_file_name((gs_emit_kind)k));
		if (gs_write_file(path, text[k], strlen(text[k]), !force, &err) < 0)
			rc = cli_fail(&err);
		else
			wrote++;
	}
	for (int k = 0; k < GS_EMIT_KIND_COUNT; k++)
		free(text[k]);
	if (rc == EXIT_OK)
		cli_info("wrote %d files to %s", wrote, dir);
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
	}
	return 0;
}
