/*
 * memo.h - a memo of results the planner computes again and again with the
 * same inputs: the local search over models re-packs one or two models per
 * move, and most of what it packs (the other tenants, the model a move
 * leaves) is what it packed before. A key is the whole input, compared in
 * full, so a hit returns exactly what computing would (memo.c).
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_MEMO_H
#define GS_PLAN_MEMO_H

#include <stddef.h>
#include <stdint.h>

typedef struct gs_memo gs_memo;

/* An empty memo that forgets everything at once when it would hold more
 * than max_bytes; NULL when out of memory (callers then compute). */
gs_memo *gs_memo_new(size_t max_bytes);
void gs_memo_free(gs_memo *m);

/* The value stored under key[0..nkey), or NULL: its nval words, and the
 * count `extra` stored with it. The words stay until the next get or put
 * on m: a get may keep what it found in a new generation (gs_memo_age),
 * and a put may forget. */
const int64_t *gs_memo_get(gs_memo *m, const int64_t *key, int nkey, int *nval,
                           long *extra);

/* Stores val[0..nval) and extra under key[0..nkey). Out of memory, or over
 * the memo's size limit, it forgets (a later get computes again). */
void gs_memo_put(gs_memo *m, const int64_t *key, int nkey, const int64_t *val, int nval,
                 long extra);

/* A new generation: what m holds becomes the old one, which a get still
 * finds (and then keeps in the new), and the old one before it is
 * forgotten. A memo kept from one plan to the next keeps what the last
 * plan used, not all it ever held. -1 when out of memory (m unchanged). */
int gs_memo_age(gs_memo *m);

/* Text as key words: its length, then its bytes eight to a word, into
 * `to` unless NULL: how many. */
size_t gs_memo_text(const char *text, int64_t *to);

/* How many gets found their key. */
long gs_memo_hits(const gs_memo *m);

/* Moves what `from` holds into m (what m holds already stays) and frees
 * from; with m NULL, frees from. */
void gs_memo_absorb(gs_memo *m, gs_memo *from);

#endif
