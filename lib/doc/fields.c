/* fields.c - typed access to parsed documents, with located errors. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "doc/fields.h"

static const char *kind_name(gs_node_kind k)
{
	switch (k) {
	case GS_NODE_NULL: return "null";
	case GS_NODE_BOOL: return "a boolean";
	case GS_NODE_NUMBER: return "a number";
	case GS_NODE_STRING: return "a string";
	case GS_NODE_SEQ: return "a list";
	case GS_NODE_MAP: return "a mapping";
	}
	return "a value";
}

static const char *found_name(const gs_node *n)
{
	if (n->kind == GS_NODE_STRING)
		return n->quoted ? "a quoted string" : "a value";
	return kind_name(n->kind);
}

int gs_need_kind(gs_ctx *c, const gs_node *n, gs_node_kind kind,
                 const char *what)
{
	if (n->kind == kind)
		return 0;
	return gs_fail_node(c->err, GS_ESCHEMA, c->file, n,
	                    "%s must be %s, not %s", what, kind_name(kind),
	                    found_name(n));
}

int gs_check_keys(gs_ctx *c, const gs_node *map, const char *const *allowed,
                  size_t n)
{
	for (size_t i = 0; i < map->n; i++) {
		const gs_node *k = map->keys[i];
		const char *near;
		size_t j;
		for (j = 0; j < n; j++)
			if (strcmp(k->text, allowed[j]) == 0)
				break;
		if (j < n)
			continue;
		near = gs_suggest(k->text, allowed, n);
		if (near)
			return gs_fail_node(c->err, GS_ESCHEMA, c->file, k,
			                    "unknown key '%s' (did you mean '%s'?)",
			                    k->text, near);
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, k,
		                    "unknown key '%s'", k->text);
	}
	return 0;
}

int gs_require(gs_ctx *c, const gs_node *map, const char *key,
               const char *what, gs_node **out)
{
	gs_node *v = gs_node_get(map, key);
	if (!v || v->kind == GS_NODE_NULL)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v ? v : map,
		                    "%s needs '%s'", what, key);
	*out = v;
	return 0;
}

/* Looks a key up; 1 when present and not null, 0 when absent, <0 on error. */
static int lookup(gs_ctx *c, const gs_node *map, const char *key, int required,
                  gs_node **out)
{
	gs_node *v = gs_node_get(map, key);
	if (v && v->kind != GS_NODE_NULL) {
		*out = v;
		return 1;
	}
	if (required)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v ? v : map,
		                    "missing required key '%s'", key);
	return 0;
}

int gs_get_str(gs_ctx *c, const gs_node *map, const char *key, int required,
               const char **out)
{
	gs_node *v = NULL;
	int rc = lookup(c, map, key, required, &v);
	if (rc <= 0)
		return rc;
	if (v->kind != GS_NODE_STRING)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'%s' must be a string, not %s", key, found_name(v));
	*out = v->text;
	return 0;
}

int gs_scalar_int(gs_ctx *c, const gs_node *n, int64_t min, int64_t max,
                  int64_t *out)
{
	const char *s = n->text;
	char *end;
	long long v;

	if (n->kind != GS_NODE_STRING || n->quoted)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, n,
		                    "expected a whole number, not %s", found_name(n));
	errno = 0;
	v = strtoll(s, &end, 10);
	if (!isdigit((unsigned char)s[s[0] == '-' || s[0] == '+']) || *end)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, n,
		                    "expected a whole number, not '%s'", s);
	if (errno == ERANGE || v < min || v > max)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, n,
		                    "%s is out of range (%lld to %lld)", s,
		                    (long long)min, (long long)max);
	*out = v;
	return 0;
}

int gs_get_int(gs_ctx *c, const gs_node *map, const char *key, int required,
               int64_t min, int64_t max, int64_t *out)
{
	gs_node *v = NULL;
	int rc = lookup(c, map, key, required, &v);
	if (rc <= 0 || (rc = gs_scalar_int(c, v, min, max, out)) == 0)
		return rc;
	/* Name the key: "8 is out of range" alone leaves the reader guessing. */
	if (c->err) {
		gs_error tmp = *c->err;
		gs_fail_node(c->err, rc, c->file, v, "'%s': %s", key, tmp.msg);
	}
	return rc;
}

