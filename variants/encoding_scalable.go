package variants

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
)

// ---- Scalable ----

// scalableParamsSize is the parameter block of Scalable, before its
// stages (4 more bytes, the block bits, with blocked stages); each stage
// adds its parameter block and its words.
const scalableParamsSize = 44

// params returns the parameter block of a stage.
func (st *scalableStage) params() bitParams {
	var p bitParams
	if st.b != nil {
		p = st.b.params(st.b.m, uint32(st.b.blockBits))
	} else {
		p = st.f.params(st.f.sliceBits)
	}
	p.capacity = st.capacity
	return p
}

// horizonParamsSize is the parameter block of a horizon-aware Scalable
// (code 16), before its stages.
const horizonParamsSize = 72

func (f *Scalable) encodedSize() uint64 {
	n := headerSize + f.hashing.keyBytes() + scalableParamsSize + trailerSize
	if _, ok := f.geom.(analysis.Horizon); ok {
		n += horizonParamsSize - scalableParamsSize
	} else if f.blockBits != 0 {
		n += 4
	}
	for i := range f.stages[:f.live] {
		st := &f.stages[i]
		n += bitTableSize(st.params(), len(st.core().words)) - headerSize - trailerSize
	}
	return n
}

func (f *Scalable) encode(e *encoder) {
	switch g := f.geom.(type) {
	case analysis.Horizon:
		e.header(codeScalableHorizon, f.hashing)
		e.u64(math.Float64bits(g.P))
		e.u64(math.Float64bits(g.S))
		e.u64(g.N0)
		e.u64(g.Estimate)
		e.u64(math.Float64bits(g.Spread))
		e.u64(math.Float64bits(g.Tail))
		e.u64(math.Float64bits(g.R))
		e.u32(uint32(g.BlockBits))
	case analysis.Scalable:
		code := codeScalable
		switch {
		case f.stream && g.BlockBits != 0:
			code = codeScalableBlockedStream
		case f.stream:
			code = codeScalableStream
		case g.BlockBits != 0:
			code = codeScalableBlocked
		}
		e.header(code, f.hashing)
		e.u64(math.Float64bits(g.P))
		e.u64(math.Float64bits(g.R))
		e.u64(math.Float64bits(g.S))
		e.u64(g.N0)
		if g.BlockBits != 0 {
			e.u32(uint32(g.BlockBits))
		}
	}
	e.u64(f.items)
	e.u32(uint32(f.live))
	for i := range f.stages[:f.live] {
		st := &f.stages[i]
		e.bitBody(st.params(), st.core().words, false)
	}
}

// MarshalBinary encodes the filter in the format described at
// [FormatVersion]: its hashing, parameters P, r, s and n0, item count and
// the stages in use, each with its own geometry, capacity, item count and
// slices. The stage geometry is stored, and a decoder accepts it only if
// it is the one NewScalable builds from the stored parameters (see
// [FormatVersion]); a change to the sizing rules of package analysis
// therefore needs a new format version. The memory of stages kept by Reset
// for reuse is not saved, nor is Err.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *Scalable) MarshalBinary() ([]byte, error) {
	if f.live == 0 {
		return nil, errZero("Scalable")
	}
	return marshal(f.encodedSize(), f.liveBytes(), f.encode)
}

// WriteTo writes the encoding that MarshalBinary returns to w, streaming
// the stages through a small buffer. It returns the number of bytes
// written.
func (f *Scalable) WriteTo(w io.Writer) (int64, error) {
	if f.live == 0 {
		return 0, errZero("Scalable")
	}
	return writeTo(w, f.encodedSize(), f.encode)
}

// UnmarshalBinary replaces f with the scalable filter encoded in data (see
// [FormatVersion] for the format and the errors). The loaded filter has the
// same parameters, hashing and stages, answers every query as the one
// saved, and grows as it would have; Err starts out nil. It keeps f's
// MaxBytes (0 for a zero Scalable: the process limit), which is not in the
// encoding, and checks the stages against it before it allocates them. On
// error f is unchanged.
func (f *Scalable) UnmarshalBinary(data []byte) error {
	g, err := unmarshal(data, func(d *decoder) (*Scalable, error) {
		d.maxBytes = f.maxBytes
		return d.readScalable()
	})
	if err == nil {
		g.maxBytes = f.maxBytes
		*f = *g
	}
	return err
}

