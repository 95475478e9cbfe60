package analysis

// The two usual engineering answers to "was this key among the last W
// items of a stream?", against which a sliding-window filter (the
// age-partitioned filter) is measured. Both are standard filters whose
// exact rate at n items is ExactFPR; what differs is how many of the
// stream's items the queried filter holds after t adds, Held(t), which
// moves through a cycle. Everything follows from Held:
//
//   - the rate after t adds is ExactFPR(m, Held(t), k): the queried filter
//     is a standard filter holding Held(t) items, and a key that never
//     entered it tests present with that probability;
//   - an item of age a (a = the number of adds after it, 0 for the newest)
//     is held exactly when a < Held(t), so it tests present with
//     probability 1 then, and with the rate otherwise (the filter no longer
//     holds it, and its cells are those of a key never added);
//   - the guaranteed window, the number of newest items that test present
//     at every t, is the smallest Held(t) of the cycle.
//
// Ages and positions count adds, whether or not the key was new.

// AlternatingWindow describes two standard filters of Bits bits and Hashes
// hashes each used alternately: every key is added to both, a query asks
// the older, and after every Half-th add the older is cleared and becomes
// the newer. After t adds the older holds the last Held(t) items: t while
// t < Half, then Half + (t mod Half), between Half and 2 Half - 1. Its
// guaranteed window is Half items (just after a swap the older holds
// exactly the last Half), and its worst rate is at 2 Half - 1 items, just
// before a swap.
type AlternatingWindow struct {
	Half   uint64 // adds between swaps (h), the guaranteed window
	Bits   uint64 // bits of each of the two filters (m)
	Hashes int    // hashes (k)
}

// AlternatingWindowSize returns the alternating pair that guarantees window
// items at a worst rate of at most p with the fewest bits: Half = window,
// and each filter the fewest bits whose exact rate at 2 window - 1 items is
// at most p ([ExactStandardSize]). It reports an error wrapping
// [ErrInvalidParams] if window is zero, p is outside (0, 1), or the exact
// sizing passes its work limit (see ExactStandardSize).
func AlternatingWindowSize(window uint64, p float64) (AlternatingWindow, error) {
	if window == 0 || window > MaxBits {
		return AlternatingWindow{}, invalid("window = %d, want 1 <= window <= %d", window, uint64(MaxBits))
	}
	s, err := ExactStandardSize(2*window-1, p)
	if err != nil {
		return AlternatingWindow{}, err
	}
	return AlternatingWindow{Half: window, Bits: s.Bits, Hashes: s.Hashes}, nil
}

// Validate reports an error wrapping [ErrInvalidParams] unless Half >= 1 and
// the filters' geometry is valid.
func (a AlternatingWindow) Validate() error {
	if a.Half == 0 || a.Half > MaxBits {
		return invalid("half = %d, want 1 <= half <= %d", a.Half, uint64(MaxBits))
	}
	return checkGeometry(a.Bits, 1, a.Hashes)
}

// Window returns the guaranteed window, Half: the newest Half items test
// present at every point of the cycle.
func (a AlternatingWindow) Window() uint64 { return a.Half }

// TotalBits returns the memory of the pair, 2 Bits.
func (a AlternatingWindow) TotalBits() uint64 { return 2 * a.Bits }

// Held returns the number of items the queried (older) filter holds after
// t adds: t for t < Half, Half + t mod Half after the first swap.
func (a AlternatingWindow) Held(t uint64) uint64 {
	if t < a.Half {
		return t
	}
	return a.Half + t%a.Half
}

// FPR returns the exact rate after t adds, [ExactFPR](Bits, Held(t), Hashes).
func (a AlternatingWindow) FPR(t uint64) float64 { return ExactFPR(a.Bits, a.Held(t), a.Hashes) }

// WorstFPR returns the largest rate of the cycle, at 2 Half - 1 items.
func (a AlternatingWindow) WorstFPR() float64 { return ExactFPR(a.Bits, 2*a.Half-1, a.Hashes) }

// MeanFPR returns the rate averaged over the steady cycle, the mean of
// [ExactFPR] at Half, Half+1, ..., 2 Half - 1 items (Half evaluations of
// ExactFPR).
func (a AlternatingWindow) MeanFPR() float64 {
	var s float64
	for c := range a.Half {
		s += ExactFPR(a.Bits, a.Half+c, a.Hashes)
	}
	return s / float64(a.Half)
}

// Recall returns the probability that an item of age age (adds after it)
// tests present after t adds (age < t): 1 if the older filter holds it,
// age < Held(t), and the rate FPR(t) otherwise.
func (a AlternatingWindow) Recall(age, t uint64) float64 {
	return heldRecall(age, a.Held(t), a.Bits, a.Hashes)
}

