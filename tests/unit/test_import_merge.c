/*
 * test_import_merge.c - the import built from several sources
 * (gs_import_begin/read/end): the order it takes them in and its errors,
 * lists of one kind merged (split lists give what the whole list gives;
 * repeats are kept once and counted in one warning), and a list streamed
 * through a pipe, whole or cut short.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "doc/doc.h"

#define FIX "fixtures/import/"

static gs_catalog *cat;

static int group_setup(void **state)
{
	(void)state;
	return tu_catalog(TEST_PROFILES, &cat);
}

static int group_teardown(void **state)
{
	(void)state;
	gs_catalog_free(cat);
	return 0;
}

/* Items [from, to) of the List in path, as a List of their own. */
static char *sublist(const char *path, size_t from, size_t to)
{
	gs_node *root = NULL, *out = gs_node_new(GS_NODE_MAP, NULL), *items;
	const gs_node *all;
	gs_error err;
	char *text = NULL;
	int rc = 0;

	assert_gs_ok(gs_json_read_file(path, &root, &err), &err);
	all = gs_node_get(root, "items");
	items = gs_node_new(GS_NODE_SEQ, NULL);
	for (size_t i = from; i < to && i < all->n; i++)
		rc |= gs_node_push(items, gs_node_clone(all->items[i]));
	rc |= gs_node_put(out, "apiVersion", gs_node_str("v1"));
	rc |= gs_node_put(out, "items", items);
	rc |= gs_node_put(out, "kind", gs_node_str("List"));
	assert_non_null(out = gs_node_done(out, rc));
	assert_gs_ok(gs_json_render(out, &text, &err), &err);
	gs_node_free(out);
	gs_node_free(root);
	return text;
}

static int read_text(gs_inventory *inv, gs_import_input what, const char *name,
                     const char *text, gs_error *err)
{
	gs_memory_source m;
	gs_source src;
	gs_source_memory(&src, &m, name, text, strlen(text));
	return gs_import_read(inv, what, &src, err);
}

static int read_file(gs_inventory *inv, gs_import_input what, const char *path,
                     gs_error *err)
{
	gs_source src;
	int rc = gs_source_open_file(&src, path, err);
	if (rc == 0)
		rc = gs_import_read(inv, what, &src, err);
	gs_source_close(&src);
	return rc;
}

static char *rendered(gs_inventory *inv)
{
	gs_error err;
	char *text = NULL;
	assert_gs_ok(gs_import_render(inv, &text, &err), &err);
	return text;
}

static gs_inventory *begin(void)
{
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_inventory *inv = NULL;
	gs_error err;
	assert_gs_ok(gs_import_begin(cat, &o, &inv, &err), &err);
	return inv;
}

static gs_inventory *whole(void)
{
	gs_import_opts o = GS_IMPORT_OPTS_INIT;
	gs_inventory *inv = NULL;
	gs_error err;
	o.nodes = FIX "nodes.json";
	o.pods = FIX "pods.json";
	assert_gs_ok(gs_import_load(cat, &o, &inv, &err), &err);
	return inv;
}

/* ---- order ------------------------------------------------------------------------ */

