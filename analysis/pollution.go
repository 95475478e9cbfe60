package analysis

import "math"

// A pollution attacker (Gerbet, Kumar and Lauradoux, "The Power of Evil
// Choices in Bloom Filters", DSN 2015) knows a filter's hashing and
// contents and inserts keys chosen to set as many new bits as it can. The
// functions in this file give the rate such an attacker leaves when it is
// greedy with a bounded search: for each of the n keys it inserts, it
// draws T candidate keys and inserts the one that sets the most new bits
// (distinct cells turned from 0 to 1; ties do not matter, since only the
// count moves the filter's fill). T = 1 is no attack: the keys are random.
//
// The model is the one of [ExactFPR]: a key's k positions, candidate or
// query, are independent and uniform on the m bits, so two of them may
// coincide. bloomlab's filters derive a key's k positions by enhanced
// double hashing from the two 64-bit halves of its digest, so they are
// uniform one by one but not k-wise independent: the chance that two of
// them coincide, and which candidates an attacker can find, differ from
// the model's. How far that moves the rate is measured, not derived here:
// the adversary experiment sets the rate its attacker reaches beside this
// theory for each T.

// MaxPollutionWork bounds the work of [PollutedFPR], in multiply-adds,
// about a second on one core: PollutedFPR refuses parameters whose
// estimated work exceeds it, and stops with an error if the work it
// counts does. The estimate is (k+1)^2 (s+1) to tabulate the attacker's
// gain for every count of set bits up to s = min(m, n k), plus n (k+1) w
// for the chain, where w = min(s+1, 16 sqrt(m) + 2k + 2) bounds the
// counts of set bits whose probability is not negligible (at most
// 10.3 sqrt(m) in every case TestPollutedFPRWidth measured). For
// m = 100,000 and k = 7 every n up to 40,000 fits (four times the
// capacity at 1%); BenchmarkPollutedFPR takes 0.1 s at n = 10,000.
const MaxPollutionWork = 2e9

// MaxPollutionCells bounds the memory of [PollutedFPR]: (k+3)(s+k+1)
// float64 values, s = min(m, n k), at most 256 MiB.
const MaxPollutionCells = 1 << 25

// pollutionNegligible is the probability below which PollutedFPR drops a
// count of set bits from either end of its distribution. Each count
// dropped removes less than that mass, which changes the rate by less
// than that amount; the at most n (s+1) dropped counts change it by
// less than 1e-40 within the limits.
const pollutionNegligible = 1e-60

// PollutionBound returns min(1, n k/m)^k, the rate when every one of n
// inserted keys sets k new bits (Gerbet, Kumar and Lauradoux's model): an
// upper bound on the expected rate any attacker leaves in a standard or
// a partitioned filter of m bits and k hashes (n k/m is the most bits n
// keys can set, and for a partitioned filter the product of the slices'
// fills is at most the k-th power of their mean). It returns NaN if m = 0
// or k < 1.
func PollutionBound(m, n uint64, k int) float64 {
	if badGeometry(m, k) {
		return math.NaN()
	}
	return math.Pow(math.Min(1, float64(n)*float64(k)/float64(m)), float64(k))
}

// pollutionCost returns the estimated multiply-adds of
// PollutedFPR(m, n, k, t) (see MaxPollutionWork), and s = min(m, n k).
func pollutionCost(m, n uint64, k int) (cost float64, s uint64) {
	s = m
	if nk := n * uint64(k); nk/uint64(k) == n && nk < m {
		s = nk
	}
	kk := float64(k) + 1
	w := math.Min(float64(s)+1, 16*math.Sqrt(float64(m))+2*kk)
	return kk*kk*(float64(s)+1) + float64(n)*kk*w, s
}

// PollutedFPR returns the expected false-positive rate of a standard
// filter of m bits and k hashes after n keys inserted by a greedy
// attacker who, for each key, draws t candidates (k independent uniform
// positions each, see the model above) and inserts the one with the most
// new bits. Queries are independent of the filter: the rate is E[(X/m)^k]
// over the number X of set bits after the n insertions, the chance that a
// query's k positions all hit set bits. With t = 1 it is [ExactFPR]'s
// rate (to rounding: TestPollutedFPRNoAttack); it grows with t towards
// [PollutionBound].
//
// X is a Markov chain. With x bits set, the number D of new bits of one
// candidate is exact from a recurrence over its k positions: a position
// falls on a set bit (x/m), on a new bit an earlier position of the
// candidate already took (d/m), or on another clear bit ((m-x-d)/m). The
// best of t independent candidates has distribution function F(d)^t, and
// X moves to X + D. PollutedFPR tabulates the law of the best D for every
// x the chain can reach, then carries the whole distribution of X through
// the n insertions, in float64: every term is a sum of products of
// non-negative numbers, and each probability of the best D is computed
// as F(d)^t (1 - (1 - P(D=d)/F(d))^t), with no difference of near-equal
// numbers. Counts of set bits whose probability falls below 1e-60 at an
// end of the distribution are dropped, which changes the rate by less
// than 1e-40 (see pollutionNegligible); nothing else is approximated.
//
// It returns an error wrapping [ErrInvalidParams] if m = 0, k < 1 or
// k > MaxHashes, t = 0, or if the work or memory would exceed
// [MaxPollutionWork] or [MaxPollutionCells]: a caller with more can use
// [PollutionBound]. For m = 95,851, n = 10,000, k = 7 it takes about
// 0.1 s. For n = 0 the rate is 0.
//
// The rate of a partitioned filter under the same attacker is not given:
// its state is the vector of the k slices' fills, not one number, and an
// exact chain over it has about (m/k)^k states; PollutionBound bounds it.
func PollutedFPR(m, n uint64, k int, t uint64) (float64, error) {
	return pollutedFPR(m, n, k, t, MaxPollutionWork)
}