// ReadFrom replaces f with the scalable filter read from r, reading exactly
// the encoding that WriteTo writes and nothing after it. It returns the
// number of bytes read. See [FormatVersion]. On error f is unchanged.
func (f *Scalable) ReadFrom(r io.Reader) (int64, error) {
	d := newDecoder(r)
	d.maxBytes = f.maxBytes
	g, err := d.readScalable()
	if err == nil {
		g.maxBytes = f.maxBytes
		*f = *g
	}
	return d.n, err
}

// readScalable decodes a scalable filter, header included, with either
// kind of stage.
func (d *decoder) readScalable() (*Scalable, error) {
	h, err := d.header()
	if err != nil {
		return nil, err
	}
	if !h.variant.scalable() {
		return nil, d.bad(incompatible("the data holds a %v filter, not a %v one", h.variant, codeScalable))
	}
	return d.scalable(h)
}

// scalable decodes the rest of a scalable filter after its header.
func (d *decoder) scalable(h header) (*Scalable, error) {
	if h.variant == codeScalableHorizon {
		return d.horizon(h)
	}
	geom := analysis.Scalable{
		P:  math.Float64frombits(d.u64()),
		R:  math.Float64frombits(d.u64()),
		S:  math.Float64frombits(d.u64()),
		N0: d.u64(),
	}
	blocked := h.variant == codeScalableBlocked || h.variant == codeScalableBlockedStream
	if blocked {
		geom.BlockBits = uint64(d.u32())
		if d.err == nil {
			if err := checkBlockBits(int(geom.BlockBits)); err != nil {
				return nil, d.bad(corruptParams(err))
			}
		}
	}
	items := d.u64()
	live := d.u32()
	if d.err != nil {
		return nil, d.err
	}
	if err := geom.Validate(); err != nil {
		return nil, d.bad(corrupt("scalable filter: %s", strings.TrimPrefix(err.Error(), "analysis: ")))
	}
	if live < 1 || live > analysis.MaxStages {
		return nil, d.bad(corrupt("%d stages, want 1 to %d", live, analysis.MaxStages))
	}
	if err := checkScalableReach(geom); err != nil {
		return nil, d.bad(corruptParams(err))
	}
	stream := h.variant == codeScalableStream || h.variant == codeScalableBlockedStream
	f := &Scalable{geom: geom, blockBits: geom.BlockBits, hashing: h.hashing, items: items, live: int(live), stages: make([]scalableStage, 0, live), stream: stream}
	return d.scalableStages(h, f, fmt.Sprintf("P = %v, r = %v, s = %v, n0 = %d", geom.P, geom.R, geom.S, geom.N0))
}

// horizon decodes the rest of a horizon-aware scalable filter (code 16)
// after its header. The stored parameters are those NewScalable fills in,
// defaults included, so a zero Spread, Tail or R, which an encoder never
// writes, is refused, as is a zero Estimate.
func (d *decoder) horizon(h header) (*Scalable, error) {
	p := ScalableParams{
		P:        math.Float64frombits(d.u64()),
		S:        math.Float64frombits(d.u64()),
		N0:       d.u64(),
		Estimate: d.u64(),
		Spread:   math.Float64frombits(d.u64()),
		Tail:     math.Float64frombits(d.u64()),
		R:        math.Float64frombits(d.u64()),
	}
	bb := d.u32()
	items := d.u64()
	live := d.u32()
	if d.err != nil {
		return nil, d.err
	}
	if p.Estimate == 0 {
		return nil, d.bad(corrupt("horizon-aware scalable filter with estimate 0, want an estimate >= 1"))
	}
	if bb != 0 {
		if err := checkBlockBits(int(bb)); err != nil {
			return nil, d.bad(corruptParams(err))
		}
		if err := checkOwnIndexing("blocked", h.hashing.public()); err != nil {
			return nil, d.bad(corruptParams(err))
		}
		p.BlockBits = int(bb)
	}
	geom, err := p.model()
	if err != nil {
		return nil, d.bad(corruptParams(err))
	}
	if live < 1 || live > analysis.MaxStages {
		return nil, d.bad(corrupt("%d stages, want 1 to %d", live, analysis.MaxStages))
	}
	f := &Scalable{geom: geom, blockBits: uint64(bb), hashing: h.hashing, items: items, live: int(live), stages: make([]scalableStage, 0, live),
		stream: h.hashing.Derivation == EnhancedDouble}
	return d.scalableStages(h, f, fmt.Sprintf("P = %v, s = %v, n0 = %d, estimate = %d, spread = %v, tail = %v, r = %v", p.P, p.S, p.N0, p.Estimate, p.Spread, p.Tail, p.R))
}

