package variants

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"log/slog"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// secretKey is a key of distinctive bytes, none repeated, so that any
// rendering of four consecutive ones is no accident.
var secretKey = HashKey{0xab, 0xcd, 0xef, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x21, 0x43, 0x65, 0x87, 0xa9}

// keyForms returns the forms in which the key's bytes could show in a
// rendering, ASCII lower-cased: every run of four consecutive bytes (and the
// same run reversed, as a little-endian integer prints it) written
// byte by byte in decimal, hex (with and without 0x), octal (with 0, 0o or
// no prefix), binary, as characters, as U+ code points and quoted, joined
// by nothing, spaces or commas; the run as raw bytes; the key's 32- and
// 64-bit little-endian words in decimal, hex, octal and binary; and every
// 8-character window of the key's standard and URL base64.
func keyForms() []string {
	var forms []string
	add := func(s string) { forms = append(forms, asciiLower(s)) }
	byteFormats := []string{"%d", "%x", "%02x", "%#x", "%o", "%#o", "%O", "%b", "%08b", "%c", "%U", "%q", "%#U"}
	seps := []string{"", " ", ",", ", "}
	for i := 0; i+4 <= len(secretKey); i++ {
		run := secretKey[i : i+4]
		rev := []byte{run[3], run[2], run[1], run[0]}
		for _, r := range [][]byte{run, rev} {
			add(string(r))
			add(strings.Trim(strconv.Quote(string(r)), `"`))
			for _, f := range byteFormats {
				parts := make([]string, len(r))
				for j, b := range r {
					parts[j] = fmt.Sprintf(f, b)
				}
				for _, sep := range seps {
					add(strings.Join(parts, sep))
				}
			}
		}
	}
	for _, w := range []uint64{binary.LittleEndian.Uint64(secretKey[:8]), binary.LittleEndian.Uint64(secretKey[8:])} {
		for _, f := range []string{"%d", "%x", "%o", "%b"} {
			add(fmt.Sprintf(f, w))
			add(fmt.Sprintf(f, uint32(w)))
			add(fmt.Sprintf(f, uint32(w>>32)))
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		s := enc.EncodeToString(secretKey[:])
		for i := 0; i+8 <= len(s)-2; i++ { // the last two characters are padding
			forms = append(forms, s[i:i+8]) // base64 is case-sensitive
		}
	}
	return forms
}

// leaks reports the forms of the key that s contains: the substrings of
// keyForms, and four consecutive numbers in s, in base 10, 16, 8 or 2
// (after dropping the prefixes 0x, 0o, 0b and U+ and the words that are
// no numbers), equal to four
// consecutive key bytes, whatever separates them ("%!t(uint8=171)
// %!t(uint8=205) ..." for instance).
func leaks(s string, forms []string) []string {
	var found []string
	low := asciiLower(s)
	for _, f := range forms {
		if strings.Contains(low, f) || strings.Contains(s, f) {
			found = append(found, f)
		}
	}
	stripped := strings.NewReplacer("0x", " ", "0o", " ", "0b", " ", "u+", " ").Replace(low)
	stripped = words.ReplaceAllString(stripped, " ")
	for base, re := range numberTokens {
		var vals []int64
		for _, tok := range re.FindAllString(stripped, -1) {
			v, err := strconv.ParseUint(tok, base, 8)
			if err != nil {
				vals = append(vals, -1)
				continue
			}
			vals = append(vals, int64(v))
		}
	search:
		for i := 0; i+4 <= len(vals); i++ {
			for j := 0; j+4 <= len(secretKey); j++ {
				if vals[i] == int64(secretKey[j]) && vals[i+1] == int64(secretKey[j+1]) && vals[i+2] == int64(secretKey[j+2]) && vals[i+3] == int64(secretKey[j+3]) {
					found = append(found, fmt.Sprintf("base-%d numbers %v", base, vals[i:i+4]))
					break search
				}
			}
		}
	}
	return found
}

// words finds the words that are no number in base 16 or less, such as
// uint8 in "%!t(uint8=171)", so that leaks can drop them.
var words = regexp.MustCompile(`[0-9a-z_]*[g-z_][0-9a-z_]*`)

// asciiLower lower-cases the ASCII letters of s and leaves every other
// byte as it is (strings.ToLower would turn invalid UTF-8 into U+FFFD).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// numberTokens finds the numbers of each base in a lower-cased rendering.
var numberTokens = map[int]*regexp.Regexp{
	10: regexp.MustCompile(`[0-9]+`),
	16: regexp.MustCompile(`[0-9a-f]+`),
	8:  regexp.MustCompile(`[0-7]+`),
	2:  regexp.MustCompile(`[01]+`),
}

// secretObjects returns everything that holds the key: the key, a
// Hashing, a keyed filter of every variant that takes a key (each with
// some keys added, so that growing filters have several stages), and the
// parameters structs, each as a value and as a pointer. RedisBloom takes
// no key (its hashing is Murmur64A), so it is not among them.
func secretObjects(t *testing.T) (objects []secretObject) {
	h := Hashing{Kind: SipHash, Key: secretKey}
	must := func(f any, err error) any {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for i := range 60 {
			f.(interface{ Add([]byte) }).Add([]byte(fmt.Sprint("item ", i)))
		}
		return f
	}
	filters := []struct {
		name string
		f    any
	}{
		{"Standard", must(NewStandard(Geometry{Bits: 256, Hashes: 3}, h))},
		{"Partitioned", must(NewPartitioned(Geometry{Bits: 256, Hashes: 3}, h))},
		{"Blocked", must(NewBlocked(BlockedParams{Geometry: Geometry{Bits: 512, Hashes: 3}, BlockBits: 64, Hashing: h}))},
		{"SplitBlock", must(NewSplitBlock(Geometry{Bits: 512, Hashes: 8}, h))},
		{"Counting", must(NewCounting(CountingParams{Geometry: Geometry{Bits: 64, Hashes: 3}, Width: 4, Hashing: h}))},
		{"ConcurrentStandard", must(NewConcurrentStandard(Geometry{Bits: 256, Hashes: 3}, h))},
		{"Scalable", must(NewScalable(ScalableParams{P: 0.1, N0: 16, Hashing: h}))},
		{"ScalableBlocked", must(NewScalable(ScalableParams{P: 0.1, N0: 16, Hashing: h, BlockBits: 64}))},
		{"Dynamic", must(NewDynamic(DynamicParams{N: 16, P: 0.1, Hashing: h}))},
		{"AgePartitioned", must(NewAgePartitionedFor(32, 0.1, AgePartitionedOptions{Hashing: h}))},
		{"AgePartitionedBlocked", must(NewAgePartitionedFor(32, 0.1, AgePartitionedOptions{Hashing: h, Blocked: true}))},
	}
	add := func(name string, v any, filter bool) {
		objects = append(objects, secretObject{name, v, filter})
		p := reflect.New(reflect.TypeOf(v))
		p.Elem().Set(reflect.ValueOf(v))
		objects = append(objects, secretObject{"*" + name, p.Interface(), filter})
	}
	for _, f := range filters {
		// The filter as a pointer and as a value (*f): fmt reaches the
		// value's unexported fields by reflection, calling no method.
		objects = append(objects, secretObject{"*" + f.name, f.f, true})
		objects = append(objects, secretObject{f.name, reflect.ValueOf(f.f).Elem().Interface(), true})
		if p, ok := f.f.(interface{ Params() ScalableParams }); ok {
			add(f.name+".Params()", p.Params(), false)
		}
		if p, ok := f.f.(interface{ Params() DynamicParams }); ok {
			add(f.name+".Params()", p.Params(), false)
		}
		if p, ok := f.f.(interface{ Params() AgePartitionedParams }); ok {
			add(f.name+".Params()", p.Params(), false)
		}
		add(f.name+".Hashing()", f.f.(interface{ Hashing() Hashing }).Hashing(), false)
	}
	add("HashKey", secretKey, false)
	add("Hashing", h, false)
	add("[]Hashing", []Hashing{h}, false)
	add("map[string]HashKey", map[string]HashKey{"k": secretKey}, false)
	add("ScalableParams", ScalableParams{P: 0.01, Hashing: h}, false)
	add("DynamicParams", DynamicParams{N: 10, P: 0.01, Hashing: h}, false)
	add("AgePartitionedOptions", AgePartitionedOptions{Hashing: h}, false)
	add("AgePartitionedParams", AgePartitionedParams{K: 3, L: 3, G: 10, SliceBits: 64, AgePartitionedOptions: AgePartitionedOptions{Hashing: h}}, false)
	add("BlockedParams", BlockedParams{Geometry: Geometry{Bits: 512, Hashes: 3}, Hashing: h}, false)
	add("CountingParams", CountingParams{Geometry: Geometry{Bits: 64, Hashes: 3}, Hashing: h}, false)
	return objects
}

type secretObject struct {
	name   string
	v      any
	filter bool // a filter, whose gob encoding is its MarshalBinary, which holds the key by design
}

// renderings returns every rendering of v: each fmt verb with the flags
// none, +, # and space; log/slog's text and JSON handlers; encoding/json;
// encoding/xml; encoding/gob (but for filters); and MarshalText where v
// has it. A failed encoding renders as its error message.
func renderings(o secretObject) map[string]string {
	r := map[string]string{}
	for _, verb := range "vsqxXdobcUOeEfFgGtTp" {
		for _, flag := range []string{"", "+", "#", " "} {
			format := "%" + flag + string(verb)
			r["fmt "+format] = fmt.Sprintf(format, o.v)
		}
	}
	r["fmt Sprint"] = fmt.Sprint(o.v)
	r["fmt Sprintln"] = fmt.Sprintln(o.v)
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("m", "v", o.v)
	r["slog text"] = buf.String()
	buf.Reset()
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("m", "v", o.v)
	r["slog JSON"] = buf.String()
	if j, err := json.Marshal(o.v); err != nil {
		r["json"] = err.Error()
	} else {
		r["json"] = string(j)
	}
	if x, err := xml.Marshal(o.v); err != nil {
		r["xml"] = err.Error()
	} else {
		r["xml"] = string(x)
	}
	if !o.filter {
		buf.Reset()
		if err := gob.NewEncoder(&buf).Encode(o.v); err != nil {
			r["gob"] = err.Error()
		} else {
			r["gob"] = buf.String()
		}
	}
	if m, ok := o.v.(encoding.TextMarshaler); ok {
		if b, err := m.MarshalText(); err != nil {
			r["MarshalText"] = err.Error()
		} else {
			r["MarshalText"] = string(b)
		}
	}
	return r
}

// TestSecretNeverPrints renders the key, a keyed Hashing, a keyed filter
// of every variant that takes a key and the parameters structs in every
// way the standard library renders values, and checks that no rendering
// holds the key's bytes in any form (see keyForms). Only MarshalBinary
// and what goes through it (WriteTo, the filters' gob encoding) saves the
// key, by design.
func TestSecretNeverPrints(t *testing.T) {
	forms := keyForms()
	// The forms are specific enough not to occur by chance: none is in the
	// renderings of the same objects under a different key.
	total, leaked, vetted := 0, 0, 0
	for _, o := range secretObjects(t) {
		for how, s := range renderings(o) {
			total++
			found := leaks(s, forms)
			if len(found) == 0 {
				continue
			}
			if pointerVerbOnValue(o, how) {
				// %p of a non-pointer: fmt prints the value as %v
				// without calling its methods, a misuse that go vet
				// reports. The HashKey doc says so.
				vetted++
				continue
			}
			leaked++
			if leaked <= 40 {
				t.Errorf("%s, %s: shows the key (%q): %.300q", o.name, how, found[0], s)
			}
		}
	}
	if leaked > 0 {
		t.Errorf("%d of %d renderings show the key", leaked, total)
	}
	t.Logf("%d renderings, %d show the key, and %d more are %%p of a value holding a HashKey (vet reports them)", total, leaked, vetted)
}

// pointerVerbOnValue reports whether rendering how of o is %p of a value
// that is neither a pointer nor a filter (which holds its key out of
// fmt's reach).
func pointerVerbOnValue(o secretObject, how string) bool {
	return strings.HasPrefix(how, "fmt %") && strings.HasSuffix(how, "p") && !o.filter && reflect.TypeOf(o.v).Kind() != reflect.Pointer
}

// TestSecretFormsFound checks the checker: each way of printing the raw
// key that the renderings could produce is caught.
func TestSecretFormsFound(t *testing.T) {
	forms := keyForms()
	raw := [16]byte(secretKey)
	badVerbs := []string{"%t", "%e"} // a bad verb prints the value with %v
	k0 := binary.LittleEndian.Uint64(raw[:8])
	for _, s := range []string{
		fmt.Sprintf("%v", raw), fmt.Sprintf("%x", raw), fmt.Sprintf("%X", raw[:]), fmt.Sprintf("%#v", raw),
		fmt.Sprintf("%o", raw), fmt.Sprintf("%#o", raw), fmt.Sprintf("%O", raw), fmt.Sprintf("%b", raw),
		fmt.Sprintf("%c", raw), fmt.Sprintf("%U", raw), fmt.Sprintf("%q", raw), string(raw[:]),
		fmt.Sprintf("% x", raw[:]), fmt.Sprintf("%#x", raw[:]), fmt.Sprintf("%d", k0), fmt.Sprintf("%x", k0),
		fmt.Sprintf("%o", k0), fmt.Sprintf("%b", k0), fmt.Sprintf(badVerbs[0], raw), fmt.Sprintf(badVerbs[1], raw),
		fmt.Sprintf("%v", struct{ a, b uint64 }{k0, 1}), fmt.Sprintf("%#v", raw[4:12]),
		base64.StdEncoding.EncodeToString(raw[:]), base64.URLEncoding.EncodeToString(raw[:]),
		string(raw[:]), mustJSON(t, raw), mustJSON(t, raw[:]),
	} {
		if len(leaks(s, forms)) == 0 {
			t.Errorf("%q shows the key but is not caught", s)
		}
	}
	// No false alarms: another key rendered in every way, and a filter
	// with many keys added, show none of the forms.
	other := [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	f, _ := NewStandard(Geometry{Bits: 4096, Hashes: 3}, Hashing{})
	for i := range 1000 {
		f.Add([]byte(fmt.Sprint(i)))
	}
	for _, o := range []secretObject{{"other key", other, false}, {"filter", f, true}} {
		for how, s := range renderings(o) {
			if found := leaks(s, forms); len(found) > 0 {
				t.Errorf("%s, %s: false alarm %q", o.name, how, found)
			}
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
