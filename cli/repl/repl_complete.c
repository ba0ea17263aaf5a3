/*
 * repl_complete.c - tab completion in a session. What a word may be is
 * read from what the parser and help read: the command tables (names,
 * option tables and synopses, whose metavariables - FILE, MODEL, TYPE,
 * PROFILE, NAME, KEY=VALUE, a|b - say what goes where) and the catalog.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "repl.h"

typedef struct ctx {
	repl *r;
	line_reader *lr;
	const char *name;      /* the command */
	const cli_opt *opts;   /* its options */
	const char *synopsis;
	const char *first;     /* its first operand, or NULL */
} ctx;

/* Offers each of the space-separated words. */
static void offer_words(line_reader *lr, const char *words)
{
	char w[64];
	while (*words) {
		size_t n = strcspn(words, " ");
		if (n < sizeof w) {
			memcpy(w, words, n);
			w[n] = '\0';
			line_offer(lr, w);
		}
		words += n + (words[n] == ' ');
	}
}

static void offer_commands(line_reader *lr)
{
	for (const repl_cmd *c = repl_commands; c->name; c++)
		line_offer(lr, c->name);
	for (const cli_cmd *c = cli_commands; c->name; c++)
		if (strcmp(c->name, "repl") != 0)
			line_offer(lr, c->name);
}

static void offer_catalog(ctx *c, int instances)
{
	const gs_catalog *cat = c->r->cat;
	if (instances)
		for (size_t i = 0; i < gs_catalog_instance_count(cat); i++)
			line_offer(c->lr, gs_catalog_instance_at(cat, i)->type);
	else
		for (size_t i = 0; i < gs_catalog_gpu_count(cat); i++)
			line_offer(c->lr, gs_catalog_gpu_at(cat, i)->name);
}

/* MIG profiles of the GPU model named by the first operand (`mig A30 1g`). */
static void offer_profiles(ctx *c)
{
	const gs_gpu *g = c->first ? gs_gpu_find(c->r->cat, c->first) : NULL;
	for (size_t i = 0; g && i < g->n_mig_profiles; i++)
		line_offer(c->lr, g->mig_profiles[i].name);
}

static void offer_scenarios(ctx *c, int with_current)
{
	for (size_t i = 0; i < c->r->n_saved; i++)
		line_offer(c->lr, c->r->saved[i].name);
	if (with_current)
		line_offer(c->lr, "current");
}

static void offer_keys(ctx *c)
{
	int scenario = strcmp(c->name, "set") == 0 && c->first && strcmp(c->first, "*") == 0;
	char key[40];
	for (const char *const *k = scenario ? repl_scenario_keys : repl_workload_keys; *k; k++) {
		snprintf(key, sizeof key, "%s=", *k);
		line_offer(c->lr, key);
	}
}

/* Values of KEY= (as `set` takes them). */
static void offer_value(ctx *c, const char *key)
{
	static const struct {
		const char *key, *words;
	} values[] = {
		{ "kind", "inference batch training notebook ci" },
		{ "latency", "tolerant critical" },
		{ "isolation", "none fault" },
		{ "spread", "none gpu node" },
		{ "pricing", "on-demand spot" },
		{ "via", "device-plugin dra" },
		{ "arch", "amd64 arm64 any" },
		{ "object.kind", "Deployment StatefulSet Job CronJob Pod" },
		{ "placement", "robust pinned" },
	};
	if (strcmp(key, "cloud") == 0) {
		/* The clouds of the loaded profiles, your own included. */
		for (size_t i = 0; i < gs_catalog_cloud_count(c->r->cat); i++)
			line_offer(c->lr, gs_catalog_cloud_at(c->r->cat, i));
		line_offer(c->lr, "all");
	}
	if (strcmp(key, "measuredOn") == 0 || strcmp(key, "gpus") == 0)
		offer_catalog(c, 0);
	else if (strcmp(key, "current") == 0 || strcmp(key, "instances") == 0)
		offer_catalog(c, 1);
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		if (strcmp(key, values[i].key) == 0)
			offer_words(c->lr, values[i].words);
}

