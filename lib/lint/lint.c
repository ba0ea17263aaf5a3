/*
 * lint.c - gpushare lint: the rule table, the findings and their
 * positions, and the containers configs arrive in (bare files, YAML
 * streams, ConfigMap data values, Helm values).
 *
 * The YAML reader parses one document, so a stream is split on its "---"
 * lines and each part is parsed alone, its line numbers shifted by the
 * lines before it. A config inside a ConfigMap value is parsed again from
 * the value's text; when the value is a literal block ("|") every line of
 * it is a line of the file, shifted right by the block's indentation, so
 * its findings point into the file exactly. Other values (quoted, folded)
 * cannot be mapped line by line, so their findings point at the data key.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint/lint.h"

/* ---- the rules ------------------------------------------------------------ */

#define E GS_SEVERITY_ERROR
#define W GS_SEVERITY_WARNING

static const gs_lint_rule rules[R_COUNT] = {
	[R_DP_VERSION] = { "dp-version", E, "device-plugin config version other than v1" },
	[R_DP_BOTH_STRATEGIES] = { "dp-both-strategies", E,
		"both sharing.timeSlicing and sharing.mps: MPS silently wins" },
	[R_DP_NO_RESOURCES] = { "dp-no-resources", E,
		"timeSlicing or mps without resources, or with none (timeSlicing: {})" },
	[R_DP_REPLICAS] = { "dp-replicas", E,
		"a shared resource without replicas, or replicas not an integer of at least 2" },
	[R_DP_RESOURCE_NAME] = { "dp-resource-name", E,
		"resource name missing, or not nvidia.com/gpu or nvidia.com/mig-<profile>" },
	[R_DP_MPS_MIG] = { "dp-mps-mig", E,
		"MPS with flags.migStrategy mixed, or MPS on a nvidia.com/mig-* resource" },
	[R_DP_MPS_REPLICAS] = { "dp-mps-replicas", E,
		"MPS replicas above the MPS control daemon's client limit: 48, or 16 on a --gpu "
		"below compute capability 7.5" },
	[R_DP_MPS_REPLICAS_OLD_GPU] = { "dp-mps-replicas-old-gpu", W,
		"MPS replicas above 16 fail on GPUs below compute capability 7.5 (V100, P100)" },
	[R_DP_RENAME] = { "dp-rename", W,
		"rename is reset at runtime; only renameByDefault renames" },
	[R_DP_DEVICES] = { "dp-devices", W,
		"devices other than all is reset to all at runtime" },
	[R_DP_DEVICES_INVALID] = { "dp-devices-invalid", E,
		"devices not all, a positive count or a list of GPU indices or UUIDs" },
	[R_DP_FAIL_REQUESTS] = { "dp-fail-requests", W,
		"timeSlicing without failRequestsGreaterThanOne: a pod asking for 2 replicas gets no more compute" },
	[R_DP_UNKNOWN_KEY] = { "dp-unknown-key", W,
		"a key the device plugin does not know and silently ignores" },
	[R_DP_KEY_CASE] = { "dp-key-case", W,
		"a key spelt with other capitals, matched only because Go ignores case there" },
	[R_DP_MIG_STRATEGY] = { "dp-mig-strategy", E, "flags.migStrategy not none, single or mixed" },
	[R_DP_FLAG_VALUE] = { "dp-flag-value", E,
		"a flags value the device plugin rejects (deviceListStrategy, deviceIDStrategy, ...)" },
	[R_DP_TYPE] = { "dp-type", E, "a device-plugin value of the wrong type" },

	[R_MIG_VERSION] = { "mig-version", E, "mig-parted config without version: v1" },
	[R_MIG_UNKNOWN_KEY] = { "mig-unknown-key", E,
		"a key mig-parted does not know (it rejects the whole file)" },
	[R_MIG_EMPTY] = { "mig-empty", E, "mig-configs empty, or a config with no entries" },
	[R_MIG_REQUIRED] = { "mig-required", E, "an entry without devices or mig-enabled" },
	[R_MIG_DEVICES] = { "mig-devices", E, "devices not all and not a list of GPU indices" },
	[R_MIG_ENABLED_WITHOUT_DEVICES] = { "mig-enabled-without-devices", E,
		"mig-enabled: true without mig-devices" },
	[R_MIG_DISABLED_WITH_DEVICES] = { "mig-disabled-with-devices", E,
		"mig-enabled: false with MIG devices" },
	[R_MIG_PROFILE] = { "mig-profile", E,
		"a profile not of the form [<c>c.]<g>g.<mem>gb[+me|-me|+gfx|+me.all]" },
	[R_MIG_COUNT] = { "mig-count", E, "a count that is negative or not an integer, or all counts 0" },
	[R_MIG_GEOMETRY] = { "mig-geometry", E,
		"mig-devices that do not fit the GPU (--gpu, or the model its device-filter names)" },
	[R_MIG_GEOMETRY_ANY] = { "mig-geometry-any", W,
		"mig-devices that fit no MIG GPU of the catalog" },
	[R_MIG_DEVICE_FILTER] = { "mig-device-filter", W,
		"a device-filter that is not a PCI id like 0x20B010DE and so never matches" },
	[R_MIG_TYPE] = { "mig-type", E, "a mig-parted value of the wrong type" },

	[R_DRA_OLD_API] = { "dra-old-api", E,
		"opaque parameters in gpu.nvidia.com/v1alpha1, renamed resource.nvidia.com/v1beta1" },
	[R_DRA_PARAMS_API] = { "dra-params-api", E,
		"opaque parameters of an apiVersion or kind the NVIDIA DRA driver cannot decode" },
	[R_DRA_DRIVER] = { "dra-driver", E, "NVIDIA GPU parameters for a driver other than gpu.nvidia.com" },
	[R_DRA_UNKNOWN_KEY] = { "dra-unknown-key", E,
		"a key in the opaque parameters (the driver decodes them strictly)" },
	[R_DRA_STRATEGY] = { "dra-strategy", E, "sharing.strategy not exactly TimeSlicing or MPS" },
	[R_DRA_INTERVAL] = { "dra-interval", E,
		"interval not Default, Short, Medium or Long, or timeSlicingConfig without interval" },
	[R_DRA_MIG_TIMESLICING] = { "dra-mig-timeslicing", E, "timeSlicingConfig in a MigDeviceConfig" },
	[R_DRA_STRATEGY_CONFIG] = { "dra-strategy-config", E,
		"mpsConfig with TimeSlicing, or timeSlicingConfig with MPS" },
	[R_DRA_THREAD_PERCENTAGE] = { "dra-thread-percentage", E,
		"defaultActiveThreadPercentage not an integer from 0 to 100" },
	[R_DRA_MEMORY_LIMIT] = { "dra-memory-limit", E,
		"a pinned memory limit that is not a quantity of at least 1Mi" },
	[R_DRA_FEATURE_GATE] = { "dra-feature-gate", W,
		"sharing needs the driver's TimeSlicingSettings or MPSSupport feature gate" },
	[R_DRA_API_VERSION] = { "dra-api-version", E, "a resource.k8s.io version that does not exist" },
	[R_DRA_API_ALPHA] = { "dra-api-alpha", W,
		"resource.k8s.io/v1alpha3 claims, served only by Kubernetes 1.31" },
	[R_DRA_REQUEST_SHAPE] = { "dra-request-shape", E,
		"a request shape that does not match the apiVersion (exactly: or flat deviceClassName)" },
	[R_DRA_TEMPLATE_SPEC] = { "dra-template-spec", E,
		"a ResourceClaimTemplate without spec.spec" },
	[R_DRA_REMOVED_ATTRIBUTE] = { "dra-removed-attribute", W,
		"a CEL selector using a removed attribute: index, minor, parentIndex, pcieBusID" },
	[R_DRA_MEMORY_ATTRIBUTE] = { "dra-memory-attribute", W,
		"a CEL selector reading memory as an attribute instead of device.capacity" },
	[R_DRA_TEMPLATE_SHARING] = { "dra-template-sharing", W,
		"a ResourceClaimTemplate with sharing: every pod gets its own claim, nothing is shared" },

	[R_KARPENTER_OLD_API] = { "karpenter-old-api", E,
		"Provisioner, AWSNodeTemplate or a v1alpha5/v1beta1 Karpenter API" },
	[R_KARPENTER_NODECLASSREF] = { "karpenter-nodeclassref", E,
		"a NodePool nodeClassRef without group, kind or name" },
	[R_KARPENTER_RESTRICTED_LABEL] = { "karpenter-restricted-label", E,
		"a NodePool label or requirement in a domain Karpenter reserves" },
	[R_KARPENTER_REQUIREMENT] = { "karpenter-requirement", E,
		"a NodePool requirement In without values, or Gt/Lt without one integer" },

	[R_CONFIG_PARSE] = { "config-parse", E, "an embedded config that is not valid YAML" },
	[R_CONFIGMAP_NOT_STRING] = { "configmap-not-string", E,
		"a config written as a mapping where a string (a | block) is required" },
	[R_VALUES_DEFAULT] = { "values-default", E, "a Helm default that names no config" },
	[R_NO_CONFIG] = { "no-config", W, "nothing in the file that lint checks" },
};

