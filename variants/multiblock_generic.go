//go:build !amd64 || purego

package variants

// vectorTest reports whether test takes a vector probe: never in this
// build (another architecture or the purego tag), where the pure-Go
// probes of multiblock.go serve every layout.
func (f *Multiblock) vectorTest() bool { return false }

// vectorSet reports whether set takes a vector probe: never in this
// build.
func (f *Multiblock) vectorSet() bool { return false }

// testVec is never called in this build (vectorTest is false).
func (f *Multiblock) testVec(b, h2 uint64) bool { panic("variants: no vector probe in this build") }

// setVec is never called in this build (vectorSet is false).
func (f *Multiblock) setVec(b, h2 uint64) { panic("variants: no vector probe in this build") }
