/*
 * lint.c - gpushare lint's dispatcher: the containers configs arrive in
 * (bare files, YAML streams, List objects, ConfigMap data values, Helm
 * values), what each document is, and the checker (check.h) it goes to.
 *
 * The YAML reader parses one document, so a stream is split on its "---"
 * lines and each part is parsed alone, its line numbers shifted by the
 * lines before it. A config inside a ConfigMap value is parsed again from
 * the value's text; when the value is a literal block ("|") every line of
 * it is a line of the file, shifted right by the block's indentation, so
 * its findings point into the file exactly. Other values (quoted, folded)
 * cannot be mapped line by line, so their findings point at the data key.
 * The checkers of ConfigMaps and Helm values reach lint_embedded through
 * the context's callback (see kit.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lint/check.h"
#include "lint/findings.h"

/* The source text, for looking at the lines around a literal block. */
struct lint_src {
	const char *buf;
	size_t len;
	size_t *starts; /* byte offset of each line; starts[0] is line 1 */
	size_t n_lines;
};
typedef struct lint_src lint_src;

/* What a parsed tree is. */
typedef enum lint_kind {
	LINT_NONE,
	LINT_DEVICE_PLUGIN,
	LINT_MIG_PARTED,
	LINT_K8S_OBJECT,
	LINT_HELM_VALUES,
	LINT_PATCH,      /* a strategic-merge patch of a pod template */
	LINT_DRA_VALUES, /* Helm values of NVIDIA's DRA driver */
	LINT_HAMI        /* HAMi's device config, nodeconfig or Helm values */
} lint_kind;

/* ---- what a tree is ------------------------------------------------------- */

static int has_key_near(const gs_node *map, const char *const *names, size_t n)
{
	for (size_t i = 0; i < map->n; i++) {
		const char *k = map->keys[i]->text;
		if (strlen(k) >= 4 && gs_suggest(k, names, n))
			return 1;
	}
	return 0;
}

static lint_kind detect(const gs_node *root)
{
	static const char *const mig[] = { "mig-configs" };
	static const char *const dp[] = { "sharing", "flags", "timeSlicing", "mps", "imex" };
	const gs_node *res, *cfg;

	if (!gs_lint_is_map(root))
		return LINT_NONE;
	if (gs_lint_find(root, "apiVersion", NULL) || gs_lint_find(root, "kind", NULL))
		return LINT_K8S_OBJECT;
	if (gs_lint_find(root, "mig-configs", NULL) || has_key_near(root, mig, 1))
		return LINT_MIG_PARTED;
	/* Before the device plugin: the chart has resources.gpus too. */
	if (gs_lint_is_dra_values(root))
		return LINT_DRA_VALUES;
	/* Before GPU Operator values: HAMi's chart has devicePlugin too. */
	if (gs_lint_is_hami(root))
		return LINT_HAMI;
	for (size_t i = 0; i < GS_ARRAY_LEN(dp); i++)
		if (gs_lint_find_ci(root, dp[i], NULL))
			return LINT_DEVICE_PLUGIN;
	res = gs_lint_find(root, "resources", NULL);
	if (gs_lint_is_map(res) &&
	    (gs_lint_find(res, "gpus", NULL) || gs_lint_find(res, "mig", NULL)))
		return LINT_DEVICE_PLUGIN;
	if (gs_lint_find(root, "devicePlugin", NULL) || gs_lint_find(root, "migManager", NULL))
		return LINT_HELM_VALUES;
	cfg = gs_lint_find(root, "config", NULL);
	if (gs_lint_is_map(cfg) && gs_lint_find(cfg, "map", NULL))
		return LINT_HELM_VALUES;
	/* A misspelt section next to a version ("sharring:") is still one. */
	if (gs_lint_find(root, "version", NULL) && root->n > 1 &&
	    has_key_near(root, dp, GS_ARRAY_LEN(dp)))
		return LINT_DEVICE_PLUGIN;
	if (gs_lint_is_patch(root))
		return LINT_PATCH;
	return LINT_NONE;
}

/* A Kubernetes object: the configs a ConfigMap holds, a DRA object, a
 * Karpenter object, a workload, a Node, a kustomization. Others are not
 * ours. */
