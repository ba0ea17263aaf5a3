/*
 * catalog.c - loading GPU models and cloud instances from profile files.
 * The files are read at run time so that prices can be refreshed, and
 * on-prem servers added, without rebuilding.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/catalog.h"

/* Everything a record points to is owned by the catalog. */
static const char *keep_str(gs_catalog *cat, const char *s)
{
	char *p;
	if (!s)
		return NULL;
	if (gs_grow(&cat->strings, &cat->cap_strings, cat->n_strings + 1,
	            sizeof *cat->strings) < 0 ||
	    !(p = gs_strdup(s)))
		return NULL;
	cat->strings[cat->n_strings++] = p;
	return p;
}

static void *keep_block(gs_catalog *cat, size_t n, size_t size)
{
	void *p;
	if (gs_grow(&cat->blocks, &cat->cap_blocks, cat->n_blocks + 1,
	            sizeof *cat->blocks) < 0 ||
	    !(p = calloc(n ? n : 1, size)))
		return NULL;
	cat->blocks[cat->n_blocks++] = p;
	return p;
}

void gs_catalog_free(gs_catalog *cat)
{
	if (!cat)
		return;
	for (size_t i = 0; i < cat->n_strings; i++)
		free(cat->strings[i]);
	for (size_t i = 0; i < cat->n_blocks; i++)
		free(cat->blocks[i]);
	free(cat->strings);
	free(cat->blocks);
	free(cat->gpus);
	free(cat->instances);
	free(cat);
}

/* ---- lookup ----------------------------------------------------------- */

size_t gs_catalog_gpu_count(const gs_catalog *cat) { return cat->n_gpus; }
const gs_gpu *gs_catalog_gpu_at(const gs_catalog *cat, size_t i)
{
	return i < cat->n_gpus ? &cat->gpus[i] : NULL;
}
size_t gs_catalog_instance_count(const gs_catalog *cat)
{
	return cat->n_instances;
}
const gs_instance *gs_catalog_instance_at(const gs_catalog *cat, size_t i)
{
	return i < cat->n_instances ? &cat->instances[i] : NULL;
}

static int gpu_has_name(const gs_gpu *g, const char *name)
{
	if (gs_strcaseeq(g->name, name))
		return 1;
	for (size_t i = 0; i < g->n_aliases; i++)
		if (gs_strcaseeq(g->aliases[i], name))
			return 1;
	return 0;
}

const gs_gpu *gs_gpu_find(const gs_catalog *cat, const char *name)
{
	for (size_t i = 0; name && i < cat->n_gpus; i++)
		if (gpu_has_name(&cat->gpus[i], name))
			return &cat->gpus[i];
	return NULL;
}

const gs_instance *gs_instance_find(const gs_catalog *cat, const char *type)
{
	for (size_t i = 0; type && i < cat->n_instances; i++)
		if (gs_strcaseeq(cat->instances[i].type, type))
			return &cat->instances[i];
	return NULL;
}

const char *gs_gpu_suggest(const gs_catalog *cat, const char *name)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;

	for (size_t i = 0; i < cat->n_gpus; i++) {
		const gs_gpu *g = &cat->gpus[i];
		const char *one[1];
		for (size_t a = 0; a <= g->n_aliases; a++) {
			size_t d;
			one[0] = a == 0 ? g->name : g->aliases[a - 1];
			if (!gs_suggest(name, one, 1))
				continue;
			d = gs_edit_distance(name, one[0], bestd);
			if (d < bestd) {
				bestd = d;
				best = g->name;
			}
		}
	}
	return best;
}

const char *gs_instance_suggest(const gs_catalog *cat, const char *type)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;

	for (size_t i = 0; i < cat->n_instances; i++) {
		const char *one[1] = { cat->instances[i].type };
		size_t d;
		if (!gs_suggest(type, one, 1))
			continue;
		d = gs_edit_distance(type, one[0], bestd);
		if (d < bestd) {
			bestd = d;
			best = one[0];
		}
	}
	return best;
}

