/*
 * plan_names.c - the names of the nodes' configurations: the device-plugin
 * config a node is labelled with ("<type>-ts4"), and for MIG nodes the
 * mig-parted config, numbered apart where nodes of one instance type need
 * different ones. Names are label values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strmap.h"
#include "plan/plan_internal.h"
#include "plan/strategy.h"

/* An instance type as the start of a label value of at most max
 * characters: sanitized, cut, and "node" when nothing of it is left (a
 * custom type such as "+++"), so that every name is a valid label. */
static void type_base(const char *type, size_t max, char out[64])
{
	gs_label_value(type, out);
	out[max] = '\0';
	gs_label_value(out, out);
	if (!out[0])
		snprintf(out, 64, "node");
}

/* An instance type may hold '+' (GCP's n1 with attached GPUs), so the name
 * is sanitized, with the sharing suffix kept. */
const char *gs_plan_config_name(gs_plan *p, const gs_instance *in, gs_strategy st,
                                int slots)
{
	const char *name = gs_strategy_info_get(st)->config;
	char suffix[24], base[64], buf[96];
	/* Shared whole GPUs advertise a slot count: the name carries it. */
	if (st == GS_STRATEGY_TIME_SLICING || st == GS_STRATEGY_MPS)
		snprintf(suffix, sizeof suffix, "-%s%d", name, slots);
	else if (st == GS_STRATEGY_FRACTION) /* slots: the backend */
		snprintf(suffix, sizeof suffix, "-%s-%s", name, gs_backend_name((gs_backend)slots));
	else
		snprintf(suffix, sizeof suffix, "-%s", name);
	type_base(in->type, 63 - strlen(suffix), base);
	snprintf(buf, sizeof buf, "%s%s", base, suffix);
	return gs_plan_strdup(p, buf);
}

/* What distinguishes two MIG nodes' device-plugin configs: the profiles
 * time-sliced inside MIG and their slot counts. */
static void mig_sharing_key(const gs_plan_node *n, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t g = 0; g < n->n_gpus; g++)
		for (size_t m = 0; m < n->gpus[g].n_mig; m++) {
			const gs_plan_mig *mi = &n->gpus[g].mig[m];
			if (mi->replicas > 1 && o < size)
				o += (size_t)snprintf(buf + o, size - o, "%s:%d,",
				                      mi->profile->name, mi->replicas);
		}
}

/* What distinguishes two MIG nodes' mig-parted configs: each GPU's
 * multiset of profiles (instances are listed in slot order). */
static void mig_geometry_key(const gs_plan_node *n, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t g = 0; g < n->n_gpus && o < size; g++) {
		for (size_t m = 0; m < n->gpus[g].n_mig && o < size; m++)
			o += (size_t)snprintf(buf + o, size - o, "%s+",
			                      n->gpus[g].mig[m].profile->name);
		if (o < size)
			o += (size_t)snprintf(buf + o, size - o, "|");
	}
}

typedef struct cfgkey {
	const gs_instance *inst;
	char *key;
	size_t node;
	size_t first;   /* first node with the same instance and key */
	int number;     /* 1-based among the instance's distinct keys */
} cfgkey;

static int by_inst_key(const void *a, const void *b)
{
	const cfgkey *x = a, *y = b;
	int c = strcmp(x->inst->type, y->inst->type);
	if (c == 0)
		c = strcmp(x->key, y->key);
	return c ? c : (x->node > y->node) - (x->node < y->node);
}

static int by_inst_first(const void *a, const void *b)
{
	const cfgkey *x = a, *y = b;
	int c = strcmp(x->inst->type, y->inst->type);
	return c ? c : (x->first > y->first) - (x->first < y->first);
}

/* Numbers the distinct keys of each instance type in order of first
 * appearance, so names do not depend on how keys sort. */
static void number_keys(cfgkey *k, size_t n)
{
	qsort(k, n, sizeof *k, by_inst_key);
	for (size_t i = 0; i < n; i++)
		k[i].first = i && k[i - 1].inst == k[i].inst && strcmp(k[i - 1].key, k[i].key) == 0
		                 ? k[i - 1].first : k[i].node;
	qsort(k, n, sizeof *k, by_inst_first);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || k[i - 1].inst != k[i].inst)
			k[i].number = 1;
		else
			k[i].number = k[i - 1].number + (k[i - 1].first != k[i].first);
	}
}

