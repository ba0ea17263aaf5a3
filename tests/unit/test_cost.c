/*
 * test_cost.c - chargeback (lib/cost) on the clusters of fixtures/cost/
 * (README.md there) and fixtures/import/, and on small clusters written
 * here: the exact micro-dollars each pod, row and idle line gets under
 * every rule, and on every fixture and every combination of options the
 * identity that the rows and idle add up to the nodes' prices exactly.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define FIX "fixtures/cost/"
#define IMP "fixtures/import/"

TU_CATALOG_GROUP(cat)

/* ---- loading ------------------------------------------------------------- */

static gs_error no_err(void)
{
	gs_error e;
	memset(&e, 0, sizeof e);
	return e;
}

static void read_file(gs_inventory *inv, gs_import_input what, const char *path)
{
	gs_source src;
	gs_error err = no_err();
	assert_gs_ok(gs_source_open_file(&src, path, &err), &err);
	assert_gs_ok(gs_import_read(inv, what, &src, &err), &err);
	gs_source_close(&src);
}

static void read_mem(gs_inventory *inv, gs_import_input what, const char *name,
                     const char *text)
{
	gs_source src;
	gs_memory_source st;
	gs_error err = no_err();
	gs_source_memory(&src, &st, name, text, strlen(text));
	assert_gs_ok(gs_import_read(inv, what, &src, &err), &err);
}

static gs_inventory *begin(const char *team_label)
{
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_inventory *inv = NULL;
	gs_error err = no_err();
	o.team_label = team_label;
	assert_gs_ok(gs_import_begin(cat, &o, &inv, &err), &err);
	return inv;
}

static gs_inventory *end(gs_inventory *inv)
{
	gs_error err = no_err();
	assert_gs_ok(gs_import_end(inv, &err), &err);
	return inv;
}

/* A cluster from files: claims and metrics may be NULL. */
static gs_inventory *files(const char *nodes, const char *pods, const char *claims,
                           const char *metrics, const char *team_label)
{
	gs_inventory *inv = begin(team_label);
	read_file(inv, GS_INPUT_NODES, nodes);
	read_file(inv, GS_INPUT_PODS, pods);
	if (claims)
		read_file(inv, GS_INPUT_CLAIMS, claims);
	if (metrics)
		read_file(inv, GS_INPUT_METRICS, metrics);
	return end(inv);
}

static gs_inventory *repro(const char *metrics)
{
	return files(FIX "nodes.json", FIX "pods.json", NULL, metrics, NULL);
}

static gs_inventory *dra(const char *team_label)
{
	return files(FIX "dra-nodes.json", FIX "dra-pods.json", FIX "dra-claims.json", NULL,
	             team_label);
}

static gs_chargeback *charge(const gs_inventory *inv, const gs_chargeback_opts *o)
{
	gs_chargeback *c = NULL;
	gs_error err = no_err();
	assert_gs_ok(gs_chargeback_make(inv, o, &c, &err), &err);
	return c;
}

static gs_chargeback *charge_default(const gs_inventory *inv)
{
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	return charge(inv, &o);
}

/* ---- what must hold of every chargeback ---------------------------------- */

static gs_micros sum_rows(const gs_chargeback *c, int teams, int what)
{
	size_t n = teams ? gs_chargeback_team_count(c) : gs_chargeback_row_count(c);
	gs_micros s = 0;
	for (size_t i = 0; i < n; i++) {
		const gs_cost_row *r =
		    teams ? gs_chargeback_team_at(c, i) : gs_chargeback_row_at(c, i);
		s += what == 0 ? r->cost_per_hour : what == 1 ? r->held_per_hour : r->idle_per_hour;
		assert_int_equal(r->cost_per_hour, r->held_per_hour + r->idle_per_hour);
	}
	return s;
}

/* Every node's holders and idle are its price; the rows (and the team
 * rows) and idle are the sum of the priced nodes' prices, to the micro. */
