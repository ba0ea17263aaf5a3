/*
 * coin.c - the lock around COIN-OR's solves (coin.h).
 */
#include <pthread.h>

#include "plan/coin.h"

static pthread_mutex_t coin = PTHREAD_MUTEX_INITIALIZER;

void gs_coin_lock(void) { pthread_mutex_lock(&coin); }

void gs_coin_unlock(void) { pthread_mutex_unlock(&coin); }
