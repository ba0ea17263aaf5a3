/*
 * lint_mig.c - NVIDIA mig-parted config files (api/spec/v1).
 *
 * mig-parted decodes strictly: unknown keys, a missing version and the
 * other mistakes below make it reject the whole file (MP api/spec/v1,
 * pkg/types; shared/reference/k8s-formats.md section 2). Whether the
 * profiles fit a GPU is only found out on the node; lint checks it
 * against the catalog's MIG models with gs_mig_fit.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint/kit.h"

#define MAX_ITEMS 32  /* gs_mig_fit's limit on instances */

/* PCI device IDs (0x<device><vendor>, as device-filter writes them) of the
 * MIG models, from shared/reference/mig-truth.json (gpus.*.pci_device_ids:
 * Debian pci.ids 2023.04.10 and NVIDIA/mig-parted's config-default.yaml).
 * A800 and H800 parts share their A100 and H100 siblings' MIG geometry.
 * GH200, H20, PG506 (H100-96GB) and RTX PRO 6000 are not in the catalog. */
static const struct pci_model {
	const char *id;
	const char *model;
} pci_models[] = {
	{ "0x20B010DE", "A100-SXM4-40GB" }, { "0x20B110DE", "A100-PCIE-40GB" },
	{ "0x20F110DE", "A100-PCIE-40GB" }, { "0x20F610DE", "A100-PCIE-40GB" },
	{ "0x20B210DE", "A100-SXM4-80GB" }, { "0x20B510DE", "A100-PCIE-80GB" },
	{ "0x20F310DE", "A100-SXM4-80GB" }, { "0x20F510DE", "A100-PCIE-80GB" },
	{ "0x20B710DE", "A30" },            { "0x233010DE", "H100-SXM5-80GB" },
	{ "0x233110DE", "H100-PCIE-80GB" }, { "0x232210DE", "H100-PCIE-80GB" },
	{ "0x232410DE", "H100-SXM5-80GB" }, { "0x232110DE", "H100-NVL-94GB" },
	{ "0x233A10DE", "H100-NVL-94GB" },  { "0x233510DE", "H200-SXM-141GB" },
	{ "0x233B10DE", "H200-SXM-141GB" }, { "0x290110DE", "B200" },
};

static const char *const top_keys[] = { "version", "mig-configs" };
static const char *const item_keys[] = { "device-filter", "devices", "mig-enabled",
	                                     "mig-devices" };

static void unknown_keys(lint_ctx *c, const gs_node *map, const char *const *keys,
                         size_t n)
{
	for (size_t i = 0; i < map->n; i++) {
		const char *k = map->keys[i]->text, *near;
		int known = 0;
		for (size_t j = 0; j < n; j++)
			known |= strcmp(k, keys[j]) == 0;
		if (known)
			continue;
		if ((near = gs_suggest(k, keys, n)))
			gs_lint_add(c, R_MIG_UNKNOWN_KEY, map->keys[i],
			            "unknown key '%s', which makes mig-parted reject the file; "
			            "write '%s'", k, near);
		else
			gs_lint_add(c, R_MIG_UNKNOWN_KEY, map->keys[i],
			            "unknown key '%s', which makes mig-parted reject the file; "
			            "remove it", k);
	}
}

/* ---- profiles ------------------------------------------------------------- */

typedef struct profile {
	int c;          /* compute slices of a compute-instance profile; 0: none */
	int g, gb;
	const char *suffix;
} profile;

static int digits(const char **s, int *out)
{
	long v = 0;
	const char *p = *s;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) && v < 100000)
		v = v * 10 + (*p++ - '0');
	if (isdigit((unsigned char)*p))
		return 0;
	*out = (int)v;
	*s = p;
	return 1;
}

