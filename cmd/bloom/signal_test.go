//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the command's main instead of the tests when
// BLOOM_RUN_MAIN is set, so that a test can run the command as a process
// (to send it a signal) without building it.
func TestMain(m *testing.M) {
	if os.Getenv("BLOOM_RUN_MAIN") == "1" {
		os.Args = append([]string{"bloom"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

// TestInterrupt sends SIGINT to a build that is blocked reading keys from
// a pipe that stays open, as a build reading a terminal is: it must exit
// with status 1 within a few seconds, say so in one line, and leave no
// file, neither the filter nor a temporary one.
func TestInterrupt(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "f.bloom")
	cmd := exec.Command(os.Args[0], "build", "-variant", "standard", "-n", "1k", "-p", "1%", "-out", out)
	cmd.Env = append(os.Environ(), "BLOOM_RUN_MAIN=1")
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Write([]byte("alice\nbob\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // let it start reading
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("bloom build did not exit within 10 s of SIGINT")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	if got := stderr.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "bloom: interrupted") {
		t.Errorf("stderr %q, want one line saying it was interrupted", got)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("the interrupted build left %q", names)
	}
}

// TestNotRegular checks that a named pipe or a device given as a filter or
// a key file is refused at once, without blocking on the pipe or reading
// the device.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	saved := filepath.Join(dir, "f.bloom")
	withStdin(t, "a\nb\n")
	if _, stderr, code := bloom(t, "build", "-variant", "standard", "-n", "9", "-p", "1%", "-out", saved); code != 0 {
		t.Fatal(stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"info", fifo}, fifo + " is a named pipe, not a regular file"},
		{[]string{"query", saved, "-keys", fifo}, "-keys: " + fifo + " is a named pipe, not a regular file"},
		{[]string{"add", saved, "-keys", "/dev/null"}, "-keys: /dev/null is a device, not a regular file"},
	} {
		if _, stderr, code := bloom(t, c.args...); code != 1 || stderr != "bloom: "+c.want+"\n" {
			t.Errorf("%q: status %d, %q; want 1 and %q", c.args, code, stderr, c.want)
		}
	}
}