/* ---- GPU files ---------------------------------------------------------- */

static int load_engines(gs_ctx *c, const gs_node *map, int *eng)
{
	static const char *const keys[] = { "dec", "enc", "jpeg", "ofa" };
	int rc;

	if ((rc = gs_need_kind(c, map, GS_NODE_MAP, "'engines'")) < 0 ||
	    (rc = gs_check_keys(c, map, keys, GS_ARRAY_LEN(keys))) < 0)
		return rc;
	for (int e = 0; e < GS_ENGINE_COUNT; e++) {
		int64_t v = 0;
		if ((rc = gs_get_int(c, map, keys[e], 1, 0, 64, &v)) < 0)
			return rc;
		eng[e] = (int)v;
	}
	return 0;
}

static int load_starts(gs_catalog *cat, gs_ctx *c, const gs_node *seq,
                       int slots, int size, gs_mig_profile *p)
{
	int *starts;
	int rc;

	if ((rc = gs_need_kind(c, seq, GS_NODE_SEQ, "'placements'")) < 0)
		return rc;
	if (seq->n == 0)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, seq,
		                    "'placements' must not be empty");
	if (!(starts = keep_block(cat, seq->n, sizeof *starts)))
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < seq->n; i++) {
		int64_t v;
		if ((rc = gs_scalar_int(c, seq->items[i], 0, slots - size, &v)) < 0) {
			if (c->err) {
				gs_error tmp = *c->err;
				gs_fail_node(c->err, rc, c->file, seq->items[i],
				             "placement start %s", tmp.msg);
			}
			return rc;
		}
		starts[i] = (int)v;
	}
	p->starts = starts;
	p->n_starts = seq->n;
	return 0;
}

static int load_profile(gs_catalog *cat, gs_ctx *c, const gs_node *map,
                        const gs_gpu *g, gs_mig_profile *p)
{
	static const char *const keys[] = {
		"name", "id", "compute_slices", "memory_slices", "memory",
		"sm_count", "max_count", "placements", "engines", "variant",
	};
	const char *name = NULL, *variant = NULL;
	int64_t id = 0, cs = 0, ms = 0, sm = 0, maxc = 0, bytes = 0;
	gs_node *v;
	int rc;

	if ((rc = gs_need_kind(c, map, GS_NODE_MAP, "a MIG profile")) < 0 ||
	    (rc = gs_check_keys(c, map, keys, GS_ARRAY_LEN(keys))) < 0 ||
	    (rc = gs_get_str(c, map, "name", 1, &name)) < 0 ||
	    (rc = gs_get_str(c, map, "variant", 0, &variant)) < 0 ||
	    (rc = gs_get_int(c, map, "id", 1, 0, 1000, &id)) < 0 ||
	    (rc = gs_get_int(c, map, "compute_slices", 1, 1,
	                     g->mig_compute_slices, &cs)) < 0 ||
	    (rc = gs_get_int(c, map, "memory_slices", 1, 1, g->mig_slots, &ms)) < 0 ||
	    (rc = gs_get_int(c, map, "sm_count", 1, 1, g->sm_count, &sm)) < 0 ||
	    (rc = gs_get_int(c, map, "max_count", 1, 1, g->mig_slots, &maxc)) < 0 ||
	    (rc = gs_require(c, map, "memory", "a MIG profile", &v)) < 0 ||
	    (rc = gs_scalar_bytes(c, v, &bytes)) < 0 ||
	    (rc = gs_require(c, map, "placements", "a MIG profile", &v)) < 0 ||
	    (rc = load_starts(cat, c, v, g->mig_slots, (int)ms, p)) < 0)
		return rc;
	if ((v = gs_node_get(map, "engines"))) {
		if ((rc = load_engines(c, v, p->engines)) < 0)
			return rc;
		p->has_engines = 1;
	}
	if (!(p->name = keep_str(cat, name)) ||
	    (variant && !(p->variant = keep_str(cat, variant))))
		return gs_fail_nomem(c->err);
	p->id = (int)id;
	p->compute_slices = (int)cs;
	p->memory_slices = (int)ms;
	p->memory_mib = bytes >> 20;
	p->sm_count = (int)sm;
	p->max_count = (int)maxc;
	return 0;
}

