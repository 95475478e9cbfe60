package experiments

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/bloomlab/bloomlab/variants"
)

// A KeySource makes the keys the harness inserts into a filter and the
// never-inserted keys it queries it with. Every filter gets keys of its
// own, from a stream id the harness derives from the run's seed, so the
// keys of a filter are a pure function of the seed and the source:
// member i and query i of stream s are the same bytes on every run, and
// no query key of a stream is ever one of its member keys.
//
// The sources by name (NewKeySource):
//
//   - "uniform", the default: 16 bytes, the 64-bit stream id and then a
//     64-bit counter whose top bits tell queries from members. Every
//     good hash sees these as random.
//   - "url": URL-like text, about 50 bytes, such as
//     "https://www.site273.example/news/m/1f3a9c07/48211": one of 500
//     hosts, one of 16 sections, m or q for member or query, the stream
//     id and the key's number in decimal.
//   - "sequential": 8-byte big-endian integers counting up from a
//     per-stream start, the members from it and the queries from it plus
//     2^63: consecutive keys differ in their last bytes only.
//   - "prefix": a shared 64-byte prefix followed by the 16 bytes of the
//     uniform key, so that keys differ only at their end.
//   - "repeats": the uniform keys, inserted as a stream with skewed
//     repeats: after each new key the filter is given a geometric number
//     of repeats (mean 1) of keys inserted before it, each key of rank r
//     (in order of first insertion) with probability proportional to 1/r
//     (Zipf with exponent 1). Item counts count distinct keys. The
//     distinct keys are the uniform ones, so a filter that absorbs
//     repeats (an add of a present key sets no new bit) measures exactly
//     as with "uniform": this source tests the handling of repeats, not
//     the hash on skewed keys.
//
// A source read from a file (KeysFromFile, KeysFromLines, or "file:PATH"
// for NewKeySource) holds the distinct lines of the file; each filter
// takes its members and its queries from a seeded permutation of them,
// members from the front and queries from the back, so they never meet.
// A measurement that needs more distinct keys than the file has is
// refused before it starts.
//
// A KeySource is immutable and safe for concurrent use. A nil *KeySource
// makes the uniform keys.
type KeySource struct {
	name string
	kind keyKind
	// data holds a file source's non-empty lines, each ending in '\n',
	// and lines the offsets in data of its distinct keys.
	data  []byte
	lines []uint64
}

type keyKind int

const (
	keysUniform keyKind = iota
	keysURL
	keysSequential
	keysPrefix
	keysRepeats
	keysFile
)

// KeySourceNames are the names NewKeySource knows besides "file:PATH".
var KeySourceNames = []string{"uniform", "url", "sequential", "prefix", "repeats"}

// NewKeySource returns the key source of a name in KeySourceNames, or
// the source of the file PATH for "file:PATH" (see KeysFromFile, with
// its limits; ctx cancels the read). An unknown name is an error
// wrapping ErrInvalidParams.
func NewKeySource(ctx context.Context, name string) (*KeySource, error) {
	if path, ok := strings.CutPrefix(name, "file:"); ok {
		return KeysFromFile(ctx, path)
	}
	if i := slices.Index(KeySourceNames, name); i >= 0 {
		return &KeySource{name: name, kind: keyKind(i)}, nil
	}
	return nil, paramError("keys", "unknown key source %q, want one of %s or file:PATH", name, strings.Join(KeySourceNames, ", "))
}

// UniformKeys returns the default key source, "uniform".
func UniformKeys() *KeySource { return &KeySource{name: "uniform", kind: keysUniform} }

// minFileKeys is the fewest distinct keys a file source must hold.
const minFileKeys = 2

// maxLineLen bounds one key of a file source.
const maxLineLen = 1 << 16

// maxKeyFileBytes bounds a key file or stream: 4 GiB, so that a line's
// offset fits the 32 bits the reader sorts with (1 GiB on 32-bit
// platforms). It bounds the keys too: 4 GiB hold at most 2^31 lines.
const maxKeyFileBytes int64 = min(1<<32, math.MaxInt>>1)