static void k8s_object(lint_ctx *c, const gs_node *obj)
{
	const gs_node *av = gs_lint_find(obj, "apiVersion", NULL);
	const gs_node *kind = gs_lint_find(obj, "kind", NULL);
	const char *a = gs_lint_is_str(av) ? av->text : "", *slash = strchr(a, '/');
	const char *k = gs_lint_is_str(kind) ? kind->text : NULL;

	if (k && strcmp(k, "ConfigMap") == 0) {
		gs_lint_configmap(c, obj);
	} else if (gs_lint_is_workload(k)) {
		gs_lint_workload(c, obj, k);
		gs_lint_hami_pod(c, obj, k);
	} else if (k && strcmp(k, "Node") == 0) {
		gs_lint_node(c, obj);
	} else if (k && strcmp(k, "Kustomization") == 0) {
		c->configs++; /* what `plan --emit` writes beside the rest */
	}
	else if (slash && strncmp(a, "resource.k8s.io/", 16) == 0 && k)
		gs_lint_dra(c, obj);
	else if (strncmp(a, "karpenter.", 10) == 0 ||
	         (k && (strcmp(k, "Provisioner") == 0 || strcmp(k, "AWSNodeTemplate") == 0))) {
		gs_lint_karpenter(c, obj);
		if (k && strcmp(k, "NodePool") == 0)
			gs_lint_nodepool_labels(c, obj);
	}
}

/* Checks a tree of the given kind (for a tree that is known). */
static void lint_tree(lint_ctx *c, const gs_node *root, lint_kind kind)
{
	switch (kind) {
	case LINT_DEVICE_PLUGIN:
		c->configs++;
		gs_lint_device_plugin(c, root);
		gs_lint_note_dp(c, root);
		break;
	case LINT_MIG_PARTED:
		c->configs++;
		gs_lint_mig_parted(c, root);
		break;
	case LINT_K8S_OBJECT:
		k8s_object(c, root);
		break;
	case LINT_HELM_VALUES:
		c->configs++;
		gs_lint_helm_values(c, root);
		break;
	case LINT_PATCH:
		gs_lint_workload(c, root, NULL);
		gs_lint_hami_pod(c, root, NULL);
		break;
	case LINT_DRA_VALUES:
		gs_lint_dra_values(c, root);
		break;
	case LINT_HAMI:
		c->configs++;
		gs_lint_hami(c, root);
		break;
	case LINT_NONE:
		break;
	}
}

/* ---- embedded configs ----------------------------------------------------- */

static const char *src_line(const lint_src *s, unsigned long line, size_t *len)
{
	size_t start, end;
	if (line == 0 || line > s->n_lines)
		return NULL;
	start = s->starts[line - 1];
	end = line < s->n_lines ? s->starts[line] : s->len;
	while (end > start && (s->buf[end - 1] == '\n' || s->buf[end - 1] == '\r'))
		end--;
	*len = end - start;
	return s->buf + start;
}

/* The indentation of a literal block whose header ("|", "|-", "|2") is at
 * line:col of the file, the key being at key_col; 0 when it is not a
 * literal block we can map. */
static unsigned long literal_indent(const lint_src *s, unsigned long line,
                                    unsigned long col, unsigned long key_col)
{
	size_t len;
	const char *p = src_line(s, line, &len);
	unsigned long digit = 0;

	if (!p || col == 0 || col > len || p[col - 1] != '|')
		return 0;
	for (size_t i = col; i < len && strchr("+-123456789", p[i]); i++)
		if (isdigit((unsigned char)p[i]))
			digit = (unsigned long)(p[i] - '0');
	if (digit)
		return key_col - 1 + digit;
	for (unsigned long l = line + 1; l <= s->n_lines; l++) {
		size_t n, sp = 0;
		const char *q = src_line(s, l, &n);
		while (sp < n && q[sp] == ' ')
			sp++;
		if (sp < n)
			return sp;
	}
	return 0;
}

/* Text that is worth a parse error: it looks like one of our configs. */
static int looks_like_config(const char *text)
{
	static const char *const marks[] = { "mig-configs", "sharing:", "timeSlicing",
		                                 "migStrategy", "mig-devices", "nodeconfig",
		                                 "deviceSplitCount" };
	for (size_t i = 0; i < GS_ARRAY_LEN(marks); i++)
		if (strstr(text, marks[i]))
			return 1;
	return 0;
}

/* Keeps a parse error's position inside the value: libyaml reports an
 * unexpected end at the line after the last one. */
static void value_end(const char *text, unsigned long *line, unsigned long *col)
{
	unsigned long lines = 0;
	const char *last = text;

	for (const char *p = text; *p; p++)
		if (*p == '\n' && p[1]) {
			lines++;
			last = p + 1;
		}
	lines++;
	if (*line > lines) {
		*line = lines;
		*col = (unsigned long)strcspn(last, "\n") + 1;
	}
}

