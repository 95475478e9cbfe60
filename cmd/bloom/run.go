package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bloomlab/bloomlab/variants"
)

// usageError is a mistake in the command line: run prints it with a hint,
// and main exits with status 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return plain(e.err.Error()) }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// statusError is an exit status without a message: query's 1 for a single
// key that tests absent.
type statusError int

func (e statusError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// grepError is an error of query with a single KEY argument, whose status 1
// means "absent": main prints it and exits with status 2, as grep does, so
// that a missing or corrupt filter is never taken for an absent key.
type grepError struct{ err error }

func (e *grepError) Error() string { return e.err.Error() }
func (e *grepError) Unwrap() error { return e.err }

// plain removes from a message the package prefixes and sentinel words of
// the errors it wraps ("variants: invalid parameters: "), so that the
// command's prefix and the flag come first, once.
func plain(msg string) string {
	for _, w := range []string{"analysis: ", "units: ", "variants: ", "experiments: ", "invalid parameters: "} {
		msg = strings.ReplaceAll(msg, w, "")
	}
	return msg
}

const usageText = `usage: bloom <command> [flags] [arguments]

Filters as files: build one from a file of keys (one key a line), add keys
to it, query keys against it, print what it is, combine two.

  bloom build -variant V [-n N -p P | -m M -k K] [-keys FILE|-] -out FILTER
  bloom add FILTER [-keys FILE|-]
  bloom query FILTER [-keys FILE|-] [-count] [KEY...]
  bloom info FILTER [-json]
  bloom union A B -out C
  bloom intersect A B -out C

Run 'bloom <command> -h' for a command's flags. Keys are read from standard
input when neither -keys nor KEY arguments are given. Exit status: 0; 2 for
a mistake in the command line; 1 for any other error. Query with one KEY
is grep's: 0 if present, 1 if absent, 2 for any error.
`

// hint follows every command-line error, in place of the usage text.
func hint(cmd string) string {
	if cmd == "" {
		return "run 'bloom -h' for the commands"
	}
	return fmt.Sprintf("run 'bloom %s -h' for its flags", cmd)
}

// commands maps each command's name to its function. Each takes the
// arguments after its name.
var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) error{
	"build": runBuild,
	"add":   runAdd,
	"query": runQuery,
	"info":  runInfo,
	"union": func(ctx context.Context, args []string, o, e io.Writer) error {
		return runSetOp(ctx, "union", args, o, e)
	},
	"intersect": func(ctx context.Context, args []string, o, e io.Writer) error {
		return runSetOp(ctx, "intersect", args, o, e)
	},
}

// run is the whole command: main only calls it, with the arguments after
// the program name. A usage error (*usageError) has been printed to
// stderr with a hint when run returns it; other errors are for main to
// print. ctx stops reading keys and writing files: a cancelled run leaves
// no file behind.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	cmd := ""
	defer func() {
		var u *usageError
		if errors.As(err, &u) {
			fmt.Fprintf(stderr, "bloom: %v\n%s\n", err, hint(cmd))
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		return &usageError{errors.New("no command given; want build, add, query, info, union or intersect")}
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usageText)
		return nil
	}
	f, ok := commands[args[0]]
	if !ok {
		return usagef("unknown command %q; want build, add, query, info, union or intersect", args[0])
	}
	cmd = args[0]
	return f(ctx, args[1:], stdout, stderr)
}

// newFlagSet returns a silent flag set for the command name: the commands
// print errors and usage themselves.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("bloom "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseArgs parses args with fs, flags and arguments in any order (bloom
// query F -count KEY), and returns the arguments. After "--" everything is
// an argument, so that a key may start with '-'. -h prints the usage text
// and flag defaults to stdout and returns flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, args []string, usage string, stdout io.Writer) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdout, usage)
				fs.SetOutput(stdout)
				fs.PrintDefaults()
				fs.SetOutput(io.Discard)
				return nil, err
			}
			return nil, &usageError{flagError(err)}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// flag stops at the first argument, or after "--": then all the
		// rest are arguments.
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagError rewords the flag package's errors to begin with the flag, as
// the other commands do.
func flagError(err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return fmt.Errorf("%s: no such flag", name)
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if val, after, ok := strings.Cut(rest, " for flag "); ok {
			name, why, _ := strings.Cut(after, ": ")
			return fmt.Errorf("%s: %s is not valid (%s)", name, val, why)
		}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return fmt.Errorf("%s: needs a value", name)
	}
	return err
}

