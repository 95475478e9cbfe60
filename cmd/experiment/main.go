// Command experiment runs bloomlab's named experiments: it measures the
// false-positive rate (or memory, or speed) of the Bloom filter variants,
// sets the measurements beside the theory, prints a table and writes the
// results as CSV and JSON and the figure as PNG (and SVG).
//
// The main job, the scalable filter growing from 1000 to a million items
// against its target rate:
//
//	go run ./cmd/experiment -variant scalable
//
// Every figure of the README:
//
//	go run ./cmd/experiment -exp all -out plots/figures -format png,json
//	go test ./experiments/catalog -run TestCommittedFigures -update
//
// Run with -h for the flags and -list for the experiments.
//
// Exit status: 0 on success; 2 for a mistake in the command line, with one
// line naming the flag and a hint to -h (an unknown flag or value, a flag
// the experiment does not use, a -merge set with a shard missing, repeated
// or from another run); 1 for a failure while running, with one line
// "experiment: ...": an -out that cannot be created or written, a full
// disk, an interrupt (Ctrl-C or SIGTERM), a false negative.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// A closed standard output (experiment ... | head) makes writes to it
	// fail instead of ending the process, so that the run still writes
	// its files: the table is a view of them.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		var u *usageError
		if errors.As(err, &u) {
			os.Exit(2) // run printed it, with a hint to -h
		}
		fmt.Fprintln(os.Stderr, "experiment:", plain(err.Error())) // one prefix
		os.Exit(1)
	}
}
