/*
 * fields.h - reading typed values out of a parsed document, with errors
 * that name the file, line and column. Shared by every loader.
 *
 * Getters leave *out untouched when the key is absent and not required,
 * so callers set defaults first. They return 0, or a negative GS_E* code
 * with err filled.
 */
#ifndef GS_FIELDS_H
#define GS_FIELDS_H

#include "doc/doc.h"

typedef struct gs_ctx {
	const char *file;
	gs_error *err;
} gs_ctx;


int gs_need_kind(gs_ctx *c, const gs_node *n, gs_node_kind kind,
                 const char *what);
/* Fails on the first key of map that is not in `allowed`, suggesting the
 * nearest allowed key. */
int gs_check_keys(gs_ctx *c, const gs_node *map, const char *const *allowed,
                  size_t n);
/* Fails when a required key is missing, naming `what` holds it. */
int gs_require(gs_ctx *c, const gs_node *map, const char *key,
               const char *what, gs_node **out);

int gs_get_str(gs_ctx *c, const gs_node *map, const char *key, int required,
               const char **out);
int gs_get_int(gs_ctx *c, const gs_node *map, const char *key, int required,
               int64_t min, int64_t max, int64_t *out);
int gs_get_bool(gs_ctx *c, const gs_node *map, const char *key, int required,
                int *out);
/* An exact decimal: "312", "21.957642" with scale 10^k. */
int gs_get_fixed(gs_ctx *c, const gs_node *map, const char *key, int required,
                 int64_t scale, int64_t *out);

/* Value parsers on one scalar node (for lists and flags too). */
int gs_scalar_int(gs_ctx *c, const gs_node *n, int64_t min, int64_t max,
                  int64_t *out);
/* Memory with a unit (GiB Gi MiB Mi GB MB; decimals allowed), rounded up
 * to whole bytes. */
int gs_scalar_bytes(gs_ctx *c, const gs_node *n, int64_t *out);
/* A share: "40%" or a fraction "0.4"; in parts per million. */
int gs_scalar_share(gs_ctx *c, const gs_node *n, int64_t *out);
/* CPU as Kubernetes writes it: cores ("4", "0.5") or millicores ("500m");
 * in millicores. */
int gs_scalar_cpu(gs_ctx *c, const gs_node *n, int64_t *out);

/* The same parsers on plain text, for command-line flags; err is filled
 * without a location. */
int gs_parse_bytes(const char *text, int64_t *out, gs_error *err);
int gs_parse_share(const char *text, int64_t *out, gs_error *err);
int gs_parse_cpu(const char *text, int64_t *out, gs_error *err);

#endif
