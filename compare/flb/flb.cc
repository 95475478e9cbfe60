// flb times RocksDB's FastLocalBloom (FastLocalBloomImpl in RocksDB's
// util/bloom_impl.h) by the method of bloomlab's compare/cmd/flb, which
// runs this program and the same operations on bloomlab's filters in
// alternating rounds and prints the ratios.
//
// This file is bloomlab's own code. It includes RocksDB's headers from a
// RocksDB source tree and links RocksDB's util/hash.cc and util/xxhash.cc,
// compiled from that tree by compare/flb/build.sh; nothing of RocksDB is
// part of bloomlab's repository.
//
// The method, the same on both sides:
//   - 16-byte keys: little-endian i * 0x9e3779b97f4a7c15, then little-endian
//     i with its last byte replaced by the set (1 for inserted keys, 2 for
//     absent ones), i = 0 .. n-1;
//   - 10 bits per key, rounded up to whole 64-byte cache lines, k = 6
//     probes (FastLocalBloomImpl::ChooseNumProbes(10000) is 6);
//   - keys hashed as RocksDB's filter builder and reader hash them:
//     GetSliceHash64, that is Hash64 of util/hash.cc, the XXH3 preview
//     (XXPH3_64bits of util/xxph3.h), called across translation units;
//     the lower 32 bits pick the cache line, the upper 32 the probes;
//   - every operation runs `count` times (default 2^24) over the keys or
//     hashes in order, cycling, one clock reading before and after; the
//     batch operations take groups of 32 (MultiGetContext::MAX_BATCH_SIZE)
//     and cycle over the whole groups of the n keys.
//
// Operations (names shared with compare/cmd/flb):
//   add-hash              AddHash(h) for the n inserted keys' hashes
//   add-batch32-hash      the builder's AddAllEntries loop (a ring of 8
//                         prepared, prefetched lines) over each group of 32
//   absent-hash           HashMayMatch(h) of the reader, absent keys' hashes
//   absent-key            MayMatch(key) of the reader: hash, PrepareHash
//                         (which prefetches), HashMayMatchPrepared
//   absent-batch32-hash   MultiGet's MayMatch(num_keys, ...) on given hashes:
//                         PrepareHash for the 32, then test the 32
//   absent-batch32-key    MayMatch(num_keys, keys, may_match) as the reader
//                         has it: hash and prepare the 32, then test them
//   present-hash          HashMayMatch(h) of inserted keys (all must match)
//   hash-xxph3            GetSliceHash64(key) alone (RocksDB's hash)
//   hash-xxh3-64          XXH3_64bits(key) alone (the released XXH3, from
//                         RocksDB's util/xxhash.h)
//   random-lines          one 8-byte load from a random 64-byte line of a
//                         table the filter's size, lines from an LCG by
//                         multiply-shift, no load depending on another
//
// Usage: flb [-n 10000,1000000] [-ops a,b,...] [-count N]
//        flb -serve
// Output: one line per n and operation,
//   flb <n> <op> <cpu ns per key> <wall ns per key> <result>
// where cpu is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), wall the
// monotonic clock, and result the fraction that matched for queries and a
// checksum otherwise. With -serve it reads requests "<n> <op> <count>",
// one a line, from its standard input and answers each with such a line,
// keeping the filter of each n between requests: compare/cmd/flb
// interleaves these requests with its own measurements of the same
// operation.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <string>
#include <vector>

#include "util/bloom_impl.h"
#include "util/hash.h"
#include "util/xxhash.h"

using ROCKSDB_NAMESPACE::FastLocalBloomImpl;
using ROCKSDB_NAMESPACE::GetSliceHash64;
using ROCKSDB_NAMESPACE::Lower32of64;
using ROCKSDB_NAMESPACE::Slice;
using ROCKSDB_NAMESPACE::Upper32of64;