/* [<c>c.]<g>g.<mem>gb[+me|-me|+gfx|+me.all] (go-nvlib's MIG profile names). */
static int parse_profile(const char *s, profile *p)
{
	static const char *const suffixes[] = { "", "+me", "-me", "+gfx", "+me.all" };
	const char *q = s;
	int n;

	p->c = 0;
	if (!digits(&q, &n))
		return 0;
	if (*q == 'c' && q[1] == '.') {
		p->c = n;
		q += 2;
		if (!digits(&q, &n))
			return 0;
	}
	p->g = n;
	if (*q++ != 'g' || *q++ != '.' || !digits(&q, &p->gb) || strncmp(q, "gb", 2) != 0)
		return 0;
	q += 2;
	for (size_t i = 0; i < GS_ARRAY_LEN(suffixes); i++)
		if (strcmp(q, suffixes[i]) == 0) {
			p->suffix = suffixes[i];
			return p->g > 0 && p->gb > 0 && (p->c == 0 || p->c <= p->g);
		}
	return 0;
}

/* The GPU-instance profile name of a mig-devices key ("1c.3g.40gb" ->
 * "3g.40gb"); the key is known to parse. */
static void gi_name(const char *key, char *buf, size_t size)
{
	profile p;
	parse_profile(key, &p);
	snprintf(buf, size, "%dg.%dgb%s", p.g, p.gb, p.suffix);
}

static void bad_profile(lint_ctx *c, const gs_node *key)
{
	char lower[64];
	profile p;
	size_t i;

	for (i = 0; key->text[i] && i < sizeof lower - 1; i++)
		lower[i] = (char)tolower((unsigned char)key->text[i]);
	lower[i] = '\0';
	if (parse_profile(key->text, &p) == 0 && strcmp(lower, key->text) != 0 &&
	    parse_profile(lower, &p))
		gs_lint_add(c, R_MIG_PROFILE, key, "'%s' is not a MIG profile name; write '%s'",
		            key->text, lower);
	else
		gs_lint_add(c, R_MIG_PROFILE, key,
		            "'%s' is not a MIG profile name; write <g>g.<mem>gb with an optional "
		            "<c>c. prefix and +me, -me, +gfx or +me.all suffix, e.g. '1g.5gb'",
		            key->text);
}

/* Checks names and counts; returns the number of instances asked for, or
 * -1 when something is wrong (and reported). */
static long long check_mig_devices(lint_ctx *c, const gs_node *key, const gs_node *devs)
{
	long long total = 0, n;
	int bad = 0;
	profile p;
	char q[64];

	for (size_t i = 0; i < devs->n; i++) {
		const gs_node *v = devs->items[i];
		if (!parse_profile(devs->keys[i]->text, &p)) {
			bad_profile(c, devs->keys[i]);
			bad = 1;
		}
		if (v->kind == GS_NODE_NULL)
			continue;
		if (!gs_lint_int(v, &n) || n < 0) {
			gs_lint_add(c, R_MIG_COUNT, v,
			            "count '%s' of %s must be a whole number, 0 or more",
			            gs_lint_quote(v, q, sizeof q), devs->keys[i]->text);
			bad = 1;
		} else {
			total += n > 1000000 ? 1000000 : n;
		}
	}
	if (!bad && devs->n && total == 0) {
		gs_lint_add(c, R_MIG_COUNT, key,
		            "every count in mig-devices is 0, which mig-parted rejects; give a "
		            "profile a count, or write 'mig-devices: {}'");
		bad = 1;
	}
	return bad ? -1 : total;
}

/* ---- geometry ------------------------------------------------------------- */

/* Builds the GPU instances of mig-devices on g (compute-instance profiles of
 * one GPU-instance profile share GPU instances, as mig-parted reuses them)
 * and fits them. Returns 0, -1 when they do not fit or -2 when g lacks a
 * profile, with the reason in why. */

