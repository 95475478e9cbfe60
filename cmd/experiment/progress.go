package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress draws a progress bar on stderr for runs longer than a couple of
// seconds, and only when stderr is a terminal.
type progress struct {
	w       io.Writer
	enabled bool

	mu      sync.Mutex
	label   string
	started time.Time
	drawn   time.Time
	shown   bool
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func newProgress(stderr io.Writer) *progress {
	return &progress{w: stderr, enabled: isTerminal(stderr)}
}

// delay is how long a run goes before the bar appears.
const delay = 2 * time.Second

// start begins a run called label and returns its progress callback, nil
// when no bar is drawn.
func (p *progress) start(label string) func(done, total int) {
	if !p.enabled {
		return nil
	}
	p.mu.Lock()
	p.label, p.started, p.shown = label, time.Now(), false
	p.mu.Unlock()
	return p.update
}

func (p *progress) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if now.Sub(p.started) < delay || now.Sub(p.drawn) < 100*time.Millisecond && done < total {
		return
	}
	const width = 30
	fill := width * done / max(total, 1)
	elapsed := now.Sub(p.started)
	eta := ""
	if done > 0 && done < total {
		left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
		eta = fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	fmt.Fprintf(p.w, "\r\033[K%s [%s%s] %d/%d%s", p.label, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), done, total, eta)
	p.drawn, p.shown = now, true
}

// stop erases the bar.
func (p *progress) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