/* A config written as a mapping where a string belongs. */
static void embedded_mapping(lint_ctx *c, const gs_node *key, const gs_node *val,
                             const char *what)
{
	lint_kind kind = detect(val);

	if (kind != LINT_DEVICE_PLUGIN && kind != LINT_MIG_PARTED && kind != LINT_HAMI)
		return;
	lint_ctx sub = *c;

	gs_lint_add(c, R_CONFIGMAP_NOT_STRING, key,
	            "%s holds %s, but the config must be a string: write '%s: |' and indent "
	            "the config under it", what, gs_lint_kind_name(val), key->text);
	sub.cfg_key = key->text;
	sub.cfg_at = gs_lint_where(c, key);
	lint_tree(&sub, val, kind);
	c->configs = sub.configs;
	c->nomem |= sub.nomem;
}

/* How the positions of a tree parsed from the string val map to the file:
 * line by line for a literal block, else all at the key. */
static void value_mapping(lint_ctx *sub, const lint_ctx *c, const gs_node *key,
                          const gs_node *val)
{
	unsigned long line = val->line + c->line_base, indent = 0;

	if (!c->pinned)
		indent = literal_indent(c->src, line, val->col + c->col_base,
		                        key->col + c->col_base);
	*sub = *c;
	sub->configs = 0;
	sub->cfg_key = key->text;
	sub->cfg_at = gs_lint_where(c, key);
	if (indent) {
		sub->line_base = line;
		sub->col_base = indent;
	} else if (!c->pinned) {
		sub->pinned = 1;
		sub->pin_line = key->line + c->line_base;
		sub->pin_col = key->col + c->col_base;
	}
}

/* The context's `embedded` callback (kit.h): a config held in a string. */
static void lint_embedded(lint_ctx *c, const gs_node *key, const gs_node *val,
                          const char *what)
{
	lint_ctx sub;
	gs_node *root = NULL, at = { 0 };
	gs_error err;
	lint_kind kind;

	if (!val || val->kind == GS_NODE_MAP || val->kind == GS_NODE_SEQ) {
		embedded_mapping(c, key, val, what);
		return;
	}
	if (val->kind != GS_NODE_STRING)
		return;
	value_mapping(&sub, c, key, val);
	if (gs_yaml_read_buffer(c->file, val->text, strlen(val->text), &root, &err) < 0) {
		if (err.code == GS_ENOMEM) {
			c->nomem = 1;
		} else if (looks_like_config(val->text)) {
			value_end(val->text, &err.line, &err.col);
			at.line = err.line;
			at.col = err.col;
			gs_lint_add(&sub, R_CONFIG_PARSE, &at, "%s is not valid YAML: %s", what,
			            err.msg);
			c->nomem |= sub.nomem;
			c->configs++;
		}
		return;
	}
	kind = detect(root);
	if (kind == LINT_DEVICE_PLUGIN || kind == LINT_MIG_PARTED || kind == LINT_HAMI)
		lint_tree(&sub, root, kind);
	c->configs += sub.configs;
	c->nomem |= sub.nomem;
	gs_node_free(root);
}

/* ---- files and streams ---------------------------------------------------- */

static int index_lines(lint_src *s, const char *buf, size_t len, gs_error *err)
{
	size_t cap = 0;
	s->buf = buf;
	s->len = len;
	s->starts = NULL;
	s->n_lines = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i == 0 || buf[i - 1] == '\n') {
			if (i == len && i > 0)
				break;
			if (gs_grow(&s->starts, &cap, s->n_lines + 1, sizeof *s->starts) < 0)
				return gs_fail_nomem(err);
			s->starts[s->n_lines++] = i;
		}
	}
	return 0;
}

/* "---" alone on its line (a comment may follow) starts a new document. */
static int is_separator(const char *p, size_t len)
{
	size_t i = 3;
	if (len < 3 || memcmp(p, "---", 3) != 0)
		return 0;
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r'))
		i++;
	return i == len || p[i] == '#';
}

static void lint_object_or_list(lint_ctx *c, const gs_node *root)
{
	const gs_node *kind = gs_lint_find(root, "kind", NULL);
	const gs_node *items = gs_lint_find(root, "items", NULL);

	if (gs_lint_is_str(kind) && strcmp(kind->text, "List") == 0 && items &&
	    items->kind == GS_NODE_SEQ) {
		for (size_t i = 0; i < items->n; i++)
			lint_tree(c, items->items[i], detect(items->items[i]));
		return;
	}
	lint_tree(c, root, detect(root));
}

/* Parses lines [first, end) of the file as one document and lints it. */
static int lint_part(lint_ctx *c, unsigned long first, unsigned long end,
                     gs_error *err)
{
	const lint_src *s = c->src;
	size_t from, to;
	gs_node *root = NULL;
	int rc;

	if (first > end || first > s->n_lines)
		return 0;
	from = s->starts[first - 1];
	to = end <= s->n_lines ? s->starts[end - 1] : s->len;
	if ((rc = gs_yaml_read_buffer(c->file, s->buf + from, to - from, &root, err)) < 0) {
		if (err && err->line)
			err->line += first - 1;
		return rc;
	}
	c->line_base = first - 1;
	c->col_base = 0;
	lint_object_or_list(c, root);
	gs_node_free(root);
	return 0;
}

