/* emit.h - shared by the emitters of Kubernetes configuration. */
#ifndef GS_EMIT_H
#define GS_EMIT_H

#include "plan/plan_internal.h"

/* Output text; failures are sticky and reported once at the end. */
typedef struct ebuf {
	char *buf;
	size_t len, cap;
	int failed;
} ebuf;

void eb_puts(ebuf *b, const char *s);
void eb_printf(ebuf *b, const char *fmt, ...) GS_PRINTF(2, 3);
/* Appends doc as one YAML document starting with "---", and frees it. */
void eb_doc(ebuf *b, gs_node *doc);
/* The comment every file starts with: what produced it and how to apply
 * it. Only our own text and sanitized names go into comments. */
void eb_header(ebuf *b, const gs_plan *p, const gs_emit_opts *o, const char *what,
               const char *apply);
int eb_finish(ebuf *b, char **out, gs_error *err);

/* Builders: NULL-safe, so trees are built first and checked once. */
gs_node *em_map(void);
gs_node *em_seq(void);
gs_node *em_str(const char *s);
gs_node *em_int(int64_t v);
/* put/push record failure in *bad instead of returning it. */
void em_put(int *bad, gs_node *map, const char *key, gs_node *v);
void em_push(int *bad, gs_node *seq, gs_node *v);

/* "nvidia.com/mig-1g.5gb" (a '+' in a profile name becomes '.') */
void em_mig_resource(const gs_mig_profile *prof, int shared, char *buf, size_t n);
/* The plan's nodes of each distinct config, in order of first appearance:
 * index i of the first node per config (returns their count). */
size_t em_distinct_configs(const gs_plan *p, size_t *first, int mig);
int em_uses_dra(const gs_plan *p, const gs_emit_opts *o);
int em_has_mig(const gs_plan *p);

#define EM_DP_CONFIGMAP "gpushare-device-plugin-config"
#define EM_MIG_CONFIGMAP "gpushare-mig-config"
#define EM_NODECLASS "gpushare-gpu"

int emit_device_plugin(const gs_plan *p, const gs_emit_opts *o, ebuf *b);
int emit_operator_values(const gs_plan *p, const gs_emit_opts *o, ebuf *b);
int emit_mig_parted(const gs_plan *p, const gs_emit_opts *o, ebuf *b);
int emit_labels(const gs_plan *p, const gs_emit_opts *o, ebuf *b);
int emit_workloads(const gs_plan *p, const gs_emit_opts *o, ebuf *b);
int emit_dra(const gs_plan *p, const gs_emit_opts *o, ebuf *b);
int emit_karpenter(const gs_plan *p, const gs_emit_opts *o, ebuf *b);

#endif