#undef E
#undef W

size_t gs_lint_rule_count(void)
{
	return R_COUNT;
}

const gs_lint_rule *gs_lint_rule_at(size_t i)
{
	return i < R_COUNT ? &rules[i] : NULL;
}

const char *gs_severity_name(gs_severity s)
{
	return s == GS_SEVERITY_ERROR ? "error" : "warning";
}

/* ---- the result ----------------------------------------------------------- */

typedef struct lint_item {
	gs_finding f;
	size_t seq;
} lint_item;

struct gs_lint {
	gs_lint_opts opts;
	lint_item *items;
	size_t n, cap;
	char **files;
	size_t n_files, cap_files;
};

int gs_lint_new(const gs_lint_opts *opts, gs_lint **out, gs_error *err)
{
	gs_lint *l = calloc(1, sizeof *l);
	gs_lint_opts none = GS_LINT_OPTS_INIT;

	if (!l)
		return gs_fail_nomem(err);
	l->opts = opts ? *opts : none;
	*out = l;
	return 0;
}

void gs_lint_free(gs_lint *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free((char *)l->items[i].f.message);
	for (size_t i = 0; i < l->n_files; i++)
		free(l->files[i]);
	free(l->items);
	free(l->files);
	free(l);
}

size_t gs_lint_count(const gs_lint *l)
{
	return l->n;
}

