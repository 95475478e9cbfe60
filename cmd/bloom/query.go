package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"io"
	"strconv"

	"github.com/bloomlab/bloomlab/variants"
)

const queryUsage = `usage: bloom query FILTER [-keys FILE|-] [-count] [KEY...]

Tests keys against the saved filter: the KEY arguments, or the keys of FILE
(one a line), or of standard input if neither is given. Prints one line a
key, the key, a tab and "present" or "absent"; with -count only the number
of keys, present and absent. "present" means possibly present: a filter has
false positives, never false negatives.

With exactly one KEY argument the exit status says the answer, like grep's:
0 if present, 1 if absent, 2 for any error (a mistake in the command line,
a missing or corrupt filter). Put -- before a key that starts with '-'.

  bloom query users.bloom alice
  bloom query users.bloom -count -keys candidates.txt
  cut -f1 log.tsv | bloom query users.bloom | grep absent

Flags:
`

// runQuery is "bloom query". With one KEY argument its errors, other than
// the answer "absent", are *grepError (status 2).
func runQuery(ctx context.Context, args []string, stdout, _ io.Writer) error {
	err := query(ctx, args, stdout)
	var u *usageError
	var s statusError
	if err != nil && !errors.As(err, &u) && !errors.As(err, &s) && oneKey(args) {
		return &grepError{err}
	}
	return err
}

// oneKey reports whether a query's arguments are a filter and one key
// (flags aside), the form whose exit status says the answer.
func oneKey(args []string) bool {
	fs := newFlagSet("query")
	fs.String("keys", "-", "")
	fs.Bool("count", false, "")
	rest, err := parseArgs(fs, args, "", io.Discard)
	return err == nil && len(rest) == 2
}

// query is runQuery without the exit status of grep's errors.
func query(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlagSet("query")
	keysFlag := fs.String("keys", "-", "file of keys, one a line, or - for standard input")
	count := fs.Bool("count", false, "print only the counts of keys, present and absent")
	rest, err := parseArgs(fs, args, queryUsage, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("want a FILTER argument")
	}
	path, keys := rest[0], rest[1:]
	if len(keys) > 0 && visited(fs)["keys"] {
		return usagef("-keys: give keys as arguments or with -keys, not both")
	}
	var r io.Reader
	name := ""
	if len(keys) == 0 {
		var closeKeys func()
		if r, name, closeKeys, err = openKeys(*keysFlag); err != nil {
			return err
		}
		defer closeKeys()
	}
	f, err := loadFilter(path)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	var total, present uint64
	answers := make([]bool, batchKeys)
	b, batched := f.(variants.Batcher)
	test := func(keys [][]byte) error {
		ans := answers[:len(keys)]
		if batched {
			b.ContainsBatch(keys, ans)
		} else {
			for i, k := range keys {
				ans[i] = f.Contains(k)
			}
		}
		for i, k := range keys {
			total++
			if ans[i] {
				present++
			}
			if *count {
				continue
			}
			out.Write(k)
			if ans[i] {
				out.WriteString("\tpresent\n")
			} else {
				out.WriteString("\tabsent\n")
			}
		}
		return nil
	}
	if len(keys) > 0 {
		kb := make([][]byte, len(keys))
		for i, k := range keys {
			kb[i] = []byte(k)
		}
		for len(kb) > 0 {
			n := min(len(kb), batchKeys)
			if err := test(kb[:n]); err != nil {
				return err
			}
			kb = kb[n:]
		}
	} else if _, err := eachBatch(ctx, r, name, test); err != nil {
		return err
	}
	if *count {
		out.WriteString("keys\t" + strconv.FormatUint(total, 10) + "\n")
		out.WriteString("present\t" + strconv.FormatUint(present, 10) + "\n")
		out.WriteString("absent\t" + strconv.FormatUint(total-present, 10) + "\n")
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if len(keys) == 1 && present == 0 {
		return statusError(1)
	}
	return nil
}
