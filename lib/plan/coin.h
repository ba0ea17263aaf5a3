/*
 * coin.h - one COIN-OR solve at a time in the process (coin.c). CBC's
 * solve keeps state shared between models: two plans' threads solving at
 * once (the robust plan's pinned figure repairs its MIG GPUs with CBC
 * beside the first thread's work) made one solve fail now and then. CLP
 * shares code with it, so its solves take the same lock. The two seams,
 * milp.c and lp.c, are its only users.
 *
 * Only lib/plan/ includes it.
 */
#ifndef GS_PLAN_COIN_H
#define GS_PLAN_COIN_H

void gs_coin_lock(void);
void gs_coin_unlock(void);

#endif