// KeysFromFile reads a key source from the regular file at path: one key
// a line (a trailing "\r" is dropped, empty lines are skipped),
// duplicates counted once. The source is named "file:" and the path.
//
// Bounds: a path that is not a regular file (a directory, a device such
// as /dev/zero, a named pipe, a socket) is refused before anything is
// read, and so is a file of more than 4 GiB (2^32 bytes; 1 GiB on 32-bit
// platforms); a line longer than 65536 bytes, or fewer than 2 distinct
// keys, are refused once read. Each of these errors wraps
// ErrInvalidParams. Streams, such as a pipe, go through KeysFromLines.
//
// Cancellation: ctx is checked at every megabyte read or hashed and
// between the 256 parts of the sort (each 1/256 of the lines), so a
// cancelled ctx stops the read within milliseconds, with an error
// wrapping ctx's.
//
// Memory: the source keeps the file's non-empty lines, each with its
// newline, and 8 bytes a non-empty line: at most the file's size plus 8
// bytes a line. That is the peak while reading too, besides a 128 KiB
// buffer: the lines are read one by one into a buffer of the file's size
// and sorted in place (TestKeysFromFileMemory). Ten million lines of 33
// bytes (330 MB) take 410 MB and read in 3.1 to 3.8 s on two shared
// cores (BenchmarkKeysFromFile).
func KeysFromFile(ctx context.Context, path string) (*KeySource, error) {
	name := "file:" + path
	fi, err := os.Stat(path)
	if err != nil {
		return nil, paramError("keys", "%v", err)
	}
	if err := checkKeyFile(name, fi); err != nil {
		return nil, err
	}
	// Opened non-blocking where the system has it: a named pipe put in
	// the file's place after the Stat does not block the open, and is
	// refused below.
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, paramError("keys", "%v", err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, paramError("keys", "%v", err)
	}
	if err := checkKeyFile(name, opened); err != nil {
		return nil, err
	}
	if !os.SameFile(fi, opened) {
		return nil, paramError("keys", "%s changed while it was opened", name)
	}
	return readKeys(ctx, name, f, opened.Size())
}

// checkKeyFile refuses what is not a regular file of at most
// maxKeyFileBytes.
func checkKeyFile(name string, fi os.FileInfo) error {
	mode := fi.Mode()
	if !mode.IsRegular() {
		what := "not a regular file"
		switch {
		case mode.IsDir():
			what = "a directory"
		case mode&os.ModeNamedPipe != 0:
			what = "a named pipe (FIFO)"
		case mode&os.ModeSocket != 0:
			what = "a socket"
		case mode&os.ModeDevice != 0:
			what = "a device"
		}
		return paramError("keys", "%s is %s; want a regular file of at most %d bytes", name, what, maxKeyFileBytes)
	}
	if fi.Size() > maxKeyFileBytes {
		return paramError("keys", "%s is %d bytes long, want at most %d, the key-file limit", name, fi.Size(), maxKeyFileBytes)
	}
	return nil
}

// KeysFromLines reads a key source named name from r, one key a line, as
// KeysFromFile does, with its limits: more than 4 GiB is refused as soon
// as that much has been read. A cancelled ctx stops it between reads,
// but a Read that blocks is not interrupted: give a reader that ends, or
// that fails when ctx is done. Unless r has a Len method that says its
// size (bytes.Reader, strings.Reader), the buffer of lines grows as the
// stream is read, and while it is copied to a larger one the peak is up
// to three times the stream's size, besides the 8 bytes a line.
func KeysFromLines(ctx context.Context, name string, r io.Reader) (*KeySource, error) {
	size := int64(0)
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len())
	}
	return readKeys(ctx, name, r, size)
}

// checkEvery is how many bytes readKeys reads or scans between checks of
// its context.
const checkEvery = 1 << 20

