package variants

import (
	"io"
	"time"

	"github.com/bloomlab/bloomlab/analysis"
)

// ---- AgePartitioned ----

// ageParamsSize is the parameter block of AgePartitioned before its
// generation counts (8 bytes per slot follow).
const ageParamsSize = 52

// code returns the filter's variant code: 14, or 15 for the blocked layout.
func (f *AgePartitioned) code() variantCode {
	if f.blocked {
		return codeAgePartitionedBlocked
	}
	return codeAgePartitioned
}

func (f *AgePartitioned) encodedSize() uint64 {
	return headerSize + f.hashing.keyBytes() + ageParamsSize + 8*uint64(f.n) + 8*uint64(len(f.words)) + trailerSize
}

func (f *AgePartitioned) encode(e *encoder) {
	e.header(f.code(), f.hashing)
	e.u32(uint32(f.geom.K))
	e.u32(uint32(f.geom.L))
	e.u64(f.geom.G)
	e.u64(f.geom.SliceBits)
	e.u64(uint64(f.refresh))
	e.u64(uint64(f.start))
	e.u32(uint32(f.front))
	e.u64(f.items)
	for _, g := range f.gen {
		e.u64(g)
	}
	e.words(f.words, false)
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion] (codes 14 and 15): its hashing, K, L, G, slice bits,
// refresh interval and the start of the newest generation, the slot of
// the newest slice, the item count, the items of each slot's generation
// and the words. The clock itself is not saved: a loaded filter reads
// time.Now until SetClock gives it another.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *AgePartitioned) MarshalBinary() ([]byte, error) {
	if f.n == 0 {
		return nil, errZero("AgePartitioned")
	}
	return marshal(f.encodedSize(), 8*uint64(len(f.words)), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the words through a small buffer. It returns the number of bytes
// written.
func (f *AgePartitioned) WriteTo(w io.Writer) (int64, error) {
	if f.n == 0 {
		return 0, errZero("AgePartitioned")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the age-partitioned filter encoded in
// data, of either layout (see [FormatVersion] for the format and the
// errors). The loaded filter answers every query as the one saved and
// ages as it would have; with a refresh interval it reads time.Now (see
// SetClock). On error f is unchanged.
func (f *AgePartitioned) UnmarshalBinary(data []byte) error {
	return loadInto(f, data, (*decoder).readAgePartitioned)
}

// ReadFrom replaces f with the age-partitioned filter read from r, reading
// exactly the encoding that WriteTo writes and nothing after it. It
// returns the number of bytes read. See [FormatVersion]. On error f is
// unchanged.
func (f *AgePartitioned) ReadFrom(r io.Reader) (int64, error) {
	return readInto(f, r, (*decoder).readAgePartitioned)
}

// SetClock makes the filter read the time from clock (nil: time.Now), as
// [AgePartitionedParams].Clock does, for a filter that was loaded.
func (f *AgePartitioned) SetClock(clock func() time.Time) {
	if clock == nil {
		clock = time.Now
	}
	f.clock = clock
}

// readAgePartitioned decodes an age-partitioned filter of either layout,
// header included.
func (d *decoder) readAgePartitioned() (*AgePartitioned, error) {
	h, err := d.header()
	if err != nil {
		return nil, err
	}
	if h.variant != codeAgePartitioned && h.variant != codeAgePartitionedBlocked {
		return nil, d.bad(incompatible("the data holds a %v filter, not a %v one", h.variant, codeAgePartitioned))
	}
	return d.agePartitioned(h)
}

// agePartitioned decodes the rest of an age-partitioned filter after its
// header.
func (d *decoder) agePartitioned(h header) (*AgePartitioned, error) {
	p := AgePartitionedParams{AgePartitionedOptions: AgePartitionedOptions{Hashing: h.hashing.public(), Blocked: h.variant == codeAgePartitionedBlocked}}
	p.K, p.L = int(d.u32()), int(d.u32())
	p.G, p.SliceBits = d.u64(), d.u64()
	refresh, start := d.u64(), int64(d.u64())
	front, items := d.u32(), d.u64()
	if d.err != nil {
		return nil, d.err
	}
	if refresh > 1<<63-1 {
		return nil, d.bad(corrupt("refresh of %d ns, want 0 to 2^63 - 1", refresh))
	}
	p.Refresh = time.Duration(refresh)
	if p.Refresh == 0 && start != 0 {
		return nil, d.bad(corrupt("generation start %d without a refresh interval, want 0", start))
	}
	// Validate before allocating: analysis checks K, L, G and the slice
	// bits, newAgePartitioned the rest.
	if err := (analysis.AgePartitioned{K: p.K, L: p.L, G: p.G, SliceBits: p.SliceBits}).Validate(); err != nil {
		return nil, d.bad(corrupt("age-partitioned filter: %s", trimPrefix(err)))
	}
	n := p.K + p.L
	if front >= uint32(n) {
		return nil, d.bad(corrupt("newest slice in slot %d of %d", front, n))
	}
	gen := make([]uint64, n)
	for r := range gen {
		if gen[r] = d.u64(); d.err == nil && gen[r] > p.G {
			return nil, d.bad(corrupt("slot %d holds a generation of %d items, more than G = %d", r, gen[r], p.G))
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	if p.Blocked && p.SliceBits%64 != 0 {
		return nil, d.bad(corrupt("blocked slices of %d bits, want a multiple of 64", p.SliceBits))
	}
	// The filter without its table, then the table read into its own
	// words: one allocation of the table.
	f, words, err := agePartitionedShell(p)
	if err != nil {
		return nil, d.bad(corruptParams(err))
	}
	f.words = d.words(words)
	if err := d.checksum(); err != nil {
		return nil, err
	}
	if err := checkGenerations(gen, int(front), items, p.G, p.Refresh != 0); err != nil {
		return nil, d.bad(err)
	}
	f.buildTab()
	f.front, f.items, f.gen, f.start = int(front), items, gen, start
	// Bits outside the slices: above b in each slice, or in the words that
	// pad a blocked index to whole lines.
	if p.Blocked {
		stride := int(f.step / 8)
		for x := 0; x < len(f.words); x += stride {
			for _, w := range f.words[x+n : x+stride] {
				if w != 0 {
					return nil, d.bad(corrupt("bits set in the padding of index %d", x/stride))
				}
			}
		}
	} else {
		sw := int(f.step / 8)
		for r := range n {
			if err := d.padding(f.words[r*sw:(r+1)*sw], p.SliceBits); err != nil {
				return nil, err
			}
		}
	}
	return f, nil
}

// checkGenerations checks the generation counts gen of an age-partitioned
// filter whose newest slice is in slot front against its item count and
// G, as the filter's own growth leaves them. The slots hold at most the
// items added: items >= sum(gen). Without a refresh interval a slot
// shifts only when its generation holds G items, so, by age from the
// newest: the newest slot holds 1 to G items (0 only in a filter with no
// item, whose newest slot is slot 0); every older slot holds G, or 0 if
// it has not been used yet, and once one has not, no older one has; and
// the items beyond the slots are whole generations dropped, none while a
// slot is unused.
func checkGenerations(gen []uint64, front int, items, g uint64, refresh bool) error {
	n := len(gen)
	var sum uint64
	for _, c := range gen {
		sum += c // at most 256 slots of at most 2^48 items
	}
	if items < sum {
		return corrupt("age-partitioned filter: %d items, fewer than the %d its generations hold", items, sum)
	}
	if refresh {
		return nil
	}
	if gen[front] == 0 {
		if items != 0 || front != 0 {
			return corrupt("age-partitioned filter: the newest slice, in slot %d, holds no item, but the filter holds %d; without a refresh interval only an empty filter, newest slice in slot 0, has one", front, items)
		}
		return nil
	}
	unused := false
	for j := 1; j < n; j++ {
		r := (front + j) % n
		switch c := gen[r]; {
		case c == 0:
			unused = true
		case unused:
			return corrupt("age-partitioned filter: slot %d (age %d) holds %d items, but a newer slot is unused", r, j, c)
		case c != g:
			return corrupt("age-partitioned filter: slot %d (age %d) holds %d items; without a refresh interval an older slot holds G = %d or 0", r, j, c, g)
		}
	}
	if unused && items != sum {
		return corrupt("age-partitioned filter: %d items, but its generations hold %d and a slot is unused", items, sum)
	}
	if (items-sum)%g != 0 {
		return corrupt("age-partitioned filter: %d items, %d in the generations, and the rest is not whole generations of G = %d", items, sum, g)
	}
	return nil
}