static void test_order(void **state)
{
	gs_inventory *inv = begin();
	gs_error err;
	(void)state;

	assert_int_equal(read_file(inv, GS_INPUT_METRICS, FIX "t4-b.prom", &err), GS_EINVAL);
	assert_gs_error(&err, "error: metrics are read after the pod lists");
	assert_int_equal(gs_import_end(inv, &err), GS_EINVAL);
	assert_gs_error(&err, "error: a node list and a pod list are needed");
	assert_int_equal(gs_import_read(inv, (gs_import_input)7, NULL, &err), GS_EINVAL);
	assert_gs_error(&err, "error: unknown import input 7");
	assert_gs_ok(read_file(inv, GS_INPUT_NODES, FIX "nodes.json", &err), &err);
	assert_gs_ok(read_file(inv, GS_INPUT_PODS, FIX "pods.json", &err), &err);
	assert_int_equal(read_file(inv, GS_INPUT_NODES, FIX "nodes.json", &err), GS_EINVAL);
	assert_gs_error(&err, "error: a node list is read before any pod list");
	assert_gs_ok(read_file(inv, GS_INPUT_METRICS, FIX "t4-b.prom", &err), &err);
	assert_int_equal(read_file(inv, GS_INPUT_PODS, FIX "pods.json", &err), GS_EINVAL);
	assert_gs_error(&err, "error: a pod list is read before any metrics");
	assert_gs_ok(gs_import_end(inv, &err), &err);
	assert_int_equal(read_file(inv, GS_INPUT_METRICS, FIX "t4-b.prom", &err), GS_EINVAL);
	assert_gs_error(&err, "error: the import has ended");
	assert_int_equal(gs_import_end(inv, &err), GS_EINVAL);
	assert_gs_error(&err, "error: the import has ended or failed");
	gs_import_free(inv);
}

/* A failed read leaves only gs_import_free. */
static void test_after_failure(void **state)
{
	gs_inventory *inv = begin();
	gs_error err;
	(void)state;

	assert_gs_ok(read_file(inv, GS_INPUT_NODES, FIX "nodes.json", &err), &err);
	assert_int_equal(read_file(inv, GS_INPUT_PODS, FIX "errors/truncated.json", &err),
	                 GS_ESYNTAX);
	assert_int_equal(read_file(inv, GS_INPUT_PODS, FIX "pods.json", &err), GS_EINVAL);
	assert_gs_error(&err, "error: the import failed before: free it");
	assert_int_equal(gs_import_end(inv, &err), GS_EINVAL);
	gs_import_free(inv);
}

/* ---- merged lists ----------------------------------------------------------------- */

/* nodes.json and pods.json, each split in two Lists, import as the whole. */
static void test_split_lists(void **state)
{
	gs_inventory *a = whole(), *b = begin();
	char *n1 = sublist(FIX "nodes.json", 0, 3), *n2 = sublist(FIX "nodes.json", 3, 99);
	char *p1 = sublist(FIX "pods.json", 0, 10), *p2 = sublist(FIX "pods.json", 10, 99);
	char *want, *got;
	gs_error err;
	(void)state;

	assert_gs_ok(read_text(b, GS_INPUT_NODES, "n1", n1, &err), &err);
	assert_gs_ok(read_text(b, GS_INPUT_NODES, "n2", n2, &err), &err);
	assert_gs_ok(read_text(b, GS_INPUT_PODS, "p1", p1, &err), &err);
	assert_gs_ok(read_text(b, GS_INPUT_PODS, "p2", p2, &err), &err);
	assert_gs_ok(gs_import_end(b, &err), &err);
	want = rendered(a);
	got = rendered(b);
	assert_string_equal(got, want);
	assert_int_equal(gs_import_warning_count(b), gs_import_warning_count(a));
	free(want);
	free(got);
	free(n1);
	free(n2);
	free(p1);
	free(p2);
	gs_import_free(a);
	gs_import_free(b);
}

/* Overlapping lists: each node and pod once, the first read kept, and one
 * warning per kind counting the repeats. */
