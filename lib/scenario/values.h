/*
 * values.h - one value of a workload file: read from a node with an error
 * at its position, or written back as a node the reader takes again.
 * Shared by the key table (keys.c) and the scenario object (scenario.c).
 */
#ifndef GS_SCENARIO_VALUES_H
#define GS_SCENARIO_VALUES_H

#include "doc/fields.h"

/* Makes *dst a copy of v (NULL when v is) and frees the old text; -1 when
 * out of memory (then *dst is kept). */
int gs_str_assign(char **dst, const char *v);

/* A string that is one of names[0..n); *out is its index. Suggests the
 * nearest name, or lists them all. */
int gs_read_choice(gs_ctx *c, const gs_node *v, const char *key,
                   const char *const *names, size_t n, int *out);
/* "a, b or c" into list (always NUL-terminated). */
void gs_names_list(const char *const *names, size_t n, char *list, size_t size);
/* At most this many clouds are named in a message. */
#define GS_CLOUDS_MAX 32
/* A GPU model of the catalog, by name. */
int gs_read_gpu(gs_ctx *c, const gs_catalog *cat, const gs_node *v,
                const gs_gpu **out);
/* A list of GPU models; *out is replaced by a new array of *n models. */
int gs_read_gpu_list(gs_ctx *c, const gs_catalog *cat, const gs_node *v,
                     const gs_gpu ***out, size_t *n);
/* A DNS-1123 label (a name, a tenant, a team) copied into *dst. */
int gs_read_label(gs_ctx *c, const gs_node *v, const char *key, char **dst);

/* Writers: NULL when out of memory. */
gs_node *gs_bytes_node(int64_t bytes);    /* "4GiB", "600MiB", "1.5MB" */
gs_node *gs_share_node(int64_t ppm);      /* "40%", "12.5%" */
gs_node *gs_gpus_node(const gs_gpu *const *g, size_t n); /* their names */

#endif
