/*
 * repl_cmds.c - the session's own commands: editing the scenario (load,
 * add, set, rm, undo, redo), keeping it (save, scenario), help and quit.
 * Every edit is made on a copy, so a command that fails halfway changes
 * nothing; a successful one becomes one undo step.
 */
#include <stdlib.h>
#include <string.h>

#include "repl.h"

/* ---- edits -------------------------------------------------------------- */

typedef int (*edit_fn)(gs_scenario *s, int argc, char **argv);

static int edit(repl *r, edit_fn fn, int argc, char **argv)
{
	gs_scenario *next = repl_clone(r->cur);
	int rc;
	if (!next)
		return EXIT_FAIL;
	if ((rc = fn(next, argc, argv)) != EXIT_OK) {
		gs_scenario_free(next);
		return rc;
	}
	repl_commit(r, next);
	return EXIT_OK;
}

/* Applies KEY=VALUE words to a workload (or to the scenario: NULL). */
static int set_pairs(gs_scenario *s, const char *workload, char **kv, int n)
{
	gs_error err;
	for (int i = 0; i < n; i++) {
		char *eq = strchr(kv[i], '=');
		int rc;
		if (!eq || eq == kv[i])
			return cli_error(EXIT_USAGE, "expected KEY=VALUE, not '%s'", kv[i]);
		*eq = '\0';
		rc = gs_scenario_set(s, workload, kv[i], eq + 1, &err);
		*eq = '=';
		if (rc < 0)
			return cli_fail(&err);
	}
	return EXIT_OK;
}

static int add_fn(gs_scenario *s, int argc, char **argv)
{
	gs_error err;
	if (gs_scenario_add(s, argv[1], &err) < 0)
		return cli_fail(&err);
	return set_pairs(s, argv[1], argv + 2, argc - 2);
}

static int set_fn(gs_scenario *s, int argc, char **argv)
{
	const char *who = strcmp(argv[1], "*") == 0 ? NULL : argv[1];
	return set_pairs(s, who, argv + 2, argc - 2);
}

static int rm_fn(gs_scenario *s, int argc, char **argv)
{
	gs_error err;
	for (int i = 1; i < argc; i++)
		if (gs_scenario_remove(s, argv[i], &err) < 0)
			return cli_fail(&err);
	return EXIT_OK;
}

static int cmd_add(repl *r, int argc, char **argv) { return edit(r, add_fn, argc, argv); }
static int cmd_set(repl *r, int argc, char **argv) { return edit(r, set_fn, argc, argv); }
static int cmd_rm(repl *r, int argc, char **argv) { return edit(r, rm_fn, argc, argv); }

static int cmd_load(repl *r, int argc, char **argv)
{
	(void)argc;
	return repl_load(r, argv[1]);
}

static int cmd_undo(repl *r, int argc, char **argv)
{
	(void)argc, (void)argv;
	return repl_step(r, 1);
}

static int cmd_redo(repl *r, int argc, char **argv)
{
	(void)argc, (void)argv;
	return repl_step(r, 0);
}

/* ---- keeping scenarios ---------------------------------------------------- */

/* Writes the scenario through the library's renderer, so the file is one
 * the loader accepts; a scenario the loader would refuse is not written. */
static int cmd_save(repl *r, int argc, char **argv)
{
	const char *path = NULL;
	char *text = NULL;
	gs_doc *doc = NULL;
	gs_error err;
	int force = 0, rc = EXIT_OK;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-f") == 0 || strcmp(argv[i], "--force") == 0)
			force = 1;
		else
			path = argv[i];
	}
	if (!path)
		return cli_error(EXIT_USAGE, "usage: save [-f] FILE");
	if (gs_scenario_validate(r->cur, &err) < 0)
		return cli_error(cli_status(err.code), "not saved: %s", err.msg);
	if (gs_doc_scenario(r->cur, &doc, &err) < 0 ||
	    gs_doc_render(doc, GS_FORMAT_YAML, &text, &err) < 0)
		rc = cli_fail(&err);
	else if (strcmp(path, "-") == 0) /* a look at the file, not a save */
		fputs(text, stdout);
	else if (gs_write_file(path, text, strlen(text), !force, &err) < 0)
		rc = cli_fail(&err);
	else {
		printf("saved %zu workload%s to %s\n", gs_scenario_workload_count(r->cur),
		       gs_scenario_workload_count(r->cur) == 1 ? "" : "s", path);
		r->dirty = 0;
	}
	free(text);
	gs_doc_free(doc);
	return rc;
}