static int profile_order(const void *a, const void *b)
{
	const gs_mig_profile *x = a, *y = b;
	if (x->compute_slices != y->compute_slices)
		return y->compute_slices - x->compute_slices;
	if (x->memory_slices != y->memory_slices)
		return y->memory_slices - x->memory_slices;
	return strcmp(x->name, y->name);
}

static int load_mig(gs_catalog *cat, gs_ctx *c, const gs_node *map, gs_gpu *g)
{
	static const char *const keys[] = { "slots", "compute_slices", "engines",
		                                "profiles" };
	int64_t slots = 0, cs = 0;
	gs_mig_profile *profs;
	gs_node *seq, *eng;
	int rc;

	if ((rc = gs_need_kind(c, map, GS_NODE_MAP, "'mig'")) < 0 ||
	    (rc = gs_check_keys(c, map, keys, GS_ARRAY_LEN(keys))) < 0 ||
	    (rc = gs_get_int(c, map, "slots", 1, 1, 32, &slots)) < 0 ||
	    (rc = gs_get_int(c, map, "compute_slices", 1, 1, slots, &cs)) < 0 ||
	    (rc = gs_require(c, map, "profiles", "'mig'", &seq)) < 0 ||
	    (rc = gs_need_kind(c, seq, GS_NODE_SEQ, "'profiles'")) < 0)
		return rc;
	g->mig_slots = (int)slots;
	g->mig_compute_slices = (int)cs;
	if ((eng = gs_node_get(map, "engines"))) {
		if ((rc = load_engines(c, eng, g->mig_engines)) < 0)
			return rc;
		g->mig_has_engines = 1;
	}
	if (!(profs = keep_block(cat, seq->n, sizeof *profs)))
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < seq->n; i++) {
		if ((rc = load_profile(cat, c, seq->items[i], g, &profs[i])) < 0)
			return rc;
		for (size_t j = 0; j < i; j++)
			if (strcmp(profs[j].name, profs[i].name) == 0)
				return gs_fail_node(c->err, GS_ESCHEMA, c->file,
				                    seq->items[i],
				                    "duplicate MIG profile '%s'",
				                    profs[i].name);
	}
	qsort(profs, seq->n, sizeof *profs, profile_order);
	g->mig_profiles = profs;
	g->n_mig_profiles = seq->n;
	return 0;
}

static int load_aliases(gs_catalog *cat, gs_ctx *c, const gs_node *seq,
                        gs_gpu *g)
{
	const char **names;
	int rc;

	if ((rc = gs_need_kind(c, seq, GS_NODE_SEQ, "'aliases'")) < 0)
		return rc;
	if (!(names = keep_block(cat, seq->n, sizeof *names)))
		return gs_fail_nomem(c->err);
	for (size_t i = 0; i < seq->n; i++) {
		if ((rc = gs_need_kind(c, seq->items[i], GS_NODE_STRING,
		                       "an alias")) < 0)
			return rc;
		if (!(names[i] = keep_str(cat, seq->items[i]->text)))
			return gs_fail_nomem(c->err);
	}
	g->aliases = names;
	g->n_aliases = seq->n;
	return 0;
}

static int parse_cc(gs_ctx *c, const gs_node *map, gs_gpu *g)
{
	const char *cc = NULL;
	int major, minor, used = 0;
	int rc = gs_get_str(c, map, "compute_capability", 1, &cc);
	if (rc < 0)
		return rc;
	if (sscanf(cc, "%2d.%1d%n", &major, &minor, &used) != 2 || cc[used])
		return gs_fail_node(c->err, GS_ESCHEMA, c->file,
		                    gs_node_get(map, "compute_capability"),
		                    "compute_capability must look like \"8.0\", not '%s'",
		                    cc);
	g->cc_major = major;
	g->cc_minor = minor;
	return 0;
}

