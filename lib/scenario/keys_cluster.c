/*
 * keys_cluster.c - the row `cluster` of keys.c: what the cluster a file
 * was imported from costs today ({costPerHour, gpus, nodes,
 * unpricedNodes}: each node's price once, its GPUs, its GPU nodes, and
 * how many of those have no known price and so are not in costPerHour). A plan of the file compares
 * with it, as `plan --nodes` does with the cluster itself, instead of
 * with one GPU per replica. `gpushare import` writes it; `set` cannot.
 */
#include "scenario/keys.h"

static const char *const cluster_subkeys[] = { "costPerHour", "gpus", "nodes",
	                                            "unpricedNodes" };

int gs_key_read_cluster(const gs_key_dst *d, const gs_node *v)
{
	gs_ctx *c = d->c;
	int64_t cost = 0, gpus = 0, nodes = 0, unpriced = 0;
	int rc;

	if (v->kind == GS_NODE_NULL) {
		gs_scenario_set_cluster(d->s, -1, 0, 0);
		return 0;
	}
	if ((rc = gs_need_kind(c, v, GS_NODE_MAP, "'cluster'")) < 0 ||
	    (rc = gs_check_keys(c, v, cluster_subkeys, GS_ARRAY_LEN(cluster_subkeys))) < 0 ||
	    (rc = gs_get_fixed(c, v, "costPerHour", 1, GS_MICROS_PER_USD, &cost)) < 0 ||
	    (rc = gs_get_int(c, v, "gpus", 1, 1, 10000000, &gpus)) < 0 ||
	    (rc = gs_get_int(c, v, "nodes", 1, 1, 10000000, &nodes)) < 0 ||
	    (rc = gs_get_int(c, v, "unpricedNodes", 0, 0, 10000000, &unpriced)) < 0)
		return rc;
	if (unpriced > nodes)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, gs_node_get(v, "unpricedNodes"),
		                    "cluster has %lld unpriced nodes of %lld", (long long)unpriced,
		                    (long long)nodes);
	if (nodes > gpus)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, gs_node_get(v, "nodes"),
		                    "cluster has %lld GPU nodes but %lld GPUs: every node has "
		                    "one at least", (long long)nodes, (long long)gpus);
	gs_scenario_set_cluster(d->s, cost, (int)gpus, (int)nodes);
	d->s->cluster_unpriced = (int)unpriced;
	return 0;
}

/* Written when the scenario has one (an import's). */
int gs_key_write_cluster(const gs_key_src *s, gs_node *map, const char *key)
{
	const gs_scenario *sc = s->s;
	gs_node *m;
	int rc = 0;

	if (sc->cluster_cost < 0 || sc->cluster_gpus <= 0)
		return 0;
	m = gs_node_new(GS_NODE_MAP, NULL);
	rc |= gs_node_put(m, "costPerHour", gs_node_money(sc->cluster_cost, 2));
	rc |= gs_node_put(m, "gpus", gs_node_int(sc->cluster_gpus));
	rc |= gs_node_put(m, "nodes", gs_node_int(sc->cluster_nodes));
	if (sc->cluster_unpriced)
		rc |= gs_node_put(m, "unpricedNodes", gs_node_int(sc->cluster_unpriced));
	return gs_node_put(map, key, gs_node_done(m, rc));
}
