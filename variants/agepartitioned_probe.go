package variants

import (
	"encoding/binary"
	"unsafe"

	"github.com/bloomlab/bloomlab/analysis"
)

// slotRec is what the hot loops need of one slot r: the state offset x of
// the wyrand output that holds the key's position in it, the shift that
// selects the position's bits in that output, and the address of the slot
// (plain layout) or its byte offset within an index (blocked layout).
type slotRec struct {
	p   unsafe.Pointer // plain: the slot's first word
	off uintptr        // blocked: 8 r
	x   uint64         // t wyp0 for output t of the slot
	sh  uint64         // plain: 32 (r mod 2), 0 for wide slices; blocked: 8 (r mod 8)
}

// buildTab fills tab from the geometry and the table's address.
func (f *AgePartitioned) buildTab() {
	f.tab = make([]slotRec, 2*f.n)
	base := unsafe.Pointer(unsafe.SliceData(f.words))
	for i := range f.tab {
		r := i % f.n
		rec := &f.tab[i]
		switch {
		case f.blocked:
			rec.off, rec.x, rec.sh = uintptr(r)*8, uint64(2+r>>3)*wyp0, uint64(8*(r&7))
		case f.wide:
			rec.p, rec.x = unsafe.Add(base, uintptr(r)*f.step), uint64(r+1)*wyp0
		default:
			rec.p, rec.x, rec.sh = unsafe.Add(base, uintptr(r)*f.step), uint64(r>>1+1)*wyp0, uint64(32*(r&1))
		}
	}
	f.runs = make([]laneRun, 0, f.geom.K/8+3)
	f.pairs = make([]pairRec, 0, f.geom.K/2+1)
	f.ones = make([]slotRec, 0, 4)
	f.planFront = -1
}

// laneRun is a run of slots of the blocked layout whose bits are the bytes
// of one wyrand output: slots r to r + c - 1 of one group of eight.
type laneRun struct {
	x   uint64  // (2 + r/8) wyp0, the state offset of the group's output
	off uintptr // 8 r, the byte offset of slot r's word within an index
	sh  uint64  // 8 (r mod 8), the shift that brings slot r's byte down
	c   int     // slots, 1 to 8
}

// pairRec is a pair of slots 2t and 2t+1 of the plain layout that share
// output t + 1: the low half picks the bit of slot 2t, whose first word
// is at p, the high half that of slot 2t+1, whose first word is a slot
// further.
type pairRec struct {
	x uint64 // (t + 1) wyp0
	p unsafe.Pointer
}

// plan fills the insert plan for the newest slice at slot f.front: the
// K slots from f.front on (wrapping), grouped by the wyrand output their
// bits come from, so that an insert computes each output once and walks
// no slot arithmetic. The plan depends on f.front (and the gen slice)
// alone; insert rebuilds it when the front has moved (every G adds, or
// after Tick, Reset or decoding), before it reads cur. Queries do not
// use it, so that they mutate nothing.
func (f *AgePartitioned) plan() {
	f.runs, f.pairs, f.ones = f.runs[:0], f.pairs[:0], f.ones[:0]
	f.planFront, f.cur = f.front, &f.gen[f.front]
	f.span = min(f.geom.K, f.n-f.front)
	r, n, k := f.front, f.n, f.geom.K
	switch {
	case f.blocked:
		// With at most 32 slots insert needs only span.
		for k > 0 && n > 32 {
			c := min(k, n-r, 8-r&7)
			f.runs = append(f.runs, laneRun{x: uint64(2+r>>3) * wyp0, off: uintptr(r) * 8, sh: uint64(8 * (r & 7)), c: c})
			if k, r = k-c, r+c; r == n {
				r = 0
			}
		}
	case f.wide:
	default:
		var on [analysis.MaxAgeSlices + 1]bool
		for j := range k {
			on[(r+j)%n] = true
		}
		for t := 0; 2*t < n; t++ {
			lo, hi := &f.tab[2*t], &f.tab[2*t+1]
			switch {
			case on[2*t] && on[2*t+1]:
				f.pairs = append(f.pairs, pairRec{x: lo.x, p: lo.p})
			case on[2*t]:
				f.ones = append(f.ones, *lo)
			case on[2*t+1]:
				f.ones = append(f.ones, *hi)
			}
		}
	}
}

