/*
 * render.c - a stand-in for `gpushare plan FILE --report OUT` until the
 * CLI has that option: plans FILE and writes its HTML report to OUT.
 *
 *   render [-p PROFILES] FILE OUT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpushare.h"

int main(int argc, char **argv)
{
	const char *profiles = "profiles";
	gs_catalog *cat = NULL;
	gs_scenario *scn = NULL;
	gs_plan *plan = NULL;
	gs_plan_opts po = GS_PLAN_OPTS_INIT;
	char *html = NULL, msg[1024];
	gs_error err;
	int rc = 1;

	if (argc == 5 && strcmp(argv[1], "-p") == 0) {
		profiles = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: render [-p PROFILES] FILE OUT\n");
		return 2;
	}
	if (gs_catalog_load(profiles, &cat, &err) < 0 ||
	    gs_scenario_load(cat, argv[1], &scn, &err) < 0 ||
	    gs_plan_make(scn, &po, &plan, &err) < 0 ||
	    gs_report_html(plan, argv[1], &html, &err) < 0 ||
	    gs_write_file(argv[2], html, strlen(html), 0, &err) < 0)
		fprintf(stderr, "render: %s\n", gs_error_format(&err, msg, sizeof msg));
	else
		rc = 0;
	free(html);
	gs_plan_free(plan);
	gs_scenario_free(scn);
	gs_catalog_free(cat);
	return rc;
}
