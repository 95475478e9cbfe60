package variants

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bloomlab/bloomlab/analysis"
)

// Errors wrapped by the errors this package returns.
var (
	// ErrInvalidParams reports a parameter outside its domain. It is
	// [analysis.ErrInvalidParams], the same value (as is
	// experiments.ErrInvalidParams), so that errors.Is(err,
	// analysis.ErrInvalidParams) holds for a parameter error of any of
	// the three packages.
	ErrInvalidParams = analysis.ErrInvalidParams
	// ErrCorrupt reports input that does not decode to a valid filter.
	ErrCorrupt = errors.New("corrupt filter data")
	// ErrIncompatible reports filters that cannot be combined.
	ErrIncompatible = errors.New("incompatible filters")
)

// trimPrefix returns the message of an error of package analysis (or of
// this package) without its package prefix and the ErrInvalidParams
// sentinel, to be wrapped in another error of this package.
func trimPrefix(err error) string {
	msg := strings.TrimPrefix(err.Error(), "variants: ")
	msg = strings.TrimPrefix(msg, "analysis: ")
	return strings.TrimPrefix(msg, ErrInvalidParams.Error()+": ")
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("variants: %w: "+format, append([]any{ErrInvalidParams}, args...)...)
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("variants: %w: "+format, append([]any{ErrCorrupt}, args...)...)
}

// corruptParams turns a constructor's validation error into a decoding
// error.
func corruptParams(err error) error {
	return corrupt("%s", strings.TrimPrefix(err.Error(), "variants: "))
}

func incompatible(format string, args ...any) error {
	return fmt.Errorf("variants: %w: "+format, append([]any{ErrIncompatible}, args...)...)
}

// Errors of the memory limit and of growth.
var (
	// ErrMemoryLimit reports a filter that would hold more memory than its
	// limit allows: [MemoryLimit], or the MaxBytes of its parameters. A
	// constructor's or decoder's error wraps it together with
	// [ErrInvalidParams]; TryAdd's (see [Grower]), MarshalBinary's and
	// Err's wrap it alone.
	ErrMemoryLimit = errors.New("memory limit exceeded")
	// ErrStageLimit reports a growing filter that cannot add another stage
	// because it has all the stages its rules allow ([analysis.MaxStages],
	// [analysis.MaxDynamicStages]) or because the next stage would exceed
	// [MaxBits] or [MaxHashes].
	ErrStageLimit = errors.New("no further stage can be added")
)