// insert ages the filter if the newest slice is full and sets d's bits in
// the K newest slices.
func (f *AgePartitioned) insert(d Digest) {
	if f.planFront != f.front {
		f.plan()
	}
	if *f.cur >= f.geom.G {
		f.shift()
		f.plan()
		if f.refresh != 0 {
			// The new generation starts now, unless the clock went back
			// (Tick has recorded that), when the start stays.
			f.start = max(f.start, f.now())
		}
	}
	*f.cur++
	f.items++
	s := streamSeed(d)
	if f.blocked {
		blk := f.blockOf(s)
		if f.n <= 32 {
			// Slot r's bit is the low 6 bits of byte r of the outputs
			// 2 to 5 stored little-endian (those the slots use), and its
			// word is word r of the index: the K newest slots are the
			// span from the front to the last slot, and the span from
			// slot 0 on if they wrap.
			var o [32]byte
			binary.LittleEndian.PutUint64(o[:], wyout(s+wyp0x2))
			if n := f.n; n > 8 {
				binary.LittleEndian.PutUint64(o[8:], wyout(s+wyp0x3))
				if n > 16 {
					binary.LittleEndian.PutUint64(o[16:], wyout(s+wyp0x4))
					if n > 24 {
						binary.LittleEndian.PutUint64(o[24:], wyout(s+wyp0x5))
					}
				}
			}
			r := uintptr(f.front)
			setLanes(unsafe.Add(blk, 8*r), unsafe.Add(unsafe.Pointer(&o), r), f.span)
			if c := f.geom.K - f.span; c > 0 {
				setLanes(blk, unsafe.Pointer(&o), c)
			}
			return
		}
		for _, ru := range f.runs {
			// Slot r + i of the run takes byte i of v, its low 6 bits;
			// the cases fall through from the run's last slot to its
			// first.
			v := wyout(s+ru.x) >> (ru.sh & 63)
			p := unsafe.Add(blk, ru.off)
			switch ru.c {
			case 8:
				*(*uint64)(unsafe.Add(p, 56)) |= 1 << (v >> 56 & 63)
				fallthrough
			case 7:
				*(*uint64)(unsafe.Add(p, 48)) |= 1 << (v >> 48 & 63)
				fallthrough
			case 6:
				*(*uint64)(unsafe.Add(p, 40)) |= 1 << (v >> 40 & 63)
				fallthrough
			case 5:
				*(*uint64)(unsafe.Add(p, 32)) |= 1 << (v >> 32 & 63)
				fallthrough
			case 4:
				*(*uint64)(unsafe.Add(p, 24)) |= 1 << (v >> 24 & 63)
				fallthrough
			case 3:
				*(*uint64)(unsafe.Add(p, 16)) |= 1 << (v >> 16 & 63)
				fallthrough
			case 2:
				*(*uint64)(unsafe.Add(p, 8)) |= 1 << (v >> 8 & 63)
				fallthrough
			default:
				*(*uint64)(p) |= 1 << (v & 63)
			}
		}
		return
	}
	b := f.geom.SliceBits
	if f.wide {
		for _, e := range f.tab[f.front : f.front+f.geom.K] {
			j := reduce(wyout(s+e.x), b)
			*wordPtr(e.p, j) |= 1 << (j & 63)
		}
		return
	}
	// Slots 2t and 2t+1 share output t + 1: one output for each pair of
	// the K newest slots, and one for each slot whose partner is not
	// among them.
	step := f.step
	for _, e := range f.pairs {
		v := wyout(s + e.x)
		i, j := reduce32(uint64(uint32(v)), b), reduce32(v>>32, b)
		*wordPtr(e.p, i) |= 1 << (i & 63)
		*wordPtr(unsafe.Add(e.p, step), j) |= 1 << (j & 63)
	}
	for _, e := range f.ones {
		i := reduce32(uint64(uint32(wyout(s+e.x)>>(e.sh&63))), b)
		*wordPtr(e.p, i) |= 1 << (i & 63)
	}
}

// slotIndex returns the bit of slot r (of b bits) that seed s picks in
// the plain layout.
func (f *AgePartitioned) slotIndex(s uint64, r int, b uint64) uint64 {
	if f.wide {
		return reduce(wyout(s+uint64(r+1)*wyp0), b)
	}
	v := wyout(s + uint64(r>>1+1)*wyp0)
	return reduce32(v>>(32*(r&1))&mask32, b)
}

// blockedBit returns the bit (0 to 63) of slot r's word that seed s picks
// in the blocked layout.
func blockedBit(s uint64, r int) uint64 {
	return wyout(s+uint64(2+r>>3)*wyp0) >> (8 * (r & 7)) & 63
}

