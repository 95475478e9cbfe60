#!/bin/sh
# callgrind.sh counts the instructions per operation of FLB's program and
# of compare/cmd/flb's Go operations, one operation per valgrind run with
# collection on inside the operation's function only (--toggle-collect),
# and prints, for each, the total per operation and the functions that
# take at least 0.5 instructions per operation.
#
#   ROCKSDB_DIR=/tmp/rocksdb compare/flb/build.sh /tmp/flb/flb
#   (cd compare && go build -o /tmp/flb/flb-go ./cmd/flb)
#   compare/flb/callgrind.sh /tmp/flb/flb /tmp/flb/flb-go [N] [COUNT] [DIR]
#
# N (default 1000000) is the key count, COUNT (default 1000000) the
# operations per run; the callgrind files are kept in DIR if given (for
# callgrind_annotate), else removed. It needs valgrind (Debian: apt-get install
# valgrind); the C++ program is built for x86-64-v3 so that valgrind,
# which has no AVX-512, runs it.
set -eu
flb=${1:?usage: callgrind.sh FLB-PROGRAM GO-PROGRAM [N] [COUNT] [DIR]}
gobin=${2:?usage: callgrind.sh FLB-PROGRAM GO-PROGRAM [N] [COUNT] [DIR]}
n=${3:-1000000}
count=${4:-1000000}
if [ -n "${5:-}" ]; then
	out=$5
	mkdir -p "$out"
else
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi

# report FILE LABEL prints the instructions per operation in FILE.
report() {
	callgrind_annotate --auto=no --threshold=100 "$1" 2>/dev/null | awk -v count="$count" -v label="$2" '
		/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%s: %.1f instructions per operation\n", label, $1 / count; next }
		/^ *[0-9,]+ \(/ && started {
			v = $1; gsub(",", "", v)
			if (v / count >= 0.5) {
				fn = $0; sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", fn); sub(/ \[.*$/, "", fn)
				printf "    %7.1f  %s\n", v / count, fn
			}
		}
		/file:function/ { started = 1 }'
}

# C++ operations: op name, function name.
for op in absent-hash absent-key absent-batch32-hash absent-batch32-key add-hash add-batch32-hash hash-xxph3 hash-xxh3-64 random-lines; do
	fn=op_$(echo "$op" | tr - _)
	valgrind --tool=callgrind --callgrind-out-file="$out/c.$op" --toggle-collect="*$fn(*" \
		"$flb" -n "$n" -ops "$op" -count "$count" >/dev/null 2>&1
	report "$out/c.$op" "flb $op"
done

# Go operations: lib/op, function name.
while read -r op fn; do
	GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$out/go.${op%%/*}.${op#*/}" \
		--toggle-collect="main.$fn" "$gobin" -only "$op" -n "$n" -count "$count" >/dev/null 2>&1
	report "$out/go.${op%%/*}.${op#*/}" "$op"
done <<'OPS'
blocked/absent-hash opBlockedAbsentHash
blocked/absent-key opBlockedAbsentKey
blocked/absent-batch32-hash opBlockedAbsentBatchHash
blocked/absent-batch32-key opBlockedAbsentBatchKey
blocked/add-hash opBlockedAddHash
blocked/add-batch32-hash opBlockedAddBatchHash
split-block/absent-hash opSplitAbsentHash
split-block/absent-key opSplitAbsentKey
split-block/absent-batch32-hash opSplitAbsentBatchHash
split-block/absent-batch32-key opSplitAbsentBatchKey
split-block/add-hash opSplitAddHash
split-block/add-batch32-hash opSplitAddBatchHash
split-block-xxh3-64/absent-key opSplit64AbsentKey
split-block-xxh3-64/absent-batch32-key opSplit64AbsentBatchKey
parquet-go/absent-hash opParquetAbsentHash
parquet-go/add-hash opParquetAddHash
parquet-go/add-batch32-hash opParquetAddBatchHash
go/hash-xxh3-64 opHashXXH3
go/hash-xxh3-128 opHashXXH3128
go/random-lines opRandomLines
go/loop opLoop
go/call-go opCallGo
go/call-asm opCallAsm
OPS