const gs_finding *gs_lint_at(const gs_lint *l, size_t i)
{
	return i < l->n ? &l->items[i].f : NULL;
}

size_t gs_lint_error_count(const gs_lint *l)
{
	size_t n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += l->items[i].f.severity == GS_SEVERITY_ERROR;
	return n;
}

void lint_add(lint_ctx *c, int rule, const gs_node *at, const char *fmt, ...)
{
	gs_lint *l = c->lint;
	lint_item *it;
	va_list ap;
	char buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (gs_grow(&l->items, &l->cap, l->n + 1, sizeof *l->items) < 0) {
		c->nomem = 1;
		return;
	}
	it = &l->items[l->n];
	memset(it, 0, sizeof *it);
	if (!(it->f.message = gs_strdup(buf))) {
		c->nomem = 1;
		return;
	}
	it->f.file = c->file;
	it->f.id = rules[rule].id;
	it->f.severity = rules[rule].severity;
	if (c->pinned) {
		it->f.line = c->pin_line;
		it->f.col = c->pin_col;
	} else if (at && at->line) {
		it->f.line = at->line + c->line_base;
		it->f.col = at->col + c->col_base;
	} else {
		it->f.line = c->line_base + 1;
		it->f.col = c->col_base + 1;
	}
	it->seq = l->n++;
}

