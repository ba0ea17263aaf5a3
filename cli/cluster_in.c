/* cluster_in.c - where a cluster is read from, for the commands that read
 * one (import, plan --nodes, cost): the option rows they share and the
 * import that runs them, every input as a source of the library's. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_cluster_init(cli_cluster *c, int argc)
{
	size_t n = (size_t)argc + 1; /* every file is an argument */
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	c->o = o;
	c->n_nodes = c->n_pods = c->n_metrics = c->n_claims = 0;
	c->prom = (cli_prom){ 0 };
	c->context = c->kubeconfig = NULL;
	c->live_claims = 0;
	c->nodes = calloc(n, sizeof *c->nodes);
	c->pods = calloc(n, sizeof *c->pods);
	c->metrics = calloc(n, sizeof *c->metrics);
	c->claims = calloc(n, sizeof *c->claims);
	if (c->nodes && c->pods && c->metrics && c->claims)
		return 0;
	cli_cluster_free(c);
	return cli_error(EXIT_FAIL, "out of memory");
}

void cli_cluster_free(cli_cluster *c)
{
	free(c->nodes);
	free(c->pods);
	free(c->metrics);
	free(c->claims);
	c->nodes = c->pods = c->metrics = c->claims = NULL;
}

/* The option callbacks: the cli_cluster is the first member of args. */
int cli_cluster_add_nodes(const cli_cmd *self, void *args, const char *file)
{
	cli_cluster *c = args;
	(void)self;
	c->nodes[c->n_nodes++] = file;
	return 0;
}

int cli_cluster_add_pods(const cli_cmd *self, void *args, const char *file)
{
	cli_cluster *c = args;
	(void)self;
	c->pods[c->n_pods++] = file;
	return 0;
}

int cli_cluster_add_metrics(const cli_cmd *self, void *args, const char *file)
{
	cli_cluster *c = args;
	(void)self;
	c->metrics[c->n_metrics++] = file;
	return 0;
}

int cli_cluster_add_claims(const cli_cmd *self, void *args, const char *file)
{
	cli_cluster *c = args;
	(void)self;
	c->claims[c->n_claims++] = file;
	return 0;
}

static size_t count_stdin(const char *const *files, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += strcmp(files[i], "-") == 0;
	return k;
}

/* Nodes and pods from a running cluster, through kubectl. */
static int live(const cli_cluster *c)
{
	return c->context || c->kubeconfig;
}

int cli_cluster_given(const cli_cluster *c)
{
	const cli_prom *p = &c->prom;
	return c->n_nodes || c->n_pods || live(c) || p->url || p->window || p->step ||
	       p->until || p->timeout;
}

int cli_cluster_check(const cli_cmd *self, const cli_cluster *c)
{
	if (live(c) && (c->n_nodes || c->n_pods))
		return cli_usage_error(self, "--context and --kubeconfig read the nodes and pods "
		                             "with kubectl: give them without --nodes and --pods");
	if (!live(c) && (!c->n_nodes || !c->n_pods))
		return cli_usage_error(self, "--nodes and --pods are required");
	if (count_stdin(c->nodes, c->n_nodes) + count_stdin(c->pods, c->n_pods) +
	        count_stdin(c->metrics, c->n_metrics) + count_stdin(c->claims, c->n_claims) > 1)
		return cli_usage_error(self, "only one input can be read from stdin ('-')");
	return cli_prom_check(self, &c->prom);
}

int cli_cluster_parse(const cli_cmd *self, int argc, char **argv, void *args)
{
	int first, rc;

	if ((rc = cli_parse(self, argc, argv, args, &first)) != CLI_DONE)
		return rc;
	if (first < argc)
		return cli_usage_error(self, "unexpected argument '%s'", argv[first]);
	return cli_cluster_check(self, (const cli_cluster *)args);
}

const char *cli_cluster_name(const cli_cluster *c)
{
	if (live(c))
		return c->context ? c->context : c->kubeconfig;
	return c->n_nodes ? c->nodes[0] : "the cluster";
}

/* Each file of one kind, in the order given. */
static int read_files(gs_inventory *inv, gs_import_input what, const char *const *files,
                      size_t n, gs_error *err)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		gs_source src;
		rc = strcmp(files[i], "-") == 0 ? gs_source_open_fd(&src, 0, "<stdin>", err)
		                                : gs_source_open_file(&src, files[i], err);
		if (rc == 0)
			rc = gs_import_read(inv, what, &src, err);
		gs_source_close(&src);
	}
	return rc;
}

/* The files through the builder: all node lists, then all pod lists
 * (merged), then the claims, the metrics files and Prometheus' series.
 * With --context or --kubeconfig, the node list and the pod list are
 * kubectl's output. */
int cli_cluster_load(const cli_cluster *c, const gs_catalog *cat, gs_inventory **out)
{
	gs_inventory *inv = NULL;
	gs_error err;
	int rc = gs_import_begin(cat, &c->o, &inv, &err);

	if (rc == 0)
		rc = live(c) ? cli_kubectl_read(c, inv, GS_INPUT_NODES, &err)
		             : read_files(inv, GS_INPUT_NODES, c->nodes, c->n_nodes, &err);
	if (rc == 0)
		rc = live(c) ? cli_kubectl_read(c, inv, GS_INPUT_PODS, &err)
		             : read_files(inv, GS_INPUT_PODS, c->pods, c->n_pods, &err);
	if (rc == 0)
		rc = read_files(inv, GS_INPUT_CLAIMS, c->claims, c->n_claims, &err);
	if (rc == 0 && live(c) && c->live_claims)
		rc = cli_kubectl_read(c, inv, GS_INPUT_CLAIMS, &err);
	if (rc == 0)
		rc = read_files(inv, GS_INPUT_METRICS, c->metrics, c->n_metrics, &err);
	if (rc == 0 && c->prom.url)
		rc = cli_prom_read(&c->prom, inv, &err);
	if (rc == 0)
		rc = gs_import_end(inv, &err);
	if (rc < 0) {
		gs_import_free(inv);
		return cli_fail(&err);
	}
	*out = inv;
	return EXIT_OK;
}