int gs_get_bool(gs_ctx *c, const gs_node *map, const char *key, int required,
                int *out)
{
	gs_node *v = NULL;
	int rc = lookup(c, map, key, required, &v);
	if (rc <= 0)
		return rc;
	if (v->kind == GS_NODE_STRING && !v->quoted) {
		if (strcmp(v->text, "true") == 0)
			return *out = 1, 0;
		if (strcmp(v->text, "false") == 0)
			return *out = 0, 0;
	}
	return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
	                    "'%s' must be true or false", key);
}

int gs_get_fixed(gs_ctx *c, const gs_node *map, const char *key, int required,
                 int64_t scale, int64_t *out)
{
	gs_node *v = NULL;
	int rc = lookup(c, map, key, required, &v);
	if (rc <= 0)
		return rc;
	if (v->kind != GS_NODE_STRING || v->quoted)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'%s' must be a number, not %s", key, found_name(v));
	switch (gs_parse_fixed(v->text, scale, out)) {
	case 0: return 0;
	case GS_PARSE_TOO_PRECISE:
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'%s' has more than %d decimals: '%s'", key,
		                    gs_scale_decimals(scale), v->text);
	case GS_PARSE_TOO_LARGE:
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v, "'%s' is too large: '%s'",
		                    key, v->text);
	default:
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "'%s' must be a non-negative decimal number, not '%s'", key,
		                    v->text);
	}
}

typedef struct unit {
	const char *name;
	int64_t bytes;
} unit;

static const unit mem_units[] = {
	{ "GiB", INT64_C(1) << 30 }, { "Gi", INT64_C(1) << 30 },
	{ "MiB", INT64_C(1) << 20 }, { "Mi", INT64_C(1) << 20 },
	{ "GB", 1000000000 },        { "MB", 1000000 },
};

int gs_parse_bytes(const char *text, int64_t *out, gs_error *err)
{
	size_t i = 0;
	const unit *u = NULL;
	int64_t micro;
	char num[64];

	int digits = 0;
	while (text[i] && (isdigit((unsigned char)text[i]) || text[i] == '.'))
		digits += isdigit((unsigned char)text[i++]) != 0;
	if (digits == 0 || i >= sizeof num)
		return gs_fail(err, GS_ESCHEMA,
		               "'%s' is not a memory size (try '10GiB' or '512MiB')",
		               text);
	if ((text[i] == 'e' || text[i] == 'E') &&
	    (isdigit((unsigned char)text[i + 1]) || text[i + 1] == '+' || text[i + 1] == '-'))
		return gs_fail(err, GS_ESCHEMA,
		               "'%s': exponents are not allowed (write the number out)", text);
	for (size_t k = 0; k < GS_ARRAY_LEN(mem_units); k++)
		if (strcmp(text + i, mem_units[k].name) == 0)
			u = &mem_units[k];
	if (!u) {
		if (!text[i])
			return gs_fail(err, GS_ESCHEMA,
			               "'%s' needs a unit: GiB, Gi, MiB, Mi, GB or MB",
			               text);
		return gs_fail(err, GS_ESCHEMA,
		               "unknown unit '%s' in '%s' (use GiB, Gi, MiB, Mi, GB or MB)",
		               text + i, text);
	}
	memcpy(num, text, i);
	num[i] = '\0';
	switch (gs_parse_fixed(num, 1000000, &micro)) {
	case 0: break;
	case GS_PARSE_TOO_LARGE: return gs_fail(err, GS_ESCHEMA, "'%s' is too large", text);
	case GS_PARSE_TOO_PRECISE:
		return gs_fail(err, GS_ESCHEMA, "'%s' has more than 6 decimals", text);
	default: return gs_fail(err, GS_ESCHEMA, "'%s' is not a valid size", text);
	}
	if (micro / 1000000 > INT64_MAX / u->bytes / 2)
		return gs_fail(err, GS_ESCHEMA, "'%s' is too large", text);
	*out = (micro / 1000000) * u->bytes +
	       gs_div_ceil((micro % 1000000) * u->bytes, 1000000);
	return 0;
}