namespace {

const int kProbes = 6;
const uint64_t kBitsPerKey = 10;
const int kBatch = 32;  // MultiGetContext::MAX_BATCH_SIZE

// Keys are n 16-byte keys of one set, back to back.
struct Keys {
  std::vector<char> buf;
  size_t n;
  const char* at(size_t i) const { return buf.data() + 16 * i; }
};

void put64(char* p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = char(v >> (8 * i));
}

Keys makeKeys(uint8_t set, size_t n) {
  Keys k;
  k.n = n;
  k.buf.resize(16 * n);
  for (size_t i = 0; i < n; i++) {
    char* p = k.buf.data() + 16 * i;
    put64(p, uint64_t(i) * 0x9e3779b97f4a7c15ULL);
    put64(p + 8, uint64_t(i));
    p[15] = char(set);
  }
  return k;
}

// The hash RocksDB's FastLocalBloom builder and reader use.
inline uint64_t keyHash(const char* key) {
  return GetSliceHash64(Slice(key, 16));
}

struct Ctx {
  size_t n;
  uint32_t lenBytes;
  char* data;
  Keys present, absent;
  std::vector<uint64_t> hp, ha;  // hashes of present and absent keys
  std::vector<uint64_t> lines;   // for random-lines
};

inline size_t next(size_t j, size_t n) { return ++j == n ? 0 : j; }

// The operations, one function each so that callgrind can count the
// instructions of one (--toggle-collect='*op_absent_hash*').

__attribute__((noinline)) uint64_t op_add_hash(Ctx& c, uint64_t count) {
  size_t j = 0;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t h = c.hp[j];
    FastLocalBloomImpl::AddHash(Lower32of64(h), Upper32of64(h), c.lenBytes,
                                kProbes, c.data);
    j = next(j, c.n);
  }
  return 0;
}

// addAll is the loop of RocksDB's FastLocalBloomBitsBuilder::AddAllEntries
// over num hashes at h: a ring of eight prepared (prefetched) lines.
inline void addAll(Ctx& c, const uint64_t* h, int num) {
  constexpr int kBufferMask = 7;
  uint32_t hashes[kBufferMask + 1];
  uint32_t offsets[kBufferMask + 1];
  int i = 0;
  for (; i <= kBufferMask && i < num; ++i) {
    FastLocalBloomImpl::PrepareHash(Lower32of64(h[i]), c.lenBytes, c.data,
                                    &offsets[i]);
    hashes[i] = Upper32of64(h[i]);
  }
  for (; i < num; ++i) {
    uint32_t& hr = hashes[i & kBufferMask];
    uint32_t& or_ = offsets[i & kBufferMask];
    FastLocalBloomImpl::AddHashPrepared(hr, kProbes, c.data + or_);
    FastLocalBloomImpl::PrepareHash(Lower32of64(h[i]), c.lenBytes, c.data,
                                    &or_);
    hr = Upper32of64(h[i]);
  }
  for (i = 0; i <= kBufferMask && i < num; ++i) {
    FastLocalBloomImpl::AddHashPrepared(hashes[i], kProbes,
                                        c.data + offsets[i]);
  }
}

__attribute__((noinline)) uint64_t op_add_batch32_hash(Ctx& c,
                                                        uint64_t count) {
  size_t j = 0;
  for (uint64_t i = 0; i < count; i += kBatch) {
    addAll(c, &c.hp[j], kBatch);
    if ((j += kBatch) + kBatch > c.n) j = 0;
  }
  return 0;
}

uint64_t queryHashes(Ctx& c, const std::vector<uint64_t>& hs,
                     uint64_t count) {
  uint64_t hits = 0;
  size_t j = 0;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t h = hs[j];
    hits += FastLocalBloomImpl::HashMayMatch(Lower32of64(h), Upper32of64(h),
                                             c.lenBytes, kProbes, c.data);
    j = next(j, c.n);
  }
  return hits;
}

__attribute__((noinline)) uint64_t op_absent_hash(Ctx& c, uint64_t count) {
  return queryHashes(c, c.ha, count);
}

__attribute__((noinline)) uint64_t op_present_hash(Ctx& c, uint64_t count) {
  return queryHashes(c, c.hp, count);
}

// The reader's MayMatch(const Slice& key).
__attribute__((noinline)) uint64_t op_absent_key(Ctx& c, uint64_t count) {
  uint64_t hits = 0;
  size_t j = 0;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t h = keyHash(c.absent.at(j));
    uint32_t off;
    FastLocalBloomImpl::PrepareHash(Lower32of64(h), c.lenBytes, c.data, &off);
    hits += FastLocalBloomImpl::HashMayMatchPrepared(Upper32of64(h), kProbes,
                                                     c.data + off);
    j = next(j, c.n);
  }
  return hits;
}