/* A profile of g by name: exactly, or (drift) as gs_mig_profile_find. */
static const gs_mig_profile *find(const gs_gpu *g, const char *name, int exact)
{
	if (!exact)
		return gs_mig_profile_find(g, name);
	for (size_t i = 0; i < g->n_mig_profiles; i++)
		if (gs_strcaseeq(g->mig_profiles[i].name, name))
			return &g->mig_profiles[i];
	return NULL;
}

static int fit(const gs_gpu *g, const gs_node *devs, int exact, char *why, size_t size)
{
	const gs_mig_profile *items[MAX_ITEMS], *ci_prof[MAX_ITEMS];
	long long ci_slices[MAX_ITEMS];
	size_t n = 0, n_ci = 0;
	gs_error err;

	if (!g->mig_slots)
		return snprintf(why, size, "%s does not support MIG", g->name), -1;
	for (size_t i = 0; i < devs->n; i++) {
		char name[64];
		const gs_mig_profile *mp;
		long long count = 0;
		profile p;
		parse_profile(devs->keys[i]->text, &p);
		gs_lint_int(devs->items[i], &count);
		if (count <= 0)
			continue;
		gi_name(devs->keys[i]->text, name, sizeof name);
		if (!(mp = find(g, name, exact)))
			return snprintf(why, size, "%s has no MIG profile '%s'", g->name, name), -2;
		if (p.c) {
			size_t j = 0;
			while (j < n_ci && ci_prof[j] != mp)
				j++;
			if (j == n_ci) {
				if (n_ci == MAX_ITEMS)
					return snprintf(why, size, "too many profiles for %s",
					                g->name), -1;
				ci_prof[n_ci] = mp;
				ci_slices[n_ci++] = 0;
			}
			ci_slices[j] += (count > 1000 ? 1000 : count) * p.c;
			continue;
		}
		if (count > mp->max_count)
			return snprintf(why, size, "%lld instances of %s, but %s allows at most %d",
			                count, mp->name, g->name, mp->max_count), -1;
		for (long long k = 0; k < count; k++) {
			if (n == MAX_ITEMS)
				return snprintf(why, size, "too many instances for %s",
				                g->name), -1;
			items[n++] = mp;
		}
	}
	for (size_t j = 0; j < n_ci; j++) {
		long long cs = ci_prof[j]->compute_slices > 0 ? ci_prof[j]->compute_slices : 1;
		for (long long k = 0; k < (ci_slices[j] + cs - 1) / cs; k++) {
			if (n == MAX_ITEMS)
				return snprintf(why, size, "too many instances for %s",
				                g->name), -1;
			items[n++] = ci_prof[j];
		}
	}
	if (gs_mig_fit(g, items, n, NULL, &err) < 0)
		return snprintf(why, size, "%s", err.msg), -1;
	return 0;
}

static const gs_gpu *pci_model(const gs_catalog *cat, const char *filter)
{
	char id[16];
	size_t len = strcspn(filter, ":");

	if (len < 3 || len >= sizeof id)
		return NULL;
	for (size_t i = 0; i < len; i++)
		id[i] = i < 2 ? (char)tolower((unsigned char)filter[i])
		              : (char)toupper((unsigned char)filter[i]);
	id[len] = '\0';
	for (size_t i = 0; i < GS_ARRAY_LEN(pci_models); i++)
		if (strcmp(pci_models[i].id, id) == 0)
			return gs_gpu_find(cat, pci_models[i].model);
	return NULL;
}

/* The device-filter values of an entry, as strings (up to max). */
static size_t filters(const gs_node *f, const char **out, size_t max)
{
	size_t n = 0;
	if (gs_lint_is_str(f))
		out[n++] = f->text;
	else if (f && f->kind == GS_NODE_SEQ)
		for (size_t i = 0; i < f->n && n < max; i++)
			if (gs_lint_is_str(f->items[i]))
				out[n++] = f->items[i]->text;
	return n;
}