static int offer_meta(ctx *c, const char *meta, int option_arg);

/* "workloads|plan|diff", "NAME|*": literals and metavariables. */
static int offer_choices(ctx *c, const char *meta, int option_arg)
{
	char alt[64];
	int files = 0;
	while (*meta) {
		size_t n = strcspn(meta, "|");
		if (n < sizeof alt) {
			memcpy(alt, meta, n);
			alt[n] = '\0';
			if (isupper((unsigned char)alt[0]))
				files |= offer_meta(c, alt, option_arg);
			else
				line_offer(c->lr, alt);
		}
		meta += n + (meta[n] == '|');
	}
	return files;
}

/* Offers what the metavariable stands for; returns 1 for file names. */
static int offer_meta(ctx *c, const char *meta, int option_arg)
{
	static const struct {
		const char *meta, *words;
	} lists[] = {
		{ "FMT", "text json yaml" }, { "L", "tolerant critical" },
		{ "I", "none fault" },       { "P", "on-demand spot" },
		{ "CLOUD", "aws azure gcp" }, { "V", "v1 v1beta2 v1beta1" },
		{ "S", "time-slicing mps" },
	};
	if (strchr(meta, '|'))
		return offer_choices(c, meta, option_arg);
	if (strcmp(meta, "FILE") == 0 || strcmp(meta, "DIR") == 0)
		return 1;
	if (strcmp(meta, "MODEL") == 0 || strcmp(meta, "TYPE") == 0)
		offer_catalog(c, meta[0] == 'T');
	else if (strcmp(meta, "PROFILE") == 0)
		offer_profiles(c);
	else if (strcmp(meta, "NAME") == 0)
		for (size_t i = 0; i < gs_scenario_workload_count(c->r->cur); i++)
			line_offer(c->lr, gs_scenario_workload_at(c->r->cur, i)->name);
	else if (strcmp(meta, "SCENARIO") == 0 || strcmp(meta, "A") == 0 || strcmp(meta, "B") == 0)
		offer_scenarios(c, meta[1] == '\0');
	else if (strcmp(meta, "COMMAND") == 0)
		offer_commands(c->lr);
	else if (strcmp(meta, "KEY=VALUE") == 0)
		offer_keys(c);
	else if (strcmp(meta, "KIND") == 0 && option_arg)
		offer_words(c->lr, "inference batch training notebook ci");
	else if (strcmp(meta, "KIND") == 0)
		for (int k = 0; k < GS_EMIT_KIND_COUNT; k++)
			line_offer(c->lr, gs_emit_kind_name((gs_emit_kind)k));
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
		if (strcmp(meta, lists[i].meta) == 0)
			offer_words(c->lr, lists[i].words);
	return 0;
}

/* ---- reading the tables ------------------------------------------------------ */

static int is_meta(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isupper((unsigned char)w[i]) && w[i] != '_')
			return 0;
	return n > 0;
}

/* The metavariable of operand k in a synopsis ("[options] MODEL
 * [PROFILE...]": MODEL, then PROFILE for every k after); 0 if none. */
static int synopsis_operand(const char *syn, int k, char *out, size_t size)
{
	int idx = 0, repeats = 0;
	*out = '\0';
	while (*syn) {
		size_t n = strcspn(syn, " "), skip = n + (syn[n] == ' ');
		const char *w = syn;
		syn += skip;
		if (n == 0)
			continue;
		if (n == 9 && strncmp(w, "[options]", 9) == 0)
			continue;
		if (w[0] == '-' || (w[0] == '[' && w[1] == '-')) {
			size_t m = strcspn(syn, " ");
			if (w[n - 1] != ']' && is_meta(syn, m)) /* "--memory SIZE" */
				syn += m + (syn[m] == ' ');
			continue;
		}
		if (w[0] == '[')
			w++, n--;
		repeats = 0;
		while (n > 0 && (w[n - 1] == ']' || w[n - 1] == '.'))
			repeats |= w[--n] == '.';
		if (idx++ == k || repeats)
			snprintf(out, size, "%.*s", (int)n, w);
		if (idx - 1 == k)
			return 1;
	}
	return repeats; /* the last operand takes every k after it */
}

