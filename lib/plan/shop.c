/*
 * shop.c - the cheapest set of instances that gives n GPUs of one model:
 * an unbounded covering knapsack, solved by dynamic programming over the
 * GPU count and memoised, since the planner asks for many n per model.
 */
#include <stdlib.h>
#include <string.h>

#include "plan/host.h"
#include "plan/shop.h"
#include "scenario/scenario.h"

int gs_shop_init(gs_shop *sh, const gs_scenario *s, const char *cloud, const gs_gpu *g,
                 gs_arch arch)
{
	memset(sh, 0, sizeof *sh);
	for (size_t i = 0; i < gs_catalog_instance_count(s->cat) && sh->n < GS_SHOP_MAX; i++) {
		const gs_instance *in = gs_catalog_instance_at(s->cat, i);
		gs_host room;
		if (in->gpu != g || in->arch != arch || !gs_scenario_instance_ok_in(s, cloud, in))
			continue;
		room = gs_host_allocatable(in);
		sh->insts[sh->n] = in;
		sh->cpu[sh->n] = room.cpu;
		sh->mem[sh->n] = room.mem;
		sh->price[sh->n++] = gs_instance_price(s, in);
	}
	sh->known = -1;
	return 0;
}

void gs_shop_release(gs_shop *sh)
{
	free(sh->memo);
	free(sh->choice);
	memset(sh, 0, sizeof *sh);
}

int gs_shop_copy(gs_shop *to, const gs_shop *from)
{
	size_t n = from->known >= 0 ? (size_t)from->known + 1 : 0;
	*to = *from;
	to->origin = from->origin ? from->origin : from;
	to->memo = NULL;
	to->choice = NULL;
	to->known = -1;
	if (n == 0)
		return 0;
	if (!(to->memo = malloc(n * sizeof *to->memo)) ||
	    !(to->choice = malloc(n * sizeof *to->choice))) {
		gs_shop_release(to);
		return -1;
	}
	memcpy(to->memo, from->memo, n * sizeof *to->memo);
	memcpy(to->choice, from->choice, n * sizeof *to->choice);
	to->known = from->known;
	return 0;
}

int64_t gs_shop_key(const gs_shop *sh)
{
	return (int64_t)(intptr_t)(sh->origin ? sh->origin : sh);
}

static int less(gs_buy a, gs_buy b)
{
	if (a.cost != b.cost)
		return a.cost < b.cost;
	if (a.gpus != b.gpus)
		return a.gpus < b.gpus;
	return a.instances < b.instances;
}

static int extend(gs_shop *sh, int n)
{
	gs_buy *m;
	int *c;
	if (n <= sh->known)
		return 0;
	if (!(m = realloc(sh->memo, (size_t)(n + 1) * sizeof *m)))
		return -1;
	sh->memo = m;
	if (!(c = realloc(sh->choice, (size_t)(n + 1) * sizeof *c)))
		return -1;
	sh->choice = c;
	for (int x = sh->known + 1; x <= n; x++) {
		gs_buy best = { -1, 0, 0 };
		int pick = -1;
		if (x == 0) {
			sh->memo[0] = (gs_buy){ 0, 0, 0 };
			sh->choice[0] = -1;
			continue;
		}
		for (int i = 0; i < sh->n; i++) {
			int rest = x - sh->insts[i]->gpu_count;
			gs_buy b = sh->memo[rest > 0 ? rest : 0];
			b.cost += sh->price[i];
			b.gpus += sh->insts[i]->gpu_count;
			b.instances++;
			if (pick < 0 || less(b, best)) {
				best = b;
				pick = i;
			}
		}
		sh->memo[x] = best;
		sh->choice[x] = pick;
	}
	sh->known = n;
	return 0;
}

int gs_shop_best(gs_shop *sh, int n, gs_buy *out)
{
	if (sh->n == 0) {
		*out = (gs_buy){ -1, 0, 0 };
		return 0;
	}
	if (extend(sh, n) < 0)
		return -1;
	*out = sh->memo[n];
	return 0;
}

int gs_shop_counts(gs_shop *sh, int n, int *counts)
{
	memset(counts, 0, (size_t)sh->n * sizeof *counts);
	if (sh->n == 0 || extend(sh, n) < 0)
		return -1;
	while (n > 0) {
		int i = sh->choice[n];
		counts[i]++;
		n -= sh->insts[i]->gpu_count;
	}
	return 0;
}
