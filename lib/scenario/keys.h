/*
 * keys.h - the keys of a workload file: the one table (keys.c) that the
 * loader (load.c), the REPL's `set` (set.c) and the writer (write.c) all
 * go through. A row names a key, where it is written, how `set` types its
 * value, and the two functions that read it and write it back; a new key
 * is one row in keys.c and its two functions.
 */
#ifndef GS_SCENARIO_KEYS_H
#define GS_SCENARIO_KEYS_H

#include "scenario/scenario.h"

/* Where a key is written: at the top of the file, or in a workload. */
typedef enum gs_key_level {
	GS_KEY_FILE,
	GS_KEY_WORKLOAD
} gs_key_level;

/* How `set` turns the text typed at the prompt into the node a file would
 * give, so the value is read exactly as in a file. */
typedef enum gs_key_typed {
	GS_KEY_TEXT,    /* a string */
	GS_KEY_LIST,    /* "a,b": a list of strings */
	GS_KEY_PAIR,    /* "TYPE[:COUNT]": {instance: TYPE, count: COUNT} */
	GS_KEY_SUB,     /* KEY.SUB=VALUE: {SUB: VALUE}, "" a null VALUE */
	GS_KEY_SUB_OR_TEXT /* as GS_KEY_SUB, or KEY=VALUE: one string */
} gs_key_typed;

/* What a key is read into: the scenario, and the workload for workload
 * keys (else NULL). */
typedef struct gs_key_dst {
	gs_ctx *c;
	gs_scenario *s;
	wl *w;
} gs_key_dst;

/* What a key is written from. */
typedef struct gs_key_src {
	const gs_scenario *s;
	const wl *w;
} gs_key_src;

typedef struct gs_key {
	const char *name;
	gs_key_level level;
	gs_key_typed typed;
	int file_only;  /* `set` refuses it */
	/* Reads v into d. NULL for the list of workloads, which the loader
	 * reads itself. */
	int (*read)(const gs_key_dst *d, const gs_node *v);
	/* Puts the key and its value into map, or nothing for a value files
	 * leave out; 0, or -1 when out of memory. NULL for the list of
	 * workloads, which the writer writes itself. */
	int (*write)(const gs_key_src *s, gs_node *map, const char *key);
} gs_key;

/* The table, in the order of a file; *n is set to its length. */
const gs_key *gs_scenario_keys(size_t *n);
/* The row of key name at level, or NULL. */
const gs_key *gs_scenario_key(gs_key_level level, const char *name);

/* The names of the keys of a level, in the table's order; returns how
 * many were written to out (at most cap). GS_KEYS_MAX holds them all. */
#define GS_KEYS_MAX 64
size_t gs_scenario_key_names(gs_key_level level, const char **out, size_t cap);

/* Reads the value v of key name into w (a workload key), or into s when w
 * is NULL (a file key). An unknown key fails, suggesting the nearest one.
 * The list of workloads is read by the loader: here it does nothing. */
int gs_scenario_read_key(gs_ctx *c, gs_scenario *s, wl *w, const char *name,
                         const gs_node *v);
/* The same with the key's row k (gs_scenario_key) already found. */
int gs_scenario_read_row(gs_ctx *c, gs_scenario *s, wl *w, const gs_key *k,
                         const gs_node *v);

/* keys_object.c: the rows `object` (a workload's), `namespace` and
 * `placement` (the file's). */
int gs_key_read_object(const gs_key_dst *d, const gs_node *v);
int gs_key_write_object(const gs_key_src *s, gs_node *map, const char *key);
int gs_key_read_namespace(const gs_key_dst *d, const gs_node *v);
int gs_key_write_namespace(const gs_key_src *s, gs_node *map, const char *key);
int gs_key_read_placement(const gs_key_dst *d, const gs_node *v);
int gs_key_write_placement(const gs_key_src *s, gs_node *map, const char *key);

/* keys_fractions.c: the file's `fractions` (the backends, in the order
 * the file prefers them). */
int gs_key_read_fractions(const gs_key_dst *d, const gs_node *v);
int gs_key_write_fractions(const gs_key_src *s, gs_node *map, const char *key);

/* keys_gpus.c: the row `gpusPerReplica` (a workload's). */
int gs_key_read_gpus_per_replica(const gs_key_dst *d, const gs_node *v);
int gs_key_write_gpus_per_replica(const gs_key_src *s, gs_node *map, const char *key);
/* keys_work.c: the rows `throughput` and `retention` (a workload's). */
int gs_key_read_throughput(const gs_key_dst *d, const gs_node *v);
int gs_key_write_throughput(const gs_key_src *s, gs_node *map, const char *key);
int gs_key_read_retention(const gs_key_dst *d, const gs_node *v);
int gs_key_write_retention(const gs_key_src *s, gs_node *map, const char *key);
/* keys_cluster.c: the file's `cluster` ({costPerHour, gpus, nodes}), what
 * the cluster it was imported from costs today. */
int gs_key_read_cluster(const gs_key_dst *d, const gs_node *v);
int gs_key_write_cluster(const gs_key_src *s, gs_node *map, const char *key);

#endif