static int lint_stream(lint_ctx *c, gs_error *err)
{
	const lint_src *s = c->src;
	unsigned long first = 1;
	int rc;

	for (unsigned long l = 1; l <= s->n_lines; l++) {
		size_t len;
		const char *p = src_line(s, l, &len);
		if (!is_separator(p, len))
			continue;
		if ((rc = lint_part(c, first, l, err)) < 0)
			return rc;
		first = l + 1;
	}
	return lint_part(c, first, s->n_lines + 1, err);
}

/* A shell script (labels.sh) rather than YAML. */
static int is_script(const char *buf, size_t len)
{
	return len >= 2 && buf[0] == '#' && buf[1] == '!';
}

/* Whether buf[0..len) is only blanks (the buffer need not end in NUL). */
static int blank(const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!strchr(" \t\r\n", buf[i]))
			return 0;
	return 1;
}

/* Lints the text; rc < 0 when it is not YAML or holds nothing we know. */
static int lint_text(lint_ctx *c, const char *buf, size_t len, gs_error *err)
{
	int rc = 0;

	if (is_script(buf, len))
		gs_lint_script(c, buf, len);
	else
		rc = lint_stream(c, err);
	if (rc == 0 && c->configs == 0)
		return gs_fail_at(err, GS_ESCHEMA, c->file, 0, 0, "%s",
		                  blank(buf, len)
		                      ? "the file is empty: nothing to lint"
		                      : "nothing to lint: no device-plugin, mig-parted, DRA, "
		                        "Karpenter or GPU Operator configuration, workload, Node "
		                        "or labels.sh script");
	return rc;
}

int gs_lint_buffer(gs_lint *l, const char *name, const char *buf, size_t len,
                   gs_error *err)
{
	lint_ctx c = { 0 };
	lint_src src = { 0 };
	lint_facts facts = { 0 };
	size_t first = gs_lint_count(l);
	int rc;

	if (memchr(buf, '\0', len))
		return gs_fail_at(err, GS_ESYNTAX, name, 0, 0, "NUL byte in the file");
	if (!(c.file = gs_lint_keep_name(l, name)))
		return gs_fail_nomem(err);
	if ((rc = index_lines(&src, buf, len, err)) < 0)
		return rc;
	c.lint = l;
	c.opts = gs_lint_options(l);
	c.embedded = lint_embedded;
	c.src = &src;
	c.facts = &facts;
	c.cfg_at.file = c.file;
	c.cfg_at.line = c.cfg_at.col = 1;
	rc = lint_text(&c, buf, len, err);
	free(src.starts);
	if (rc == 0 && c.nomem)
		rc = gs_fail_nomem(err);
	if (rc == 0 && gs_facts_merge(gs_lint_facts(l), &facts) < 0)
		rc = gs_fail_nomem(err);
	if (rc < 0) {
		gs_facts_free(&facts);
		gs_lint_truncate(l, first);
		return rc;
	}
	gs_lint_sort(l, first);
	return 0;
}

/* A claim's sharing strategy needs a gate that the DRA driver values given
 * turn on: its dra-feature-gate warning is wrong. */
static void drop_enabled_gates(gs_lint *l)
{
	const lint_facts *f = gs_lint_facts(l);

	for (size_t i = 0; i < f->n_gate_needs; i++)
		for (size_t j = 0; j < f->n_gates_on; j++)
			if (strcmp(f->gate_needs[i].name, f->gates_on[j].name) == 0)
				gs_lint_drop_at(l, gs_lint_rule_at(R_DRA_FEATURE_GATE)->id,
				                f->gate_needs[i].at);
}

int gs_lint_finish(gs_lint *l, gs_error *err)
{
	lint_ctx c = { 0 };
	size_t first;

	gs_lint_drop_cross(l);
	drop_enabled_gates(l);
	first = gs_lint_count(l);
	c.lint = l;
	c.opts = gs_lint_options(l);
	gs_lint_cross(&c, gs_lint_facts(l));
	gs_lint_mark_cross(l, first);
	if (c.nomem) {
		gs_lint_drop_cross(l);
		return gs_fail_nomem(err);
	}
	gs_lint_sort_files(l, first);
	return 0;
}

int gs_lint_file(gs_lint *l, const char *path, gs_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if ((rc = gs_file_read(path, &buf, &len, err)) < 0)
		return rc;
	rc = gs_lint_buffer(l, path, buf, len, err);
	free(buf);
	return rc;
}