// MeanRecall returns Recall(age, t) averaged over the Half positions of
// the steady cycle (t = j Half + c, j >= 2, c uniform on 0..Half-1): 1 for
// age < Half, falling linearly to the rate at age 2 Half - 1, the rate
// beyond.
func (a AlternatingWindow) MeanRecall(age uint64) float64 {
	var s float64
	for c := range a.Half {
		s += heldRecall(age, a.Half+c, a.Bits, a.Hashes)
	}
	return s / float64(a.Half)
}

// ClearedWindow describes one standard filter of Bits bits and Hashes
// hashes that is cleared when it holds Capacity items and another is added:
// the add that finds it full clears it first, so after t >= 1 adds it holds
// the last Held(t) = ((t-1) mod Capacity) + 1 items, between 1 and
// Capacity. Its guaranteed window is one item, the newest: just after a
// clear it holds nothing else. Its worst rate is at Capacity items.
type ClearedWindow struct {
	Capacity uint64 // items held when it is cleared (W)
	Bits     uint64 // bits (m)
	Hashes   int    // hashes (k)
}

// ClearedWindowSize returns the cleared filter of capacity items whose worst
// rate is at most p with the fewest bits: the fewest bits whose exact rate
// at capacity items is at most p ([ExactStandardSize]). It reports an error
// wrapping [ErrInvalidParams] if capacity is zero, p is outside (0, 1), or
// the exact sizing passes its work limit (see ExactStandardSize).
func ClearedWindowSize(capacity uint64, p float64) (ClearedWindow, error) {
	if capacity == 0 || capacity > MaxBits {
		return ClearedWindow{}, invalid("capacity = %d, want 1 <= capacity <= %d", capacity, uint64(MaxBits))
	}
	s, err := ExactStandardSize(capacity, p)
	if err != nil {
		return ClearedWindow{}, err
	}
	return ClearedWindow{Capacity: capacity, Bits: s.Bits, Hashes: s.Hashes}, nil
}

// Validate reports an error wrapping [ErrInvalidParams] unless Capacity >= 1
// and the geometry is valid.
func (w ClearedWindow) Validate() error {
	if w.Capacity == 0 || w.Capacity > MaxBits {
		return invalid("capacity = %d, want 1 <= capacity <= %d", w.Capacity, uint64(MaxBits))
	}
	return checkGeometry(w.Bits, 1, w.Hashes)
}

// Window returns the guaranteed window: 1 item, the newest.
func (w ClearedWindow) Window() uint64 { return 1 }

// Held returns the number of items the filter holds after t adds: 0 for
// t = 0, ((t-1) mod Capacity) + 1 otherwise.
func (w ClearedWindow) Held(t uint64) uint64 {
	if t == 0 {
		return 0
	}
	return (t-1)%w.Capacity + 1
}

// FPR returns the exact rate after t adds, [ExactFPR](Bits, Held(t), Hashes).
func (w ClearedWindow) FPR(t uint64) float64 { return ExactFPR(w.Bits, w.Held(t), w.Hashes) }

// WorstFPR returns the largest rate of the cycle, at Capacity items.
func (w ClearedWindow) WorstFPR() float64 { return ExactFPR(w.Bits, w.Capacity, w.Hashes) }

// MeanFPR returns the rate averaged over the cycle, the mean of [ExactFPR]
// at 1, 2, ..., Capacity items.
func (w ClearedWindow) MeanFPR() float64 {
	var s float64
	for n := uint64(1); n <= w.Capacity; n++ {
		s += ExactFPR(w.Bits, n, w.Hashes)
	}
	return s / float64(w.Capacity)
}

// Recall returns the probability that an item of age age tests present
// after t adds (age < t): 1 if age < Held(t), the rate FPR(t) otherwise.
func (w ClearedWindow) Recall(age, t uint64) float64 {
	return heldRecall(age, w.Held(t), w.Bits, w.Hashes)
}

// MeanRecall returns Recall(age, t) averaged over the cycle (Held(t)
// uniform on 1..Capacity): (Capacity - age)/Capacity of the time the item
// is held, for age < Capacity, and the rate otherwise.
func (w ClearedWindow) MeanRecall(age uint64) float64 {
	var s float64
	for n := uint64(1); n <= w.Capacity; n++ {
		s += heldRecall(age, n, w.Bits, w.Hashes)
	}
	return s / float64(w.Capacity)
}

// heldRecall is the probability that an item of age age tests present in a
// standard filter of m bits and k hashes holding the last held items.
func heldRecall(age, held, m uint64, k int) float64 {
	if age < held {
		return 1
	}
	return ExactFPR(m, held, k)
}
