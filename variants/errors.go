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

// trimPrefix returns the message of an error of package analysis without
// its package prefix and sentinel, to be wrapped in one of this package.
func trimPrefix(err error) string {
	msg := strings.TrimPrefix(err.Error(), "analysis: ")
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
