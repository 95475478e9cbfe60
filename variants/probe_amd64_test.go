//go:build !purego

package variants

// vectorPath reports whether this build has a vector probe path to compare
// with the pure-Go one, and why not.
func vectorPath() (bool, string) {
	if !useAVX2 {
		return false, "the processor has no AVX2"
	}
	return true, ""
}

// withVector runs fn with the vector probes on or off, then restores the
// choice the processor made. The choice is a package variable: a test that
// calls withVector must not run in parallel with other tests.
func withVector(on bool, fn func()) {
	saved := Assembly()
	defer SetAssembly(saved)
	SetAssembly(saved && on)
	fn()
}