// pollutedFPR is PollutedFPR with the work it may count, budget (at most
// MaxPollutionWork).
func pollutedFPR(m, n uint64, k int, t uint64, budget float64) (float64, error) {
	if err := checkGeometry(m, n, k); err != nil {
		return 0, err
	}
	if t == 0 {
		return 0, invalid("candidates t = 0, want t >= 1")
	}
	cost, top := pollutionCost(m, n, k) // top: the most bits the chain can set
	if cost > MaxPollutionWork {
		return 0, invalid("polluted rate for m = %d, n = %d, k = %d takes about %.3g operations, more than the limit %.3g (MaxPollutionWork)", m, n, k, cost, float64(MaxPollutionWork))
	}
	if cells := (float64(k) + 3) * (float64(top) + float64(k) + 1); cells > MaxPollutionCells {
		return 0, invalid("polluted rate for m = %d, n = %d, k = %d needs %.3g values, more than the limit %d (MaxPollutionCells)", m, n, k, cells, MaxPollutionCells)
	}
	if n == 0 {
		return 0, nil
	}
	gain := pollutionGain(m, top, k, float64(t))

	// k cells of padding past top take the zeros that gain holds there.
	p := make([]float64, top+1+uint64(k))
	q := make([]float64, top+1+uint64(k))
	p[0] = 1
	lo, hi := uint64(0), uint64(0) // the support of p
	kk := uint64(k)
	work := float64(kk+1) * float64(kk+1) * float64(top+1)
	for range n {
		if work += float64(kk+1) * float64(hi-lo+1); work > budget {
			return 0, invalid("polluted rate for m = %d, n = %d, k = %d took more than %.3g operations", m, n, k, budget)
		}
		nhi := min(hi+kk, top)
		clear(q[lo : hi+kk+1])
		pp := p[lo : hi+1]
		for d, col := range gain {
			// Bits beyond top are never reached: col is 0 there.
			g := col[lo:][:len(pp)]
			qq := q[lo+uint64(d):][:len(pp)]
			for i, px := range pp {
				qq[i] += px * g[i]
			}
		}
		p, q = q, p
		hi = nhi
		for lo < hi && p[lo] < pollutionNegligible {
			lo++
		}
		for hi > lo && p[hi] < pollutionNegligible {
			hi--
		}
		if lo == top {
			break // every bit is set
		}
	}
	var rate float64
	mf := float64(m)
	for x := lo; x <= hi; x++ {
		rate += p[x] * math.Pow(float64(x)/mf, float64(k))
	}
	return rate, nil
}

// pollutionGain returns, for x = 0..top set bits of m, the law of the
// most new bits among t candidates of k independent uniform positions, by
// columns: gain[d][x] = P(best = d | x bits set), d = 0..k, each column
// padded with k zeros past top so that the chain's loop needs no bounds
// (a row x never gives x + d > m).
func pollutionGain(m, top uint64, k int, t float64) [][]float64 {
	kk := k + 1
	gain := make([][]float64, kk)
	for d := range gain {
		gain[d] = make([]float64, top+1+uint64(k))
	}
	one := make([]float64, kk)     // P(D = d) for one candidate
	above := make([]float64, kk+1) // P(D > d)
	mf := float64(m)
	for x := uint64(0); x <= top; x++ {
		xf := float64(x)
		clear(one)
		one[0] = 1
		for s := 1; s <= k; s++ { // the s-th position
			for d := s; d >= 0; d-- {
				stay := one[d] * (xf + float64(d)) / mf
				if d > 0 {
					stay += one[d-1] * math.Max(0, mf-xf-float64(d-1)) / mf
				}
				one[d] = stay
			}
		}
		if t == 1 {
			for d, pd := range one {
				gain[d][x] = pd
			}
			continue
		}
		// F(d) from below, and its complement S(d) = P(D > d) from
		// above, so that log F(d) is accurate both where F is small and
		// where it is near 1.
		above[k] = 0
		for d := k - 1; d >= 0; d-- {
			above[d] = above[d+1] + one[d+1]
		}
		var below float64
		for d, pd := range one {
			below += pd
			if pd == 0 {
				continue
			}
			logF := math.Log1p(-above[d])
			if below < 0.5 {
				logF = math.Log(below)
			}
			// P(best = d) = F(d)^t - F(d-1)^t
			//             = F(d)^t (1 - (1 - P(D=d)/F(d))^t).
			gain[d][x] = math.Exp(t*logF) * -math.Expm1(t*math.Log1p(-pd/below))
		}
	}
	return gain
}