static int by_position(const void *a, const void *b)
{
	const lint_item *x = a, *y = b;
	if (x->f.line != y->f.line)
		return x->f.line < y->f.line ? -1 : 1;
	if (x->f.col != y->f.col)
		return x->f.col < y->f.col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int gs_doc_lint(const gs_lint *l, gs_doc **out, gs_error *err)
{
	gs_node *list = gs_node_new(GS_NODE_SEQ, NULL);

	if (!list)
		return gs_fail_nomem(err);
	for (size_t i = 0; i < l->n; i++) {
		const gs_finding *f = &l->items[i].f;
		gs_node *m = gs_node_new(GS_NODE_MAP, NULL);
		int rc = 0;
		if (!m) {
			gs_node_free(list);
			return gs_fail_nomem(err);
		}
		rc |= gs_node_put(m, "file", gs_node_str(f->file));
		rc |= gs_node_put(m, "line", gs_node_int((int64_t)f->line));
		rc |= gs_node_put(m, "col", gs_node_int((int64_t)f->col));
		rc |= gs_node_put(m, "severity", gs_node_str(gs_severity_name(f->severity)));
		rc |= gs_node_put(m, "id", gs_node_str(f->id));
		rc |= gs_node_put(m, "message", gs_node_str(f->message));
		if (gs_node_push(list, m) < 0 || rc < 0) {
			gs_node_free(list);
			return gs_fail_nomem(err);
		}
	}
	return gs_doc_wrap(list, out, err);
}

/* ---- reading values ------------------------------------------------------- */

gs_node *lint_find(const gs_node *map, const char *name, gs_node **key)
{
	if (map && map->kind == GS_NODE_MAP)
		for (size_t i = 0; i < map->n; i++)
			if (strcmp(map->keys[i]->text, name) == 0) {
				if (key)
					*key = map->keys[i];
				return map->items[i];
			}
	return NULL;
}

gs_node *lint_find_ci(const gs_node *map, const char *name, gs_node **key)
{
	gs_node *v = lint_find(map, name, key);
	if (v || !map || map->kind != GS_NODE_MAP)
		return v;
	for (size_t i = 0; i < map->n; i++)
		if (gs_strcaseeq(map->keys[i]->text, name)) {
			if (key)
				*key = map->keys[i];
			return map->items[i];
		}
	return NULL;
}

int lint_int(const gs_node *n, long long *out)
{
	const char *s;
	char *end;
	long long v;

	if (!n || n->kind != GS_NODE_STRING || n->quoted)
		return 0;
	s = n->text;
	if (*s == '+' || *s == '-')
		s++;
	if (!*s || strspn(s, "0123456789") != strlen(s))
		return 0;
	v = strtoll(n->text, &end, 10);
	*out = v;
	return 1;
}

int lint_bool(const gs_node *n, int *out)
{
	/* YAML 1.1 as go-yaml v2 reads it (sigs.k8s.io/yaml). */
	static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES",
		                               "on", "On", "ON", "y", "Y" };
	static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO",
		                              "off", "Off", "OFF", "n", "N" };
	if (!n || n->kind != GS_NODE_STRING || n->quoted)
		return 0;
	for (size_t i = 0; i < GS_ARRAY_LEN(yes); i++) {
		if (strcmp(n->text, yes[i]) == 0)
			return *out = 1, 1;
		if (strcmp(n->text, no[i]) == 0)
			return *out = 0, 1;
	}
	return 0;
}

int lint_is_str(const gs_node *n)
{
	return n && n->kind == GS_NODE_STRING;
}

const char *lint_kind_name(const gs_node *n)
{
	if (!n || n->kind == GS_NODE_NULL)
		return "empty";
	if (n->kind == GS_NODE_MAP)
		return "a mapping";
	if (n->kind == GS_NODE_SEQ)
		return "a list";
	return "a scalar";
}

const char *lint_quote(const gs_node *n, char *buf, size_t size)
{
	size_t o = 0, max = size > 44 ? 40 : size - 4; /* size is at least 8 */
	const char *s;

	if (!n || n->kind == GS_NODE_NULL)
		return "";
	if (n->kind == GS_NODE_MAP || n->kind == GS_NODE_SEQ)
		return lint_kind_name(n);
	for (s = n->text; *s && o < max; s++)
		buf[o++] = (*s == '\n' || *s == '\t') ? ' ' : *s;
	if (*s)
		memcpy(buf + o, "...", 4);
	else
		buf[o] = '\0';
	return buf;
}

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

static int is_map(const gs_node *n)
{
	return n && n->kind == GS_NODE_MAP;
}

lint_kind lint_detect(const gs_node *root)
{
	static const char *const mig[] = { "mig-configs" };
	static const char *const dp[] = { "sharing", "flags", "timeSlicing", "mps", "imex" };
	const gs_node *res, *cfg;

	if (!is_map(root))
		return LINT_NONE;
	if (lint_find(root, "apiVersion", NULL) || lint_find(root, "kind", NULL))
		return LINT_K8S_OBJECT;
	if (lint_find(root, "mig-configs", NULL) || has_key_near(root, mig, 1))
		return LINT_MIG_PARTED;
	for (size_t i = 0; i < GS_ARRAY_LEN(dp); i++)
		if (lint_find_ci(root, dp[i], NULL))
			return LINT_DEVICE_PLUGIN;
	res = lint_find(root, "resources", NULL);
	if (is_map(res) && (lint_find(res, "gpus", NULL) || lint_find(res, "mig", NULL)))
		return LINT_DEVICE_PLUGIN;
	if (lint_find(root, "devicePlugin", NULL) || lint_find(root, "migManager", NULL))
		return LINT_HELM_VALUES;
	cfg = lint_find(root, "config", NULL);
	if (is_map(cfg) && lint_find(cfg, "map", NULL))
		return LINT_HELM_VALUES;
	/* A misspelt section next to a version ("sharring:") is still one. */
	if (lint_find(root, "version", NULL) && root->n > 1 &&
	    has_key_near(root, dp, GS_ARRAY_LEN(dp)))
		return LINT_DEVICE_PLUGIN;
	return LINT_NONE;
}