/* A profile of devs that no MIG model of the catalog has, or NULL. */
static const char *unknown_profile(const gs_catalog *cat, const gs_node *devs,
                                   char *buf, size_t size)
{
	for (size_t i = 0; i < devs->n; i++) {
		int known = 0;
		gi_name(devs->keys[i]->text, buf, size);
		for (size_t j = 0; j < gs_catalog_gpu_count(cat) && !known; j++) {
			const gs_gpu *g = gs_catalog_gpu_at(cat, j);
			known = g->mig_slots && find(g, buf, 1);
		}
		if (!known)
			return devs->keys[i]->text;
	}
	return NULL;
}

/* Without a model: some MIG model must hold the geometry. Only a model that
 * has every profile by its exact name explains a misfit; names that drift
 * ("7g.79gb") may still fit a model. */
static void fit_any(lint_ctx *c, const gs_node *key, const gs_node *devs)
{
	const gs_catalog *cat = c->opts->catalog;
	char why[GS_ERROR_MSG_MAX], first[GS_ERROR_MSG_MAX] = "", name[64];
	const char *unknown;

	for (int exact = 1; exact >= 0; exact--)
		for (size_t i = 0; i < gs_catalog_gpu_count(cat); i++) {
			const gs_gpu *g = gs_catalog_gpu_at(cat, i);
			int rc;
			if (!g->mig_slots)
				continue;
			if ((rc = fit(g, devs, exact, why, sizeof why)) == 0)
				return;
			if (exact && rc == -1 && !first[0])
				snprintf(first, sizeof first, "%s", why);
		}
	if (first[0])
		gs_lint_add(c, R_MIG_GEOMETRY_ANY, key,
		            "mig-devices fit no MIG GPU in gpushare's catalog (%s); see 'gpushare "
		            "mig MODEL' for valid geometries, or pass --gpu", first);
	else if ((unknown = unknown_profile(cat, devs, name, sizeof name)))
		gs_lint_add(c, R_MIG_GEOMETRY_ANY, key,
		            "no MIG GPU in gpushare's catalog has profile '%s'; check the name "
		            "with 'gpushare gpus MODEL', or ignore this if the config is for "
		            "another GPU", unknown);
	else
		gs_lint_add(c, R_MIG_GEOMETRY_ANY, key,
		            "no MIG GPU in gpushare's catalog has all of these profiles; check the "
		            "names with 'gpushare gpus MODEL'");
}

static void check_geometry(lint_ctx *c, const gs_node *key, const gs_node *devs,
                           const gs_node *filter)
{
	const gs_catalog *cat = c->opts->catalog;
	const gs_gpu *g = c->opts->gpu;
	const char *ids[16];
	size_t n_ids;
	char why[GS_ERROR_MSG_MAX];

	if (g && !g->mig_slots) {
		gs_lint_add(c, R_MIG_GEOMETRY, key,
		            "%s does not support MIG, so this entry cannot apply to it; pass the "
		            "--gpu the config is for", g->name);
		return;
	}
	if (g) {
		if (fit(g, devs, 0, why, sizeof why) < 0)
			gs_lint_add(c, R_MIG_GEOMETRY, key,
			            "mig-devices do not fit %s: %s; see 'gpushare mig %s' for "
			            "valid geometries", g->name, why, g->name);
		return;
	}
	if (!cat)
		return;
	n_ids = filters(filter, ids, GS_ARRAY_LEN(ids));
	if (n_ids == 0) {
		fit_any(c, key, devs);
		return;
	}
	/* With a device-filter, check the models it names that the catalog has;
	 * the others cannot be checked. */
	for (size_t i = 0; i < n_ids; i++) {
		if (!(g = pci_model(cat, ids[i])) || fit(g, devs, 0, why, sizeof why) == 0)
			continue;
		gs_lint_add(c, R_MIG_GEOMETRY, key,
		            "mig-devices do not fit %s (device-filter %s): %s; see 'gpushare mig "
		            "%s' for valid geometries", g->name, ids[i], why, g->name);
		return;
	}
}