// The reader's MayMatch(num_keys, keys, may_match) with the hashes given.
__attribute__((noinline)) uint64_t op_absent_batch32_hash(Ctx& c,
                                                           uint64_t count) {
  uint64_t hits = 0;
  size_t j = 0;
  uint32_t hashes[kBatch], offsets[kBatch];
  bool may[kBatch];
  for (uint64_t i = 0; i < count; i += kBatch) {
    const uint64_t* h = &c.ha[j];
    for (int t = 0; t < kBatch; t++) {
      FastLocalBloomImpl::PrepareHash(Lower32of64(h[t]), c.lenBytes, c.data,
                                      &offsets[t]);
      hashes[t] = Upper32of64(h[t]);
    }
    for (int t = 0; t < kBatch; t++) {
      may[t] = FastLocalBloomImpl::HashMayMatchPrepared(hashes[t], kProbes,
                                                        c.data + offsets[t]);
    }
    for (int t = 0; t < kBatch; t++) hits += may[t];
    if ((j += kBatch) + kBatch > c.n) j = 0;
  }
  return hits;
}

// The reader's MayMatch(num_keys, keys, may_match), keys hashed.
__attribute__((noinline)) uint64_t op_absent_batch32_key(Ctx& c,
                                                          uint64_t count) {
  uint64_t hits = 0;
  size_t j = 0;
  uint32_t hashes[kBatch], offsets[kBatch];
  bool may[kBatch];
  for (uint64_t i = 0; i < count; i += kBatch) {
    for (int t = 0; t < kBatch; t++) {
      uint64_t h = keyHash(c.absent.at(j + t));
      FastLocalBloomImpl::PrepareHash(Lower32of64(h), c.lenBytes, c.data,
                                      &offsets[t]);
      hashes[t] = Upper32of64(h);
    }
    for (int t = 0; t < kBatch; t++) {
      may[t] = FastLocalBloomImpl::HashMayMatchPrepared(hashes[t], kProbes,
                                                        c.data + offsets[t]);
    }
    for (int t = 0; t < kBatch; t++) hits += may[t];
    if ((j += kBatch) + kBatch > c.n) j = 0;
  }
  return hits;
}

__attribute__((noinline)) uint64_t op_hash_xxph3(Ctx& c, uint64_t count) {
  uint64_t sum = 0;
  size_t j = 0;
  for (uint64_t i = 0; i < count; i++) {
    sum += keyHash(c.absent.at(j));
    j = next(j, c.n);
  }
  return sum;
}

__attribute__((noinline)) uint64_t op_hash_xxh3_64(Ctx& c, uint64_t count) {
  uint64_t sum = 0;
  size_t j = 0;
  for (uint64_t i = 0; i < count; i++) {
    sum += XXH3_64bits(c.absent.at(j), 16);
    j = next(j, c.n);
  }
  return sum;
}

__attribute__((noinline)) uint64_t op_random_lines(Ctx& c, uint64_t count) {
  uint64_t nl = c.lines.size() / 8, sum = 0, x = 1;
  const uint64_t* t = c.lines.data();
  for (uint64_t i = 0; i < count; i++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t hi = uint64_t((unsigned __int128)x * nl >> 64);
    sum += t[hi * 8];
  }
  return sum;
}

struct Op {
  const char* name;
  uint64_t (*fn)(Ctx&, uint64_t);
  bool query;  // result is a match fraction
  bool batch;  // count rounds down to whole groups
};

const Op kOps[] = {
    {"add-hash", op_add_hash, false, false},
    {"add-batch32-hash", op_add_batch32_hash, false, true},
    {"present-hash", op_present_hash, true, false},
    {"absent-hash", op_absent_hash, true, false},
    {"absent-key", op_absent_key, true, false},
    {"absent-batch32-hash", op_absent_batch32_hash, true, true},
    {"absent-batch32-key", op_absent_batch32_key, true, true},
    {"hash-xxph3", op_hash_xxph3, false, false},
    {"hash-xxh3-64", op_hash_xxh3_64, false, false},
    {"random-lines", op_random_lines, false, false},
};

