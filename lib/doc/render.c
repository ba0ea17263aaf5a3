/*
 * render.c - gs_doc_render, the public door to the writers: it picks the
 * JSON or YAML writer for a finished document. It sits above json.c and
 * yaml_emit.c so that the tree code, which the readers build with, never
 * depends on a writer.
 */
#include "doc/doc.h"

int gs_doc_render(const gs_doc *doc, gs_format fmt, char **out, gs_error *err)
{
	if (!doc || !out)
		return gs_fail(err, GS_EINVAL, "no document to render");
	if (fmt == GS_FORMAT_JSON)
		return gs_json_render(doc->root, out, err);
	return gs_yaml_render(doc->root, out, err);
}
