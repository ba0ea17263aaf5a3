/*
 * clouds.c - the clouds of a catalog: the distinct `cloud` names of its
 * instances, in the order the profiles first name them (aws, azure, gcp,
 * then clouds of your own such as onprem).
 */
#include <string.h>

#include "catalog/catalog.h"

/* The index of the instance that first names the cloud of instance i. */
static size_t first_of(const gs_catalog *cat, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(cat->instances[j].cloud, cat->instances[i].cloud) == 0)
			return j;
	return i;
}

size_t gs_catalog_cloud_count(const gs_catalog *cat)
{
	size_t n = 0;
	for (size_t i = 0; i < cat->n_instances; i++)
		n += first_of(cat, i) == i;
	return n;
}

const char *gs_catalog_cloud_at(const gs_catalog *cat, size_t k)
{
	for (size_t i = 0; i < cat->n_instances; i++)
		if (first_of(cat, i) == i && k-- == 0)
			return cat->instances[i].cloud;
	return NULL;
}