// readKeys returns the key source of the lines of r, of about size bytes
// (a hint: 0 if not known).
//
// The lines are kept in data without empty lines and carriage returns,
// each ending in '\n', and one uint64 a line: the line's hash's top 32
// bits and its offset, sorted; then, with the lines whose hashes share
// their top 32 bits put in order and duplicates dropped, the offset
// alone. So the peak is len(data) plus 8 bytes a line, and the order of
// the keys is that of (hash, content), whatever the file's.
func readKeys(ctx context.Context, name string, r io.Reader, size int64) (*KeySource, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("experiments: reading %s: %w", name, err)
	}
	// The hint is trusted up to the limit, and one more byte for a
	// newline after a last line that has none.
	data := make([]byte, 0, min(max(size, 0), maxKeyFileBytes)+1)
	br := bufio.NewReaderSize(r, 2*maxLineLen)
	var read, lineNo, count int64
	next := int64(checkEvery)
	for {
		line, err := br.ReadSlice('\n')
		read += int64(len(line))
		if read > maxKeyFileBytes {
			return nil, paramError("keys", "%s is longer than %d bytes, the key-file limit", name, maxKeyFileBytes)
		}
		if len(line) > 0 {
			lineNo++
		}
		if err == bufio.ErrBufferFull {
			return nil, paramError("keys", "%s: line %d is longer than %d bytes, want at most %d", name, lineNo, len(line), maxLineLen)
		}
		if err != nil && err != io.EOF {
			return nil, paramError("keys", "%s: %v", name, err)
		}
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > maxLineLen {
			return nil, paramError("keys", "%s: line %d is %d bytes long, want at most %d", name, lineNo, len(line), maxLineLen)
		}
		if len(line) > 0 {
			data = append(data, line...)
			data = append(data, '\n')
			count++
		}
		if err == io.EOF {
			break
		}
		if read >= next {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("experiments: reading %s: %w", name, err)
			}
			next = read + checkEvery
		}
	}
	// Every line starts below maxKeyFileBytes (data holds at most one
	// byte more, a newline): its offset fits 32 bits.
	entries := make([]uint64, 0, count)
	next = checkEvery
	for off := 0; off < len(data); {
		end := off + bytes.IndexByte(data[off:], '\n')
		h := variants.Hashing{}.Digest(data[off:end]).H1
		entries = append(entries, h&^(1<<32-1)|uint64(off))
		off = end + 1
		if off >= int(next) {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("experiments: reading %s: %w", name, err)
			}
			next += checkEvery
		}
	}
	if err := sortCancellable(ctx, entries); err != nil {
		return nil, fmt.Errorf("experiments: reading %s: %w", name, err)
	}
	const offsets = 1<<32 - 1
	at := func(e uint64) []byte { return line(data, e&offsets) }
	// Lines whose hashes share their top 32 bits (a run) are put in
	// order of the bottom 32, then of content, and the duplicates among
	// them, now neighbours, dropped; the others are distinct. What is
	// left is packed in place, as offsets.
	lines := entries[:0]
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j]>>32 == entries[i]>>32 {
			j++
		}
		run := entries[i:j]
		i = j
		if len(run) == 1 {
			lines = append(lines, run[0]&offsets)
			continue
		}
		for k, e := range run {
			run[k] = variants.Hashing{}.Digest(at(e)).H1<<32 | e&offsets
		}
		slices.Sort(run)
		for a := 0; a < len(run); {
			b := a + 1
			for b < len(run) && run[b]>>32 == run[a]>>32 {
				b++
			}
			if b-a > 1 {
				slices.SortFunc(run[a:b], func(x, y uint64) int { return bytes.Compare(at(x), at(y)) })
			}
			a = b
		}
		// Writing lines never passes the entry read: at most the one
		// before it, with its own offset.
		for k, e := range run {
			if k > 0 && bytes.Equal(at(e), at(lines[len(lines)-1])) {
				continue
			}
			lines = append(lines, e&offsets)
		}
	}
	if len(lines) < minFileKeys {
		return nil, paramError("keys", "%s has %d distinct keys in %d lines, want at least %d", name, len(lines), lineNo, minFileKeys)
	}
	return &KeySource{name: name, kind: keysFile, data: data, lines: lines}, nil
}

// sortCancellable sorts s, a slice of hashes in its top bits, checking
// ctx between the buckets of its top byte: an in-place partition by the
// top byte, then each bucket sorted.
func sortCancellable(ctx context.Context, s []uint64) error {
	if len(s) < 1<<16 {
		slices.Sort(s)
		return ctx.Err()
	}
	var start, next [257]int
	for _, x := range s {
		start[x>>56+1]++
	}
	for b := range 256 {
		start[b+1] += start[b]
	}
	next = start
	for b := range 256 {
		for next[b] < start[b+1] {
			x := s[next[b]]
			d := int(x >> 56)
			if d == b {
				next[b]++
				continue
			}
			s[next[b]], s[next[d]] = s[next[d]], x
			next[d]++
		}
	}
	for b := range 256 {
		if err := ctx.Err(); err != nil {
			return err
		}
		slices.Sort(s[start[b]:start[b+1]])
	}
	return nil
}

// line returns the key at offset off in data, up to its newline.
func line(data []byte, off uint64) []byte {
	return data[off : off+uint64(bytes.IndexByte(data[off:], '\n'))]
}

// Name returns the source's name: one of KeySourceNames, or "file:" and
// the path.
func (s *KeySource) Name() string {
	if s == nil {
		return "uniform"
	}
	return s.name
}

// Distinct returns the number of distinct keys of a file source, the
// most members and queries one filter can take together, or 0 for a
// generated source, which has as many as any measurement needs.
func (s *KeySource) Distinct() uint64 {
	if s == nil {
		return 0
	}
	return uint64(len(s.lines))
}

// Member appends to dst the i-th key inserted into the filter of stream
// id stream and returns the extended slice. For a file source i must be
// below Distinct (larger i wrap around, and the keys repeat); the
// harness checks that a measurement needs no more.
func (s *KeySource) Member(dst []byte, stream, i uint64) []byte {
	return s.key(dst, stream, i, false)
}

// Query appends to dst the i-th never-inserted key the filter of stream
// id stream is queried with and returns the extended slice.
func (s *KeySource) Query(dst []byte, stream, i uint64) []byte {
	return s.key(dst, stream, i, true)
}