int gs_parse_share(const char *text, int64_t *out, gs_error *err)
{
	size_t len = strlen(text);
	char num[64];
	int64_t v;

	if (len == 0 || len >= sizeof num)
		return gs_fail(err, GS_ESCHEMA, "'%s' is not a share", text);
	memcpy(num, text, len + 1);
	if (num[len - 1] == '%') {
		num[len - 1] = '\0';
		/* 40.5% = 405000 ppm: percent with 4 decimals. */
		if (gs_parse_fixed(num, 10000, &v) < 0)
			return gs_fail(err, GS_ESCHEMA,
			               "'%s' is not a percentage (try '40%%')", text);
		*out = v;
		return 0;
	}
	if (gs_parse_fixed(num, GS_PPM, &v) < 0)
		return gs_fail(err, GS_ESCHEMA,
		               "'%s' is not a share (use a percentage like '40%%' or a fraction "
		               "like '0.4')", text);
	*out = v;
	return 0;
}

/* Kubernetes writes CPU as cores ("4", "0.5") or millicores ("500m"); a
 * millicore is the finest unit it schedules. */
int gs_parse_cpu(const char *text, int64_t *out, gs_error *err)
{
	size_t len = strlen(text);
	int milli = len > 0 && text[len - 1] == 'm';
	char num[64];
	int64_t v;

	if (len == 0 || len >= sizeof num)
		return gs_fail(err, GS_ESCHEMA, "'%s' is not a CPU amount (try '4' or '500m')",
		               text);
	memcpy(num, text, len + 1);
	if (milli)
		num[len - 1] = '\0';
	switch (gs_parse_fixed(num, milli ? 1 : 1000, &v)) {
	case 0:
		break;
	case GS_PARSE_TOO_PRECISE:
		return gs_fail(err, GS_ESCHEMA, "'%s' is finer than a millicore (at most 3 "
		               "decimals, or whole millicores like '500m')", text);
	case GS_PARSE_TOO_LARGE:
		return gs_fail(err, GS_ESCHEMA, "'%s' is too large", text);
	default:
		return gs_fail(err, GS_ESCHEMA, "'%s' is not a CPU amount (try '4', '0.5' or "
		               "'500m')", text);
	}
	/* A million cores is far past any machine: a typo, not a need. */
	if (v > INT64_C(1000000000))
		return gs_fail(err, GS_ESCHEMA, "'%s' is too large", text);
	*out = v;
	return 0;
}

static int scalar_text(gs_ctx *c, const gs_node *n, const char *what)
{
	if (n->kind == GS_NODE_STRING)
		return 0;
	return gs_fail_node(c->err, GS_ESCHEMA, c->file, n,
	                    "expected %s, not %s", what, found_name(n));
}

/* Re-anchors an unlocated parse error at node n. */
static int locate(gs_ctx *c, const gs_node *n, int rc)
{
	if (rc < 0 && c->err) {
		gs_error tmp = *c->err;
		gs_fail_node(c->err, rc, c->file, n, "%s", tmp.msg);
	}
	return rc;
}

int gs_scalar_bytes(gs_ctx *c, const gs_node *n, int64_t *out)
{
	int rc = scalar_text(c, n, "a memory size");
	return rc < 0 ? rc : locate(c, n, gs_parse_bytes(n->text, out, c->err));
}

int gs_scalar_cpu(gs_ctx *c, const gs_node *n, int64_t *out)
{
	int rc = scalar_text(c, n, "a CPU amount");
	return rc < 0 ? rc : locate(c, n, gs_parse_cpu(n->text, out, c->err));
}

int gs_scalar_share(gs_ctx *c, const gs_node *n, int64_t *out)
{
	int rc = scalar_text(c, n, "a share");
	return rc < 0 ? rc : locate(c, n, gs_parse_share(n->text, out, c->err));
}
