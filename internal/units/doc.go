// Package units parses and prints the counts, rates and sizes of the commands' flags.
//
// # Contents
//
// Item counts with SI suffixes ([ParseCount]), false-positive rates as
// decimals, fractions, "1 in N" or percentages ([ParseProbability]),
// filter sizes in bits, bytes and their decimal and binary multiples
// ([ParseBits]), and sizes printed in binary byte units ([FormatBytes]).
//
// # Errors
//
// Every parse error wraps ErrInvalidParams and names what was being
// parsed, so that a command can prefix it with the flag.
//
// # Scope
//
// The package is internal: it serves the commands of this module and of
// the compare module, not the library's callers. It depends only on the
// standard library; its functions hold no state and are safe for
// concurrent use.
package units
