/* Harness (ours): builds a chain with RedisBloom's sb.c and dumps it as BF.SCANDUMP would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "sb.h"
void *(*RedisModule_Calloc)(size_t, size_t) = calloc;
void *(*RedisModule_TryCalloc)(size_t, size_t) = calloc;
void *(*RedisModule_Realloc)(void *, size_t) = realloc;
void (*RedisModule_Free)(void *) = free;

static void u64(FILE *f, uint64_t v) { fwrite(&v, 8, 1, f); }
static void u32(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }

int main(int argc, char **argv) {
    if (argc != 9) { fprintf(stderr, "usage: cap err exp items options maxchunk queries out\n"); return 2; }
    uint64_t cap = strtoull(argv[1], 0, 10);
    double er = atof(argv[2]);
    unsigned exp = atoi(argv[3]);
    uint64_t items = strtoull(argv[4], 0, 10);
    unsigned opt = atoi(argv[5]);
    size_t maxchunk = strtoull(argv[6], 0, 10);
    uint64_t nq = strtoull(argv[7], 0, 10);
    int err;
    SBChain *sb = SB_NewChain(cap, er, opt, exp, &err);
    if (!sb) { fprintf(stderr, "SB_NewChain: %d\n", err); return 1; }
    char key[64];
    for (uint64_t i = 0; i < items; i++) {
        int n = snprintf(key, sizeof key, "key-%llu", (unsigned long long)i);
        if (SBChain_Add(sb, key, n) < 0) { fprintf(stderr, "add failed\n"); return 1; }
    }
    FILE *f = fopen(argv[8], "wb");
    /* chunks: the header at iter 1, then the data, as BF.SCANDUMP returns them */
    size_t hl;
    char *hdr = SBChain_GetEncodedHeader(sb, &hl);
    u64(f, 1); u32(f, hl); fwrite(hdr, 1, hl, f);
    SB_FreeEncodedHeader(hdr);
    long long it = SB_CHUNKITER_INIT;
    size_t len;
    const char *c;
    while ((c = SBChain_GetEncodedChunk(sb, &it, &len, maxchunk)) != NULL) {
        u64(f, it); u32(f, len); fwrite(c, 1, len, f);
    }
    u64(f, 0); u32(f, 0); /* end: BF.SCANDUMP's (0, "") */
    /* BF.INFO: capacity, size (BFMemUsage), filters, items, expansion */
    uint64_t capsum = 0, mem = sizeof *sb + sizeof *sb->filters * sb->nfilters;
    for (size_t i = 0; i < sb->nfilters; i++) { capsum += sb->filters[i].inner.entries; mem += sb->filters[i].inner.bytes; }
    u64(f, capsum); u64(f, mem); u64(f, sb->nfilters); u64(f, sb->size); u64(f, sb->growth);
    /* answers of SBChain_Check for q-0 .. q-(nq-1) */
    u64(f, nq);
    unsigned char *bm = calloc((nq + 7) / 8, 1);
    for (uint64_t i = 0; i < nq; i++) {
        int n = snprintf(key, sizeof key, "q-%llu", (unsigned long long)i);
        if (SBChain_Check(sb, key, n)) bm[i / 8] |= 1 << (i % 8);
    }
    fwrite(bm, 1, (nq + 7) / 8, f);
    fclose(f);
    fprintf(stderr, "links %zu items %zu sizeof(SBChain) %zu sizeof(SBLink) %zu\n", sb->nfilters, sb->size, sizeof *sb, sizeof *sb->filters);
    SBChain_Free(sb);
    return 0;
}
