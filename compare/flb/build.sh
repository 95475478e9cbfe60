#!/bin/sh
# build.sh builds compare/flb/flb.cc, bloomlab's timing program for RocksDB's
# FastLocalBloom, against a RocksDB source tree that is not part of this
# repository:
#
#   git clone --depth 1 https://github.com/facebook/rocksdb /tmp/rocksdb
#   ROCKSDB_DIR=/tmp/rocksdb compare/flb/build.sh [OUTPUT]
#
# It compiles RocksDB's util/hash.cc and util/xxhash.cc (the Hash64 that
# the filter builder and reader call, and XXH3) and our flb.cc, with -O2 as
# RocksDB's release build, for x86-64-v3 (AVX2, BMI2, FMA; no AVX-512, so
# that valgrind runs it), and links them to OUTPUT (default /tmp/flb/flb).
# It needs g++ (Debian: apt-get install g++). CI does not run it; the Go
# tests of compare/ need no C toolchain.
set -eu
: "${ROCKSDB_DIR:?set ROCKSDB_DIR to a RocksDB source tree (see the comment at the top of this script)}"
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/flb/flb}
obj=$(dirname "$out")/flb-obj
mkdir -p "$obj"
CXX=${CXX:-g++}
CXXFLAGS=${CXXFLAGS:--O2 -march=x86-64-v3}
flags="-std=c++20 $CXXFLAGS -DROCKSDB_PLATFORM_POSIX -DOS_LINUX -I$ROCKSDB_DIR -I$ROCKSDB_DIR/include"
test -f "$ROCKSDB_DIR/util/bloom_impl.h" || { echo "build.sh: $ROCKSDB_DIR/util/bloom_impl.h not found" >&2; exit 1; }
$CXX $flags -c "$ROCKSDB_DIR/util/hash.cc" -o "$obj/hash.o"
$CXX $flags -c "$ROCKSDB_DIR/util/xxhash.cc" -o "$obj/xxhash.o"
$CXX $flags -c "$here/flb.cc" -o "$obj/flb.o"
$CXX -o "$out" "$obj/flb.o" "$obj/hash.o" "$obj/xxhash.o"
if [ -d "$ROCKSDB_DIR/.git" ]; then
	echo "built $out from RocksDB $(git -C "$ROCKSDB_DIR" rev-parse --short HEAD)"
else
	echo "built $out from $ROCKSDB_DIR"
fi