/* ---- entries -------------------------------------------------------------- */

static int pci_id_ok(const char *s)
{
	const char *colon = strchr(s, ':');
	size_t parts = colon ? 2 : 1;

	for (size_t i = 0; i < parts; i++) {
		const char *p = i ? colon + 1 : s;
		size_t len = i || !colon ? strlen(p) : (size_t)(colon - s);
		if (len > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			for (size_t j = 2; j < len; j++)
				if (!isxdigit((unsigned char)p[j]))
					return 0;
		} else if (len == 0 || strspn(p, "0123456789") < len) {
			return 0;
		}
	}
	return 1;
}

static void check_filter(lint_ctx *c, const gs_node *key, const gs_node *f)
{
	const gs_node *one[1] = { f };
	const gs_node *const *list = one;
	size_t n = 1;

	if (f->kind == GS_NODE_SEQ) {
		list = (const gs_node *const *)f->items;
		n = f->n;
	}
	for (size_t i = 0; i < n; i++) {
		if (!gs_lint_is_str(list[i])) {
			gs_lint_add(c, R_MIG_TYPE, list[i]->line ? list[i] : key,
			            "device-filter must be a PCI device ID string or a list of "
			            "them, not %s", gs_lint_kind_name(list[i]));
			return;
		}
		if (!pci_id_ok(list[i]->text))
			gs_lint_add(c, R_MIG_DEVICE_FILTER, list[i],
			            "device-filter '%s' is not a PCI device ID like 0x20B010DE, "
			            "so it never matches a GPU", list[i]->text);
	}
}

static void check_devices(lint_ctx *c, const gs_node *key, const gs_node *v)
{
	long long n;
	char q[64];

	if (v->kind == GS_NODE_NULL || (gs_lint_is_str(v) && strcmp(v->text, "all") == 0))
		return;
	if (v->kind == GS_NODE_SEQ) {
		for (size_t i = 0; i < v->n; i++)
			if (!gs_lint_int(v->items[i], &n) || n < 0) {
				gs_lint_add(c, R_MIG_DEVICES, v->items[i],
				            "devices entry '%s' is not a GPU index; write indices "
				            "like [0, 1]", gs_lint_quote(v->items[i], q, sizeof q));
				return;
			}
		return;
	}
	gs_lint_add(c, R_MIG_DEVICES, v->line ? v : key,
	            "devices is '%s'; write all or a list of GPU indices like [0, 1]",
	            gs_lint_quote(v, q, sizeof q));
}

