/*
 * share_rule.c - targetUtilization as a count of replicas per GPU, and the
 * sentences that say so (share_rule.h).
 */
#include <stdio.h>

#include "plan/share_rule.h"

/* More replicas than any GPU is ever planned with. */
#define ROOM_MAX 1000000

int gs_share_room(int64_t target_ppm, int64_t comp_ppm)
{
	int64_t n;
	if (comp_ppm <= 0)
		return ROOM_MAX;
	n = target_ppm / comp_ppm;
	return n > ROOM_MAX ? ROOM_MAX : (int)n;
}

int64_t gs_share_target_for(int n, int64_t comp_ppm)
{
	/* targetUtilization is from 10% to 100%; a whole percent is what a
	 * reader types. */
	int64_t t = gs_div_ceil((int64_t)n * comp_ppm, 10000) * 10000;
	return t < 100000 ? 100000 : t;
}

char *gs_share_pct(int64_t ppm, char *buf, size_t size)
{
	int64_t hundredths = ppm / 100;
	if (hundredths % 100 == 0)
		snprintf(buf, size, "%lld%%", (long long)(hundredths / 100));
	else if (hundredths % 10 == 0)
		snprintf(buf, size, "%lld.%lld%%", (long long)(hundredths / 100),
		             (long long)(hundredths % 100 / 10));
	else
		snprintf(buf, size, "%lld.%02lld%%", (long long)(hundredths / 100),
		             (long long)(hundredths % 100));
	return buf;
}

void gs_share_rule_text(char *buf, size_t size, int64_t target_ppm, int64_t comp_ppm,
                        int want)
{
	char t[16], c[16], sum[16], need[16];
	int room = gs_share_room(target_ppm, comp_ppm);
	int64_t next = gs_share_target_for(want, comp_ppm);
	size_t o;

	gs_share_pct(target_ppm, t, sizeof t);
	gs_share_pct(comp_ppm, c, sizeof c);
	gs_share_pct(comp_ppm * want, sum, sizeof sum);
	if (room >= want) {
		snprintf(buf, size, "%d of these at %s use %s of one GPU, within "
		                    "targetUtilization %s", want, c, sum, t);
		return;
	}
	if (room == 0)
		o = (size_t)snprintf(buf, size, "targetUtilization %s leaves room for none of "
		                                "these at %s to share a GPU (alone, one may use "
		                                "all of it)", t, c);
	else
		o = (size_t)snprintf(buf, size, "targetUtilization %s leaves room for %d of "
		                                "these on one GPU", t, room);
	if (o >= size)
		return;
	if (next <= GS_PPM)
		snprintf(buf + o, size - o, "; set targetUtilization: %s to fit %d",
		         gs_share_pct(next, need, sizeof need), want);
	else
		snprintf(buf + o, size - o, "; %d at %s would need %s of one GPU", want, c, sum);
}

void gs_share_assume_text(char *buf, size_t size, int64_t target_ppm, int replicas)
{
	char each[16], t[16];
	snprintf(buf, size, "assumes each workload peaks at or below %s of a GPU: "
	                    "targetUtilization %s / %d replicas",
	         gs_share_pct(target_ppm / (replicas > 0 ? replicas : 1), each, sizeof each),
	         gs_share_pct(target_ppm, t, sizeof t), replicas);
}
