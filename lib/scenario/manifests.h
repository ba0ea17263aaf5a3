/*
 * manifests.h - the workloads' real Kubernetes objects (--manifests), for
 * the emitters (internal; gpushare.h has the loader).
 *
 * gs_manifests_load reads a YAML stream (documents separated by "---") or
 * a JSON document, where a `kind: List` stands for its items. Every object
 * is kept whole, as parsed, with its place in the file. Objects of any
 * kind are accepted (a stream may hold Services, Namespaces...); the
 * workload kinds (Deployment, StatefulSet, Job, CronJob, Pod) can be found.
 *
 * Namespaces: an object that gives no metadata.namespace is in the
 * namespace kubectl applies it to, which gpushare takes to be the workload
 * file's `namespace` ("default" unless the file says otherwise): lookups
 * pass it as default_ns. Two objects of one kind, name and namespace are
 * refused, at load when both name their namespace, at lookup when only
 * one does and it is the default one.
 */
#ifndef GS_SCENARIO_MANIFESTS_H
#define GS_SCENARIO_MANIFESTS_H

#include "doc/doc.h"

/* Most objects one file may hold: more is a mistake, not a fleet. */
#define GS_MANIFESTS_MAX 100000

typedef struct gs_manifest {
	const char *kind;         /* as written: "Deployment", "Service"... */
	int workload;             /* kind is one of gs_object_kind */
	gs_object_kind object;    /* which, when workload */
	const char *name;         /* metadata.name */
	const char *namespace_;   /* metadata.namespace, NULL when absent */
	const gs_node *tree;      /* the whole object (borrowed from the set) */
} gs_manifest;

/* gs_manifests_load on text already read (by the CLI from standard
 * input, by the fuzzer); name is what errors call it. */
int gs_manifests_load_buffer(const char *name, const char *buf, size_t len,
                             gs_manifests **out, gs_error *err);

/* The file the objects were read from, as errors name it. */
const char *gs_manifests_file(const gs_manifests *m);
size_t gs_manifests_count(const gs_manifests *m);
const gs_manifest *gs_manifests_at(const gs_manifests *m, size_t i);

/* The workload object of kind, name and namespace ns (NULL: default_ns),
 * where objects that give no namespace are in default_ns. Not found, or
 * found twice, is an error naming the file and what it holds. */
int gs_manifests_find(const gs_manifests *m, gs_object_kind kind, const char *ns,
                      const char *name, const char *default_ns, const gs_manifest **out,
                      gs_error *err);

/* The object a workload names (gs_workload.object, with its defaults:
 * the workload's name, the file's namespace default_ns). */
int gs_manifests_find_ref(const gs_manifests *m, const gs_workload *w,
                          const char *default_ns, const gs_manifest **out, gs_error *err);

/* The pod template's spec: spec.template.spec (Deployment, StatefulSet,
 * Job), spec.jobTemplate.spec.template.spec (CronJob), spec (Pod). An
 * error at the place where the path breaks off. */
int gs_manifest_pod_spec(const gs_manifests *m, const gs_manifest *o, const gs_node **out,
                         gs_error *err);

/* The pod spec's containers (not initContainers), as a non-empty list of
 * mappings that each have a name; their names go to names[0..*n) when
 * names is not NULL (at most cap). */
int gs_manifest_containers(const gs_manifests *m, const gs_manifest *o,
                           const gs_node **list, const char **names, size_t cap, size_t *n,
                           gs_error *err);

/* The container to patch: the one named `want`, which must exist; with
 * want NULL, the only container, else an error naming the choices. */
int gs_manifest_container(const gs_manifests *m, const gs_manifest *o, const char *want,
                          const gs_node **container, const char **name, gs_error *err);

/* A deep copy of the object's tree for an emitter to change and render
 * (gs_yaml_render): plain scalars that YAML reads as numbers or booleans
 * (replicas: 3) stay so, and quoted ones stay strings. NULL when out of
 * memory; the caller frees it. */
gs_node *gs_manifest_copy(const gs_manifest *o);

#endif