// containsSeed is ContainsDigest for the stream seed s over the live newest
// slices.
func (f *AgePartitioned) containsSeed(s uint64, live int) bool {
	if f.blocked {
		return f.testBlock(f.blockOf(s), s, live)
	}
	k, b := f.geom.K, f.geom.SliceBits
	if f.wide {
		tab := f.tab[f.front : f.front+live]
		return runOf(live, k, func(j int) bool {
			e := &tab[j]
			return hasBit(e.p, reduce(wyout(s+e.x), b))
		})
	}
	if k > live {
		return false
	}
	// The record of the slice of age j, j < live <= K + L, is tab[front
	// + j], within tab's 2 (K + L) records.
	tab := unsafe.Pointer(&f.tab[f.front])
	// The loop of runOf, written out, with set(j) = plainHit(...) != 0.
	start, end, known := 0, k-1, -1
	j := end
	if lo := live - k; lo < k {
		all := uint64(1)
		for c := lo; c < k; c++ {
			all &= plainHit(tab, c, s, b)
		}
		if all == 0 {
			return false
		}
		j = lo - 1
	}
	for {
		for j > known && plainHit(tab, j, s, b) != 0 {
			j--
		}
		if j <= known {
			return true
		}
		start, known = j+1, end
		if end = start + k - 1; end >= live {
			return false
		}
		j = end
	}
}

// plainHit returns 1 if the slice whose record is at tab + j records
// holds the bit of seed s (plain layout, slices of b <= wideSlice bits),
// and 0 if not.
func plainHit(tab unsafe.Pointer, j int, s, b uint64) uint64 {
	e := (*slotRec)(unsafe.Add(tab, uintptr(j)*unsafe.Sizeof(slotRec{})))
	i := reduce32(uint64(uint32(wyout(s+e.x)>>(e.sh&63))), b)
	return *wordPtr(e.p, i) >> (i & 63) & 1
}

// wyp0x5 is 5 wyp0 modulo 2^64, the state of output 5.
const wyp0x5 = 5 * wyp0 & (1<<64 - 1)

// setLanes sets, for i < c, bit (byte i at po) mod 64 of word i at pw.
// The cases fall through from the last of at most sixteen lanes to the
// first, so that a lane costs a byte load and a read-modify-write (the
// lanes beyond sixteen, for K > 16, go first, one by one).
func setLanes(pw, po unsafe.Pointer, c int) {
	for ; c > 16; c-- {
		*(*uint64)(pw) |= 1 << (*(*uint8)(po) & 63)
		pw, po = unsafe.Add(pw, 8), unsafe.Add(po, 1)
	}
	switch c {
	case 16:
		*(*uint64)(unsafe.Add(pw, 120)) |= 1 << (*(*uint8)(unsafe.Add(po, 15)) & 63)
		fallthrough
	case 15:
		*(*uint64)(unsafe.Add(pw, 112)) |= 1 << (*(*uint8)(unsafe.Add(po, 14)) & 63)
		fallthrough
	case 14:
		*(*uint64)(unsafe.Add(pw, 104)) |= 1 << (*(*uint8)(unsafe.Add(po, 13)) & 63)
		fallthrough
	case 13:
		*(*uint64)(unsafe.Add(pw, 96)) |= 1 << (*(*uint8)(unsafe.Add(po, 12)) & 63)
		fallthrough
	case 12:
		*(*uint64)(unsafe.Add(pw, 88)) |= 1 << (*(*uint8)(unsafe.Add(po, 11)) & 63)
		fallthrough
	case 11:
		*(*uint64)(unsafe.Add(pw, 80)) |= 1 << (*(*uint8)(unsafe.Add(po, 10)) & 63)
		fallthrough
	case 10:
		*(*uint64)(unsafe.Add(pw, 72)) |= 1 << (*(*uint8)(unsafe.Add(po, 9)) & 63)
		fallthrough
	case 9:
		*(*uint64)(unsafe.Add(pw, 64)) |= 1 << (*(*uint8)(unsafe.Add(po, 8)) & 63)
		fallthrough
	case 8:
		*(*uint64)(unsafe.Add(pw, 56)) |= 1 << (*(*uint8)(unsafe.Add(po, 7)) & 63)
		fallthrough
	case 7:
		*(*uint64)(unsafe.Add(pw, 48)) |= 1 << (*(*uint8)(unsafe.Add(po, 6)) & 63)
		fallthrough
	case 6:
		*(*uint64)(unsafe.Add(pw, 40)) |= 1 << (*(*uint8)(unsafe.Add(po, 5)) & 63)
		fallthrough
	case 5:
		*(*uint64)(unsafe.Add(pw, 32)) |= 1 << (*(*uint8)(unsafe.Add(po, 4)) & 63)
		fallthrough
	case 4:
		*(*uint64)(unsafe.Add(pw, 24)) |= 1 << (*(*uint8)(unsafe.Add(po, 3)) & 63)
		fallthrough
	case 3:
		*(*uint64)(unsafe.Add(pw, 16)) |= 1 << (*(*uint8)(unsafe.Add(po, 2)) & 63)
		fallthrough
	case 2:
		*(*uint64)(unsafe.Add(pw, 8)) |= 1 << (*(*uint8)(unsafe.Add(po, 1)) & 63)
		fallthrough
	case 1:
		*(*uint64)(pw) |= 1 << (*(*uint8)(po) & 63)
	}
}

