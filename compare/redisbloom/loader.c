/* Loader (ours): loads a dump with RedisBloom's SB_NewChainFromHeader and
 * SBChain_LoadEncodedChunk, as BF.LOADCHUNK does, then writes the chain's
 * own dump, BF.INFO's numbers and SBChain_Check's answers in harness.c's
 * format. */
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
    if (argc != 5) { fprintf(stderr, "usage: in maxchunk queries out\n"); return 2; }
    FILE *in = fopen(argv[1], "rb");
    size_t maxchunk = strtoull(argv[2], 0, 10);
    uint64_t nq = strtoull(argv[3], 0, 10);
    SBChain *sb = NULL;
    for (;;) {
        int64_t it; uint32_t n;
        if (fread(&it, 8, 1, in) != 1 || fread(&n, 4, 1, in) != 1) { fprintf(stderr, "short\n"); return 1; }
        if (it == 0) break;
        char *buf = malloc(n ? n : 1);
        if (fread(buf, 1, n, in) != n) { fprintf(stderr, "short data\n"); return 1; }
        const char *errmsg = NULL;
        if (!sb) {
            if (it != 1) { fprintf(stderr, "no header\n"); return 1; }
            sb = SB_NewChainFromHeader(buf, n, &errmsg);
            if (!sb) { fprintf(stderr, "header: %s\n", errmsg); return 1; }
        } else if (SBChain_LoadEncodedChunk(sb, it, buf, n, &errmsg) != 0) {
            fprintf(stderr, "chunk %lld: %s\n", (long long)it, errmsg); return 1;
        }
        free(buf);
    }
    fclose(in);
    FILE *f = fopen(argv[4], "wb");
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
    u64(f, 0); u32(f, 0);
    uint64_t capsum = 0, mem = sizeof *sb + sizeof *sb->filters * sb->nfilters;
    for (size_t i = 0; i < sb->nfilters; i++) { capsum += sb->filters[i].inner.entries; mem += sb->filters[i].inner.bytes; }
    u64(f, capsum); u64(f, mem); u64(f, sb->nfilters); u64(f, sb->size); u64(f, sb->growth);
    u64(f, nq);
    unsigned char *bm = calloc((nq + 7) / 8, 1);
    char key[64];
    for (uint64_t i = 0; i < nq; i++) {
        int n = snprintf(key, sizeof key, "q-%llu", (unsigned long long)i);
        if (SBChain_Check(sb, key, n)) bm[i / 8] |= 1 << (i % 8);
    }
    fwrite(bm, 1, (nq + 7) / 8, f);
    fclose(f);
    fprintf(stderr, "loaded %zu links, %zu items\n", sb->nfilters, sb->size);
    SBChain_Free(sb);
    return 0;
}