// scalableStages decodes the live stages of f, whose parameters are
// decoded and valid, and the checksum; params describes the parameters in
// messages.
func (d *decoder) scalableStages(h header, f *Scalable, params string) (*Scalable, error) {
	blocked, stream, live, items := f.blockBits != 0, f.stream, uint32(f.live), f.items
	// Every stage must be one NewScalable builds, and all of them must fit
	// the memory limit before the first is allocated.
	wants := make([]analysis.Stage, live)
	var total uint64
	for i := range wants {
		want, err := f.stage(i)
		if err == nil && blocked {
			err = checkBlockedStage(f.geom, f.blockBits, i, want)
		}
		if err != nil {
			return nil, d.bad(corrupt("scalable filter of %d stages: %s", live, trimPrefix(err)))
		}
		wants[i] = want
		if blocked {
			total += want.Bits / 8
		} else {
			total += 8 * ((want.SliceBits + 63) / 64) * uint64(want.Hashes)
		}
	}
	var sum uint64
	for i, want := range wants {
		// Stage i must be the one NewScalable builds from the stored
		// parameters, and hold what growth leaves in it: every stage
		// but the newest full, the newest not empty unless it is the
		// first.
		var err error
		check := func(p bitParams) error {
			got := p.size // slice bits b, or bits m of a blocked stage
			size, what := want.SliceBits, "slices of %d bits"
			if blocked {
				size, what = want.Bits, "%d bits"
			}
			if got != size || p.k != want.Hashes {
				return corrupt("stage %d has "+what+" and %d hashes, but the parameters "+params+" give "+what+" and %d",
					i, got, p.k, size, want.Hashes)
			}
			if blocked && uint64(p.extra[0]) != f.blockBits {
				return corrupt("stage %d has blocks of %d bits, the filter %d", i, p.extra[0], f.blockBits)
			}
			sum += p.items
			if err := checkStageItems(d, i, int(live), p.capacity, want.Capacity, p.items); err != nil || i > 0 {
				return err
			}
			// Once the first stage agrees with the parameters, all the
			// stages they declare must fit the memory limit before any
			// is allocated.
			return d.declared("scalable filter", total)
		}
		st := scalableStage{capacity: want.Capacity, error: want.Error}
		if blocked {
			st.b, err = d.blockedBodyWant(h.hashing, check)
		} else {
			st.f, err = d.partitionedBodyWant(h.hashing, check)
		}
		if err != nil {
			return nil, err
		}
		f.stages = append(f.stages, st)
	}
	if sum != items {
		return nil, d.bad(corrupt("the stages hold %d items, the filter says %d", sum, items))
	}
	if err := d.checksum(); err != nil {
		return nil, err
	}
	for i := range f.stages {
		st := &f.stages[i]
		if st.b != nil {
			words, err := aligned(st.b.words)
			if err != nil {
				return nil, d.bad(err)
			}
			st.b.words = words
		} else if err := d.partitionedPadding(st.f); err != nil {
			return nil, err
		} else if stream {
			words, err := aligned(st.f.words)
			if err != nil {
				return nil, d.bad(err)
			}
			st.f.words = words
		}
		f.hot = append(f.hot, newStreamStage(i, st.f, st.b))
		f.wide = f.wide || f.hot[i].wide
	}
	return f, nil
}
