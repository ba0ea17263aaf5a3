/*
 * set.c - the REPL's `set`: a key of the scenario or of one workload,
 * set by name from the text typed at the prompt. The text becomes the
 * node a file would give, and the key table reads it as it reads a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/keys.h"

/* "a,b" as a list. */
static gs_node *list_node(const char *text)
{
	char *copy = gs_strdup(text), *save = NULL;
	gs_node *n = gs_node_new(GS_NODE_SEQ, NULL);

	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && n;
	     t = strtok_r(NULL, ",", &save))
		if (gs_node_push(n, gs_node_new(GS_NODE_STRING, t)) < 0)
			n = NULL;
	free(copy);
	return n;
}

/* "TYPE[:COUNT[:SHARE]]" as {instance: TYPE, count: COUNT, share: SHARE}. */
static gs_node *pair_node(const char *text)
{
	const char *colon = strchr(text, ':');
	const char *colon2 = colon ? strchr(colon + 1, ':') : NULL;
	char *type = colon ? gs_strndup(text, (size_t)(colon - text)) : gs_strdup(text);
	char *count = colon2 ? gs_strndup(colon + 1, (size_t)(colon2 - colon - 1))
	                     : colon ? gs_strdup(colon + 1) : NULL;
	gs_node *n = gs_node_new(GS_NODE_MAP, NULL);

	if (!type || (colon && !count) ||
	    gs_node_put(n, "instance", gs_node_new(GS_NODE_STRING, type)) < 0 ||
	    (colon && gs_node_put(n, "count", gs_node_new(GS_NODE_STRING, count)) < 0) ||
	    (colon2 && gs_node_put(n, "share", gs_node_new(GS_NODE_STRING, colon2 + 1)) < 0)) {
		gs_node_free(n);
		n = NULL;
	}
	free(type);
	free(count);
	return n;
}

/* "" as null (the default again), else the text. */
static gs_node *value_node(const char *text)
{
	return gs_node_new(*text ? GS_NODE_STRING : GS_NODE_NULL, *text ? text : "");
}

/* KEY.SUB=VALUE as {SUB: VALUE}. */
static gs_node *sub_node(const char *sub, const char *text)
{
	gs_node *n = gs_node_new(GS_NODE_MAP, NULL);

	if (n && gs_node_put(n, sub, value_node(text)) < 0)
		n = NULL;
	return n;
}

static gs_node *typed_node(gs_key_typed t, const char *text)
{
	switch (t) {
	case GS_KEY_SUB: /* KEY= alone: all its sub-keys' defaults */
	case GS_KEY_SUB_OR_TEXT: /* or, for this one, a value for all of them */
		return value_node(text);
	case GS_KEY_LIST:
		return list_node(text);
	case GS_KEY_PAIR:
		return pair_node(text);
	case GS_KEY_TEXT:
		break;
	}
	return gs_node_new(GS_NODE_STRING, text);
}

/* KEY.SUB=VALUE: the row of KEY (one of sub-keys) and {SUB: VALUE}. */
static int set_sub(gs_scenario *s, wl *w, const char *name, const char *value,
                   gs_error *err)
{
	gs_ctx c = { NULL, err };
	const char *dot = strchr(name, '.');
	char key[64];
	const gs_key *k;
	gs_node *v;
	int rc;

	snprintf(key, sizeof key, "%.*s", (int)(dot - name), name);
	k = gs_scenario_key(w ? GS_KEY_WORKLOAD : GS_KEY_FILE, key);
	if (!k || (k->typed != GS_KEY_SUB && k->typed != GS_KEY_SUB_OR_TEXT))
		return gs_fail(err, GS_ESCHEMA, "unknown key '%s'", name);
	if (!(v = sub_node(dot + 1, value)))
		return gs_fail_nomem(err);
	rc = gs_scenario_read_key(&c, s, w, key, v);
	gs_node_free(v);
	/* The row names the sub-key alone; the prompt took it with its key. */
	if (rc == GS_ESCHEMA && err && strncmp(err->msg, "unknown key '", 13) == 0) {
		gs_error tmp = *err;
		gs_fail(err, rc, "unknown key '%s.%s", key, tmp.msg + 13);
	}
	return rc;
}

int gs_scenario_set(gs_scenario *s, const char *workload, const char *name,
                    const char *value, gs_error *err)
{
	gs_ctx c = { NULL, err };
	const gs_key *k = gs_scenario_key(workload ? GS_KEY_WORKLOAD : GS_KEY_FILE, name);
	gs_node *v;
	int renames = workload && strcmp(name, "name") == 0;
	wl *w = NULL;
	int rc;

	if (workload && !(w = gs_scenario_wl(s, workload)))
		return gs_fail(err, GS_ENOTFOUND, "no workload named '%s'", workload);
	if (!k && strchr(name, '.'))
		return set_sub(s, w, name, value, err);
	if (k && k->typed == GS_KEY_SUB && *value)
		return gs_fail(err, GS_EINVAL, "'%s' is set one key at a time (%s.KEY=VALUE), or "
		               "all to their defaults with '%s='", name, name, name);
	if (!(v = typed_node(k ? k->typed : GS_KEY_TEXT, value)))
		return gs_fail_nomem(err);
	if (renames && gs_scenario_wl(s, value))
		rc = gs_fail(err, GS_ESCHEMA, "a workload named '%s' exists already", value);
	else if (k && k->file_only)
		rc = gs_fail(err, GS_EINVAL, "'%s' cannot be set", name);
	else {
		rc = gs_scenario_read_key(&c, s, w, name, v);
		if (renames)
			gs_scenario_unindex(s);
	}
	gs_node_free(v);
	return rc;
}
