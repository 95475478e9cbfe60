package variants

import "testing"

// TestStandardZeroValue checks the documented behaviour of the zero
// Standard: no panic, every key possibly present, Add counting only, Stats
// of no bits, and no encoding.
func TestStandardZeroValue(t *testing.T) {
	key := []byte("key")
	d := Digest{1, 2}
	var f Standard
	if !f.Contains(key) || !f.ContainsDigest(d) {
		t.Error("zero Standard: a key tests absent, want possibly present")
	}
	f.Add(key)
	f.AddDigest(d)
	f.AddBatch([][]byte{key, key})
	f.AddDigestBatch([]Digest{d})
	if !f.TestAndAdd(key) || !f.TestAndAddDigest(d) {
		t.Error("zero Standard: TestAndAdd reports absent, want possibly present")
	}
	out := make([]bool, 2)
	f.ContainsBatch([][]byte{key, []byte("other")}, out)
	if !out[0] || !out[1] {
		t.Errorf("zero Standard: ContainsBatch %v, want all true", out)
	}
	f.ContainsDigestBatch([]Digest{d, {3, 4}}, out)
	if !out[0] || !out[1] {
		t.Errorf("zero Standard: ContainsDigestBatch %v, want all true", out)
	}
	st := f.Stats()
	if st.Bits != 0 || st.Hashes != 0 || st.FillRatio != 0 || st.EstimatedFPR != 1 || st.Items != 7 {
		t.Errorf("zero Standard: Stats %+v, want 0 bits, 0 hashes, fill 0, rate 1, 7 items", st)
	}
	if _, err := f.MarshalBinary(); err == nil {
		t.Error("zero Standard: MarshalBinary succeeded, want an error")
	}
	f.Reset()
	if f.Stats().Items != 0 {
		t.Error("zero Standard: Reset kept the items")
	}
	// A zero Standard with other hashing takes the general path.
	g := Standard{}
	g.hashing = Hashing{Derivation: Double}.conf()
	g.Add(key)
	if !g.Contains(key) || !g.TestAndAdd(key) {
		t.Error("zero Standard, double hashing: a key tests absent")
	}
}
