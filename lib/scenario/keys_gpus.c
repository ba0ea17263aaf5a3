/*
 * keys_gpus.c - the workload key `gpusPerReplica`: how many whole GPUs one
 * replica's pod holds on one node (a model served by tensor parallelism
 * over 3 GPUs, say). The planner gives such a replica its GPUs dedicated
 * on one node; gpuMemory and compute stay per GPU.
 */
#include <string.h>

#include "scenario/keys.h"

/* The bound a value may reach: 8 (the largest common GPU server), or the
 * largest GPU count of an instance in the catalog when that is more. Whether
 * an instance the workload may buy has that many is the loader's check
 * (load.c), which knows the allow-lists once the file is read. */
static int64_t most_gpus(const gs_catalog *cat)
{
	int64_t most = 8;
	for (size_t i = 0; i < gs_catalog_instance_count(cat); i++) {
		const gs_instance *in = gs_catalog_instance_at(cat, i);
		if (in->gpu_count > most)
			most = in->gpu_count;
	}
	return most;
}

int gs_key_read_gpus_per_replica(const gs_key_dst *d, const gs_node *v)
{
	gs_ctx *c = d->c;
	int64_t x, most = most_gpus(d->s->cat);
	int rc = gs_scalar_int(c, v, 1, most, &x);

	if (rc == 0)
		d->w->pub.gpus_per_replica = (int)x;
	else if (v->kind == GS_NODE_STRING && !v->quoted)
		rc = gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                  "gpusPerReplica must be a whole number from 1 to %lld, "
		                  "not '%s'", (long long)most, v->text);
	else if (c->err) {
		gs_error tmp = *c->err;
		rc = gs_fail_node(c->err, rc, c->file, v, "'gpusPerReplica': %s", tmp.msg);
	}
	return rc;
}

/* Written only when above 1, so that files without it read back alike. */
int gs_key_write_gpus_per_replica(const gs_key_src *s, gs_node *map, const char *key)
{
	int n = s->w->pub.gpus_per_replica;
	return n > 1 ? gs_node_put(map, key, gs_node_int(n)) : 0;
}