/* What the driver keeps of the memory it reports (optional: 0 where no
 * source gives it); the rest is what replicas can hold. */
static int load_reserve(gs_ctx *c, const gs_node *root, gs_gpu *g)
{
	const gs_node *v = gs_node_get(root, "memory_reserve");
	int64_t bytes = 0;
	int rc;

	if (v && (rc = gs_scalar_bytes(c, v, &bytes)) < 0)
		return rc;
	g->memory_reserve_mib = gs_div_ceil(bytes, 1 << 20);
	if (g->memory_reserve_mib >= g->memory_mib)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, v,
		                    "memory_reserve must be less than memory");
	g->usable_memory_mib = g->memory_mib - g->memory_reserve_mib;
	return 0;
}

static int load_gpu(gs_catalog *cat, gs_ctx *c, const gs_node *root, gs_gpu *g)
{
	static const char *const keys[] = {
		"name", "aliases", "architecture", "compute_capability", "memory",
		"sm_count", "fp16_tflops", "mps", "mig", "memory_reserve",
		"memory_bandwidth_gbs",
	};
	const char *name = NULL, *arch = NULL;
	int64_t sm = 0, tf = 0, bytes = 0, bw = 0;
	int mps = 0, rc;
	gs_node *v;

	if ((rc = gs_need_kind(c, root, GS_NODE_MAP, "a GPU profile")) < 0 ||
	    (rc = gs_check_keys(c, root, keys, GS_ARRAY_LEN(keys))) < 0 ||
	    (rc = gs_get_str(c, root, "name", 1, &name)) < 0 ||
	    (rc = gs_get_str(c, root, "architecture", 1, &arch)) < 0 ||
	    (rc = parse_cc(c, root, g)) < 0 ||
	    (rc = gs_require(c, root, "memory", "a GPU profile", &v)) < 0 ||
	    (rc = gs_scalar_bytes(c, v, &bytes)) < 0 ||
	    (rc = gs_get_int(c, root, "sm_count", 1, 1, 100000, &sm)) < 0 ||
	    (rc = gs_get_fixed(c, root, "fp16_tflops", 1, 1000, &tf)) < 0 ||
	    (rc = gs_get_int(c, root, "memory_bandwidth_gbs", 0, 1, 1000000, &bw)) < 0 ||
	    (rc = gs_get_bool(c, root, "mps", 1, &mps)) < 0)
		return rc;
	if (bytes < (INT64_C(1) << 20) || tf <= 0)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, root,
		                    "a GPU needs positive memory and fp16_tflops");
	if (!(g->name = keep_str(cat, name)) ||
	    !(g->architecture = keep_str(cat, arch)) ||
	    !(g->file = keep_str(cat, c->file)))
		return gs_fail_nomem(c->err);
	g->memory_mib = bytes >> 20;
	if ((rc = load_reserve(c, root, g)) < 0)
		return rc;
	g->memory_bandwidth_gbs = (int)bw;
	g->sm_count = (int)sm;
	g->fp16_mtflops = tf;
	/* The device plugin caps MPS clients by compute capability. */
	g->mps_max_clients = !mps ? 0 : (g->cc_major * 10 + g->cc_minor >= 75 ? 48 : 16);
	if ((v = gs_node_get(root, "aliases")) &&
	    (rc = load_aliases(cat, c, v, g)) < 0)
		return rc;
	if ((v = gs_node_get(root, "mig")) && (rc = load_mig(cat, c, v, g)) < 0)
		return rc;
	return 0;
}

/* A name or alias that two models share would make lookups ambiguous.
 * The error points at the clashing value in this file. */
