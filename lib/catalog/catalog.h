/* catalog.h - the catalog's storage, private to libgpushare. */
#ifndef GS_CATALOG_H
#define GS_CATALOG_H

#include "doc/fields.h"

/* gs_gpu is a public read-only record; its storage lives in these. */
struct gs_catalog {
	gs_gpu *gpus;
	size_t n_gpus;
	gs_instance *instances;
	size_t n_instances;
	char **strings;         /* every string the records point to */
	size_t n_strings, cap_strings;
	void **blocks;          /* every other allocation records point to */
	size_t n_blocks, cap_blocks;
	/* retention.yaml's rows by strategy and backend (retention.c). */
	gs_retention retention[GS_STRATEGY_FRACTION + 1][GS_BACKEND_MPS + 1];
	unsigned char has_retention[GS_STRATEGY_FRACTION + 1][GS_BACKEND_MPS + 1];
};

/* retention.c: reads DIR/retention.yaml when the directory has one; its
 * rows replace those of earlier directories. */
int gs_retention_load_dir(gs_catalog *cat, const char *dir, gs_error *err);
/* The same from a buffer (for the fuzzers and the tests). */
int gs_retention_add_buffer(gs_catalog *cat, const char *name, const char *buf, size_t len,
                            gs_error *err);

/* catalog.c: adds one GPU (instances = 0) or instance file from a buffer,
 * for the fuzzers. GPUs must all come before instances. */
int gs_catalog_add_buffer(gs_catalog *cat, const char *name, const char *buf, size_t len,
                          int instances, gs_error *err);

#endif