// testBlock is containsSeed in the blocked layout, for the index at blk.
// With at most 32 slots the bits of all slots are bytes of outputs 2 to
// 5, computed (those the slots use) once before the loop and stored
// little-endian, as insert has them: slot r's bit is then the low 6 bits
// of byte r of o, and a test costs two loads and a shift.
func (f *AgePartitioned) testBlock(blk unsafe.Pointer, s uint64, live int) bool {
	n, k := f.n, f.geom.K
	if n > 32 {
		return f.testBlockWide(blk, s, live)
	}
	if k > live {
		return false
	}
	var o [32]byte
	binary.LittleEndian.PutUint64(o[:], wyout(s+wyp0x2))
	if n > 8 {
		binary.LittleEndian.PutUint64(o[8:], wyout(s+wyp0x3))
		if n > 16 {
			binary.LittleEndian.PutUint64(o[16:], wyout(s+wyp0x4))
			if n > 24 {
				binary.LittleEndian.PutUint64(o[24:], wyout(s+wyp0x5))
			}
		}
	}
	ob, front := unsafe.Pointer(&o), f.front
	start, end, known := 0, k-1, -1
	j := end
	if lo := live - k; lo < k {
		all := uint64(1)
		for c := lo; c < k; c++ {
			all &= blockHit(blk, ob, front, c, n)
		}
		if all == 0 {
			return false
		}
		j = lo - 1
	}
	for {
		for j > known && blockHit(blk, ob, front, j, n) != 0 {
			j--
		}
		if j <= known {
			return true
		}
		start, known = j+1, end
		if end = start + k - 1; end >= live {
			return false
		}
		j = end
	}
}

// blockHit returns 1 if the slice of age j holds its bit in the index at
// blk, the slice being in slot front + j mod n and its bit in the low 6
// bits of byte r of the outputs at ob, and 0 if not.
func blockHit(blk, ob unsafe.Pointer, front, j, n int) uint64 {
	r := front + j
	if r >= n {
		r -= n
	}
	return *(*uint64)(unsafe.Add(blk, r*8)) >> (*(*uint8)(unsafe.Add(ob, r)) & 63) & 1
}

// testBlockWide is testBlock for more than 32 slots, computing each
// slot's output as it tests the slot.
func (f *AgePartitioned) testBlockWide(blk unsafe.Pointer, s uint64, live int) bool {
	tab, k := f.tab[f.front:f.front+live], f.geom.K
	start, end, known := 0, k-1, -1
	if end >= live {
		return false
	}
	j := end
	if lo := live - k; lo < k {
		all := uint64(1)
		for _, e := range tab[lo:k] {
			all &= *(*uint64)(unsafe.Add(blk, e.off)) >> (wyout(s+e.x) >> (e.sh & 63) & 63)
		}
		if all&1 == 0 {
			return false
		}
		j = lo - 1
	}
	for {
		for j > known {
			e := &tab[j]
			if *(*uint64)(unsafe.Add(blk, e.off))>>(wyout(s+e.x)>>(e.sh&63)&63)&1 == 0 {
				break
			}
			j--
		}
		if j <= known {
			return true
		}
		start, known = j+1, end
		if end = start + k - 1; end >= live {
			return false
		}
		j = end
	}
}

// runOf reports whether set(j) holds for k consecutive j in [0, n), testing
// each j at most once. Every run of k in [0, n) covers the core [n-k,
// k-1] when n - k < k, so it first tests the whole core, all of it before
// looking at the answers (the hot loops combine them without a branch),
// and answers false if one fails. Then, from the end of the first
// candidate run (below the core, if it passed) down, it tests until a
// failure at j, after which the next candidate starts at j + 1 and is
// tested from its end down to the positions already known to be set.
func runOf(n, k int, set func(j int) bool) bool {
	start, end, known := 0, k-1, -1 // start..known are known to be set
	if end >= n {
		return false
	}
	j := end
	if lo := n - k; lo < k {
		ok := true
		for c := lo; c < k; c++ {
			ok = set(c) && ok
		}
		if !ok {
			return false
		}
		j = lo - 1
	}
	for {
		for j > known && set(j) {
			j--
		}
		if j <= known {
			return true
		}
		start, known = j+1, end
		if end = start + k - 1; end >= n {
			return false
		}
		j = end
	}
}