static int check_gpu_names(gs_catalog *cat, gs_ctx *c, const gs_gpu *g,
                           const gs_node *root)
{
	const gs_node *aliases = gs_node_get(root, "aliases");
	for (size_t i = 0; i < cat->n_gpus; i++) {
		const gs_gpu *o = &cat->gpus[i];
		const gs_node *at = NULL;
		const char *clash = NULL;
		if (gpu_has_name(o, g->name)) {
			clash = g->name;
			at = gs_node_get(root, "name");
		}
		for (size_t a = 0; !clash && a < g->n_aliases; a++)
			if (gpu_has_name(o, g->aliases[a])) {
				clash = g->aliases[a];
				at = aliases->items[a];
			}
		if (clash)
			return gs_fail_node(c->err, GS_ESCHEMA, c->file, at,
			                    "GPU name '%s' is already used by %s (%s)",
			                    clash, o->name, o->file);
	}
	return 0;
}

/* ---- instance files ------------------------------------------------------ */

typedef struct inst_file {
	const char *cloud, *region;
	const gs_node *sources;
} inst_file;

static int load_instance(gs_catalog *cat, gs_ctx *c, const inst_file *f,
                         const gs_node *map, gs_instance *in)
{
	static const char *const keys[] = {
		"type", "gpu", "gpu_count", "vcpus", "ram_gib", "on_demand", "spot",
		"source", "price_date", "arch",
	};
	const char *type = NULL, *gpu = NULL, *src = NULL, *date = NULL, *arch = "amd64";
	int64_t count = 0, vcpus = 0, ram = 0, od = 0, spot = -1;
	gs_node *v;
	int rc;

	if ((rc = gs_need_kind(c, map, GS_NODE_MAP, "an instance")) < 0 ||
	    (rc = gs_check_keys(c, map, keys, GS_ARRAY_LEN(keys))) < 0 ||
	    (rc = gs_get_str(c, map, "type", 1, &type)) < 0 ||
	    (rc = gs_get_str(c, map, "gpu", 1, &gpu)) < 0 ||
	    (rc = gs_get_int(c, map, "gpu_count", 1, 1, 64, &count)) < 0 ||
	    (rc = gs_get_int(c, map, "vcpus", 1, 1, 100000, &vcpus)) < 0 ||
	    (rc = gs_get_fixed(c, map, "ram_gib", 1, 1024, &ram)) < 0 ||
	    (rc = gs_get_fixed(c, map, "on_demand", 1, GS_MICROS_PER_USD, &od)) < 0 ||
	    (rc = gs_get_fixed(c, map, "spot", 0, GS_MICROS_PER_USD, &spot)) < 0 ||
	    (rc = gs_get_str(c, map, "source", 1, &src)) < 0 ||
	    (rc = gs_get_str(c, map, "price_date", 1, &date)) < 0 ||
	    (rc = gs_get_str(c, map, "arch", 0, &arch)) < 0)
		return rc;
	/* The host's CPUs decide which container images run on it. */
	if (strcmp(arch, "amd64") != 0 && strcmp(arch, "arm64") != 0)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file, gs_node_get(map, "arch"),
		                    "invalid arch '%s' (expected amd64 or arm64)", arch);
	in->arch = strcmp(arch, "arm64") == 0 ? GS_ARCH_ARM64 : GS_ARCH_AMD64;
	if (!(in->gpu = gs_gpu_find(cat, gpu))) {
		const char *near = gs_gpu_suggest(cat, gpu);
		v = gs_node_get(map, "gpu");
		if (near)
			return gs_fail_node(c->err, GS_ENOTFOUND, c->file, v,
			                    "unknown GPU '%s' (did you mean '%s'?)", gpu,
			                    near);
		return gs_fail_node(c->err, GS_ENOTFOUND, c->file, v,
		                    "unknown GPU '%s'", gpu);
	}
	if (f->sources && !gs_node_get(f->sources, src))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file,
		                    gs_node_get(map, "source"),
		                    "source '%s' is not listed under 'sources'", src);
	if (gs_instance_find(cat, type))
		return gs_fail_node(c->err, GS_ESCHEMA, c->file,
		                    gs_node_get(map, "type"),
		                    "instance type '%s' is defined twice", type);
	if (!(in->type = keep_str(cat, type)) || !(in->cloud = keep_str(cat, f->cloud)) ||
	    !(in->region = keep_str(cat, f->region)) ||
	    !(in->source = keep_str(cat, src)) || !(in->price_date = keep_str(cat, date)))
		return gs_fail_nomem(c->err);
	in->gpu_count = (int)count;
	in->vcpus = (int)vcpus;
	in->ram_mib = ram;
	in->on_demand = od;
	in->spot = spot;
	return 0;
}

