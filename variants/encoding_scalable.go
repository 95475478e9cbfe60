package variants

import (
	"io"
	"math"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
)

// ---- Scalable ----

// scalableParamsSize is the parameter block of Scalable, before its
// stages; each stage adds bitParamsSize bytes and its slices.
const scalableParamsSize = 44

func (f *Scalable) encodedSize() uint64 {
	n := uint64(headerSize + scalableParamsSize + trailerSize)
	for _, st := range f.stages[:f.live] {
		n += bitTableSize(st.f.params(st.f.sliceBits), len(st.f.words)) - headerSize - trailerSize
	}
	return n
}

func (f *Scalable) encode(e *encoder) {
	e.header(codeScalable, f.hashing)
	e.u64(math.Float64bits(f.geom.P))
	e.u64(math.Float64bits(f.geom.R))
	e.u64(math.Float64bits(f.geom.S))
	e.u64(f.geom.N0)
	e.u64(f.items)
	e.u32(uint32(f.live))
	for _, st := range f.stages[:f.live] {
		p := st.f.params(st.f.sliceBits)
		p.capacity = st.capacity
		e.bitBody(p, st.f.words, false)
	}
}

// MarshalBinary encodes the filter in the format described at
// FormatVersion: its hashing, parameters P, r, s and n0, item count and
// the stages in use, each with its own geometry, capacity, item count and
// slices. The stage geometry is stored rather than recomputed from the
// parameters, so a file keeps its meaning even if the sizing rules of
// package analysis change. The memory of stages kept by Reset for reuse is
// not saved, nor is Err.
//
// MarshalBinary, like WriteTo, only reads the filter: it may run
// concurrently with Contains, but not with a mutating method.
func (f *Scalable) MarshalBinary() ([]byte, error) {
	if f.live == 0 {
		return nil, errZero("Scalable")
	}
	return marshal(f.encodedSize(), f.encode)
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
// FormatVersion for the format and the errors). The loaded filter has the
// same parameters, hashing and stages, answers every query as the one
// saved, and grows as it would have; Err starts out nil. On error f is
// unchanged.
func (f *Scalable) UnmarshalBinary(data []byte) error {
	g, err := unmarshal(data, (*decoder).readScalable)
	if err == nil {
		*f = *g
	}
	return err
}

// ReadFrom replaces f with the scalable filter read from r, reading exactly
// the encoding that WriteTo writes and nothing after it. It returns the
// number of bytes read. See FormatVersion. On error f is unchanged.
func (f *Scalable) ReadFrom(r io.Reader) (int64, error) {
	d := newDecoder(r)
	g, err := d.readScalable()
	if err == nil {
		*f = *g
	}
	return d.n, err
}

// readScalable decodes a scalable filter, header included.
func (d *decoder) readScalable() (*Scalable, error) {
	h, err := d.expect(codeScalable)
	if err != nil {
		return nil, err
	}
	return d.scalable(h)
}

// scalable decodes the rest of a scalable filter after its header.
func (d *decoder) scalable(h header) (*Scalable, error) {
	geom := analysis.Scalable{
		P:  math.Float64frombits(d.u64()),
		R:  math.Float64frombits(d.u64()),
		S:  math.Float64frombits(d.u64()),
		N0: d.u64(),
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
	f := &Scalable{geom: geom, hashing: h.hashing, items: items, live: int(live), stages: make([]scalableStage, 0, live)}
	for i := range int(live) {
		p, err := d.partitionedBody(h.hashing)
		if err != nil {
			return nil, err
		}
		f.stages = append(f.stages, scalableStage{f: p, capacity: p.capacity, error: geom.P0() * math.Pow(geom.R, float64(i))})
	}
	if err := d.checksum(); err != nil {
		return nil, err
	}
	for _, st := range f.stages {
		if err := d.partitionedPadding(st.f); err != nil {
			return nil, err
		}
	}
	return f, nil
}
