package main

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestKeysFIFO checks that -keys refuses a named pipe with no writer at
// once instead of waiting for one.
func TestKeysFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	refusedKeys(t, path, "is a named pipe (FIFO); want a regular file")
}
