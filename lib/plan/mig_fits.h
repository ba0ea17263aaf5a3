/*
 * mig_fits.h - gs_mig_fit's answers kept for one planner (mig_fits.c).
 *
 * The MIG packer asks whether a GPU's instances and one more fit its
 * geometry of each GPU it tries, packing after packing; the GPUs hold
 * few different lists of profiles, so most asks were asked before. The
 * answer, and the starts, depend on the model and the list alone.
 */
#ifndef GS_PLAN_MIG_FITS_H
#define GS_PLAN_MIG_FITS_H

#include "catalog/catalog.h"

typedef struct gs_fits gs_fits;

/* An empty memo; NULL when out of memory (gs_fits_ask then asks
 * gs_mig_fit each time). One thread at a time may ask it; it must not
 * outlive the models asked about. Free with gs_fits_free. */
gs_fits *gs_fits_new(void);
void gs_fits_free(gs_fits *f);

/* gs_mig_fit(g, items, n, starts, NULL), from f where it was asked
 * before (f may be NULL): 0 and the starts when the instances fit,
 * GS_ENOFIT (or another error) when not. */
int gs_fits_ask(gs_fits *f, const gs_gpu *g, const gs_mig_profile *const *items, size_t n,
                int *starts);

#endif
