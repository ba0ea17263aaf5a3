/*
 * svg.h - the report's pictures, as inline SVG: the cost per team and the
 * partitions of one GPU. Each picture is an <svg> with a <title>, sized
 * by its viewBox; ids are unique within the page.
 */
#ifndef GS_SVG_H
#define GS_SVG_H

#include "base/buf.h"

/* Every picture's viewBox is GS_SVG_VIEW_W wide; a GPU spans GS_SVG_GPU_W
 * of it, from x = GS_SVG_GPU_X, and its MIG memory slots divide that
 * width evenly. */
#define GS_SVG_VIEW_W 960
#define GS_SVG_GPU_X 2
#define GS_SVG_GPU_W (GS_SVG_VIEW_W - 2 * GS_SVG_GPU_X)

/* A bar per team of the plan. */
void gs_svg_teams(gs_buf *b, const gs_plan *p);
/* A GPU of node n (0-based, for unique ids). */
void gs_svg_gpu(gs_buf *b, const gs_plan_gpu *g, size_t n);
/* Whether a GPU holds nothing. */
int gs_svg_gpu_unused(const gs_plan_gpu *g);

#endif
