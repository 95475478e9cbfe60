package experiments

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/variants"
)

// TestKeysOrder checks that the file reader puts the distinct keys in
// the order of (hash, content), as a plain sort of every line does, on
// 300,000 keys given twice (once with "\r") among empty lines: hashes
// that share their top 32 bits (about ten pairs here, and the test
// checks there are some) and duplicates take the slow paths.
func TestKeysOrder(t *testing.T) {
	var b strings.Builder
	const n = 300_000
	for i := range n {
		fmt.Fprintf(&b, "key-%d\n\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "key-%d\r\n", n-1-i)
	}
	src, err := KeysFromLines(context.Background(), "keys", strings.NewReader(b.String()))
	if err != nil || src.Distinct() != n {
		t.Fatal(src.Distinct(), err)
	}
	type entry struct {
		hash uint64
		key  []byte
	}
	var want []entry
	top := map[uint64]int{}
	for i := range n {
		k := []byte(fmt.Sprintf("key-%d", i))
		h := variants.Hashing{}.Digest(k).H1
		want = append(want, entry{h, k})
		top[h>>32]++
	}
	if len(top) == n {
		t.Fatal("no two hashes share their top 32 bits: the test misses the path that orders them")
	}
	slices.SortFunc(want, func(a, b entry) int {
		if a.hash != b.hash {
			if a.hash < b.hash {
				return -1
			}
			return 1
		}
		return bytes.Compare(a.key, b.key)
	})
	for i, w := range want {
		if got := line(src.data, src.lines[i]); !bytes.Equal(got, w.key) {
			t.Fatalf("key %d is %q, want %q", i, got, w.key)
		}
	}
}