static void check_item(lint_ctx *c, const gs_node *item)
{
	gs_node *ek = NULL, *dk = NULL, *fk = NULL, *vk = NULL;
	const gs_node *en, *devs, *filter, *dev;
	int enabled = 0, has_enabled = 0;
	long long total = -1;

	if (item->kind != GS_NODE_MAP) {
		gs_lint_add(c, R_MIG_TYPE, item,
		            "each entry must be a mapping with devices and mig-enabled, not %s",
		            gs_lint_kind_name(item));
		return;
	}
	unknown_keys(c, item, item_keys, GS_ARRAY_LEN(item_keys));
	if (!(dev = gs_lint_find(item, "devices", &vk)))
		gs_lint_add(c, R_MIG_REQUIRED, item,
		            "entry has no devices; write 'devices: all' or a list of GPU indices");
	else
		check_devices(c, vk, dev);
	if (!(en = gs_lint_find(item, "mig-enabled", &ek)))
		gs_lint_add(c, R_MIG_REQUIRED, item,
		            "entry has no mig-enabled; write 'mig-enabled: true' or false");
	else if (en->kind != GS_NODE_NULL && !(has_enabled = gs_lint_bool(en, &enabled)))
		gs_lint_add(c, R_MIG_TYPE, en, "mig-enabled must be true or false");
	if ((filter = gs_lint_find(item, "device-filter", &fk)) && filter->kind != GS_NODE_NULL)
		check_filter(c, fk, filter);
	devs = gs_lint_find(item, "mig-devices", &dk);
	if (devs && devs->kind != GS_NODE_NULL && devs->kind != GS_NODE_MAP) {
		gs_lint_add(c, R_MIG_TYPE, devs,
		            "mig-devices must map profiles to counts, like {\"1g.5gb\": 7}, "
		            "not %s", gs_lint_kind_name(devs));
		return;
	}
	if (devs && devs->kind == GS_NODE_MAP)
		total = check_mig_devices(c, dk, devs);
	if (enabled && (!devs || devs->kind == GS_NODE_NULL))
		gs_lint_add(c, R_MIG_ENABLED_WITHOUT_DEVICES, ek,
		            "mig-enabled is true but the entry has no mig-devices; list them, like "
		            "'mig-devices: {\"1g.5gb\": 7}', or write 'mig-devices: {}' to only "
		            "enable MIG");
	if (!enabled && devs && devs->kind == GS_NODE_MAP && devs->n)
		gs_lint_add(c, R_MIG_DISABLED_WITH_DEVICES, dk,
		            "mig-enabled is %s but mig-devices lists devices; write 'mig-enabled: "
		            "true', or remove mig-devices", has_enabled ? "false" : "not true");
	if (enabled && total > 0)
		check_geometry(c, dk, devs, filter);
}

void gs_lint_mig_parted(lint_ctx *c, const gs_node *root)
{
	gs_node *vk, *ck;
	const gs_node *v, *configs;
	char q[64];

	unknown_keys(c, root, top_keys, GS_ARRAY_LEN(top_keys));
	if (!(v = gs_lint_find(root, "version", &vk)))
		gs_lint_add(c, R_MIG_VERSION, root,
		            "mig-parted config has no version, so mig-parted rejects it; add "
		            "'version: v1'");
	else if (!gs_lint_is_str(v) || strcmp(v->text, "v1") != 0)
		gs_lint_add(c, R_MIG_VERSION, v->line ? v : vk,
		            "version is '%s', but mig-parted knows only v1; write 'version: v1'",
		            gs_lint_quote(v, q, sizeof q));
	if (!(configs = gs_lint_find(root, "mig-configs", &ck))) {
		gs_lint_add(c, R_MIG_EMPTY, root,
		            "mig-parted config has no mig-configs; add 'mig-configs:' with at "
		            "least one named config");
		return;
	}
	if (configs->kind != GS_NODE_MAP || configs->n == 0) {
		if (configs->kind == GS_NODE_MAP || configs->kind == GS_NODE_NULL)
			gs_lint_add(c, R_MIG_EMPTY, ck,
			            "mig-configs is empty; add a named config, like 'all-disabled: "
			            "[{devices: all, mig-enabled: false}]'");
		else
			gs_lint_add(c, R_MIG_TYPE, configs,
			            "mig-configs must map config names to lists of entries, not %s",
			            gs_lint_kind_name(configs));
		return;
	}
	for (size_t i = 0; i < configs->n; i++) {
		const gs_node *name = configs->keys[i], *list = configs->items[i];
		if (list->kind == GS_NODE_NULL || (list->kind == GS_NODE_SEQ && list->n == 0)) {
			gs_lint_add(c, R_MIG_EMPTY, name,
			            "config '%s' has no entries, which mig-parted rejects; add "
			            "one, like '- devices: all' with 'mig-enabled: false'",
			            name->text);
			continue;
		}
		if (list->kind != GS_NODE_SEQ) {
			gs_lint_add(c, R_MIG_TYPE, list,
			            "config '%s' must be a list of entries, not %s", name->text,
			            gs_lint_kind_name(list));
			continue;
		}
		for (size_t j = 0; j < list->n; j++)
			check_item(c, list->items[j]);
	}
}