static int scenario_save(repl *r, const char *name)
{
	repl_saved *s = repl_saved_find(r, name), *grown;
	gs_scenario *copy;

	if (strcmp(name, "current") == 0 || !*name)
		return cli_error(EXIT_USAGE, "'%s' cannot name a saved scenario", name);
	if (!(copy = repl_clone(r->cur)))
		return EXIT_FAIL;
	if (!s) {
		if ((grown = realloc(r->saved, (r->n_saved + 1) * sizeof *grown)))
			r->saved = grown;
		if (!grown || !(grown[r->n_saved].name = strdup(name))) {
			gs_scenario_free(copy);
			return cli_error(EXIT_FAIL, "out of memory");
		}
		s = &r->saved[r->n_saved++];
		s->scn = NULL;
	}
	gs_scenario_free(s->scn);
	s->scn = copy;
	s->planned = r->plan != NULL;
	if (r->plan)
		s->sum = *gs_plan_summary_get(r->plan);
	printf("saved scenario '%s'\n", name);
	return EXIT_OK;
}

static void scenario_list(const repl *r)
{
	char cost[48];
	if (!r->n_saved)
		printf("no saved scenarios (keep one with 'scenario save NAME')\n");
	for (size_t i = 0; i < r->n_saved; i++) {
		const repl_saved *s = &r->saved[i];
		size_t n = gs_scenario_workload_count(s->scn);
		printf("%-20s %5zu workload%s  %s\n", s->name, n, n == 1 ? " " : "s",
		       s->planned ? repl_per_hour(s->sum.after_per_hour, 0, cost, sizeof cost)
		                  : "stale");
	}
}

static int cmd_scenario(repl *r, int argc, char **argv)
{
	const char *sub = argv[1];
	repl_saved *s;
	gs_scenario *copy;

	if (strcmp(sub, "list") == 0 && argc == 2) {
		scenario_list(r);
		return EXIT_OK;
	}
	if (argc != 3 || (strcmp(sub, "save") != 0 && strcmp(sub, "use") != 0))
		return cli_error(EXIT_USAGE, "usage: scenario save NAME | use NAME | list");
	if (strcmp(sub, "save") == 0)
		return scenario_save(r, argv[2]);
	if (!(s = repl_saved_find(r, argv[2])))
		return cli_error(EXIT_USAGE, "no saved scenario '%s' (see 'scenario list')",
		                 argv[2]);
	if (!(copy = repl_clone(s->scn)))
		return EXIT_FAIL;
	repl_commit(r, copy);
	return EXIT_OK;
}

/* ---- help and quit -------------------------------------------------------- */

static void help_session(const repl_cmd *c)
{
	printf("usage: %s%s%s\n\n%s\n", c->name, *c->synopsis ? " " : "", c->synopsis,
	       c->summary);
	if (c->opts)
		cli_print_options(c->opts, stdout);
}

static void help_all(void)
{
	printf("Session commands:\n");
	for (const repl_cmd *c = repl_commands; c->name; c++) {
		char left[64];
		snprintf(left, sizeof left, "%s %s", c->name, c->synopsis);
		printf("  %-34s %s\n", left, c->brief);
	}
	printf("\ngpushare commands, with the same options as on the command line\n"
	       "(plan and emit use the session's scenario when FILE is left out):\n");
	for (const cli_cmd *c = cli_commands; c->name; c++)
		if (strcmp(c->name, "repl") != 0)
			printf("  %-10s %s\n", c->name, c->brief);
	printf("\nType 'help COMMAND' for one command.\n");
}

static int cmd_help(repl *r, int argc, char **argv)
{
	const repl_cmd *own;
	const cli_cmd *cmd;
	(void)r;
	if (argc < 2) {
		help_all();
		return EXIT_OK;
	}
	if ((own = repl_find(argv[1]))) {
		help_session(own);
		return EXIT_OK;
	}
	if (!(cmd = cli_find_command(argv[1])) || strcmp(cmd->name, "repl") == 0)
		return cli_error(EXIT_USAGE, "unknown command '%s' (type 'help' for the list)",
		                 argv[1]);
	cli_usage(cmd, stdout);
	if (repl_takes_scenario(cmd))
		printf("\nIn a session, leave out FILE to use the session's scenario.\n");
	return EXIT_OK;
}

static int cmd_quit(repl *r, int argc, char **argv)
{
	(void)argc, (void)argv;
	r->quit = 1;
	return EXIT_OK;
}

/* ---- the table ------------------------------------------------------------------ */

/* Read by repl_session() for help and for which options there are. */
static const cli_opt save_opts[] = {
	{ "force", 'f', NULL, "replace FILE if it exists", .kind = CLI_K_INDEX },
	CLI_OPT_HELP,
	CLI_OPT_END,
};

