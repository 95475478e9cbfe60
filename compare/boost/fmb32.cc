// fmb32 times Boost.Bloom's fast_multiblock32<K> (the AVX2 filter of
// boost/bloom/fast_multiblock32.hpp; fast_multiblock32<8> is the
// split-block filter's layout) by the method of bloomlab's
// compare/cmd/boostside, which runs this program and the same operations
// on bloomlab's filters in alternating rounds and prints the ratios.
//
// This file is bloomlab's own code. It includes Boost.Bloom's headers (and
// the Boost libraries they need) and xxHash's xxhash.h from source trees
// that are not part of this repository; compare/boost/build.sh compiles
// it. Nothing of Boost or xxHash is part of bloomlab's repository.
//
// The filter is boost::bloom::filter<std::uint64_t, 1,
// fast_multiblock32<K>, 0, Identity>: one block of K 32-bit words per key
// at the natural stride (4K bytes), fed 64-bit hashes that Identity passes
// through unchanged (it is declared avalanching, so the filter does not
// remix them). A filter<T, 1, fast_multiblock32<K>, 0, H> whose H returns
// that hash does the same work per key.
//
// The method, the same on both sides:
//   - 16-byte keys: little-endian i * 0x9e3779b97f4a7c15, then little-endian
//     i with its last byte replaced by the set (1 for inserted keys, 2 for
//     absent ones), as compare/flb/flb.cc makes them;
//   - the hash of a key is XXH3-128 (seed 0) of its 16 bytes, low 64 bits:
//     bloomlab's default hash and its H1 (the split-block filter's hash);
//   - a filter of about `bytes` bytes: Boost's filter is asked for
//     8 * bytes bits and rounds them up to whole blocks; it holds
//     n = capacity / c keys (c bits per key), keys 0 .. n-1 of set 1,
//     inserted before any measurement (by bulk insert, which sets the
//     same bits as one insert per key, in less time);
//   - the measured keys are keys 0 .. q-1 of set 1 (present) and of set 2
//     (absent), q <= n, their hashes computed beforehand for the "-hash"
//     operations and hashed in the loop for the "-key" ones; adds insert
//     present keys again, which leaves the filter's bits unchanged;
//   - every operation runs `count` times over the q keys or hashes in
//     order, cycling; the batch operations hand the filter groups of
//     kBatch hashes (Boost's bulk insert and bulk may_contain).
//
// Operations (names shared with compare/cmd/boostside):
//   add-hash            insert(h)
//   add-batch-hash      insert(first, last) over each group (bulk insert)
//   present-hash        may_contain(h), inserted keys (all must match)
//   absent-hash         may_contain(h), absent keys
//   absent-batch-hash   may_contain(first, last, f) over each group
//   add-key             the key hashed, then insert
//   present-key         the key hashed, then may_contain
//   absent-key          the key hashed, then may_contain
//   hash-xxh3-128       XXH3-128 of the key alone (checksum: sum of lo ^ hi)
//   random-lines        one 8-byte load from a random 64-byte line of a
//                       table the filter's size (lines by multiply-shift
//                       from an LCG; no load depends on another)
//   info                the geometry: capacity in bits, n, q, fill seconds
//
// Usage: fmb32 -serve
// It reads requests "<K> <c> <bytes> <q> <op> <count>", one a line, from
// its standard input, and answers each with one line
//   boost <K> <c> <bytes> <op> <cpu ns per op> <wall ns per op> <result>
// where cpu is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), wall the
// monotonic clock, and result the fraction that matched for queries and
// a checksum otherwise; info answers
//   boost <K> <c> <bytes> info <capacity bits> <n> <q> <fill seconds>
// It keeps one filter, built at the first request for its (K, c, bytes,
// q) and dropped when a request names another. K is 5, 8, 11 or 13.
//   fmb32 -once K c bytes q count    runs every operation once and exits.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/bloom/filter.hpp>
#include <boost/bloom/fast_multiblock32.hpp>