double now(clockid_t clk) {
  struct timespec ts;
  clock_gettime(clk, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// newCtx builds the filter of n keys, with the n inserted keys in place.
Ctx* newCtx(size_t n) {
  Ctx* c = new Ctx;
  c->n = n;
  uint64_t lines = (n * kBitsPerKey + 511) / 512;
  c->lenBytes = uint32_t(lines * 64);
  c->data = static_cast<char*>(aligned_alloc(64, c->lenBytes));
  memset(c->data, 0, c->lenBytes);
  c->present = makeKeys(1, n);
  c->absent = makeKeys(2, n);
  c->hp.resize(n);
  c->ha.resize(n);
  for (size_t i = 0; i < n; i++) {
    c->hp[i] = keyHash(c->present.at(i));
    c->ha[i] = keyHash(c->absent.at(i));
  }
  c->lines.resize(lines * 8);
  for (size_t i = 0; i < c->lines.size(); i++) c->lines[i] = i;
  for (uint64_t h : c->hp) {
    FastLocalBloomImpl::AddHash(Lower32of64(h), Upper32of64(h), c->lenBytes,
                                kProbes, c->data);
  }
  return c;
}

const Op* findOp(const std::string& name) {
  for (const Op& o : kOps) {
    if (name == o.name) return &o;
  }
  return nullptr;
}

// measure runs o count times (rounded up to whole groups for batches) and
// prints its line.
void measure(Ctx& c, const Op* o, uint64_t count) {
  if (o->batch) count = (count + kBatch - 1) / kBatch * kBatch;
  double c0 = now(CLOCK_THREAD_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
  uint64_t r = o->fn(c, count);
  double w1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_THREAD_CPUTIME_ID);
  if (o->query) {
    printf("flb %zu %s %.3f %.3f %.6f\n", c.n, o->name, (c1 - c0) / count,
           (w1 - w0) / count, double(r) / count);
  } else {
    printf("flb %zu %s %.3f %.3f %llu\n", c.n, o->name, (c1 - c0) / count,
           (w1 - w0) / count, (unsigned long long)r);
  }
  fflush(stdout);
}

// serve answers requests "<n> <op> <count>" from standard input.
int serve() {
  std::vector<Ctx*> ctxs;
  char line[256], name[128];
  while (fgets(line, sizeof line, stdin)) {
    unsigned long long n, count;
    if (sscanf(line, "%llu %127s %llu", &n, name, &count) != 3 ||
        n < uint64_t(kBatch) || count < 1) {
      fprintf(stderr, "flb: bad request %s", line);
      return 2;
    }
    const Op* o = findOp(name);
    if (!o) {
      fprintf(stderr, "flb: unknown operation %s\n", name);
      return 2;
    }
    Ctx* c = nullptr;
    for (Ctx* x : ctxs) {
      if (x->n == n) c = x;
    }
    if (!c) {
      c = newCtx(n);
      ctxs.push_back(c);
    }
    measure(*c, o, count);
  }
  return 0;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t j = s.find(',', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

int usage() {
  fprintf(stderr,
          "usage: flb [-n 10000,1000000] [-ops a,b,...] [-count N]\n"
          "       flb -serve\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string ns = "10000,1000000", ops;
  uint64_t count = uint64_t(1) << 24;
  if (argc == 2 && std::string(argv[1]) == "-serve") return serve();
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (i + 1 >= argc) return usage();
    if (a == "-n") {
      ns = argv[++i];
    } else if (a == "-ops") {
      ops = argv[++i];
    } else if (a == "-count") {
      count = strtoull(argv[++i], nullptr, 10);
    } else {
      return usage();
    }
  }
  std::vector<const Op*> run;
  if (ops.empty()) {
    for (const Op& o : kOps) run.push_back(&o);
  } else {
    for (const std::string& name : split(ops)) {
      const Op* o = findOp(name);
      if (!o) {
        fprintf(stderr, "flb: unknown operation %s\n", name.c_str());
        return 2;
      }
      run.push_back(o);
    }
  }
  for (const std::string& nstr : split(ns)) {
    size_t n = strtoull(nstr.c_str(), nullptr, 10);
    if (n < size_t(kBatch)) {
      fprintf(stderr, "flb: n = %s, want at least %d\n", nstr.c_str(), kBatch);
      return 2;
    }
    Ctx* c = newCtx(n);
    for (const Op* o : run) measure(*c, o, count);
    free(c->data);
    delete c;
  }
  return 0;
}