// sharedPrefix is the prefix of every "prefix" key: 64 bytes.
var sharedPrefix = []byte("https://storage.example.com/archive/2026/collections/shared/obj/")

var urlSections = []string{"news", "sport", "shop", "item", "user", "docs", "blog", "api",
	"img", "video", "wiki", "forum", "search", "mail", "maps", "tags"}

func (s *KeySource) key(dst []byte, stream, i uint64, query bool) []byte {
	if s == nil {
		s = uniformKeys
	}
	space := uint64(spaceMember)
	if query {
		space = spaceQuery
	}
	switch s.kind {
	case keysURL:
		h := splitmix64(stream ^ splitmix64(i^space))
		dst = append(dst, "https://www.site"...)
		dst = strconv.AppendUint(dst, h%500, 10)
		dst = append(dst, ".example/"...)
		dst = append(dst, urlSections[h>>32%uint64(len(urlSections))]...)
		if query {
			dst = append(dst, "/q/"...)
		} else {
			dst = append(dst, "/m/"...)
		}
		dst = strconv.AppendUint(dst, stream&0xffffffff, 16)
		dst = append(dst, '/')
		return strconv.AppendUint(dst, i&counterMask, 10)
	case keysSequential:
		start := splitmix64(stream) >> 2 // below 2^62: members and queries never wrap into each other
		if query {
			start += 1 << 63
		}
		return binary.BigEndian.AppendUint64(dst, start+i&counterMask)
	case keysPrefix:
		dst = append(dst, sharedPrefix...)
	case keysFile:
		n := uint64(len(s.lines))
		x := i % n // a file source has n keys; larger i wrap around
		if query {
			x = n - 1 - x
		}
		return append(dst, line(s.data, s.lines[permute(x, n, stream)])...)
	}
	dst = binary.LittleEndian.AppendUint64(dst, stream)
	return binary.LittleEndian.AppendUint64(dst, space|i&counterMask)
}

// repeats returns how many repeats of earlier keys the stream of stream
// id stream gives after new key i (repeats only: geometric, mean 1).
func (s *KeySource) repeats(stream, i uint64) int {
	if s == nil || s.kind != keysRepeats || i == 0 {
		return 0
	}
	// P(r repeats) = 2^-(r+1): the trailing ones of a random word.
	return bits.TrailingZeros64(^splitmix64(stream ^ splitmix64(i) ^ 0x5a5a))
}

// repeatOf returns the member index of repeat j after new key i: rank r
// in 1..i with probability about proportional to 1/r (the continuous
// inverse of the harmonic distribution: r = floor(i^u) for uniform u).
func (s *KeySource) repeatOf(stream, i uint64, j int) uint64 {
	u := float64(splitmix64(stream^splitmix64(i)^uint64(j+1)<<32)>>11) / (1 << 53)
	r := uint64(math.Pow(float64(i), u)) // in [1, i]
	return min(r, i) - 1
}

// permute returns the image of x under a permutation of [0, n) chosen by
// seed: a four-round Feistel network on the smallest even number of bits
// that holds n-1, walked until it lands below n (at most four steps
// expected).
func permute(x, n, seed uint64) uint64 {
	if n <= 1 {
		return 0
	}
	half := (bits.Len64(n-1) + 1) / 2
	mask := uint64(1)<<half - 1
	for {
		l, r := x>>half, x&mask
		for round := range uint64(4) {
			l, r = r, l^(splitmix64(r^seed^round<<56)&mask)
		}
		x = l<<half | r
		if x < n {
			return x
		}
	}
}

// UseKeys makes src the key source of every group of the plan. Each group
// must be a Spec's (see [Plan.AddSpec]; the other groups draw keys of their
// own), and a file source must hold enough distinct keys for the most
// members and queries of any of them.
func (pl *Plan) UseKeys(src *KeySource) error {
	for i := range pl.Groups {
		g := &pl.Groups[i]
		if !g.pooled {
			return paramError("keys", "experiment %s draws keys of its own; only the experiments that measure rates against inserted keys take -keys %s", pl.Experiment, src.Name())
		}
		g.Keys = src
		for _, r := range g.Rows {
			pl.Rows[r].Keys = keysName(src)
		}
		if src.Distinct() == 0 {
			continue
		}
		for _, r := range g.Rows {
			row := &pl.Rows[r]
			if row.Items > src.Distinct() || row.Queries > src.Distinct()-row.Items {
				return paramError("keys", "%s has %d distinct keys, too few for %d members and %d queries per filter (%s at %d items)",
					src.Name(), src.Distinct(), row.Items, row.Queries, row.Series, row.Items)
			}
		}
	}
	return nil
}