static int load_instance_file(gs_catalog *cat, gs_ctx *c, const gs_node *root)
{
	static const char *const keys[] = { "cloud", "region", "currency",
		                                "sources", "instances" };
	inst_file f = { NULL, "", NULL };
	const char *currency = "USD";
	gs_node *seq;
	int rc;

	if ((rc = gs_need_kind(c, root, GS_NODE_MAP, "an instance file")) < 0 ||
	    (rc = gs_check_keys(c, root, keys, GS_ARRAY_LEN(keys))) < 0 ||
	    (rc = gs_get_str(c, root, "cloud", 1, &f.cloud)) < 0 ||
	    (rc = gs_get_str(c, root, "region", 0, &f.region)) < 0 ||
	    (rc = gs_get_str(c, root, "currency", 0, &currency)) < 0 ||
	    (rc = gs_require(c, root, "instances", "an instance file", &seq)) < 0 ||
	    (rc = gs_need_kind(c, seq, GS_NODE_SEQ, "'instances'")) < 0)
		return rc;
	if (strcmp(currency, "USD") != 0)
		return gs_fail_node(c->err, GS_ESCHEMA, c->file,
		                    gs_node_get(root, "currency"),
		                    "only USD prices are supported, not '%s'", currency);
	if ((f.sources = gs_node_get(root, "sources")) &&
	    (rc = gs_need_kind(c, f.sources, GS_NODE_MAP, "'sources'")) < 0)
		return rc;
	for (size_t i = 0; i < seq->n; i++) {
		gs_instance in;
		memset(&in, 0, sizeof in);
		if ((rc = load_instance(cat, c, &f, seq->items[i], &in)) < 0)
			return rc;
		{
			gs_instance *p = realloc(cat->instances,
			                         (cat->n_instances + 1) * sizeof *p);
			if (!p)
				return gs_fail_nomem(c->err);
			cat->instances = p;
		}
		cat->instances[cat->n_instances++] = in;
	}
	return 0;
}

static int add_gpu_file(gs_catalog *cat, gs_ctx *c, const gs_node *root);

int gs_catalog_add_buffer(gs_catalog *cat, const char *name, const char *buf, size_t len,
                          int instances, gs_error *err)
{
	gs_node *root = NULL;
	gs_ctx c = { name, err };
	int rc = gs_yaml_read_buffer(name, buf, len, &root, err);
	if (rc == 0)
		rc = instances ? load_instance_file(cat, &c, root) : add_gpu_file(cat, &c, root);
	gs_node_free(root);
	return rc;
}

/* ---- directories ------------------------------------------------------- */