#define XXH_INLINE_ALL
#include "xxhash.h"

#if !defined(BOOST_BLOOM_AVX2)
#error "compile with AVX2 (-mavx2): fast_multiblock32 falls back to multiblock<uint32_t, K> without it"
#endif

namespace {

const size_t kBatch = 64;

// Identity passes a 64-bit hash through; declared avalanching, so that
// the filter uses it as it is.
struct Identity {
  using is_avalanching = std::true_type;
  std::size_t operator()(std::uint64_t h) const { return h; }
};

void putKey(char* p, uint8_t set, uint64_t i) {
  uint64_t a = i * 0x9e3779b97f4a7c15ULL;
  for (int b = 0; b < 8; b++) p[b] = char(a >> (8 * b));
  for (int b = 0; b < 8; b++) p[8 + b] = char(i >> (8 * b));
  p[15] = char(set);
}

inline uint64_t keyHash(const char* key) {
  return XXH3_128bits(key, 16).low64;
}

double now(clockid_t clk) {
  struct timespec ts;
  clock_gettime(clk, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

inline size_t next(size_t j, size_t n) { return ++j == n ? 0 : j; }
inline size_t nextGroup(size_t j, size_t n) {
  return (j += kBatch) + kBatch > n ? 0 : j;
}

// Bench is one filter with its keys; an operation returns matches or a
// checksum.
struct Bench {
  unsigned k, c;
  uint64_t bytes, n, q, capacity;
  double fillSeconds;
  std::vector<char> present, absent;  // q 16-byte keys each
  std::vector<uint64_t> hp, ha;       // their hashes
  std::vector<uint64_t> lines;        // for random-lines
  virtual ~Bench() {}
  virtual uint64_t run(const std::string& op, uint64_t count, bool* ok) = 0;
  virtual uint64_t filterBits() const = 0;
  virtual void fill() = 0;
  const char* pk(size_t j) const { return present.data() + 16 * j; }
  const char* ak(size_t j) const { return absent.data() + 16 * j; }
};

template <std::size_t K>
struct Impl : Bench {
  using Filter = boost::bloom::filter<std::uint64_t, 1,
                                      boost::bloom::fast_multiblock32<K>, 0,
                                      Identity>;
  Filter f;

  explicit Impl(uint64_t bytes_) : f(size_t(bytes_) * 8) {}

  uint64_t filterBits() const override { return f.capacity(); }

  // fill inserts keys 0 .. n-1 of set 1, hashed here, by Boost's bulk
  // insert over groups of 4096 hashes.
  void fill() override {
    char key[16];
    std::vector<uint64_t> hs(4096);
    for (uint64_t i = 0; i < n;) {
      size_t g = 0;
      for (; g < hs.size() && i < n; g++, i++) {
        putKey(key, 1, i);
        hs[g] = keyHash(key);
      }
      f.insert(hs.data(), hs.data() + g);
    }
  }

  __attribute__((noinline)) uint64_t addHash(uint64_t count) {
    size_t j = 0;
    for (uint64_t i = 0; i < count; i++) {
      f.insert(hp[j]);
      j = next(j, q);
    }
    return 0;
  }

  __attribute__((noinline)) uint64_t addBatchHash(uint64_t count) {
    size_t j = 0;
    for (uint64_t i = 0; i < count; i += kBatch) {
      const uint64_t* h = &hp[j];
      f.insert(h, h + kBatch);
      j = nextGroup(j, q);
    }
    return 0;
  }

  __attribute__((noinline)) uint64_t queryHashes(const uint64_t* hs,
                                                 uint64_t count) {
    uint64_t hits = 0;
    size_t j = 0;
    for (uint64_t i = 0; i < count; i++) {
      hits += f.may_contain(hs[j]);
      j = next(j, q);
    }
    return hits;
  }

  __attribute__((noinline)) uint64_t absentBatchHash(uint64_t count) {
    uint64_t hits = 0;
    size_t j = 0;
    for (uint64_t i = 0; i < count; i += kBatch) {
      const uint64_t* h = &ha[j];
      f.may_contain(h, h + kBatch,
                    [&hits](const uint64_t&, bool res) { hits += res; });
      j = nextGroup(j, q);
    }
    return hits;
  }

  __attribute__((noinline)) uint64_t addKey(uint64_t count) {
    size_t j = 0;
    for (uint64_t i = 0; i < count; i++) {
      f.insert(keyHash(pk(j)));
      j = next(j, q);
    }
    return 0;
  }

  __attribute__((noinline)) uint64_t queryKeys(const char* keys,
                                               uint64_t count) {
    uint64_t hits = 0;
    size_t j = 0;
    for (uint64_t i = 0; i < count; i++) {
      hits += f.may_contain(keyHash(keys + 16 * j));
      j = next(j, q);
    }
    return hits;
  }

  __attribute__((noinline)) uint64_t hashAlone(uint64_t count) {
    uint64_t sum = 0;
    size_t j = 0;
    for (uint64_t i = 0; i < count; i++) {
      XXH128_hash_t u = XXH3_128bits(ak(j), 16);
      sum += u.low64 ^ u.high64;
      j = next(j, q);
    }
    return sum;
  }

  __attribute__((noinline)) uint64_t randomLines(uint64_t count) {
    uint64_t nl = lines.size() / 8, sum = 0, x = 1;
    const uint64_t* t = lines.data();
    for (uint64_t i = 0; i < count; i++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      uint64_t hi = uint64_t((unsigned __int128)x * nl >> 64);
      sum += t[hi * 8];
    }
    return sum;
  }

  uint64_t run(const std::string& op, uint64_t count, bool* ok) override {
    *ok = true;
    if (op == "add-hash") return addHash(count);
    if (op == "add-batch-hash") return addBatchHash(count);
    if (op == "present-hash") return queryHashes(hp.data(), count);
    if (op == "absent-hash") return queryHashes(ha.data(), count);
    if (op == "absent-batch-hash") return absentBatchHash(count);
    if (op == "add-key") return addKey(count);
    if (op == "present-key") return queryKeys(present.data(), count);
    if (op == "absent-key") return queryKeys(absent.data(), count);
    if (op == "hash-xxh3-128") return hashAlone(count);
    if (op == "random-lines") {
      if (lines.empty()) {
        lines.resize(bytes / 8 / 8 * 8);
        for (size_t i = 0; i < lines.size(); i++) lines[i] = i;
      }
      return randomLines(count);
    }
    *ok = false;
    return 0;
  }
};

std::unique_ptr<Bench> newBench(unsigned k, unsigned c, uint64_t bytes,
                                uint64_t q) {
  std::unique_ptr<Bench> b;
  switch (k) {
    case 5: b.reset(new Impl<5>(bytes)); break;
    case 8: b.reset(new Impl<8>(bytes)); break;
    case 11: b.reset(new Impl<11>(bytes)); break;
    case 13: b.reset(new Impl<13>(bytes)); break;
    default: return nullptr;
  }
  b->k = k;
  b->c = c;
  b->bytes = bytes;
  b->capacity = b->filterBits();
  b->n = b->capacity / c;
  b->q = q < b->n ? q : b->n;
  b->q = b->q / kBatch * kBatch;
  b->present.resize(16 * b->q);
  b->absent.resize(16 * b->q);
  b->hp.resize(b->q);
  b->ha.resize(b->q);
  for (uint64_t i = 0; i < b->q; i++) {
    putKey(&b->present[16 * i], 1, i);
    putKey(&b->absent[16 * i], 2, i);
    b->hp[i] = keyHash(b->pk(i));
    b->ha[i] = keyHash(b->ak(i));
  }
  double w0 = now(CLOCK_MONOTONIC);
  b->fill();
  b->fillSeconds = (now(CLOCK_MONOTONIC) - w0) / 1e9;
  return b;
}

bool isQuery(const std::string& op) {
  return op.find("present") == 0 || op.find("absent") == 0;
}

// measure runs op count times (rounded up to whole groups for the batch
// operations) and prints its line; it returns false for an unknown op.
bool measure(Bench& b, const std::string& op, uint64_t count) {
  if (op == "info") {
    printf("boost %u %u %llu info %llu %llu %llu %.3f\n", b.k, b.c,
           (unsigned long long)b.bytes, (unsigned long long)b.capacity,
           (unsigned long long)b.n, (unsigned long long)b.q, b.fillSeconds);
    fflush(stdout);
    return true;
  }
  if (op.find("batch") != std::string::npos) {
    count = (count + kBatch - 1) / kBatch * kBatch;
  }
  bool ok;
  double c0 = now(CLOCK_THREAD_CPUTIME_ID), w0 = now(CLOCK_MONOTONIC);
  uint64_t r = b.run(op, count, &ok);
  double w1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_THREAD_CPUTIME_ID);
  if (!ok) return false;
  if (isQuery(op)) {
    printf("boost %u %u %llu %s %.3f %.3f %.6f\n", b.k, b.c,
           (unsigned long long)b.bytes, op.c_str(), (c1 - c0) / count,
           (w1 - w0) / count, double(r) / count);
  } else {
    printf("boost %u %u %llu %s %.3f %.3f %llu\n", b.k, b.c,
           (unsigned long long)b.bytes, op.c_str(), (c1 - c0) / count,
           (w1 - w0) / count, (unsigned long long)r);
  }
  fflush(stdout);
  return true;
}

int serve() {
  std::unique_ptr<Bench> cur;
  uint64_t curQ = 0;
  char line[256], name[128];
  while (fgets(line, sizeof line, stdin)) {
    unsigned k, c;
    unsigned long long bytes, q, count;
    if (sscanf(line, "%u %u %llu %llu %127s %llu", &k, &c, &bytes, &q, name,
               &count) != 6 ||
        c < 1 || bytes < 4096 || q < kBatch || count < 1) {
      fprintf(stderr, "fmb32: bad request %s", line);
      return 2;
    }
    if (!cur || cur->k != k || cur->c != c || cur->bytes != bytes ||
        curQ != q) {
      cur.reset();  // free the old filter first
      cur = newBench(k, c, bytes, q);
      curQ = q;
      if (!cur) {
        fprintf(stderr, "fmb32: K = %u not built (5, 8, 11, 13)\n", k);
        return 2;
      }
    }
    if (!measure(*cur, name, count)) {
      fprintf(stderr, "fmb32: unknown operation %s\n", name);
      return 2;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "-serve") return serve();
  if (argc == 7 && std::string(argv[1]) == "-once") {
    unsigned k = atoi(argv[2]), c = atoi(argv[3]);
    uint64_t bytes = strtoull(argv[4], nullptr, 10);
    uint64_t q = strtoull(argv[5], nullptr, 10);
    uint64_t count = strtoull(argv[6], nullptr, 10);
    std::unique_ptr<Bench> b = newBench(k, c, bytes, q);
    if (!b || b->q < kBatch) {
      fprintf(stderr, "fmb32: bad K or sizes\n");
      return 2;
    }
    const char* ops[] = {"info",          "add-hash",       "add-batch-hash",
                         "present-hash",  "absent-hash",    "absent-batch-hash",
                         "add-key",       "present-key",    "absent-key",
                         "hash-xxh3-128", "random-lines"};
    for (const char* op : ops) measure(*b, op, count);
    return 0;
  }
  fprintf(stderr,
          "usage: fmb32 -serve\n"
          "       fmb32 -once K c bytes q count\n");
  return 2;
}