typedef void (*key_fn)(const gs_plan_node *n, char *buf, size_t size);

static void keys_free(cfgkey *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(k[i].key);
	free(k);
}

/* Fills keys for the MIG nodes; returns how many, or -1. */
static long mig_keys(const gs_plan *p, key_fn fn, cfgkey **out)
{
	cfgkey *k = calloc(p->n_nodes ? p->n_nodes : 1, sizeof *k);
	size_t n = 0;
	char buf[2048];
	if (!k)
		return -1;
	for (size_t i = 0; i < p->n_nodes; i++) {
		const gs_plan_node *nd = &p->nodes[i];
		if (!nd->n_gpus || nd->gpus[0].strategy != GS_STRATEGY_MIG)
			continue;
		fn(nd, buf, sizeof buf);
		if (!(k[n].key = gs_strdup(buf))) {
			keys_free(k, n);
			return -1;
		}
		k[n].inst = nd->instance;
		k[n++].node = i;
	}
	*out = k;
	return (long)n;
}

/* The device-plugin config: "<type>-mig", then "<type>-mig2", ... keeping
 * a label value's 63 characters with the number on. */
static void dp_name(const gs_plan_node *nd, int number, char *buf, size_t size)
{
	const char *mig = gs_strategy_info_get(GS_STRATEGY_MIG)->config;
	size_t len = strlen(nd->config), cut = 1 + strlen(mig), keep;
	char num[16];
	if (number == 1) {
		snprintf(buf, size, "%s", nd->config);
		return;
	}
	snprintf(num, sizeof num, "%d", number);
	keep = len + strlen(num) > 63 ? 63 - strlen(num) - cut : len - cut;
	snprintf(buf, size, "%.*s-%s%s", (int)keep, nd->config, mig, num);
	gs_label_value(buf, buf);
}

/* The mig-parted config: "gpushare-<type>", then "gpushare-<type>-2", ... */
static void parted_name(const gs_plan_node *nd, int number, char *buf, size_t size)
{
	char base[64];
	type_base(nd->instance->type, 48, base);
	if (number > 1)
		snprintf(buf, size, "gpushare-%s-%d", base, number);
	else
		snprintf(buf, size, "gpushare-%s", base);
}

/* The name of key i, unique by construction: two instance types whose
 * names sanitize and cut to the same text would otherwise share a name
 * for different configurations (the second geometry lost). A name held
 * by another configuration moves this one to the next free number. */
static int unique_name(const gs_plan_node *nd, const cfgkey *k, size_t i, int parted,
                       gs_strmap *taken, char *buf, size_t size)
{
	for (int number = k[i].number;; number++) {
		size_t had;
		if (parted)
			parted_name(nd, number, buf, size);
		else
			dp_name(nd, number, buf, size);
		had = gs_strmap_find(taken, buf);
		if (had == GS_STRMAP_NONE)
			return gs_strmap_put(taken, buf, i);
		if (strcmp(k[had].key, k[i].key) == 0)
			return 0;
	}
}

/* One pass: the device-plugin names (parted == 0) or the mig-parted ones. */
static int name_pass(gs_plan *p, int parted)
{
	cfgkey *k;
	gs_strmap taken = GS_STRMAP_INIT;
	long n = mig_keys(p, parted ? mig_geometry_key : mig_sharing_key, &k);
	int rc = 0;
	if (n < 0)
		return -1;
	number_keys(k, (size_t)n);
	for (long i = 0; i < n && rc == 0; i++) {
		gs_plan_node *nd = &p->nodes[k[i].node];
		const char **name = parted ? &nd->mig_config : &nd->config;
		char buf[96];
		if (unique_name(nd, k, (size_t)i, parted, &taken, buf, sizeof buf) < 0 ||
		    !(*name = gs_plan_strdup(p, buf)))
			rc = -1;
	}
	gs_strmap_release(&taken);
	keys_free(k, (size_t)n);
	return rc;
}

/* The first distinct MIG configuration of an instance type is
 * "<type>-mig" (device plugin) and "gpushare-<type>" (mig-parted); the
 * next ones get 2, 3, ... */
int gs_plan_name_mig_configs(gs_plan *p)
{
	if (name_pass(p, 0) < 0)
		return -1;
	return name_pass(p, 1);
}
