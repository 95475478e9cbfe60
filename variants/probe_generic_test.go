//go:build !amd64 || purego

package variants

// vectorPath reports that this build has no vector probe path to compare
// with the pure-Go one.
func vectorPath() (bool, string) {
	return false, "this build has no assembly (another architecture, or the purego tag)"
}

// withVector runs fn; the pure-Go probes are the only ones of this build.
func withVector(on bool, fn func()) { fn() }
