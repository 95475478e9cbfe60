package experiments_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bloomlab/bloomlab/experiments"
)

// TestKeysFromFIFO checks that a named pipe with no writer is refused at
// once, not waited on.
func TestKeysFromFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := experiments.KeysFromFile(context.Background(), path)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, experiments.ErrInvalidParams) || !strings.Contains(err.Error(), "is a named pipe (FIFO); want a regular file") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("a FIFO with no writer: no answer in a second")
	}
}
