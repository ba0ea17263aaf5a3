/*
 * json.c - the one place that touches cJSON. Trees go out as JSON here;
 * numbers are written with the exact text the tree holds.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static cJSON *to_cjson(const gs_node *n)
{
	cJSON *j = NULL;

	switch (n->kind) {
	case GS_NODE_NULL: return cJSON_CreateNull();
	case GS_NODE_BOOL: return cJSON_CreateBool(strcmp(n->text, "true") == 0);
	case GS_NODE_NUMBER: return cJSON_CreateRaw(n->text);
	case GS_NODE_STRING: return cJSON_CreateString(n->text);
	case GS_NODE_SEQ:
		if (!(j = cJSON_CreateArray()))
			return NULL;
		for (size_t i = 0; i < n->n; i++) {
			cJSON *c = to_cjson(n->items[i]);
			if (!c || !cJSON_AddItemToArray(j, c)) {
				cJSON_Delete(c);
				cJSON_Delete(j);
				return NULL;
			}
		}
		return j;
	case GS_NODE_MAP:
		if (!(j = cJSON_CreateObject()))
			return NULL;
		for (size_t i = 0; i < n->n; i++) {
			cJSON *c = to_cjson(n->items[i]);
			if (!c || !cJSON_AddItemToObject(j, n->keys[i]->text, c)) {
				cJSON_Delete(c);
				cJSON_Delete(j);
				return NULL;
			}
		}
		return j;
	}
	return NULL;
}

int gs_json_render(const gs_node *root, char **out, gs_error *err)
{
	cJSON *j = to_cjson(root);
	char *text, *withnl;
	size_t len;

	if (!j)
		return gs_fail_nomem(err);
	text = cJSON_Print(j);
	cJSON_Delete(j);
	if (!text)
		return gs_fail_nomem(err);
	/* cJSON indents with tabs; the output contract uses two spaces. */
	len = strlen(text);
	withnl = malloc(len * 2 + 2);
	if (!withnl) {
		cJSON_free(text);
		return gs_fail_nomem(err);
	}
	{
		size_t o = 0;
		int in_str = 0, esc = 0;
		for (size_t i = 0; i < len; i++) {
			char c = text[i];
			if (in_str) {
				withnl[o++] = c;
				if (esc)
					esc = 0;
				else if (c == '\\')
					esc = 1;
				else if (c == '"')
					in_str = 0;
				continue;
			}
			if (c == '"')
				in_str = 1;
			if (c == '\t') {
				withnl[o++] = ' ';
				withnl[o++] = ' ';
				continue;
			}
			withnl[o++] = c;
		}
		withnl[o++] = '\n';
		withnl[o] = '\0';
	}
	cJSON_free(text);
	*out = withnl;
	return 0;
}
