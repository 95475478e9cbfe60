// Command bloom works on Bloom filters saved as files: it builds a filter
// from a file of keys, adds keys to a saved filter, queries keys against
// it, prints what a saved filter is, and combines two filters.
//
// Usage:
//
//	bloom build -variant V [-n N -p P | -m M -k K] [flags] [-keys FILE|-] -out FILTER
//	bloom add FILTER [-keys FILE|-]
//	bloom query FILTER [-keys FILE|-] [-count] [KEY...]
//	bloom info FILTER [-json]
//	bloom union A B -out C
//	bloom intersect A B -out C
//
// Keys are lines: one key a line, at most 64 KiB each, a trailing "\r"
// dropped and empty lines skipped, read from a regular file (-keys FILE) or
// standard input (-keys -, the default when no key is given). They are
// streamed: memory is the filter plus a bounded buffer, whatever the number
// of keys.
//
// For example:
//
//	bloom build -variant standard -n 1M -p 1% -keys users.txt -out users.bloom
//	bloom build -variant blocked -m 16MiB -k 8 -out b.bloom < keys.txt
//	bloom build -variant scalable -p 1e-4 -hash siphash -keys keys.txt -out s.bloom
//	bloom add users.bloom -keys new-users.txt
//	bloom query users.bloom alice && echo maybe there
//	bloom query users.bloom -count -keys candidates.txt
//	bloom info users.bloom -json
//	bloom union monday.bloom tuesday.bloom -out week.bloom
//
// The sizing flags are those of bloomcalc (-n, -p, -m, -k, -block, -width,
// -r, -s, -n0), parsed the same way: -n 10M, -p '1 in 1000', -m 4MiB.
//
// Every filter file is written atomically: to a temporary file in the same
// directory, renamed into place once complete, so that an error or an
// interrupt (Ctrl-C) leaves the old file or none, never part of one. A
// filter with a keyed hash (-hash siphash) holds its secret key and is
// written with mode 0600, others with 0644 (add keeps a file's
// permissions, never wider than 0600 for a keyed filter); info prints the
// key as [redacted]. A filter file must be a regular file; the library
// checks its header against its length before it allocates the cells.
//
// Exit status: 0 on success; 2 for a mistake in the command line (a
// one-line message naming the flag, and a hint to -h); 1 for any other
// error (a file that cannot be read, a corrupt filter, an interrupt), with
// a one-line message "bloom: ...". Query with exactly one KEY argument
// follows grep: 0 if the key tests present, 1 if absent, 2 for any error,
// so that a missing filter is never read as an absent key.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// A read of a terminal or a pipe that blocks cannot be
		// interrupted: if run has not returned shortly after the signal,
		// remove the temporary files it may have begun and exit.
		<-ctx.Done()
		time.Sleep(time.Second)
		removeTemps()
		fmt.Fprintln(os.Stderr, "bloom: interrupted; no file written")
		os.Exit(1)
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode returns the exit status for run's error, printing it to stderr
// unless run already did (usage errors) or it is a silent status (query's
// "absent").
func exitCode(err error, stderr io.Writer) int {
	var u *usageError
	var s statusError
	var g *grepError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &u):
		return 2 // run printed it, with a hint to -h
	case errors.As(err, &s):
		return int(s)
	}
	fmt.Fprintln(stderr, "bloom:", plain(err.Error()))
	if errors.As(err, &g) {
		return 2
	}
	return 1
}
