package variants_test

import (
	"fmt"

	"github.com/bloomlab/bloomlab/variants"
)

// A filter whose keys come from people who may choose them: the keyed
// hash with a secret key from crypto/rand. The saved filter carries the
// key, so it must be kept as secret as the key.
func ExampleNewKey() {
	h := variants.Hashing{Kind: variants.SipHash, Key: variants.NewKey()}
	f, err := variants.NewStandardFor(10_000, 0.01, h)
	if err != nil {
		panic(err)
	}
	f.Add([]byte("user-chosen key"))
	fmt.Println(f.Contains([]byte("user-chosen key")))
	fmt.Println(h) // the key is never printed

	data, _ := f.MarshalBinary() // holds the key: keep it secret
	g, err := variants.Unmarshal(data)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Contains([]byte("user-chosen key")), g.Hashing() == h)
	// Output:
	// true
	// {siphash enhanced-double 0 HashKey(secret)}
	// true true
}