void lint_tree(lint_ctx *c, const gs_node *root, lint_kind kind)
{
	switch (kind) {
	case LINT_DEVICE_PLUGIN:
		c->configs++;
		lint_device_plugin(c, root);
		break;
	case LINT_MIG_PARTED:
		c->configs++;
		lint_mig_parted(c, root);
		break;
	case LINT_K8S_OBJECT:
		lint_k8s_object(c, root);
		break;
	case LINT_HELM_VALUES:
		lint_helm_values(c, root);
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
		                                 "migStrategy", "mig-devices" };
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
	lint_kind kind = lint_detect(val);

	if (kind != LINT_DEVICE_PLUGIN && kind != LINT_MIG_PARTED)
		return;
	lint_add(c, R_CONFIGMAP_NOT_STRING, key,
	         "%s holds %s, but the config must be a string: write '%s: |' and indent "
	         "the config under it", what, lint_kind_name(val), key->text);
	lint_tree(c, val, kind);
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
	if (indent) {
		sub->line_base = line;
		sub->col_base = indent;
	} else if (!c->pinned) {
		sub->pinned = 1;
		sub->pin_line = key->line + c->line_base;
		sub->pin_col = key->col + c->col_base;
	}
}

void lint_embedded(lint_ctx *c, const gs_node *key, const gs_node *val,
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
			lint_add(&sub, R_CONFIG_PARSE, &at, "%s is not valid YAML: %s", what, err.msg);
			c->nomem |= sub.nomem;
			c->configs++;
		}
		return;
	}
	kind = lint_detect(root);
	if (kind == LINT_DEVICE_PLUGIN || kind == LINT_MIG_PARTED)
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
	const gs_node *kind = lint_find(root, "kind", NULL);
	const gs_node *items = lint_find(root, "items", NULL);

	if (lint_is_str(kind) && strcmp(kind->text, "List") == 0 && items &&
	    items->kind == GS_NODE_SEQ) {
		for (size_t i = 0; i < items->n; i++)
			lint_tree(c, items->items[i], lint_detect(items->items[i]));
		return;
	}
	lint_tree(c, root, lint_detect(root));
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

static char *keep_name(gs_lint *l, const char *name)
{
	char *copy;
	if (gs_grow(&l->files, &l->cap_files, l->n_files + 1, sizeof *l->files) < 0 ||
	    !(copy = gs_strdup(name)))
		return NULL;
	l->files[l->n_files++] = copy;
	return copy;
}

int gs_lint_buffer(gs_lint *l, const char *name, const char *buf, size_t len,
                   gs_error *err)
{
	lint_ctx c = { 0 };
	lint_src src = { 0 };
	size_t first = l->n;
	int rc;

	if (memchr(buf, '\0', len))
		return gs_fail_at(err, GS_ESYNTAX, name, 0, 0, "NUL byte in the file");
	if (!(c.file = keep_name(l, name)))
		return gs_fail_nomem(err);
	if ((rc = index_lines(&src, buf, len, err)) < 0)
		return rc;
	c.lint = l;
	c.opts = &l->opts;
	c.src = &src;
	rc = lint_stream(&c, err);
	if (rc == 0 && c.configs == 0) {
		c.line_base = c.col_base = 0;
		c.pinned = 0;
		lint_add(&c, R_NO_CONFIG, NULL,
		         "found no device-plugin, mig-parted, DRA or Karpenter configuration to check");
	}
	free(src.starts);
	if (rc == 0 && c.nomem)
		rc = gs_fail_nomem(err);
	if (rc < 0) {
		for (size_t i = first; i < l->n; i++)
			free((char *)l->items[i].f.message);
		l->n = first;
		return rc;
	}
	if (l->n > first)
		qsort(l->items + first, l->n - first, sizeof *l->items, by_position);
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
