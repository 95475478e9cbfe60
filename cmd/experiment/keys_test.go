package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKeysFlag checks -keys: a named source and a key file reach the
// results (Params.KeySource) and the names of the files written, an
// unknown source, an experiment that draws
// its own keys and a file too small for the run are usage errors that
// write nothing.
func TestKeysFlag(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys.txt")
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "id-%d\n", i)
	}
	if err := os.WriteFile(keys, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for src, file := range map[string]string{"sequential": "fill-standard-keys-sequential.json", "file:" + keys: "fill-standard-keys-file-keys.json"} {
		out := filepath.Join(dir, "out-"+strings.ReplaceAll(filepath.Base(src), ":", "-"))
		args := append([]string{"-exp", "fill", "-variant", "standard", "-keys", src, "-out", out, "-format", "json"}, small...)
		if _, errOut, err := runArgs(t, args...); err != nil {
			t.Fatalf("-keys %s: %v\n%s", src, err, errOut)
		}
		data, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Params struct {
				KeySource string `json:"key_source"`
			} `json:"params"`
		}
		if err := json.Unmarshal(data, &res); err != nil || res.Params.KeySource != src {
			t.Errorf("-keys %s: results record %q, %v", src, res.Params.KeySource, err)
		}
	}
	for _, c := range [][]string{
		{"-keys", "gaussian"},
		{"-exp", "counting", "-keys", "url"},
		{"-exp", "fill", "-variant", "standard", "-n", "2000", "-keys", "file:" + keys},
	} {
		out := filepath.Join(dir, "bad")
		_, errOut, err := runArgs(t, append(c, "-out", out)...)
		var u *usageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "-keys") || !strings.Contains(errOut, "experiment -h") || len(entries(t, out)) != 0 {
			t.Errorf("%v: err %v", c, err)
		}
	}
}

// refusedKeys checks that -keys file:path ends within a second with a
// usage error (exit status 2) that names the file and says want, and
// writes nothing.
func refusedKeys(t *testing.T, path, want string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	type result struct {
		errOut string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		args := append([]string{"-exp", "fill", "-variant", "standard", "-keys", "file:" + path, "-out", out}, small...)
		_, errOut, err := runArgs(t, args...)
		done <- result{errOut, err}
	}()
	select {
	case r := <-done:
		var u *usageError
		if !errors.As(r.err, &u) || !strings.Contains(r.err.Error(), "-keys: file:"+path+" "+want) || !strings.Contains(r.errOut, "experiment -h") || len(entries(t, out)) != 0 {
			t.Errorf("-keys file:%s: %v", path, r.err)
		}
	case <-time.After(time.Second):
		t.Fatalf("-keys file:%s: no answer in a second", path)
	}
}

// TestKeysNotRegular checks that -keys refuses a device and a directory
// at once.
func TestKeysNotRegular(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		refusedKeys(t, "/dev/zero", "is a device; want a regular file of at most 4294967296 bytes")
	}
	refusedKeys(t, t.TempDir(), "is a directory; want a regular file")
}
