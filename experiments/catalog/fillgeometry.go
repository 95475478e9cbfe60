package catalog

import (
	"slices"
	"strings"

	"github.com/bloomlab/bloomlab/experiments"
	"github.com/bloomlab/bloomlab/variants"
)

// HashNames are the hash kinds [experiments.Params.Hash] takes (the
// names of [variants.HashKind]): xxh64 and xxh3-64, the 64-bit kinds, for
// the split-block variant only, and murmur64a, RedisBloom's, for none of
// the catalogue's variants.
var HashNames = []string{"xxh3", "metro", "siphash", "xxh64", "xxh3-64"}

// DerivationNames are the index derivations [experiments.Params.Derivation]
// takes: enhanced double hashing (the default; "enhanced-double" is
// accepted too), plain double hashing, triple hashing and independent
// seeded hashes (see [variants.Derivation]).
var DerivationNames = []string{"enhanced", "double", "triple", "independent"}

// GeometryVariants are the variants whose fill runs take a geometry
// (M, K) and a derivation; split-block takes M and Hash only (k is
// always 8, and it derives its bits from the digest), scalable none.
var GeometryVariants = []string{"standard", "partitioned", "counting", "blocked"}

// hashingOf returns the hashing of p's Hash and Derivation for variant:
// an error naming the parameter for a name it does not know or a
// combination variant does not take.
func hashingOf(variant string, p experiments.Params) (variants.Hashing, error) {
	var h variants.Hashing
	switch p.Hash {
	case "", "xxh3":
	case "metro":
		h.Kind = variants.Metro
	case "siphash":
		h.Kind = variants.SipHash // experiments.SeedHashing draws each filter's key
	case "xxh64":
		if variant != "split-block" {
			return h, paramError("hash", "xxh64 gives a 64-bit digest, which only split-block takes, not %s; want xxh3, metro or siphash", variant)
		}
		h.Kind = variants.XXH64
	case "xxh3-64":
		if variant != "split-block" {
			return h, paramError("hash", "xxh3-64 gives a 64-bit digest, which only split-block takes, not %s; want xxh3, metro or siphash", variant)
		}
		h.Kind = variants.XXH3_64
	default:
		return h, paramError("hash", "unknown hash %q, want %s", p.Hash, strings.Join(HashNames, ", "))
	}
	switch p.Derivation {
	case "", "enhanced", "enhanced-double":
	case "double":
		h.Derivation = variants.Double
	case "triple":
		h.Derivation = variants.Triple
	case "independent":
		h.Derivation = variants.Independent
	default:
		return h, paramError("derivation", "unknown derivation %q, want %s", p.Derivation, strings.Join(DerivationNames, ", "))
	}
	if h.Derivation != variants.EnhancedDouble && (variant == "split-block" || variant == "blocked" || strings.HasPrefix(variant, "blocked-")) {
		return h, paramError("derivation", "%s: %s derives its bits from the digest's bits and takes only enhanced", p.Derivation, variant)
	}
	return h, nil
}

// fillBuilder returns the builder of a fill run's fixed-size filters:
// sized for N at P, or with p's M bits (counters) and K hashes where they
// are set; a missing K is the k that minimises the rate of M bits holding
// N items (for blocked filters, the exact blocked rate), a missing M the
// size for N at P.
func fillBuilder(variant string, p experiments.Params) (builder, error) {
	b, err := sized(variant, p.N, p.P, 0)
	if err != nil {
		return nil, err
	}
	if p.M == 0 && p.K == 0 {
		return b, nil
	}
	if variant == "split-block" && p.K != 0 {
		return nil, paramError("k", "%d: a split-block filter always sets 8 bits, one per word of its block", p.K)
	}
	if !slices.Contains(GeometryVariants, variant) && variant != "split-block" {
		return nil, paramError("m", "the fill experiment takes a geometry for %s, not %s", strings.Join(GeometryVariants, ", "), variant)
	}
	m := p.M
	if m == 0 {
		st, err := probe(b)
		if err != nil {
			return nil, paramError("n", "%v", err)
		}
		m = st.Cells
	}
	if m < 8 || m > maxGeometryBits {
		return nil, paramError("m", "%d bits, want 8 <= m <= 2^36", m)
	}
	m, k, err := blockingGeometry(variant, m, p.N)
	if err != nil {
		return nil, paramError("m", "%v", err)
	}
	if p.K != 0 {
		k = p.K
	}
	if k < 1 || k > 64 {
		return nil, paramError("k", "%d, want 1 <= k <= 64", k)
	}
	if variant == "partitioned" && uint64(k) > m {
		return nil, paramError("k", "%d hashes for %d bits: a partitioned filter needs a slice of at least one bit per hash", k, m)
	}
	if _, ok := blockSize(variant); ok {
		bb, _ := blockSize(variant)
		if k > bb {
			return nil, paramError("k", "%d hashes in a block of %d bits, want at most %d", k, bb, bb)
		}
	}
	return geometry(variant, m, k)
}

// maxGeometryBits is the largest M a fill run takes: 2^36 bits (8 GiB
// per filter), the limit of the sweeps' Bits.
const maxGeometryBits = 1 << 36

// derivationWords says what the theory of a fill run assumes of the
// hashing h: nothing for the default, else that it is the rate of
// independent positions, which the derivation may not reach.
func derivationWords(h variants.Hashing) string {
	switch h.Derivation {
	case variants.Double:
		return "; the derivation is plain double hashing, which no theory here models (analysis.DoubleHashing is modular double hashing over power-of-two tables, not bloomlab's multiply-shift reduction): the theory is that of independent positions, and the measured excess over it is the derivation's cost"
	case variants.Triple:
		return "; the derivation is triple hashing, which no theory here models: the theory is that of independent positions"
	case variants.Independent:
		return "; the derivation is k independent seeded hashes, which the theory of independent positions models"
	}
	return ""
}

// hashingNote says, for a run of hashes or small-m whose Hash or
// Derivation is set, which hashing the filters use and what the theory
// assumes of it; "" for the default hashing.
func hashingNote(p experiments.Params) string {
	if p.Hash == "" && p.Derivation == "" {
		return ""
	}
	h, err := hashingOf("standard", p)
	if err != nil {
		return ""
	}
	words := strings.TrimPrefix(derivationWords(h), "; ")
	if words == "" {
		return "hashing " + hashingName(h)
	}
	return "hashing " + hashingName(h) + ": " + words
}

// geometryParam names the parameter a constructor's error on a fill run's
// geometry is about: m or k where given, else n.
func geometryParam(p experiments.Params) string {
	switch {
	case p.K != 0 && p.M == 0:
		return "k"
	case p.M != 0:
		return "m"
	}
	return "n"
}
