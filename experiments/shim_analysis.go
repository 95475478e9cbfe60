package experiments

// TEMPORARY: stand-ins for functions that branch analysis is adding to
// package analysis with the same names and signatures. Deleted when that
// branch is merged; theory.go then calls package analysis directly.

import (
	"errors"
	"math"

	"github.com/bloomlab/bloomlab/analysis"
)

func shimClassicFPR(m, n uint64, k int) float64 {
	return math.Pow(-math.Expm1(-float64(k)*float64(n)/float64(m)), float64(k))
}

func shimExactFPR(m, n uint64, k int) float64 {
	t := n * uint64(k)
	if m > 1<<14 || t > 1<<20 {
		return math.Pow(1-math.Pow(1-1/float64(m), float64(t)), float64(k))
	}
	p := make([]float64, m+1)
	p[0] = 1
	for range t {
		for x := min(m, t); x >= 1; x-- {
			p[x] = p[x]*float64(x)/float64(m) + p[x-1]*float64(m-x+1)/float64(m)
		}
		p[0] = 0
	}
	var s float64
	for x := range p {
		s += p[x] * math.Pow(float64(x)/float64(m), float64(k))
	}
	return s
}

func shimPartitionedFPR(m, n uint64, k int) float64 {
	b := float64(m) / float64(k)
	return math.Pow(-math.Expm1(float64(n)*math.Log1p(-1/b)), float64(k))
}

func shimScalableFPR(s analysis.Scalable, items uint64) (float64, error) {
	left := items
	var logPass float64
	for i := 0; ; i++ {
		st, err := s.Stage(i)
		if err != nil {
			return 0, err
		}
		ni := min(left, st.Capacity)
		left -= ni
		logPass += math.Log1p(-shimPartitionedFPR(st.Bits, ni, st.Hashes))
		if left == 0 {
			break
		}
	}
	return -math.Expm1(logPass), nil
}

func shimTInterval(samples []float64, conf float64) (float64, float64, float64, error) {
	if len(samples) < 2 {
		return 0, 0, 0, errors.New("shim: fewer than 2 samples")
	}
	var mean float64
	for _, v := range samples {
		mean += v
	}
	mean /= float64(len(samples))
	var ss float64
	for _, v := range samples {
		ss += (v - mean) * (v - mean)
	}
	sd := math.Sqrt(ss / float64(len(samples)-1))
	z := 1.959964
	df := float64(len(samples) - 1)
	// Cornish-Fisher expansion of the t quantile.
	t := z + (z*z*z+z)/(4*df) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*df*df)
	h := t * sd / math.Sqrt(float64(len(samples)))
	return mean, mean - h, mean + h, nil
}

func shimClopperPearson(x, n uint64, conf float64) (float64, float64) {
	if x == 0 {
		return 0, 1 - math.Pow((1-conf)/2, 1/float64(n))
	}
	z := 1.959964
	xf, nf, z2 := float64(x), float64(n), z*z
	c := (xf + z2/2) / (nf + z2)
	h := z / (nf + z2) * math.Sqrt(xf*(nf-xf)/nf+z2/4)
	return math.Max(0, c-h), math.Min(1, c+h)
}
