package variants_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bloomlab/bloomlab/variants"
)

// A filter whose keys come from people who may choose them: the keyed
// hash with a secret key from crypto/rand. The key never prints, under any
// fmt verb, in JSON or in a log. The saved filter carries the key, so it
// must be kept as secret as the key: written with mode 0600, readable by
// its owner only.
func ExampleNewKey() {
	h := variants.Hashing{Kind: variants.SipHash, Key: variants.NewKey()}
	f, err := variants.NewStandardFor(10_000, 0.01, h)
	if err != nil {
		panic(err)
	}
	f.Add([]byte("user-chosen key"))
	fmt.Println(f.Contains([]byte("user-chosen key")))
	fmt.Println(h)            // the key is never printed
	fmt.Printf("%x\n", h.Key) // not by any verb
	j, _ := json.Marshal(h)   // nor in JSON
	fmt.Println(string(j))

	data, err := f.MarshalBinary() // holds the key: keep it secret
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "bloomlab-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "keyed.bloom")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		panic(err)
	}

	saved, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	g, err := variants.Unmarshal(saved)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Contains([]byte("user-chosen key")), g.Hashing() == h)
	// Output:
	// true
	// {siphash enhanced-double 0 [redacted]}
	// [redacted]
	// {"Kind":3,"Derivation":0,"Seed":0,"Key":"[redacted]"}
	// true true
}