const repl_cmd repl_commands[] = {
	{ "load", cmd_load, "FILE", "load a workload file as the current scenario",
	  "Load FILE (see gpushare-workloads(5)) as the current scenario and plan it.\n"
	  "'undo' goes back to the scenario before.",
	  NULL, 1, 1 },
	{ "show", repl_cmd_show, "[workloads|plan|diff]", "show workloads, the plan, or changes",
	  "Show the workloads with their planned strategy and cost (the default),\n"
	  "the whole plan, or what changed since the last 'plan' (or, before any,\n"
	  "since the scenario was loaded).",
	  NULL, 0, 1 },
	{ "add", cmd_add, "NEW [KEY=VALUE...]", "add a workload",
	  "Add a workload named NEW, then set the keys given, as 'set' would. A\n"
	  "workload needs gpuMemory and compute before it can be planned.",
	  NULL, 1, -1 },
	{ "set", cmd_set, "NAME|* KEY=VALUE...", "change a workload's keys, or the scenario's",
	  "Set keys of the workload NAME, with the syntax of a workload file\n"
	  "(gpushare-workloads(5)); lists are written a,b, current as TYPE:COUNT[:SHARE],\n"
	  "object one key at a time (object.kind=StatefulSet; object= for the\n"
	  "defaults). With *, set the scenario's keys: cloud, pricing, via,\n"
	  "targetUtilization, instances, gpus, namespace, placement and fractions.",
	  NULL, 2, -1 },
	{ "rm", cmd_rm, "NAME...", "remove workloads", "Remove the workloads named.", NULL, 1, -1 },
	{ "undo", cmd_undo, "", "take back the last change",
	  "Take back the last change (up to 100 of them) and plan again.", NULL, 0, 0 },
	{ "redo", cmd_redo, "", "make a change taken back again",
	  "Make the last change taken back by 'undo' again.", NULL, 0, 0 },
	{ "save", cmd_save, "[-f] FILE", "write the scenario as a workload file",
	  "Write the current scenario to FILE as a workload file (to standard\n"
	  "output with -). An existing FILE is only replaced with -f; a scenario\n"
	  "that cannot be loaded is not written.",
	  save_opts, 1, 1 },
	{ "scenario", cmd_scenario, "save|use|list [SCENARIO]", "keep, restore or list scenarios",
	  "'scenario save NAME' keeps a copy of the current scenario, 'scenario use\n"
	  "NAME' makes a copy of it current again (an undoable change) and\n"
	  "'scenario list' lists them with their cost.",
	  NULL, 1, 2 },
	{ "compare", repl_cmd_compare, "A B", "compare two scenarios side by side",
	  "Compare the plans of two saved scenarios, or of one and 'current': cost,\n"
	  "GPUs, instances and the workloads whose strategy differs.",
	  NULL, 2, 2 },
	{ "sweep", repl_cmd_sweep, "NAME|* KEY FROM..TO [STEP]",
	  "plan each value of a key; show where it flips",
	  "Plan a copy of the scenario once per value of KEY, from FROM to TO by STEP\n"
	  "(a tenth of the range unless given; at most 50 values), as 'set NAME\n"
	  "KEY=VALUE' would set it: e.g. 'sweep chat compute 10%..60% 10%' or 'sweep\n"
	  "chat retention 40%..90%'. A row per value: the workload's strategy, the\n"
	  "plan's GPUs and cost, and with a throughput its cost per unit of work at\n"
	  "the high and low retention; '<- STRATEGY' marks where its strategy flips,\n"
	  "'<- stops paying' where sharing first costs more per unit than dedicated\n"
	  "GPUs. With *, a scenario key and the plan's GPUs and cost. The scenario\n"
	  "itself is not changed.",
	  NULL, 3, 4 },
	{ "help", cmd_help, "[COMMAND]", "list the commands, or show one",
	  "List the commands, or show how to use one.", NULL, 0, 1 },
	{ "quit", cmd_quit, "", "end the session",
	  "End the session; on a terminal, unsaved changes are confirmed first.", NULL, 0, 0 },
	{ "exit", cmd_quit, "", "end the session", "The same as 'quit'.", NULL, 0, 0 },
	{ NULL, NULL, NULL, NULL, NULL, NULL, 0, 0 },
};

const repl_cmd *repl_find(const char *name)
{
	for (const repl_cmd *c = repl_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int known_option(const cli_opt *opts, const char *arg)
{
	for (const cli_opt *o = opts; o && o->name; o++)
		if ((arg[1] == '-' && strcmp(arg + 2, o->name) == 0) ||
		    (arg[1] == o->short_name && !arg[2]))
			return 1;
	return 0;
}

int repl_session(repl *r, const repl_cmd *c, int argc, char **argv)
{
	int operands = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1]) {
			operands++;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			help_session(c);
			return EXIT_OK;
		} else if (!known_option(c->opts, a)) {
			return cli_error(EXIT_USAGE, "%s: unknown option '%s'", c->name, a);
		}
	}
	if (operands < c->min_args || (c->max_args >= 0 && operands > c->max_args))
		return cli_error(EXIT_USAGE, "usage: %s%s%s", c->name, *c->synopsis ? " " : "",
		                 c->synopsis);
	return c->run(r, argc, argv);
}
