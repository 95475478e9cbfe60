package analysis

import (
	"math"
	"slices"
)

// ScalableCurve is a scalable filter's compound rate and memory at several
// item counts (see [Scalable.Curve]).
type ScalableCurve struct {
	Items      []uint64
	Stages     []Stage   // the stages of the largest count
	FPR        []float64 // FPR(Items[j])
	BitsPerKey []float64 // BitsPerKey(Items[j])
}

// Curve returns FPR and [BitsPerKey] at each count of items, equal to
// them bit for bit, with the stages built once, for the largest count,
// and the rate of each full stage computed once: a curve then costs little
// more than its last point, which matters for blocked stages (each sized
// by [BlockedSize] and rated by [BlockedFPR]). It reports the errors of Stages
// for the largest count, and an error if a count is 0.
func (s Scalable) Curve(items []uint64) (ScalableCurve, error) {
	return s.CurveFrom(nil, items)
}

// CurveFrom is Curve for a caller that has the first stages already:
// stages must be the first len(stages) stages of s, as Stages returns
// them (it is not checked), and CurveFrom builds only the stages after
// them that the largest count needs.
func (s Scalable) CurveFrom(stages []Stage, items []uint64) (ScalableCurve, error) {
	if err := s.Validate(); err != nil {
		return ScalableCurve{}, err
	}
	var most uint64
	for _, x := range items {
		if x == 0 {
			return ScalableCurve{}, invalid("items = 0, want items >= 1 for bits per key")
		}
		most = max(most, x)
	}
	// The shortest prefix holding most items, as in Stages.
	var held uint64
	for i, st := range stages {
		held += st.Capacity
		if held >= most {
			stages = stages[:i+1]
			break
		}
	}
	stages = slices.Clip(stages)
	var z *BlockedSizer
	if s.BlockBits != 0 {
		z = NewBlockedSizer(s.BlockBits)
	}
	for i := len(stages); held < most || len(stages) == 0; i++ {
		st, err := s.StageWith(i, z)
		if err != nil {
			if i >= MaxStages {
				return ScalableCurve{}, invalid("%d items need more than %d stages", most, MaxStages)
			}
			return ScalableCurve{}, err
		}
		stages = append(stages, st)
		held += st.Capacity
	}
	c := ScalableCurve{Items: items, Stages: stages, FPR: make([]float64, len(items)), BitsPerKey: make([]float64, len(items))}
	full := make([]float64, len(stages)) // ln(1 - f_i) of a full stage i
	known := make([]bool, len(stages))
	for j, x := range items {
		left := x
		var logPass float64 // ln prod (1 - f_i), summed in FPR's order
		var bits float64
		for i, st := range stages {
			bits += float64(st.Bits)
			ni := min(left, st.Capacity)
			left -= ni
			if ni == st.Capacity {
				if !known[i] {
					full[i], known[i] = math.Log1p(-s.StageFPR(st, ni)), true
				}
				logPass += full[i]
			} else {
				logPass += math.Log1p(-s.StageFPR(st, ni))
			}
			if left == 0 {
				break
			}
		}
		c.FPR[j] = -math.Expm1(logPass)
		c.BitsPerKey[j] = bits / float64(x)
	}
	return c, nil
}