// visited returns the names of the flags set on the command line.
func visited(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// loadFilter reads the filter saved at path, which must be a regular
// file. The library checks the header's sizes against the file's length
// before it allocates the cells, so a corrupt or hostile file costs no
// more memory than its size.
func loadFilter(path string) (variants.Filter, error) {
	f, err := openRegular(path, "")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The *os.File itself, not a buffered reader: the decoder then knows
	// the length and allocates the cells once.
	flt, err := variants.ReadFilter(f)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty file, not a saved filter", path)
		}
		return nil, fmt.Errorf("%s: not a valid filter file: %w", path, err)
	}
	// ReadFilter reads one filter and nothing after it: bytes after it
	// mean the file is not what it claims.
	var one [1]byte
	if n, _ := f.Read(one[:]); n > 0 {
		return nil, fmt.Errorf("%s: not a valid filter file: bytes follow the filter", path)
	}
	return flt, nil
}

// openRegular opens path for reading and refuses anything but a regular
// file (a directory, a device, a named pipe), checked on the opened file.
// Its errors begin with prefix ("-keys: ", or "" for a filter file).
func openRegular(path, prefix string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("%s%w", prefix, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s%w", prefix, err)
	}
	if mode := fi.Mode(); !mode.IsRegular() {
		f.Close()
		what := "not a regular file"
		switch {
		case mode.IsDir():
			what = "a directory, not a regular file"
		case mode&os.ModeNamedPipe != 0:
			what = "a named pipe, not a regular file"
		case mode&os.ModeDevice != 0:
			what = "a device, not a regular file"
		}
		return nil, fmt.Errorf("%s%s is %s", prefix, path, what)
	}
	return f, nil
}

// keyed reports whether f hashes with a secret key, whose saved form must
// be readable by its owner only.
func keyed(f variants.Filter) bool { return f.Hashing().Kind == variants.SipHash }

// temps are the temporary files being written, which main removes if it
// must exit while run is blocked.
var temps struct {
	sync.Mutex
	paths map[string]bool
}

func addTemp(path string) {
	temps.Lock()
	defer temps.Unlock()
	if temps.paths == nil {
		temps.paths = map[string]bool{}
	}
	temps.paths[path] = true
}

func dropTemp(path string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.paths, path)
}

// removeTemps removes every temporary file still being written.
func removeTemps() {
	temps.Lock()
	defer temps.Unlock()
	for p := range temps.paths {
		os.Remove(p)
	}
}

// ctxWriter fails a write once ctx is done, so that an interrupt stops
// writing a large filter between chunks.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// writeFilter saves f at path atomically with mode 0644, or 0600 if f is
// keyed (see writeFilterMode).
func writeFilter(ctx context.Context, path string, f variants.Filter) error {
	mode := os.FileMode(0o644)
	if keyed(f) {
		mode = 0o600
	}
	return writeFilterMode(ctx, path, f, mode)
}

// writeFilterMode saves f at path atomically: it streams the encoding into
// a temporary file in path's directory (f.WriteTo writes the cells in
// chunks, so no second copy of the filter is made), gives it mode (set
// before any byte is written), syncs and closes it, and renames it to
// path. On any error, or if ctx is done first, the temporary file is
// removed and path is left as it was.
func writeFilterMode(ctx context.Context, path string, f variants.Filter, mode os.FileMode) (err error) {
	wt, ok := f.(io.WriterTo)
	if !ok {
		return fmt.Errorf("%s: a %s filter cannot be saved", path, f.Stats().Variant)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("-out: %w", err)
	}
	name := tmp.Name()
	addTemp(name)
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
		dropTemp(name)
	}()
	// CreateTemp makes the file 0600; the mode is set before any byte of
	// a keyed filter is written.
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if _, err := wt.WriteTo(ctxWriter{ctx, tmp}); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while writing %s; nothing written", path)
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("interrupted while writing %s; nothing written", path)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