static void assert_adds_up(const gs_inventory *inv, const gs_chargeback *c)
{
	const gs_chargeback_summary *s = gs_chargeback_summary_get(c);
	gs_micros prices = 0;

	assert_int_equal(gs_chargeback_node_count(c), gs_import_node_count(inv));
	for (size_t i = 0; i < gs_import_node_count(inv); i++) {
		const gs_import_node *in = gs_import_node_at(inv, i);
		const gs_cost_node *n = gs_chargeback_node_at(c, i);
		gs_micros held = 0;
		for (size_t k = 0; k < n->n_holders; k++)
			held += n->holders[k].cost_per_hour;
		assert_int_equal(held, n->held_per_hour);
		if (in->price_per_hour < 0) {
			assert_int_equal(held + n->idle_per_hour, 0);
			continue;
		}
		assert_int_equal(held + n->idle_per_hour, in->price_per_hour);
		prices += in->price_per_hour;
	}
	assert_int_equal(s->total_per_hour, prices);
	assert_int_equal(sum_rows(c, 0, 0) + s->idle_per_hour, prices);
	assert_int_equal(sum_rows(c, 1, 0) + s->idle_per_hour, prices);
	assert_int_equal(sum_rows(c, 0, 1), s->held_per_hour);
	assert_int_equal(sum_rows(c, 0, 2), s->spread_per_hour);
	assert_int_equal(s->held_per_hour + s->idle_per_hour + s->spread_per_hour, prices);
}

/* The identity under every combination of options. */
static void adds_up_always(const gs_inventory *inv)
{
	static const int weights[] = { 100, 90, 50, 0 };
	for (int basis = 0; basis <= GS_COST_USAGE; basis++)
		for (int mig = 0; mig <= GS_COST_MIG_COMPUTE; mig++)
			for (size_t w = 0; w < sizeof weights / sizeof *weights; w++)
				for (int spread = 0; spread <= 1; spread++)
					for (int by = 0; by <= GS_COST_BY_TEAM; by++) {
						gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
						gs_chargeback *c;
						o.basis = (gs_cost_basis)basis;
						o.mig_share = (gs_cost_mig)mig;
						o.gpu_weight_pct = weights[w];
						o.spread_idle = spread;
						o.by = (gs_cost_by)by;
						c = charge(inv, &o);
						assert_adds_up(inv, c);
						gs_chargeback_free(c);
					}
}

/* ---- lookups ------------------------------------------------------------- */

static const gs_cost_row *row(const gs_chargeback *c, const char *ns, const char *workload)
{
	for (size_t i = 0; i < gs_chargeback_row_count(c); i++) {
		const gs_cost_row *r = gs_chargeback_row_at(c, i);
		if ((!ns || (r->namespace_ && strcmp(r->namespace_, ns) == 0)) &&
		    (!workload || (r->workload && strcmp(r->workload, workload) == 0)))
			return r;
	}
	fail_msg("no row %s/%s", ns ? ns : "-", workload ? workload : "-");
	return NULL;
}

static const gs_cost_row *team(const gs_chargeback *c, const char *name)
{
	for (size_t i = 0; i < gs_chargeback_team_count(c); i++)
		if (strcmp(gs_chargeback_team_at(c, i)->team, name) == 0)
			return gs_chargeback_team_at(c, i);
	fail_msg("no team %s", name);
	return NULL;
}

static const gs_cost_node *node(const gs_chargeback *c, const char *name)
{
	for (size_t i = 0; i < gs_chargeback_node_count(c); i++)
		if (strcmp(gs_chargeback_node_at(c, i)->name, name) == 0)
			return gs_chargeback_node_at(c, i);
	fail_msg("no node %s", name);
	return NULL;
}

static const gs_cost_holder *holder(const gs_chargeback *c, const char *n, const char *pod)
{
	const gs_cost_node *cn = node(c, n);
	for (size_t i = 0; i < cn->n_holders; i++)
		if (strcmp(cn->holders[i].pod, pod) == 0)
			return &cn->holders[i];
	fail_msg("no holder %s on %s", pod, n);
	return NULL;
}