static void test_repeats(void **state)
{
	gs_inventory *a = whole(), *b = begin();
	char *n2 = sublist(FIX "nodes.json", 2, 5), *p1 = sublist(FIX "pods.json", 0, 8);
	char *want, *got;
	size_t w;
	gs_error err;
	(void)state;

	assert_gs_ok(read_file(b, GS_INPUT_NODES, FIX "nodes.json", &err), &err);
	assert_gs_ok(read_text(b, GS_INPUT_NODES, "n2", n2, &err), &err);
	assert_gs_ok(read_text(b, GS_INPUT_NODES, "h100", "{\"kind\": \"List\", \"items\": []}",
	                       &err), &err);
	assert_gs_ok(read_text(b, GS_INPUT_PODS, "p1", p1, &err), &err);
	assert_gs_ok(read_file(b, GS_INPUT_PODS, FIX "pods.json", &err), &err);
	assert_gs_ok(read_file(b, GS_INPUT_PODS, FIX "pods.yaml", &err), &err);
	assert_gs_ok(gs_import_end(b, &err), &err);
	assert_int_equal(gs_import_node_count(b), 5);
	assert_int_equal(gs_import_summary_get(b)->pods, 21);
	want = rendered(a);
	got = rendered(b);
	assert_string_equal(got, want);
	w = gs_import_warning_count(b);
	assert_int_equal(w, gs_import_warning_count(a) + 2);
	/* nodes.json items 2-4 are GPU nodes (gpu-a100-mixed, -single, gpu-h100);
	 * pods.json's first 8 items are counted pods, which pods.json repeats
	 * (8), and pods.yaml repeats all 21. */
	assert_string_equal(gs_import_warning_at(b, w - 2),
	                    "3 repeated nodes in the node lists (the first: 'gpu-a100-mixed'): "
	                    "each node is counted once");
	assert_string_equal(gs_import_warning_at(b, w - 1),
	                    "29 repeated pods in the pod lists (the first: "
	                    "'default/time-slicing-verification-5f8d6c9b7d-2xk9d'): each pod is "
	                    "counted once");
	free(want);
	free(got);
	free(n2);
	free(p1);
	gs_import_free(a);
	gs_import_free(b);
}

/* ---- through a pipe --------------------------------------------------------------- */

/* A child writes the first `len` bytes of path into a pipe, slowly; the
 * import reads the other end as it comes. */
static int read_pipe(gs_inventory *inv, const char *path, size_t len, gs_error *err)
{
	int fd[2], status;
	pid_t pid;
	gs_source src;
	int rc;

	assert_int_equal(pipe(fd), 0);
	if ((pid = fork()) == 0) {
		char *buf = NULL;
		size_t n = 0;
		gs_error e;
		close(fd[0]);
		if (gs_file_read(path, &buf, &n, &e) < 0)
			_exit(1);
		if (len > n)
			len = n;
		for (size_t at = 0; at < len; at += 4096) {
			size_t k = len - at < 4096 ? len - at : 4096;
			if (write(fd[1], buf + at, k) != (ssize_t)k)
				_exit(1);
		}
		_exit(0);
	}
	close(fd[1]);
	assert_gs_ok(gs_source_open_fd(&src, fd[0], "kubectl get pods", err), err);
	rc = gs_import_read(inv, GS_INPUT_PODS, &src, err);
	gs_source_close(&src);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return rc;
}

static void test_pipe(void **state)
{
	gs_inventory *a = whole(), *b = begin(), *c = begin();
	char *want, *got;
	gs_error err;
	(void)state;

	assert_gs_ok(read_file(b, GS_INPUT_NODES, FIX "nodes.json", &err), &err);
	assert_gs_ok(read_pipe(b, FIX "pods.json", (size_t)-1, &err), &err);
	assert_gs_ok(gs_import_end(b, &err), &err);
	want = rendered(a);
	got = rendered(b);
	assert_string_equal(got, want);

	/* Cut short: an error naming the source and the item, nothing imported. */
	assert_gs_ok(read_file(c, GS_INPUT_NODES, FIX "nodes.json", &err), &err);
	assert_int_equal(read_pipe(c, FIX "pods.json", 9000, &err), GS_ESYNTAX);
	assert_gs_error(&err, "kubectl get pods:255:39: error: the file ends inside items[6] "
	                      "(truncated?)");
	free(want);
	free(got);
	gs_import_free(a);
	gs_import_free(b);
	gs_import_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_after_failure),
		cmocka_unit_test(test_split_lists),
		cmocka_unit_test(test_repeats),
		cmocka_unit_test(test_pipe),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
