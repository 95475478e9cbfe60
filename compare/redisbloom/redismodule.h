/* stub for building RedisBloom's sb.c without Redis: our own, not Redis's header */
#pragma once
#include <stdlib.h>
extern void *(*RedisModule_Calloc)(size_t, size_t);
extern void *(*RedisModule_TryCalloc)(size_t, size_t);
extern void *(*RedisModule_Realloc)(void *, size_t);
extern void (*RedisModule_Free)(void *);
