package experiments

import (
	"bufio"
	"bytes"
	"encoding/binary"
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
// The sources by name ([NewKeySource]):
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
//   - "zipf": the uniform keys, inserted as a skewed stream with repeats:
//     after each new key the filter is given a geometric number of
//     repeats (mean 1) of keys inserted before it, each key of rank r
//     (in order of first insertion) with probability proportional to 1/r
//     (Zipf with exponent 1). Item counts count distinct keys.
//
// A source read from a file ([KeysFromFile], [KeysFromLines], or "file:PATH"
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
	// data holds a file source's bytes, and lines its distinct keys, each
	// packed as offset<<lenBits | length into data.
	data  []byte
	lines []uint64
}

// lenBits is the width of a line's length in KeySource.lines.
const lenBits = 17

type keyKind int

const (
	keysUniform keyKind = iota
	keysURL
	keysSequential
	keysPrefix
	keysZipf
	keysFile
)

// KeySourceNames are the names [NewKeySource] knows besides "file:PATH".
var KeySourceNames = []string{"uniform", "url", "sequential", "prefix", "zipf"}

// NewKeySource returns the key source of a name in [KeySourceNames], or
// the source of the file PATH for "file:PATH" (see [KeysFromFile]). An
// unknown name is an error wrapping [ErrInvalidParams].
func NewKeySource(name string) (*KeySource, error) {
	if path, ok := strings.CutPrefix(name, "file:"); ok {
		return KeysFromFile(path)
	}
	if i := slices.Index(KeySourceNames, name); i >= 0 {
		return &KeySource{name: name, kind: keyKind(i)}, nil
	}
	return nil, paramError("keys", "unknown key source %q, want one of %s or file:PATH", name, strings.Join(KeySourceNames, ", "))
}

// UniformKeys returns the default key source, "uniform".
func UniformKeys() *KeySource { return &KeySource{name: "uniform", kind: keysUniform} }

// MinFileKeys is the fewest distinct keys a file source must hold.
const MinFileKeys = 2

// maxLineLen bounds one key of a file source.
const maxLineLen = 1 << 16

// KeysFromFile reads a key source from the file at path: one key a line
// (a trailing "\r" is dropped, empty lines are skipped), duplicates
// counted once. The source is named "file:" and the path. A file with
// fewer than [MinFileKeys] distinct keys, more than 2^32 of them, or a line
// longer than 65536 bytes is refused with an error wrapping
// [ErrInvalidParams]. It reads ten million lines of about 33 bytes in
// 2.8 s on two shared cores (BenchmarkKeysFromFile), holding the file and
// 8 bytes per distinct key.
func KeysFromFile(path string) (*KeySource, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, paramError("keys", "%v", err)
	}
	return keysFromData("file:"+path, data)
}

// KeysFromLines reads a key source named name from r, one key a line, as
// [KeysFromFile] does.
func KeysFromLines(name string, r io.Reader) (*KeySource, error) {
	data, err := io.ReadAll(bufio.NewReaderSize(r, 1<<20))
	if err != nil {
		return nil, paramError("keys", "%s: %v", name, err)
	}
	return keysFromData(name, data)
}

// keysFromData returns the key source of the lines of data.
func keysFromData(name string, data []byte) (*KeySource, error) {
	type entry struct {
		hash uint64
		line uint64 // offset<<lenBits | length
	}
	entries := make([]entry, 0, bytes.Count(data, []byte{'\n'})+1)
	lineNo := 0
	for off := 0; off < len(data); {
		lineNo++
		end := bytes.IndexByte(data[off:], '\n')
		next := off + end + 1
		if end < 0 {
			end, next = len(data)-off, len(data)
		}
		line := data[off : off+end]
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > maxLineLen {
			return nil, paramError("keys", "%s: line %d is %d bytes long, want at most %d", name, lineNo, len(line), maxLineLen)
		}
		if len(line) > 0 {
			entries = append(entries, entry{hash: variants.Hashing{}.Digest(line).H1, line: uint64(off)<<lenBits | uint64(len(line))})
		}
		off = next
	}
	if uint64(len(data)) >= 1<<(64-lenBits) {
		return nil, paramError("keys", "%s is %d bytes long, want less than 2^%d", name, len(data), 64-lenBits)
	}
	get := func(e entry) []byte { return line(data, e.line) }
	// Sort by hash, then by content: equal keys become neighbours, and
	// the order is a fixed pseudo-random one, whatever the file's.
	slices.SortFunc(entries, func(a, b entry) int {
		if a.hash != b.hash {
			if a.hash < b.hash {
				return -1
			}
			return 1
		}
		return bytes.Compare(get(a), get(b))
	})
	lines := make([]uint64, 0, len(entries))
	for i, e := range entries {
		if i > 0 && e.hash == entries[i-1].hash && bytes.Equal(get(e), get(entries[i-1])) {
			continue
		}
		lines = append(lines, e.line)
	}
	if len(lines) < MinFileKeys {
		return nil, paramError("keys", "%s has %d distinct keys in %d lines, want at least %d", name, len(lines), lineNo, MinFileKeys)
	}
	if uint64(len(lines)) > 1<<32 {
		return nil, paramError("keys", "%s has %d distinct keys, want at most 2^32", name, len(lines))
	}
	return &KeySource{name: name, kind: keysFile, data: data, lines: lines}, nil
}

// line returns the key packed as l in data.
func line(data []byte, l uint64) []byte {
	off := l >> lenBits
	return data[off : off+l&(1<<lenBits-1)]
}

// Name returns the source's name: one of [KeySourceNames], or "file:" and
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
// id stream gives after new key i (zipf only: geometric, mean 1).
func (s *KeySource) repeats(stream, i uint64) int {
	if s == nil || s.kind != keysZipf || i == 0 {
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
