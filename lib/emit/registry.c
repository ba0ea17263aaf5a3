/*
 * registry.c - every kind of configuration, one row each: its names, the
 * function that renders it, when a plan wants it and why not, and its line
 * of help. Adding a kind is a value of gs_emit_kind, a row here, and the
 * file that renders it (its render function declared in emit.h).
 */
#include <string.h>

#include "emit/emit.h"

typedef struct kind_row {
	const char *name;    /* on the command line: "device-plugin" */
	const char *file;    /* written by plan --emit */
	int (*render)(const gs_plan *p, const gs_emit_opts *o, gs_buf *b);
	/* Whether a plan has anything of this kind; NULL: always. */
	int (*wanted)(const gs_plan *p, const gs_emit_opts *o);
	const char *why_not; /* when not wanted */
	const char *help;    /* one line; it opens the file's header */
	int applies;         /* Kubernetes objects: kustomization.yaml lists it */
	/* What the input lacks for it, said before rendering (renderers
	 * report only memory); NULL: nothing. */
	int (*check)(const gs_plan *p, const gs_emit_opts *o, gs_error *err);
} kind_row;

/* Indexed by gs_emit_kind. */
static const kind_row rows[GS_EMIT_KIND_COUNT] = {
	[GS_EMIT_DEVICE_PLUGIN] = {
		"device-plugin", "device-plugin-config.yaml",
		gs_emit_device_plugin, gs_emit_wants_device_plugin,
		"its stack is DRA, by via: dra or --dra: claims configure sharing, and the "
		"device plugin must not run beside the DRA driver",
		"NVIDIA device-plugin configs: one key per kind of node in the plan.", 1, NULL },
	[GS_EMIT_OPERATOR_VALUES] = {
		"gpu-operator-values", "gpu-operator-values.yaml",
		gs_emit_operator_values, NULL, NULL,
		"GPU Operator Helm values that point at the generated configs.", 0, NULL },
	[GS_EMIT_MIG_PARTED] = {
		"mig-config", "mig-config.yaml",
		gs_emit_mig_parted, gs_emit_wants_mig, "no MIG GPUs",
		"mig-parted configs: one per MIG geometry in the plan.", 1, NULL },
	[GS_EMIT_LABELS] = {
		"labels", "labels.sh",
		gs_emit_labels, NULL, NULL,
		"Node labels that select each node's device-plugin config and MIG geometry.",
		0, NULL },
	[GS_EMIT_WORKLOADS] = {
		"workloads", "workloads.yaml",
		gs_emit_workloads, NULL, NULL,
		"Strategic-merge patches: what each workload's object must request "
		"and where it must land.", 0, gs_emit_workloads_check },
	[GS_EMIT_DRA] = {
		"dra", "resourceclaims.yaml",
		gs_emit_dra, gs_emit_wants_dra, "use --dra or via: dra",
		"DRA claims: one per shared GPU or MIG instance, so its pods share it; templates "
		"for devices of one pod's own.", 1, NULL },
	[GS_EMIT_KARPENTER] = {
		"karpenter", "karpenter.yaml",
		gs_emit_karpenter, gs_emit_wants_karpenter, "Karpenter provisions AWS nodes only",
		"Karpenter NodePools, one per kind of node in the plan (AWS nodes only).",
		1, NULL },
	[GS_EMIT_DRA_DRIVER] = {
		"dra-driver", "dra-driver-values.yaml",
		gs_emit_dra_driver, gs_emit_wants_dra, "use --dra or via: dra",
		"Helm values of NVIDIA's DRA driver for GPUs, with the feature gates the claims "
		"need.", 0, NULL },
	[GS_EMIT_HAMI] = {
		"hami", "hami-values.yaml",
		gs_emit_hami, gs_emit_wants_hami,
		"no GPU is a HAMi fraction; allow them with fractions: [hami]",
		"HAMi Helm values for the plan's HAMi fractions: the scheduler, its webhook and "
		"the vGPU device plugin.", 0, NULL },
};

const char *gs_emit_kind_name(gs_emit_kind k) { return rows[k].name; }
const char *gs_emit_file_name(gs_emit_kind k) { return rows[k].file; }
const char *gs_emit_help(gs_emit_kind k) { return rows[k].help; }
int gs_emit_applies(gs_emit_kind k) { return rows[k].applies; }

int gs_emit_kind_parse(const char *name, gs_emit_kind *out)
{
	for (size_t k = 0; k < GS_ARRAY_LEN(rows); k++)
		if (strcmp(name, rows[k].name) == 0) {
			*out = (gs_emit_kind)k;
			return 0;
		}
	return GS_ENOTFOUND;
}

int gs_emit_wanted(const gs_plan *p, gs_emit_kind k, const gs_emit_opts *o)
{
	/* An unknown kind is not refused here but by gs_emit. */
	return (unsigned)k >= GS_EMIT_KIND_COUNT || !rows[k].wanted || rows[k].wanted(p, o);
}

int gs_emit(const gs_plan *p, gs_emit_kind k, const gs_emit_opts *o, char **out,
            gs_error *err)
{
	gs_buf b = GS_BUF_INIT;
	int rc = gs_check_version(o->version, GS_EMIT_OPTS_VERSION, "gs_emit_opts", err);

	if (rc < 0)
		return rc;
	if ((unsigned)k >= GS_EMIT_KIND_COUNT)
		return gs_fail(err, GS_EINVAL, "unknown kind of configuration");
	if (!o->namespace_ || !gs_is_dns_label(o->namespace_))
		return gs_fail(err, GS_EINVAL, "namespace '%s' must be a DNS-1123 label: "
		               GS_DNS_LABEL_RULE, o->namespace_ ? o->namespace_ : "");
	if ((rc = gs_emit_dra_check(p, o, err)) < 0 ||
	    (rc = gs_emit_fraction_check(p, o, err)) < 0)
		return rc;
	if (!gs_emit_wanted(p, k, o))
		return gs_fail(err, GS_EINVAL, "the plan has no %s configuration (%s)",
		               rows[k].name, rows[k].why_not);
	if (rows[k].check && (rc = rows[k].check(p, o, err)) < 0)
		return rc;
	if (rows[k].render(p, o, &b) < 0)
		b.failed = 1;
	return gs_buf_detach(&b, out, err);
}
