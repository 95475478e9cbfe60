package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// The bounds of a key stream: a key is one line of at most maxLineLen
// bytes; keys are handed over in batches of at most batchKeys keys and
// batchBytes bytes, the only buffer besides the reader's.
const (
	maxLineLen = 1 << 16
	batchKeys  = 1024
	batchBytes = 256 << 10
	readBuffer = 256 << 10
)

// stdin is where "-keys -" reads; tests replace it.
var stdin io.Reader = os.Stdin

// openKeys opens the key source of -keys: "-" is standard input, anything
// else the path of a regular file (a directory, a device or a named pipe
// is refused before anything is read; standard input may be a pipe or a
// terminal, and is streamed like a file). The name is for messages.
func openKeys(path string) (r io.Reader, name string, closer func(), err error) {
	if path == "-" {
		return stdin, "standard input", func() {}, nil
	}
	f, err := openRegular(path, "-keys: ")
	if err != nil {
		return nil, "", nil, err
	}
	return f, path, func() { f.Close() }, nil
}

// eachBatch reads keys from r, one a line (a trailing "\r" dropped, empty
// lines skipped), and calls fn with each batch of at most batchKeys keys;
// the keys' bytes are valid only during the call. It streams: its memory is
// the read buffer and one batch, whatever the length of r. It checks ctx
// before every batch, and returns the number of keys read. A line longer
// than maxLineLen bytes is an error naming its line number.
func eachBatch(ctx context.Context, r io.Reader, name string, fn func(keys [][]byte) error) (uint64, error) {
	br := bufio.NewReaderSize(r, readBuffer)
	arena := make([]byte, 0, batchBytes)
	keys := make([][]byte, 0, batchKeys)
	var total uint64
	var lineNo int64
	flush := func() error {
		if len(keys) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted while reading keys from %s", name)
		}
		if err := fn(keys); err != nil {
			return err
		}
		total += uint64(len(keys))
		keys, arena = keys[:0], arena[:0]
		return nil
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("interrupted before reading keys from %s", name)
	}
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			lineNo++
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return total, fmt.Errorf("-keys: %s: line %d is longer than %d bytes, the longest key allowed", name, lineNo, maxLineLen)
		}
		if err != nil && err != io.EOF {
			if ctx.Err() != nil {
				return total, fmt.Errorf("interrupted while reading keys from %s", name)
			}
			return total, fmt.Errorf("-keys: %s: %w", name, err)
		}
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > maxLineLen {
			return total, fmt.Errorf("-keys: %s: line %d is %d bytes long, longer than %d, the longest key allowed", name, lineNo, len(line), maxLineLen)
		}
		if len(line) > 0 {
			if len(keys) == batchKeys || len(arena)+len(line) > cap(arena) {
				if ferr := flush(); ferr != nil {
					return total, ferr
				}
			}
			start := len(arena)
			arena = append(arena, line...)
			keys = append(keys, arena[start:len(arena):len(arena)])
		}
		if err == io.EOF {
			return total, flush()
		}
	}
}