static int is_yaml(const char *name)
{
	size_t n = strlen(name);
	return name[0] != '.' &&
	       ((n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	        (n > 4 && strcmp(name + n - 4, ".yml") == 0));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef int (*file_fn)(gs_catalog *cat, gs_ctx *c, const gs_node *root);

/* Loads every YAML file of dir in name order, so results never depend on
 * the order the file system lists them in. */
static int load_dir(gs_catalog *cat, const char *dir, file_fn fn, gs_error *err)
{
	DIR *d = opendir(dir);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int rc = 0;

	if (!d)
		return gs_fail_at(err, GS_EIO, dir, 0, 0,
		                  "cannot open profile directory");
	while ((e = readdir(d))) {
		char *p;
		if (!is_yaml(e->d_name))
			continue;
		if (gs_grow(&names, &cap, n + 1, sizeof *names) < 0 ||
		    !(p = malloc(strlen(dir) + strlen(e->d_name) + 2))) {
			rc = gs_fail_nomem(err);
			break;
		}
		sprintf(p, "%s/%s", dir, e->d_name);
		names[n++] = p;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof *names, cmp_str);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		gs_node *root = NULL;
		gs_ctx c = { names[i], err };
		if ((rc = gs_yaml_read_file(names[i], &root, err)) == 0)
			rc = fn(cat, &c, root);
		gs_node_free(root);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int add_gpu_file(gs_catalog *cat, gs_ctx *c, const gs_node *root)
{
	gs_gpu g;
	gs_gpu *p;
	int rc;

	memset(&g, 0, sizeof g);
	if ((rc = load_gpu(cat, c, root, &g)) < 0 ||
	    (rc = check_gpu_names(cat, c, &g, root)) < 0)
		return rc;
	if (!(p = realloc(cat->gpus, (cat->n_gpus + 1) * sizeof *p)))
		return gs_fail_nomem(c->err);
	cat->gpus = p;
	cat->gpus[cat->n_gpus++] = g;
	return 0;
}

/* Runs load_dir on SUB of every directory in the colon-separated list; a
 * directory without that subdirectory is skipped, since an overlay may add
 * only instances. */
static int load_each(gs_catalog *cat, const char *dirs, const char *sub,
                     file_fn fn, gs_error *err)
{
	const char *p = dirs;
	int rc = 0;

	while (rc == 0 && *p) {
		size_t n = strcspn(p, ":");
		char *path = malloc(n + strlen(sub) + 2);
		struct stat st;
		if (!path)
			return gs_fail_nomem(err);
		memcpy(path, p, n);
		path[n] = '\0';
		if (n && stat(path, &st) != 0)
			rc = gs_fail_at(err, GS_EIO, path, 0, 0,
			                "profile directory does not exist");
		sprintf(path + n, "/%s", sub);
		if (rc == 0 && n && stat(path, &st) == 0)
			rc = load_dir(cat, path, fn, err);
		free(path);
		p += n + (p[n] == ':');
	}
	return rc;
}

/* DIR/retention.yaml of every directory that has one, in list order. */
static int load_retention(gs_catalog *cat, const char *dirs, gs_error *err)
{
	const char *p = dirs;
	int rc = 0;

	while (rc == 0 && *p) {
		size_t n = strcspn(p, ":");
		char *dir = malloc(n + 1);
		if (!dir)
			return gs_fail_nomem(err);
		memcpy(dir, p, n);
		dir[n] = '\0';
		if (n)
			rc = gs_retention_load_dir(cat, dir, err);
		free(dir);
		p += n + (p[n] == ':');
	}
	return rc;
}

int gs_catalog_load(const char *dirs, gs_catalog **out, gs_error *err)
{
	gs_catalog *cat = calloc(1, sizeof *cat);
	int rc;

	if (!cat)
		return gs_fail_nomem(err);
	/* Every GPU first: instances point into the finished GPU array. */
	if ((rc = load_each(cat, dirs, "gpus", add_gpu_file, err)) < 0 ||
	    (rc = load_each(cat, dirs, "instances", load_instance_file, err)) < 0 ||
	    (rc = load_retention(cat, dirs, err)) < 0)
		goto done;
	if (cat->n_gpus == 0)
		rc = gs_fail_at(err, GS_ESCHEMA, dirs, 0, 0,
		                "no GPU profiles found (expected DIR/gpus/*.yaml)");
done:
	if (rc < 0) {
		gs_catalog_free(cat);
		return rc;
	}
	*out = cat;
	return 0;
}