static const cli_opt *find_option(const cli_opt *opts, const char *word)
{
	size_t n = strcspn(word, "=");
	for (const cli_opt *o = opts; o && o->name; o++) {
		if (word[1] == '-' && strlen(o->name) == n - 2 &&
		    strncmp(word + 2, o->name, n - 2) == 0)
			return o;
		if (word[1] == o->short_name && word[2] == '\0')
			return o;
	}
	return NULL;
}

static int find_command(ctx *c, const char *name)
{
	const repl_cmd *own = repl_find(name);
	const cli_cmd *cmd = own ? NULL : cli_find_command(name);
	if (own) {
		c->opts = own->opts;
		c->synopsis = own->synopsis;
	} else if (cmd && strcmp(cmd->name, "repl") != 0) {
		c->opts = cmd->opts;
		c->synopsis = cmd->synopsis;
	} else {
		return 0;
	}
	c->name = name;
	return 1;
}

static void offer_options(ctx *c)
{
	char word[64];
	for (const cli_opt *o = c->opts; o && o->name; o++) {
		snprintf(word, sizeof word, "--%s", o->name);
		line_offer(c->lr, word);
	}
	if (!c->opts)
		line_offer(c->lr, "--help");
}

/* w[1..n) are complete words after the command; `text` is the word being
 * completed. */
static int complete_after(ctx *c, char **w, int n, const char *text)
{
	char meta[64];
	int operands = 0;
	for (int i = 1; i < n; i++) {
		const cli_opt *o = w[i][0] == '-' && w[i][1] ? find_option(c->opts, w[i]) : NULL;
		if (w[i][0] == '-' && w[i][1]) {
			if (!o || !o->arg || strchr(w[i], '='))
				continue;
			if (i == n - 1) /* the word is this option's argument */
				return offer_meta(c, o->arg, 1);
			i++;
			continue;
		}
		if (operands++ == 0)
			c->first = w[i];
	}
	if (text[0] == '-') {
		offer_options(c);
		return 0;
	}
	if (!synopsis_operand(c->synopsis, operands, meta, sizeof meta))
		return 0;
	return offer_meta(c, meta, 0);
}

/* After KEY= or an option's --name=, or a list's comma. */
static int complete_value(ctx *c, char **w, int n)
{
	const char *last = w[n - 1], *eq = strchr(last, '=');
	char key[64];
	const cli_opt *o;
	if (!eq || (size_t)(eq - last) >= sizeof key)
		return 0;
	snprintf(key, sizeof key, "%.*s", (int)(eq - last), last);
	if (key[0] != '-') {
		offer_value(c, key);
		return 0;
	}
	o = find_option(c->opts, last);
	return o && o->arg ? offer_meta(c, o->arg, 1) : 0;
}

int repl_complete(void *ud, const char *line, int start, int end, line_reader *lr)
{
	ctx c = { ud, lr, NULL, NULL, "", NULL };
	int joined = start > 0 && (line[start - 1] == '=' || line[start - 1] == ',');
	char *head = malloc((size_t)start + 1), **w = NULL, err[96], text[2] = "";
	int n, files = 0;

	if (!head)
		return 0;
	memcpy(head, line, (size_t)start);
	head[start] = '\0';
	/* An opening quote belongs to the word being completed. */
	if (start > 0 && (head[start - 1] == '"' || head[start - 1] == '\''))
		head[start - 1] = '\0';
	text[0] = start < end ? line[start] : '\0';
	if (repl_split(head, &w, &n, err, sizeof err) == 0) {
		if (n == 0)
			offer_commands(lr);
		else if (find_command(&c, w[0]))
			files = joined ? complete_value(&c, w, n) : complete_after(&c, w, n, text);
	}
	free(w);
	free(head);
	return files;
}
