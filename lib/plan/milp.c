/*
 * milp.c - the seam to COIN-OR CBC (EPL-2.0, Debian's coinor-libcbc-dev):
 * the model is kept in plain arrays and handed to CBC's C interface
 * whole, so CBC's lifetime is one call and its logging is off.
 *
 * CBC 2.10.8 can crash: on gen.py's seed 5265 a small branch and bound
 * that one of its heuristics starts reads memory it never set
 * (CbcNode::chooseDynamicBranch, as valgrind shows) and takes a SIGSEGV.
 * A model solved apart (gs_milp_set_apart) is solved in a child process
 * (base/apart.h); where the child dies, once more without CBC's
 * heuristics, and where that one dies too the solve found nothing. Under
 * valgrind the model is solved here: valgrind checks CBC's memory in the
 * caller as well, and a fork of a process under it took the suite's REPL
 * sweep from 3.3 to 23.5 s.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <Cbc_C_Interface.h>
/* RUNNING_ON_VALGRIND: valgrind's header where it is installed (the test
 * suite's machines), else never. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* CBC's own line between a small model and a larger one (passCuts). */
#define SMALL_MODEL 500

/* CBC's infinity (its C header leaves INF to C++). */
#define INF DBL_MAX

#include "base/apart.h"
#include "base/base.h"
#include "plan/coin.h"
#include "plan/milp.h"

typedef struct entry {
	int row, col;
	double val;
} entry;

struct gs_milp {
	double *cost, *ub;
	char *integer;
	int ncols;
	size_t capcost, capub, capint;
	double *lo, *hi;
	int nrows;
	size_t caplo, caphi;
	entry *e;
	size_t ne, cape;
	double *x;     /* the last solution */
	double gap;    /* absolute gap that ends the search; 0: CBC's own */
	int apart;     /* solved in a child process */
};

gs_milp *gs_milp_new(void) { return calloc(1, sizeof(gs_milp)); }

void gs_milp_set_gap(gs_milp *m, double gap) { m->gap = gap; }

void gs_milp_set_apart(gs_milp *m, int apart) { m->apart = apart; }

void gs_milp_free(gs_milp *m)
{
	if (!m)
		return;
	free(m->cost);
	free(m->ub);
	free(m->integer);
	free(m->lo);
	free(m->hi);
	free(m->e);
	free(m->x);
	free(m);
}

int gs_milp_cols(const gs_milp *m) { return m->ncols; }
int gs_milp_rows(const gs_milp *m) { return m->nrows; }

int gs_milp_col(gs_milp *m, double cost, double ub, int integer)
{
	size_t c = (size_t)m->ncols;
	if (gs_grow(&m->cost, &m->capcost, c + 1, sizeof *m->cost) < 0 ||
	    gs_grow(&m->ub, &m->capub, c + 1, sizeof *m->ub) < 0 ||
	    gs_grow(&m->integer, &m->capint, c + 1, 1) < 0)
		return -1;
	m->cost[c] = cost;
	m->ub[c] = ub < 0 ? INF : ub;
	m->integer[c] = (char)(integer != 0);
	return m->ncols++;
}

static int add_entries(gs_milp *m, const int *cols, const double *vals, int n)
{
	if (gs_grow(&m->e, &m->cape, m->ne + (size_t)n, sizeof *m->e) < 0)
		return -1;
	for (int i = 0; i < n; i++)
		m->e[m->ne++] = (entry){ m->nrows, cols[i], vals[i] };
	return 0;
}

int gs_milp_row(gs_milp *m, const int *cols, const double *vals, int n, double lo,
                double hi)
{
	size_t r = (size_t)m->nrows;
	if (gs_grow(&m->lo, &m->caplo, r + 1, sizeof *m->lo) < 0 ||
	    gs_grow(&m->hi, &m->caphi, r + 1, sizeof *m->hi) < 0 ||
	    add_entries(m, cols, vals, n) < 0)
		return -1;
	m->lo[r] = lo <= -1e30 ? -INF : lo;
	m->hi[r] = hi >= 1e30 ? INF : hi;
	m->nrows++;
	return 0;
}

