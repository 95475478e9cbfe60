package analysis

import "math"

// Lines per query. Beyond the cache a query costs about one miss per
// distinct 64-byte line it reads, so the number of lines, not the number of
// probes, is what its time follows. The functions below predict it for the
// probe orders of bloomlab's filters: a query loads its probes in groups,
// tests each group once and stops after the first group holding a probe
// that fails.

// lineBytes is the size of the cache line that lines are counted in.
const lineBytes = 64

// GroupedProbes returns the expected number of probes read by a query of k
// probes that loads them in groups of g (the last group holds the k mod g
// left over), tests each group once and stops after the first group with a
// failing probe, when each probe passes independently with probability
// pass: the sum over groups t of |group t| pass^(g t). With g = 1 it is the
// expected number of probes up to and including the first clear bit,
// (1 - pass^k)/(1 - pass). It returns NaN if k < 1, g < 1 or pass is not
// in [0, 1].
func GroupedProbes(k, g int, pass float64) float64 {
	if k < 1 || g < 1 || math.IsNaN(pass) || pass < 0 || pass > 1 {
		return math.NaN()
	}
	var e float64
	for lo := 0; lo < k; lo += g {
		e += float64(min(g, k-lo)) * math.Pow(pass, float64(lo))
	}
	return e
}

// TableLines returns the expected number of distinct lines read by a query
// of a filter whose m bits form one table (a standard or counting filter;
// m counts cell bits) and whose k probes fall at independent uniform
// positions, read in groups of g as [GroupedProbes] says, each passing with
// probability pass: the sum over probes j of the chance that probe j is
// read times the chance (1 - 1/L)^j that its line is none of the j lines
// before it, L = ceil(m/512) lines. It ignores a table that does not start
// on a line boundary (one line more in all). It returns NaN for the
// arguments GroupedProbes rejects and for m = 0.
func TableLines(m uint64, k, g int, pass float64) float64 {
	if m == 0 || math.IsNaN(GroupedProbes(k, g, pass)) {
		return math.NaN()
	}
	lines := math.Ceil(float64(m) / (8 * lineBytes))
	var e float64
	for j := range k {
		read := math.Pow(pass, float64(j/g*g))
		e += read * math.Pow(1-1/lines, float64(j))
	}
	return e
}

// sharedLine returns the chance that uniform positions in slices j and
// j+1 of b bits each fall on the same line, when slice j starts at word
// j ceil(b/64) of a table that starts on a line: the product of the
// fractions of each slice's bits on the line where slice j+1 starts.
func sharedLine(b uint64, j int) float64 {
	const line = 8 * lineBytes
	sw := 64 * ((b + 63) / 64) // slice stride in bits
	next := sw * uint64(j+1)
	if next%line == 0 {
		return 0
	}
	lo := next / line * line
	start := sw * uint64(j)
	x := min(start+b, lo+line) - max(start, lo) // slice j's bits on the line
	if start+b <= lo {
		x = 0
	}
	y := min(next+b, lo+line) - next
	return float64(x) / float64(b) * float64(y) / float64(b)
}

// Lines returns the expected number of distinct lines that a query of a
// filter of this construction holding items items reads: for an absent
// key, and for a present key chosen uniformly among the items. Stages are
// tested newest first, and a query stops at the first stage that answers
// present, which an absent key reaches past stage i with probability
// 1 - StageFPR(stage i).
//
// A partitioned stage reads its k_i slices in groups of group (2 for the
// stream derivation of variants.Scalable, 4 for its remixed stages,
// format codes 4 and 7), one line per slice read: [GroupedProbes](k_i, group,
// f_i) for an absent key, f_i the slice fill [PartitionedFill], and all k_i
// in the stage that holds a present key, less the chance that two
// adjacent slices read both fall on the line they share. That chance
// assumes the layout of variants.Scalable's stream stages: slices of
// ceil(b_i/64) words from a table that starts on a line (the remixed
// stages' tables need not, which moves the shared lines). Slices narrower
// than a line can share lines with slices further away; Lines counts only
// adjacent ones.
//
// A blocked stage costs one line, its block's, read for up to 16 stages
// together before any is tested (variants.Scalable reads the blocks in
// groups of 16), so an absent key reads exactly one line per stage; blocks
// larger than a line add the other lines of the block that the k_i
// positions fall on, 1 - (1 - 1/c)^(k_i) of each of its c - 1 other lines.
//
// It reports the errors of Stages, and an error if items is 0.
func (s Scalable) Lines(items uint64, group int) (absent, present float64, err error) {
	if items == 0 {
		return 0, 0, invalid("items = 0, want items >= 1 for lines per query")
	}
	if group < 1 {
		return 0, 0, invalid("group = %d, want group >= 1", group)
	}
	stages, err := s.Stages(items)
	if err != nil {
		return 0, 0, err
	}
	type stage struct {
		lines, all, fpr float64 // absent key's lines, all probes' lines, stage rate
		n               uint64
	}
	st := make([]stage, len(stages))
	left := items
	for i, g := range stages {
		n := min(left, g.Capacity)
		left -= n
		st[i] = stage{n: n, fpr: s.StageFPR(g, n)}
		if s.BlockBits != 0 {
			c := float64(s.BlockBits) / (8 * lineBytes)
			extra := 0.0
			if c > 1 {
				extra = (c - 1) * -math.Expm1(float64(g.Hashes)*math.Log1p(-1/c))
			}
			st[i].lines, st[i].all = extra, extra
			continue
		}
		f := PartitionedFill(g.Bits, n, g.Hashes)
		st[i].lines, st[i].all = GroupedProbes(g.Hashes, group, f), float64(g.Hashes)
		for j := range g.Hashes - 1 {
			q := sharedLine(g.SliceBits, j)
			st[i].lines -= math.Pow(f, float64((j+1)/group*group)) * q
			st[i].all -= q
		}
	}
	// walk returns the expected lines of a query that passes stage hold
	// for sure (hold = -1: an absent key).
	walk := func(hold int) float64 {
		var e float64
		reach := 1.0
		if s.BlockBits == 0 {
			for i := len(st) - 1; i >= 0 && reach > 0; i-- {
				if i == hold {
					return e + reach*st[i].all
				}
				e += reach * st[i].lines
				reach *= 1 - st[i].fpr
			}
			return e
		}
		for hi := len(st); hi > 0 && reach > 0; hi -= 16 {
			lo := max(hi-16, 0)
			e += reach * float64(hi-lo) // the first line of every block of the group
			for i := hi - 1; i >= lo; i-- {
				if i == hold {
					return e + reach*st[i].all
				}
				e += reach * st[i].lines
				reach *= 1 - st[i].fpr
			}
		}
		return e
	}
	absent = walk(-1)
	for i := range st {
		present += float64(st[i].n) / float64(items) * walk(i)
	}
	return absent, present, nil
}
