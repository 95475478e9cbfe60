#!/bin/sh
# build.sh builds compare/boost/fmb32.cc, bloomlab's timing program for
# Boost.Bloom's fast_multiblock32<K>, against source trees that are not
# part of this repository: Boost.Bloom and the Boost libraries its headers
# include (Boost 1.89 or later; Debian 12's libboost-dev, 1.74, has no
# Boost.Bloom), and xxHash's xxhash.h (for XXH3-128, bloomlab's default
# hash):
#
#   for lib in bloom config core assert mp11 container_hash \
#              throw_exception type_traits describe; do
#     git clone --depth 1 https://github.com/boostorg/$lib /tmp/boostsrc/$lib
#   done
#   git clone --depth 1 https://github.com/Cyan4973/xxHash /tmp/boostsrc/xxhash
#   BOOST_SRC=/tmp/boostsrc compare/boost/build.sh [OUTPUT]
#
# BOOST_SRC holds one directory per Boost library, each with its include/
# directory (as the boostorg repositories are laid out), and xxhash/ with
# xxhash.h (XXHASH_DIR overrides it). It compiles with g++ -std=c++17 -O3
# -mavx2 -DNDEBUG (CXXFLAGS overrides -O3 -mavx2; without AVX2,
# fast_multiblock32 is not the AVX2 filter and the program refuses to
# build), and writes OUTPUT (default /tmp/boostside/fmb32). CI does not
# run it; the Go tests of compare/ need no C toolchain.
#
# The flags matter for K = 5 and 11, whose blocks (20 and 44 bytes) are
# not aligned: Boost copies such a block with memcpy into a __m256i, which
# g++ 12 with -mavx2 lowers to 16-byte moves through the stack and a
# 32-byte reload, which the two 16-byte stores cannot forward;
# CXXFLAGS='-O3 -mavx2 -mmove-max=256 -mstore-max=256' (still AVX2 only)
# or an AVX-512 target copies in 32-byte moves (at K = 5, one load from
# the table and no stack). paper-notes section 15 has both builds' times.
set -eu
: "${BOOST_SRC:?set BOOST_SRC to a directory of boostorg source trees (see the comment at the top of this script)}"
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/boostside/fmb32}
mkdir -p "$(dirname "$out")"
CXX=${CXX:-g++}
CXXFLAGS=${CXXFLAGS:--O3 -mavx2}
XXHASH_DIR=${XXHASH_DIR:-$BOOST_SRC/xxhash}
test -f "$BOOST_SRC/bloom/include/boost/bloom/fast_multiblock32.hpp" || { echo "build.sh: $BOOST_SRC/bloom/include/boost/bloom/fast_multiblock32.hpp not found" >&2; exit 1; }
test -f "$XXHASH_DIR/xxhash.h" || { echo "build.sh: $XXHASH_DIR/xxhash.h not found" >&2; exit 1; }
inc=""
for d in "$BOOST_SRC"/*/include; do
	inc="$inc -I$d"
done
set -x
# shellcheck disable=SC2086 # $inc and $CXXFLAGS are lists of flags
$CXX -std=c++17 $CXXFLAGS -DNDEBUG $inc -I"$XXHASH_DIR" -o "$out" "$here/fmb32.cc"
{ set +x; } 2>/dev/null
echo "built $out with $($CXX --version | head -n 1), flags -std=c++17 $CXXFLAGS -DNDEBUG"