static void expect_row(const gs_chargeback *c, const char *ns, const char *wl, int pods,
                       int64_t share, gs_micros cost)
{
	const gs_cost_row *r = row(c, ns, wl);
	assert_int_equal(r->pods, pods);
	assert_int_equal(r->gpu_share, share);
	assert_int_equal(r->cost_per_hour, cost);
}

static int has_warning(const gs_chargeback *c, const char *part)
{
	for (size_t i = 0; i < gs_chargeback_warning_count(c); i++)
		if (strstr(gs_chargeback_warning_at(c, i), part))
			return 1;
	return 0;
}

/* ---- the repro cluster --------------------------------------------------- */

/* 0.8048 + 0.526 + 1.861 + 1.006 + 0.526 + 6.88: the six GPU nodes; the
 * m5.large is not one. */
#define REPRO_TOTAL 11603800

static void test_repro_allocation(void **state)
{
	gs_inventory *inv = repro(NULL);
	gs_chargeback *c = charge_default(inv);
	const gs_chargeback_summary *s = gs_chargeback_summary_get(c);
	(void)state;

	assert_adds_up(inv, c);
	assert_int_equal(s->total_per_hour, REPRO_TOTAL);
	/* 5 of the T4's 8 replicas: 5 x 0.526 / 8 = 0.32875, 3/8 idle. */
	expect_row(c, "default", "time-slicing-verification", 5, 625000, 328750);
	assert_int_equal(holder(c, "ip-10-0-1-5", "time-slicing-verification-5c7b9d-3")
	                     ->cost_per_hour, 65750);
	assert_int_equal(node(c, "ip-10-0-1-5")->idle_per_hour, 197250);
	expect_row(c, "ml", "train-nightly", 1, 1000000, 526000);
	expect_row(c, "research", "notebook-alice", 1, 1000000, 1861000);
	expect_row(c, "search", "llm-api", 1, 1000000, 804800);
	/* H100 all-balanced: 1g.10gb 1/7, 2g.20gb 2/7 (x2), 3g.40gb 4/8 add up
	 * to 15/14, scaled to 2/15, 4/15, 7/15: kserve-a 2/15 of $6.88,
	 * kserve-b 7/15, idle 6/15; the last micro to the larger remainder. */
	expect_row(c, "tenant-a", "kserve-a", 1, 133333, 917333);
	expect_row(c, "tenant-b", "kserve-b", 1, 466667, 3210667);
	assert_int_equal(node(c, "s4124-0073")->idle_per_hour, 2752000);
	/* Nobody holds the A10G (done-1 has Succeeded). */
	assert_int_equal(node(c, "ip-10-0-9-9")->idle_per_hour, 1006000);
	assert_int_equal(s->idle_per_hour, 197250 + 2752000 + 1006000);
	assert_int_equal(s->held_share, 4225000);
	assert_int_equal(s->idle_share, 1775000);
	assert_int_equal(s->pods, 10);
	assert_int_equal(s->workloads, 6);
	assert_int_equal(gs_chargeback_row_count(c), 6);
	/* pending-1 has no node yet: no warning about it. */
	assert_false(has_warning(c, "pending-1"));
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_repro_mig_rules(void **state)
{
	gs_inventory *inv = repro(NULL);
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	gs_chargeback *c;
	(void)state;

	/* Memory slices over 8: 1/8 and 4/8, which fit without scaling. */
	o.mig_share = GS_COST_MIG_MEMORY;
	c = charge(inv, &o);
	expect_row(c, "tenant-a", "kserve-a", 1, 125000, 860000);
	expect_row(c, "tenant-b", "kserve-b", 1, 500000, 3440000);
	assert_int_equal(node(c, "s4124-0073")->idle_per_hour, 2580000);
	gs_chargeback_free(c);
	/* Compute slices over 7: 1/7 and 3/7; kserve-b and idle both have
	 * 3/7, the same remainder: the micro left goes to the earlier. */
	o.mig_share = GS_COST_MIG_COMPUTE;
	c = charge(inv, &o);
	expect_row(c, "tenant-a", "kserve-a", 1, 142857, 982857);
	expect_row(c, "tenant-b", "kserve-b", 1, 428571, 2948572);
	assert_int_equal(node(c, "s4124-0073")->idle_per_hour, 2948571);
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_repro_gpu_weight(void **state)
{
	gs_inventory *inv = repro(NULL);
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	gs_chargeback *c;
	(void)state;

	/* 90% of the T4's $0.526 is its GPU's: each replica 1/8 of 0.4734;
	 * the host's 0.0526 goes to the 5 pods: each pod 0.059175 + 0.01052,
	 * idle 3/8 of 0.4734 only. */
	o.gpu_weight_pct = 90;
	c = charge(inv, &o);
	assert_int_equal(holder(c, "ip-10-0-1-5", "time-slicing-verification-5c7b9d-0")
	                     ->cost_per_hour, 69695);
	assert_int_equal(node(c, "ip-10-0-1-5")->idle_per_hour, 177525);
	/* H100: 90% by 2/15 and 7/15 of the GPU, 10% by 2/9 and 7/9 of what is
	 * held: kserve-a 0.825600 + 0.152889, kserve-b 2.889600 + 0.535111. */
	expect_row(c, "tenant-a", "kserve-a", 1, 133333, 978489);
	expect_row(c, "tenant-b", "kserve-b", 1, 466667, 3424711);
	assert_int_equal(node(c, "s4124-0073")->idle_per_hour, 2476800);
	/* A node nobody holds anything of is idle whole. */
	assert_int_equal(node(c, "ip-10-0-9-9")->idle_per_hour, 1006000);
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	/* 0%: a node's whole price goes to its holders, by what they hold. */
	o.gpu_weight_pct = 0;
	c = charge(inv, &o);
	assert_int_equal(node(c, "ip-10-0-1-5")->idle_per_hour, 0);
	assert_int_equal(holder(c, "ip-10-0-1-5", "time-slicing-verification-5c7b9d-0")
	                     ->cost_per_hour, 105200);
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_repro_usage(void **state)
{
	gs_inventory *inv = repro(FIX "range.json");
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	gs_chargeback *c;
	(void)state;

	/* Allocation ignores the samples. */
	c = charge(inv, &o);
	expect_row(c, "default", "time-slicing-verification", 5, 625000, 328750);
	gs_chargeback_free(c);
	/* The five pods report one series, the T4's own (mean 0.30), which
	 * the import divides by the replicas they hold: each is 0.06 of the
	 * GPU, $0.03156 (not divided a second time); the unused 0.70 is idle. */
	o.basis = GS_COST_USAGE;
	c = charge(inv, &o);
	expect_row(c, "default", "time-slicing-verification", 5, 300000, 157800);
	assert_int_equal(row(c, "default", NULL)->pods_by_usage, 5);
	assert_int_equal(holder(c, "ip-10-0-1-5", "time-slicing-verification-5c7b9d-2")
	                     ->cost_per_hour, 31560);
	assert_true(holder(c, "ip-10-0-1-5", "time-slicing-verification-5c7b9d-2")->by_usage);
	assert_int_equal(node(c, "ip-10-0-1-5")->idle_per_hour, 368200);
	assert_false(has_warning(c, "5 pods report the same activity series"));
	/* Dedicated GPUs and MIG slices are charged whole under usage too. */
	expect_row(c, "search", "llm-api", 1, 1000000, 804800);
	expect_row(c, "tenant-b", "kserve-b", 1, 466667, 3210667);
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_repro_spread(void **state)
{
	gs_inventory *inv = repro(NULL);
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	const gs_chargeback_summary *s;
	gs_chargeback *c;
	(void)state;

	o.spread_idle = 1;
	o.by = GS_COST_BY_TEAM;
	c = charge(inv, &o);
	s = gs_chargeback_summary_get(c);
	assert_int_equal(s->idle_per_hour, 0);
	assert_int_equal(s->spread_per_hour, 3955250);
	assert_int_equal(s->held_per_hour, 7648550);
	/* Each row's part of idle is its part of the held cost, to a micro. */
	for (size_t i = 0; i < gs_chargeback_row_count(c); i++) {
		const gs_cost_row *r = gs_chargeback_row_at(c, i);
		__extension__ __int128 exact = (__int128)3955250 * r->held_per_hour;
		__extension__ __int128 got = (__int128)r->idle_per_hour * 7648550;
		assert_true(got - exact < 7648550 && exact - got < 7648550);
	}
	/* The T4's replicas: 0.32875 + 3.95525 x 0.32875 / 7.64855 = 0.170004.57,
	 * whose remainder is the largest of the two micros left over. */
	assert_int_equal(team(c, "default")->cost_per_hour, 328750 + 170005);
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_repro_grouping(void **state)
{
	gs_inventory *inv = files(FIX "nodes.json", FIX "pods.json", NULL, NULL, "team");
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	gs_chargeback *c;
	(void)state;

	/* llm-api's pod says team search-team; the others have no label. */
	o.by = GS_COST_BY_TEAM;
	c = charge(inv, &o);
	assert_int_equal(gs_chargeback_row_count(c), 6);
	assert_int_equal(team(c, "search-team")->cost_per_hour, 804800);
	assert_null(gs_chargeback_row_at(c, 0)->workload);
	assert_string_equal(gs_chargeback_row_at(c, 0)->team, "default");
	gs_chargeback_free(c);
	o.by = GS_COST_BY_NAMESPACE;
	c = charge(inv, &o);
	assert_string_equal(row(c, "search", NULL)->team, "search-team");
	assert_int_equal(row(c, "search", NULL)->cost_per_hour, 804800);
	assert_string_equal(row(c, "search", NULL)->nodes[0], "i-030791dc5a37cd257");
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

/* ---- DRA claims ---------------------------------------------------------- */

static void test_dra(void **state)
{
	gs_inventory *inv = dra("team");
	gs_chargeback *c = charge_default(inv);
	(void)state;

	assert_adds_up(inv, c);
	/* g6.12xlarge, 4 L4 at $4.6016: gpu-0 and gpu-1 for train-0. */
	expect_row(c, "ml", "train", 1, 2000000, 2300800);
	/* shared-l4: 12Gi of gpu-2's 23034 MiB, shared by two pods. */
	expect_row(c, "ml", "infer", 2, 533472, 613706);
	assert_int_equal(holder(c, "dra-l4-0", "infer-6f7d8b9c5-abcde")->gpu_share, 266736);
	assert_true(holder(c, "dra-l4-0", "infer-6f7d8b9c5-abcde")->dra);
	/* spare-l4 holds gpu-3 for no pod: the claim pays, in its team. */
	expect_row(c, "ml", "spare-l4", 1, 1000000, 1150400);
	assert_string_equal(row(c, "ml", "spare-l4")->owner_kind, "ResourceClaim");
	assert_string_equal(row(c, "ml", "spare-l4")->team, "training");
	/* a2-highgpu-2g, 2 A100-40GB at $7.34677: gpu-0-mig-9-4-4 is profile
	 * 9, 3g.20gb (4/8 > 3/7); gpu-0-mig-1g5gb-19-0 is 1g.5gb (1/7). */
	expect_row(c, "research", "mig-a", 1, 500000, 1836693);
	expect_row(c, "research", "mig-b", 1, 142857, 524769);
	assert_string_equal(row(c, "research", "mig-b")->owner_kind, "CronJob");
	expect_row(c, "vision", "viz-0", 1, 1000000, 3673385);
	assert_int_equal(node(c, "dra-a100-0")->idle_per_hour, 1311923);
	assert_int_equal(gs_chargeback_summary_get(c)->total_per_hour, 4601600 + 7346770);
	assert_int_equal(team(c, "training")->cost_per_hour, 2300800 + 1150400);
	assert_int_equal(team(c, "serving")->pods, 2);
	/* Admin access and other drivers hold no GPU; an unknown pool warns. */
	assert_true(has_warning(c, "'ml/gone-gpu': device 'gpu-0' of pool 'node-gone'"));
	assert_true(has_warning(c, "reserved for pod 'viz-0', which is not in the pod list"));
	assert_false(has_warning(c, "dcgm-probe"));
	assert_false(has_warning(c, "train-1"));
	gs_chargeback_free(c);
	adds_up_always(inv);
	gs_import_free(inv);
}

static void test_claims_order_and_errors(void **state)
{
	gs_inventory *inv = begin(NULL);
	gs_source src;
	gs_error err = no_err();
	(void)state;

	read_file(inv, GS_INPUT_NODES, FIX "dra-nodes.json");
	assert_gs_ok(gs_source_open_file(&src, FIX "dra-claims.json", &err), &err);
	assert_int_equal(gs_import_read(inv, GS_INPUT_CLAIMS, &src, &err), GS_EINVAL);
	assert_gs_error(&err, "error: resource claims are read after the pod lists");
	gs_source_close(&src);
	gs_import_free(inv);

	/* Claims after metrics are fine; a file that is not a List is not. */
	inv = begin(NULL);
	read_file(inv, GS_INPUT_NODES, FIX "dra-nodes.json");
	read_file(inv, GS_INPUT_PODS, FIX "dra-pods.json");
	read_mem(inv, GS_INPUT_METRICS, "m.prom", "");
	assert_gs_ok(gs_source_open_file(&src, FIX "claims-array.json", &err), &err);
	assert_int_equal(gs_import_read(inv, GS_INPUT_CLAIMS, &src, &err), GS_ESCHEMA);
	assert_gs_error(&err, FIX "claims-array.json:1:1: error: expected the JSON object that "
	                      "'kubectl get resourceclaims -A -o json' prints, not an array");
	gs_source_close(&src);
	gs_import_free(inv);
}

/* ---- small clusters ------------------------------------------------------ */

#define NODE(name, type, product, count, labels, capacity)                                \
	"{\"kind\":\"Node\",\"metadata\":{\"name\":\"" name "\",\"labels\":{"               \
	"\"node.kubernetes.io/instance-type\":\"" type "\",\"nvidia.com/gpu.product\":\"" \
	product "\",\"nvidia.com/gpu.count\":\"" count "\"" labels "}},\"status\":{"       \
	"\"capacity\":{" capacity "}}}"
#define POD(ns, name, node, owner, res)                                                  \
	"{\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"" ns "\""    \
	owner "},\"spec\":{\"nodeName\":\"" node "\",\"containers\":[{\"name\":\"c\","      \
	"\"resources\":{\"limits\":{" res "}}}]},\"status\":{\"phase\":\"Running\"}}"
#define LIST(items) "{\"kind\":\"List\",\"items\":[" items "]}"

static gs_inventory *small(const char *nodes, const char *pods, const char *prom)
{
	gs_inventory *inv = begin(NULL);
	read_mem(inv, GS_INPUT_NODES, "nodes.json", nodes);
	read_mem(inv, GS_INPUT_PODS, "pods.json", pods);
	if (prom)
		read_mem(inv, GS_INPUT_METRICS, "m.prom", prom);
	return end(inv);
}

/* A T4 time-sliced x4: pods a and b have series of their own (20% and
 * 10%), c has none and keeps its replica. */
static void test_usage_fallback(void **state)
{
	gs_inventory *inv = small(
	    LIST(NODE("ts", "g4dn.xlarge", "Tesla-T4-SHARED", "1",
	              ",\"nvidia.com/gpu.replicas\":\"4\"", "\"nvidia.com/gpu\":\"4\"")),
	    LIST(POD("t", "a", "ts", "", "\"nvidia.com/gpu\":\"1\"") ","
	         POD("t", "b", "ts", "", "\"nvidia.com/gpu\":\"1\"") ","
	         POD("t", "c", "ts", "", "\"nvidia.com/gpu\":\"1\"")),
	    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"ts\",pod=\"a\",namespace=\"t\"} 20\n"
	    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",Hostname=\"ts\",pod=\"b\",namespace=\"t\"} 10\n");
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	gs_chargeback *c;
	(void)state;

	o.basis = GS_COST_USAGE;
	c = charge(inv, &o);
	assert_int_equal(holder(c, "ts", "a")->cost_per_hour, 105200);
	assert_int_equal(holder(c, "ts", "b")->cost_per_hour, 52600);
	assert_int_equal(holder(c, "ts", "c")->cost_per_hour, 131500);
	assert_false(holder(c, "ts", "c")->by_usage);
	assert_int_equal(node(c, "ts")->idle_per_hour, 236700);
	assert_int_equal(team(c, "t")->pods_by_usage, 2);
	assert_int_equal(team(c, "t")->pods, 3);
	assert_false(has_warning(c, "same activity series"));
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

/* Two whole-GPU pods on a one-GPU node: each holds half; the node has no
 * instance type in the second cluster: no price, no totals. */
static void test_overcommit_and_unpriced(void **state)
{
	gs_inventory *inv = small(
	    LIST(NODE("one", "g6.xlarge", "NVIDIA-L4", "1", "", "\"nvidia.com/gpu\":\"1\"")),
	    LIST(POD("x", "p", "one", "", "\"nvidia.com/gpu\":\"1\"") ","
	         POD("x", "q", "one", "", "\"nvidia.com/gpu\":\"1\"")),
	    NULL);
	gs_chargeback *c = charge_default(inv);
	(void)state;

	assert_int_equal(holder(c, "one", "p")->gpu_share, 500000);
	assert_int_equal(holder(c, "one", "p")->cost_per_hour, 402400);
	assert_true(has_warning(c, "node 'one': its pods hold 2.000000 GPUs of its 1.000000"));
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	gs_import_free(inv);

	inv = small(LIST(NODE("onprem", "my-box", "NVIDIA-L40S", "2", "",
	                      "\"nvidia.com/gpu\":\"2\"")),
	            LIST(POD("x", "p", "onprem", "", "\"nvidia.com/gpu\":\"1\"")), NULL);
	c = charge_default(inv);
	assert_int_equal(gs_chargeback_summary_get(c)->total_per_hour, 0);
	assert_int_equal(gs_chargeback_summary_get(c)->nodes_unpriced, 1);
	assert_int_equal(node(c, "onprem")->price_per_hour, -1);
	expect_row(c, "x", "p", 1, 1000000, 0);
	assert_true(has_warning(c, "node 'onprem' has no known price: left out of the totals"));
	assert_adds_up(inv, c);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_csv(void **state)
{
	gs_inventory *inv = small(
	    LIST(NODE("one", "g6.xlarge", "NVIDIA-L4", "1", "", "\"nvidia.com/gpu\":\"1\"")),
	    LIST(POD("x", "p", "one",
	             ",\"ownerReferences\":[{\"kind\":\"Job\",\"name\":\"we\\\"ird,job\"}]",
	             "\"nvidia.com/gpu\":\"1\"")),
	    NULL);
	gs_chargeback *c = charge_default(inv);
	gs_error err = no_err();
	char *csv = NULL;
	(void)state;

	assert_gs_ok(gs_chargeback_csv(c, &csv, &err), &err);
	assert_string_equal(csv,
	                    "namespace,team,workload,owner_kind,nodes,pods,pods_by_usage,gpu_share,"
	                    "held_per_hour,idle_per_hour,cost_per_hour\n"
	                    "x,x,\"we\"\"ird,job\",Job,one,1,0,1.000000,0.8048,0.00,0.8048\n"
	                    "__idle__,__idle__,__idle__,,,0,0,0.000000,0.00,0.00,0.00\n");
	free(csv);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_doc(void **state)
{
	gs_inventory *inv = repro(NULL);
	gs_chargeback *c = charge_default(inv);
	gs_error err = no_err();
	gs_doc *doc = NULL;
	char *json = NULL;
	(void)state;

	assert_gs_ok(gs_doc_chargeback(c, &doc, &err), &err);
	assert_gs_ok(gs_doc_render(doc, GS_FORMAT_JSON, &json, &err), &err);
	assert_non_null(strstr(json, "\"total_per_hour\": 11.6038,"));
	assert_non_null(strstr(json, "\"idle_per_hour\": 3.95525,"));
	assert_non_null(strstr(json, "\"gpu_share\": 0.133333,"));
	assert_non_null(strstr(json, "\"cost_per_hour\": 0.917333\n"));
	free(json);
	gs_doc_free(doc);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_report(void **state)
{
	gs_inventory *inv = dra("team");
	gs_chargeback *c = charge_default(inv);
	gs_error err = no_err();
	char *a = NULL, *b = NULL;
	(void)state;

	assert_gs_ok(gs_report_cost_html(c, "<dra & co>", &a, &err), &err);
	assert_gs_ok(gs_report_cost_html(c, "<dra & co>", &b, &err), &err);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "<h1>Chargeback for &lt;dra &amp; co&gt;</h1>"));
	/* The L4 node's bars: train-0's two GPUs, spare-l4's, the two infer
	 * shares, then idle, each in its team's colour. */
	assert_non_null(strstr(a, "<svg class=\"gpu\" viewBox=\"0 0 960 138\""));
	assert_non_null(strstr(a, "class=\"hold t2\""));
	assert_non_null(strstr(a, "class=\"free\""));
	assert_non_null(strstr(a, "$11.94837"));
	assert_null(strstr(a, "<script"));
	free(a);
	free(b);
	gs_chargeback_free(c);
	gs_import_free(inv);
}

static void test_options(void **state)
{
	gs_inventory *inv = repro(NULL);
	gs_chargeback_opts o = GS_CHARGEBACK_OPTS_INIT;
	gs_chargeback *c = NULL;
	gs_error err = no_err();
	(void)state;

	o.gpu_weight_pct = 101;
	assert_int_equal(gs_chargeback_make(inv, &o, &c, &err), GS_EINVAL);
	assert_gs_error(&err, "error: the GPUs' weight must be from 0 to 100%, not 101%");
	o = (gs_chargeback_opts)GS_CHARGEBACK_OPTS_INIT;
	o.version = 99;
	assert_int_equal(gs_chargeback_make(inv, &o, &c, &err), GS_EINVAL);
	o = (gs_chargeback_opts)GS_CHARGEBACK_OPTS_INIT;
	o.by = (gs_cost_by)7;
	assert_int_equal(gs_chargeback_make(inv, &o, &c, &err), GS_EINVAL);
	assert_null(c);
	gs_chargeback_free(NULL);
	gs_import_free(inv);
}

/* ---- the identity everywhere --------------------------------------------- */

static void test_adds_up_everywhere(void **state)
{
	static const char *const metrics[] = { IMP "t4-a-1.prom", IMP "t4-a-2.prom",
		                                   IMP "t4-b.prom", IMP "a100-mixed.prom",
		                                   IMP "range.json" };
	gs_inventory *inv = repro(FIX "range.json");
	(void)state;

	adds_up_always(inv);
	gs_import_free(inv);
	inv = begin("team");
	read_file(inv, GS_INPUT_NODES, IMP "nodes.json");
	read_file(inv, GS_INPUT_PODS, IMP "pods.json");
	for (size_t i = 0; i < sizeof metrics / sizeof *metrics; i++)
		read_file(inv, GS_INPUT_METRICS, metrics[i]);
	adds_up_always(end(inv));
	gs_import_free(inv);
	inv = files(IMP "nodes-no-gfd.json", IMP "pods.json", NULL, NULL, NULL);
	adds_up_always(inv);
	gs_import_free(inv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repro_allocation),
		cmocka_unit_test(test_repro_mig_rules),
		cmocka_unit_test(test_repro_gpu_weight),
		cmocka_unit_test(test_repro_usage),
		cmocka_unit_test(test_repro_spread),
		cmocka_unit_test(test_repro_grouping),
		cmocka_unit_test(test_dra),
		cmocka_unit_test(test_claims_order_and_errors),
		cmocka_unit_test(test_usage_fallback),
		cmocka_unit_test(test_overcommit_and_unpriced),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_doc),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_adds_up_everywhere),
	};
	return cmocka_run_group_tests(tests, tu_catalog_setup, tu_catalog_teardown);
}