static int by_col(const void *a, const void *b)
{
	const entry *x = a, *y = b;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* The column-major arrays both solvers load. */
typedef struct cols {
	CoinBigIndex *start;
	int *index;
	double *value, *lb;
} cols;

static void cols_free(cols *c)
{
	free(c->start);
	free(c->index);
	free(c->value);
	free(c->lb);
}

static int cols_of(gs_milp *m, cols *c)
{
	size_t k = 0;
	c->start = malloc(((size_t)m->ncols + 1) * sizeof *c->start);
	c->index = malloc((m->ne ? m->ne : 1) * sizeof *c->index);
	c->value = malloc((m->ne ? m->ne : 1) * sizeof *c->value);
	c->lb = calloc((size_t)m->ncols + 1, sizeof *c->lb);
	if (!c->start || !c->index || !c->value || !c->lb) {
		cols_free(c);
		return -1;
	}
	qsort(m->e, m->ne, sizeof *m->e, by_col);
	for (int j = 0; j < m->ncols; j++) {
		c->start[j] = (CoinBigIndex)k;
		for (; k < m->ne && m->e[k].col == j; k++) {
			c->index[k] = m->e[k].row;
			c->value[k] = m->e[k].val;
		}
	}
	c->start[m->ncols] = (CoinBigIndex)k;
	return 0;
}

static Cbc_Model *load(gs_milp *m)
{
	cols c;
	Cbc_Model *cbc;
	if (cols_of(m, &c) < 0)
		return NULL;
	if ((cbc = Cbc_newModel())) {
		Cbc_loadProblem(cbc, m->ncols, m->nrows, c.start, c.index, c.value, c.lb, m->ub,
		                m->cost, m->lo, m->hi);
		for (int j = 0; j < m->ncols; j++)
			if (m->integer[j])
				Cbc_setInteger(cbc, j);
	}
	cols_free(&c);
	return cbc;
}

static void result_of(gs_milp *m, Cbc_Model *cbc, gs_milp_result *res)
{
	const double *sol = Cbc_numberSavedSolutions(cbc) > 0 || Cbc_isProvenOptimal(cbc)
	                    ? Cbc_getColSolution(cbc) : NULL;
	res->bound = Cbc_getBestPossibleObjValue(cbc);
	res->x = NULL;
	res->status = GS_MILP_NONE;
	if (!sol || Cbc_isProvenInfeasible(cbc))
		return;
	memcpy(m->x, sol, (size_t)m->ncols * sizeof *m->x);
	res->x = m->x;
	res->obj = Cbc_getObjValue(cbc);
	res->status = Cbc_isProvenOptimal(cbc) ? GS_MILP_OPTIMAL : GS_MILP_FEASIBLE;
	if (res->status == GS_MILP_OPTIMAL)
		res->bound = res->obj;
}

static int solve(gs_milp *m, int nodes, int cuts, double seconds, int plain,
                 gs_milp_result *res);
static int solve_apart(gs_milp *m, int nodes, int cuts, double seconds, gs_milp_result *res);

int gs_milp_solve(gs_milp *m, int nodes, int cuts, double seconds, gs_milp_result *res)
{
	int rc;
	gs_coin_lock();
	rc = m->apart && !RUNNING_ON_VALGRIND ? solve_apart(m, nodes, cuts, seconds, res)
	                                      : solve(m, nodes, cuts, seconds, 0, res);
	gs_coin_unlock();
	return rc;
}

/* From loading the model to deleting it, under the lock; plain: without
 * CBC's heuristics. */
static int solve(gs_milp *m, int nodes, int cuts, double seconds, int plain,
                 gs_milp_result *res)
{
	Cbc_Model *cbc;
	double *x = realloc(m->x, ((size_t)m->ncols + 1) * sizeof *x);

	memset(res, 0, sizeof *res);
	if (!x)
		return -1;
	m->x = x;
	if (!(cbc = load(m)))
		return -1;
	Cbc_setLogLevel(cbc, 0);
	Cbc_setMaximumNodes(cbc, nodes);
	/* Fixed seeds: CBC's own vary from run to run, and with them which of
	 * several optima it returns. */
	Cbc_setParameter(cbc, "randomCbcSeed", "1");
	Cbc_setParameter(cbc, "randomSeed", "1");
	/* Zero-half cuts calloc a large cut list at each separation. The
	 * release build never touches its pages; ASan poisons their shadow
	 * twice (92 % of a sanitized plan's page faults; one CI fleet took
	 * 20.5 s, 5.0 s without) and CI ran past its budget. Without them the
	 * plans measured cost the same. */
	if (!cuts)
		Cbc_setParameter(cbc, "cuts", "off");
	else
		Cbc_setParameter(cbc, "zeroHalfCuts", "off");
	/* Under SMALL_MODEL columns CBC makes 100 rounds of cuts at the root,
	 * where it makes 20 on larger models. On this tree's small programs
	 * the rounds past 20 moved no plan (the goldens, fleet.py's six
	 * classes, bench-quality's 150 optima) and were most of their time:
	 * examples/multi-tenant-mig.yaml, 11 replicas, planned in 1.65 s,
	 * 1.2 s of it in two programs of 193 and 170 columns. */
	if (cuts && m->ncols < SMALL_MODEL)
		Cbc_setParameter(cbc, "passCuts", "20");
	if (plain)
		Cbc_setParameter(cbc, "heuristicsOnOff", "off");
	Cbc_setMaximumSeconds(cbc, seconds);
	if (m->gap > 0)
		Cbc_setAllowableGap(cbc, m->gap);
	if (Cbc_solve(cbc) < 0 || Cbc_isAbandoned(cbc)) {
		Cbc_deleteModel(cbc);
		return -1;
	}
	result_of(m, cbc, res);
	if (!isfinite(res->bound))
		res->bound = -INF;
	Cbc_deleteModel(cbc);
	return 0;
}

/* ---- in a child process --------------------------------------------------- */

/* Beyond the solve's own limit, what a child may take before it is
 * killed: loading the model and handing back its answer. */
#define APART_MARGIN 10.0

typedef struct job {
	gs_milp *m;
	int nodes, cuts, plain;
	double seconds;
} job;

/* What the child hands back, then the solution's columns. */
typedef struct sent {
	int rc;
	gs_milp_status status;
	double obj, bound;
} sent;

static int solve_task(void *arg, gs_apart_out *o)
{
	job *j = arg;
	gs_milp_result res;
	sent s;
	memset(&s, 0, sizeof s);
	s.rc = solve(j->m, j->nodes, j->cuts, j->seconds, j->plain, &res);
	if (s.rc == 0) {
		s.status = res.status;
		s.obj = res.obj;
		s.bound = res.bound;
	}
	if (gs_apart_put(o, &s, sizeof s) < 0)
		return -1;
	if (s.rc == 0 && res.x &&
	    gs_apart_put(o, res.x, (size_t)j->m->ncols * sizeof *res.x) < 0)
		return -1;
	return 0;
}

/* The child's answer in buf, into m and res; frees buf. */
static int take(gs_milp *m, char *buf, size_t len, gs_milp_result *res)
{
	size_t xs = (size_t)m->ncols * sizeof *m->x;
	double *x = realloc(m->x, ((size_t)m->ncols + 1) * sizeof *x);
	sent s;
	int rc = -1;
	memset(res, 0, sizeof *res);
	if (x)
		m->x = x;
	if (x && len >= sizeof s) {
		memcpy(&s, buf, sizeof s);
		rc = s.rc;
	}
	if (rc == 0) {
		res->status = s.status;
		res->obj = s.obj;
		res->bound = s.bound;
		if (s.status != GS_MILP_NONE && len == sizeof s + xs) {
			memcpy(m->x, buf + sizeof s, xs);
			res->x = m->x;
		} else if (s.status != GS_MILP_NONE) {
			rc = -1;
		}
	}
	free(buf);
	return rc;
}

static int solve_apart(gs_milp *m, int nodes, int cuts, double seconds, gs_milp_result *res)
{
	for (int plain = 0; plain < 2; plain++) {
		job j = { m, nodes, cuts, plain, seconds };
		char *buf;
		size_t len;
		int rc = gs_apart_run(solve_task, &j, seconds + APART_MARGIN, &buf, &len);
		if (rc == GS_APART_NONE)
			return solve(m, nodes, cuts, seconds, 0, res);
		if (rc == GS_APART_OK)
			return take(m, buf, len, res);
		if (rc < 0)
			return -1;
	}
	/* Nothing found, and nothing proven. */
	memset(res, 0, sizeof *res);
	res->status = GS_MILP_NONE;
	res->bound = -INF;
	return 0;
}
