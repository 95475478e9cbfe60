package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// blocked is the name of the blocked variant in the page's form and on
// bloomcalc's command line.
const blocked = "blocked"

// chromium returns the path of a Chromium the browser test can drive, or
// "" if there is none.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// buildBloomcalc builds the bloomcalc command of this repository (the
// package in the parent directory, in the root module) into a temporary
// directory and returns the binary's path.
func buildBloomcalc(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go") // go test puts its own GOROOT/bin first on PATH
	if err != nil {
		t.Fatalf("no go command to build bloomcalc with: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "bloomcalc")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	cmd.Dir = ".." // cmd/bloomcalc, in the root module
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build of cmd/bloomcalc: %v\n%s", err, out)
	}
	return bin
}

// startServer starts bin -http 127.0.0.1:0, as a user starts the page,
// and returns the page's base URL (no trailing slash), read from the line
// bloomcalc prints when it serves. The server is interrupted, as with
// Ctrl-C, when the test ends.
func startServer(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting bloomcalc -http: %v", err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("bloomcalc -http after an interrupt: %v", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Errorf("bloomcalc -http still running 10 s after an interrupt")
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		first := true
		for sc.Scan() { // read to the end, so that the server never blocks on stderr
			if first {
				lines <- sc.Text()
				first = false
			}
		}
		if first {
			close(lines)
		}
		exited <- cmd.Wait()
	}()
	const prefix = "bloomcalc: serving on "
	select {
	case line, ok := <-lines:
		if !ok || !strings.HasPrefix(line, prefix) {
			t.Fatalf("bloomcalc -http 127.0.0.1:0 printed %q, want %q and its address", line, prefix)
		}
		return strings.TrimSuffix(strings.TrimPrefix(line, prefix), "/")
	case <-time.After(30 * time.Second):
		t.Fatal("bloomcalc -http 127.0.0.1:0 printed no address within 30 s")
	}
	return ""
}

// group writes a whole number with thousands separators, as the page
// shows it: "9585059" is "9,585,059".
func group(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// consoleDone is the text of the console message that ends a console
// collector's reading.
const consoleDone = "bloomcalc browser test: done"

// collectConsole starts reading the console of the tab of ctx (the calls
// of the console API, the exceptions and the browser's log, where a
// Content-Security-Policy violation is reported) and returns a function
// that writes consoleDone to that console and returns every message read
// before it.
func collectConsole(t *testing.T, ctx context.Context) func() []chromedp.ConsoleMessage {
	t.Helper()
	messages := chromedp.Console(ctx) // subscribes now, before the tab loads anything
	var (
		mu  sync.Mutex
		got []chromedp.ConsoleMessage
	)
	done := make(chan error, 1)
	go func() {
		for m, err := range messages {
			if err != nil {
				done <- err
				return
			}
			if m.Text == consoleDone {
				done <- nil
				return
			}
			mu.Lock()
			got = append(got, m)
			mu.Unlock()
		}
		done <- errors.New("the console ended")
	}()
	return func() []chromedp.ConsoleMessage {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`console.log("`+consoleDone+`"), true`)); err != nil {
			t.Fatalf("writing to the console: %v", err)
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("reading the console: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the console's last message did not arrive within 10 s")
		}
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

// checkConsole fails the test if a message of msgs reports a
// Content-Security-Policy violation, or an exception of the page's script,
// showing the first few, and logs the others.
func checkConsole(t *testing.T, tab string, msgs []chromedp.ConsoleMessage) {
	t.Helper()
	const shown = 5
	bad := 0
	for _, m := range msgs {
		switch {
		case strings.Contains(m.Text, "Content Security Policy") || strings.Contains(m.Text, "Content-Security-Policy") || m.IsException():
			if bad++; bad <= shown {
				t.Errorf("%s: the page broke its Content-Security-Policy or its script threw: %s", tab, m)
			}
		default:
			t.Logf("%s: console: %s", tab, m)
		}
	}
	if bad > shown {
		t.Errorf("%s: and %d more such messages", tab, bad-shown)
	}
}

// checkPolicy checks the Content-Security-Policy of a response of the
// page, as the browser received it: no 'unsafe-inline' (or other source
// than 'self') for scripts, and frame-ancestors 'none'.
func checkPolicy(t *testing.T, headers map[string]any) {
	t.Helper()
	var policy string
	for name, v := range headers {
		if strings.EqualFold(name, "Content-Security-Policy") {
			policy, _ = v.(string)
		}
	}
	dirs := map[string]string{}
	for d := range strings.SplitSeq(policy, ";") {
		if f := strings.Fields(d); len(f) > 0 {
			dirs[strings.ToLower(f[0])] = strings.Join(f[1:], " ")
		}
	}
	if dirs["script-src"] != "'self'" || strings.Contains(dirs["script-src"], "unsafe") {
		t.Errorf("the page's Content-Security-Policy %q has script-src %q, want 'self' alone", policy, dirs["script-src"])
	}
	if dirs["frame-ancestors"] != "'none'" {
		t.Errorf("the page's Content-Security-Policy %q has frame-ancestors %q, want 'none'", policy, dirs["frame-ancestors"])
	}
}

// TestBrowser builds bloomcalc, starts its page with -http as a user
// would, and drives the page in a real headless Chromium: it fills the
// form and submits it, checks the numbers shown against analysis and the
// series of the SVG figure, follows the shared link in a new tab, opens a
// scalable filter's link and counts its stages, and submits a bad value,
// whose message must be the first line bloomcalc prints for the same
// flags. With BLOOMCALC_SCREENSHOT=file.png it also saves a screenshot of
// the submitted page (a relative path is taken from this directory).
// Throughout, it checks that the page's script and style, served from its
// origin, ran and applied under the page's Content-Security-Policy (which
// allows no inline script), and that the browser reported no violation of
// that policy and no exception on its console. It
// skips only when no Chromium is found and CI is unset; in CI it fails
// instead.
func TestBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but no Chromium was found (chromium, chromium-browser, google-chrome); .ci/run installs Debian's chromium package")
		}
		t.Skip("no Chromium found (chromium, chromium-browser, google-chrome): install Debian's chromium package to run the browser test")
	}
	bin := buildBloomcalc(t)
	base := startServer(t, bin)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()

	// submit clicks the form's button and waits for the new page.
	submit := chromedp.Steps(
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Evaluate[bool](`window.oldPage = true`)(ctx, tg)
			return err
		}),
		chromedp.Click(chromedp.CSS("#submit")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			// Until the new page has loaded, evaluating fails (the old
			// page is gone) or finds the old page's mark.
			for {
				done, err := chromedp.Evaluate[bool](`!window.oldPage && document.readyState === "complete"`)(ctx, tg)
				if err == nil && done {
					return nil
				}
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(20 * time.Millisecond):
				}
			}
		}),
	)
	fill := func(sel, v string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(chromedp.Clear(chromedp.CSS(sel)), chromedp.SendKeys(chromedp.CSS(sel), v))
	}
	eval := func(ctx context.Context, expr string, dst any) {
		t.Helper()
		var err error
		switch d := dst.(type) {
		case *bool:
			*d, err = chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		case *int:
			*d, err = chromedp.Run(ctx, chromedp.Evaluate[int](expr))
		case *[]string:
			*d, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](expr))
		}
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
	}
	text := func(ctx context.Context, sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return strings.TrimSpace(s)
	}

	// Load the page, as the browser gets it: its policy, and its script
	// and style at work under it.
	consoleMain := collectConsole(t, bctx)
	resp, err := chromedp.RunResponse(bctx, chromedp.Navigate(base+"/"))
	if err != nil {
		t.Fatal(err)
	}
	checkPolicy(t, resp.Headers)
	if err := chromedp.Do(bctx, chromedp.WaitVisible(chromedp.CSS("#result"))); err != nil {
		t.Fatal(err)
	}
	var scriptRan, styled, figureStyled bool
	eval(bctx, `document.getElementById("in-width").disabled && !document.getElementById("in-n").disabled`, &scriptRan)
	eval(bctx, `getComputedStyle(document.getElementById("calc")).display === "flex"`, &styled)
	// The figures draw with style attributes (style-src-attr).
	eval(bctx, `getComputedStyle(document.querySelector("#fig-rate svg path[style*=stroke]")).stroke !== "none"`, &figureStyled)
	if !scriptRan || !styled || !figureStyled {
		t.Errorf("under the page's policy: /page.js ran: %v, /page.css applied: %v, the figure's style attributes applied: %v", scriptRan, styled, figureStyled)
	}

	// Choose blocked, fill n, p and B, submit.
	if err := chromedp.Do(bctx, chromedp.SetValue(chromedp.CSS("#in-variant"), blocked)); err != nil {
		t.Fatal(err)
	}
	var widthDisabled, blockDisabled bool
	eval(bctx, `document.getElementById("in-variant").dispatchEvent(new Event("change"))`, new(bool))
	eval(bctx, `document.getElementById("in-width").disabled`, &widthDisabled)
	eval(bctx, `document.getElementById("in-B").disabled`, &blockDisabled)
	if !widthDisabled || blockDisabled {
		t.Errorf("for a blocked filter the width field is disabled: %v, the block field: %v", widthDisabled, blockDisabled)
	}
	if err := chromedp.Do(bctx, fill("#in-n", "2M"), fill("#in-p", "1 in 1000"), fill("#in-B", "256"), submit); err != nil {
		t.Fatal(err)
	}
	location, err := chromedp.Run(bctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if want := base + "/?variant=blocked&n=2M&p=1+in+1000&B=256"; location != want {
		t.Errorf("submitted to %s, want %s (empty fields left out)", location, want)
	}

	// The numbers, against analysis.
	bl, err := analysis.BlockedSize(2e6, 0.001, 256)
	if err != nil {
		t.Fatal(err)
	}
	m, k := bl.Bits, bl.Hashes
	// The numbers as bloomcalc printed them (data-value); the text shows
	// them with separators and "1 in N".
	texts := map[string]string{}
	for _, id := range []string{"n", "m", "k", "blocks", "fpr_exact", "fpr_putze"} {
		v, err := chromedp.Run(bctx, chromedp.AttributeValue(chromedp.CSS("#v-"+id), "data-value"))
		if err != nil || !v.Exists {
			t.Fatalf("#v-%s: no data-value (%v)", id, err)
		}
		texts[id] = v.Value
	}
	if shown := text(bctx, "#v-m"); shown != group(texts["m"]) {
		t.Errorf("the page shows m as %q, want %q", shown, group(texts["m"]))
	}
	for key, want := range map[string]string{"n": "2000000", "m": strconv.FormatUint(m, 10), "k": strconv.Itoa(k), "blocks": strconv.FormatUint(m/256, 10)} {
		if texts[key] != want {
			t.Errorf("page shows %s = %q, analysis gives %s", key, texts[key], want)
		}
	}
	for key, want := range map[string]float64{"fpr_exact": analysis.BlockedFPR(m, 2e6, k, 256), "fpr_putze": analysis.BlockedClassicFPR(m, 2e6, k, 256)} {
		got, err := strconv.ParseFloat(texts[key], 64)
		if err != nil || math.Abs(got-want) > 5e-6*want {
			t.Errorf("page shows %s = %q, analysis gives %g", key, texts[key], want)
		}
	}

	// The figure: its labels and legend, and three curves.
	var legend []string
	var curves int
	eval(bctx, `Array.from(document.querySelectorAll("#fig-rate .wide svg text")).map(t => t.textContent)`, &legend)
	// A curve is a path of one move and a line to each of its points.
	eval(bctx, `Array.from(document.querySelectorAll("#fig-rate .wide svg path")).filter(p => (p.getAttribute("d").match(/L/g) || []).length >= 15).length`, &curves)
	all := strings.Join(legend, "\n")
	for _, want := range []string{"exact, blocked", "approximation of Putze et al.", "standard filter, same m and k (exact)",
		"capacity n = 2,000,000", "p = 0.001", "items inserted", "false-positive rate"} {
		if !strings.Contains(all, want) {
			t.Errorf("the rate figure lacks %q; its texts are %q", want, legend)
		}
	}
	if curves != 3 {
		t.Errorf("the rate figure has %d curves of 15 points or more, want 3 (exact, Putze et al., standard)", curves)
	}
	if path := os.Getenv("BLOOMCALC_SCREENSHOT"); path != "" {
		png, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Follow the shared link in a new tab: the same page, the form filled.
	share, err := chromedp.Run(bctx, chromedp.AttributeValue(chromedp.CSS("#share"), "href"))
	if err != nil || !share.Exists {
		t.Fatalf("no shared link: %v", err)
	}
	tab, cancelTab := chromedp.NewContext(bctx)
	defer cancelTab()
	consoleTab := collectConsole(t, tab)
	if err := chromedp.Do(tab, chromedp.Navigate(base+share.Value), chromedp.WaitVisible(chromedp.CSS("#result"))); err != nil {
		t.Fatal(err)
	}
	n2, err1 := chromedp.Run(tab, chromedp.Value(chromedp.CSS("#in-n")))
	variant2, err2 := chromedp.Run(tab, chromedp.Value(chromedp.CSS("#in-variant")))
	if m2 := text(tab, "#v-m"); m2 != group(texts["m"]) || n2 != "2M" || variant2 != blocked || err1 != nil || err2 != nil {
		t.Errorf("the shared link %s shows m = %q, n field %q, variant %q (%v, %v); want %q, 2M, blocked", share.Value, m2, n2, variant2, err1, err2, texts["m"])
	}

	// A scalable filter's link: its stages table has a row per stage.
	if err := chromedp.Do(tab, chromedp.Navigate(base+"/?variant=scalable&n=1M&p=0.001"), chromedp.WaitVisible(chromedp.CSS("#stages"))); err != nil {
		t.Fatal(err)
	}
	var rows int
	eval(tab, `document.querySelectorAll("#stages tbody tr").length`, &rows)
	stages, err := analysis.Scalable{P: 0.001, R: 0.9, S: 2, N0: 1000}.Stages(1e6)
	if err != nil || rows != len(stages) {
		t.Errorf("the stages table has %d rows, analysis gives %d stages (%v)", rows, len(stages), err)
	}

	// A bad value: the command line's message.
	if err := chromedp.Do(bctx, fill("#in-n", "-5"), submit); err != nil {
		t.Fatal(err)
	}
	message := text(bctx, "#error")
	var errOut bytes.Buffer
	cli := exec.Command(bin, "-variant", blocked, "-n", "-5", "-p", "1 in 1000", "-block", "256")
	cli.Stderr = &errOut
	var exit *exec.ExitError
	if err := cli.Run(); !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Errorf("bloomcalc with -n -5: %v, want exit status 2", err)
	}
	// The page speaks of its field n where bloomcalc names its flag -n.
	cliMessage, _, _ := strings.Cut(errOut.String(), "\n")
	want := strings.Replace(cliMessage, "bloomcalc: -n:", "bloomcalc: n:", 1)
	if message != want {
		t.Errorf("bad n: the page says %q, want bloomcalc's %q in the page's words, %q", message, cliMessage, want)
	}

	checkConsole(t, "first tab", consoleMain())
	checkConsole(t, "second tab", consoleTab())
}

// screen is a width the page is tested at.
type screen struct {
	name          string
	width, height int64
	scale         float64 // device pixels per CSS pixel
	mobile        bool
	file          string // the screenshot's name in BLOOMCALC_SCREENSHOT_DIR
}

// screens are a phone (390 CSS pixels wide, as an iPhone 12 to 15) and a
// desktop window.
var screens = []screen{
	{name: "phone-390px", width: 390, height: 844, scale: 2, mobile: true, file: "bloomcalc-web-phone.png"},
	{name: "desktop-1280px", width: 1280, height: 900, scale: 1, file: "bloomcalc-web.png"},
}

// TestBrowserWidths loads the page in a real headless Chromium at a phone's
// width (390 px, with the mobile viewport) and at a desktop's (1280 px),
// and checks at each that no page of the variants, of check mode or of an
// error is wider than the screen (document.documentElement.scrollWidth <=
// innerWidth), that typing in a field changes the answer and the address
// without a click (page.js), that typing m beside n and p shows check
// mode's verdict, and that the page's policy and script report nothing on
// the console. It takes a full-page screenshot at each width, of a
// blocked filter's page; with BLOOMCALC_SCREENSHOT_DIR=dir it writes them
// to dir as bloomcalc-web.png (1280 px) and bloomcalc-web-phone.png
// (390 px), the README's screenshots (see docs/figures.md):
//
//	cd cmd/bloomcalc/browsertest && BLOOMCALC_SCREENSHOT_DIR=../../../plots/figures go test -run TestBrowserWidths
func TestBrowserWidths(t *testing.T) {
	exe := chromium()
	if exe == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but no Chromium was found (chromium, chromium-browser, google-chrome); .ci/run installs Debian's chromium package")
		}
		t.Skip("no Chromium found (chromium, chromium-browser, google-chrome): install Debian's chromium package to run the browser test")
	}
	bin := buildBloomcalc(t)
	base := startServer(t, bin)
	// A saved scalable filter of 50,000 keys, for the page's upload.
	sf, err := variants.NewScalable(variants.ScalableParams{P: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50000 {
		sf.Add([]byte("key " + strconv.Itoa(i)))
	}
	savedItems := sf.Stats().Items
	data, err := sf.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(t.TempDir(), "keys.bloom")
	if err := os.WriteFile(saved, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		t.Fatal(err)
	}

	for _, s := range screens {
		t.Run(s.name, func(t *testing.T) {
			tab, cancelTab := chromedp.NewContext(bctx)
			defer cancelTab()
			console := collectConsole(t, tab)
			vopts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(s.scale)}
			if s.mobile {
				vopts = append(vopts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)
			}
			if err := chromedp.Do(tab, chromedp.EmulateViewport(s.width, s.height, vopts...)); err != nil {
				t.Fatal(err)
			}
			evalBool := func(expr string) bool {
				t.Helper()
				v, err := chromedp.Run(tab, chromedp.Evaluate[bool](expr))
				if err != nil {
					t.Fatalf("%s: %v", expr, err)
				}
				return v
			}
			widths := func() string {
				w, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.documentElement.scrollWidth + " > " + window.innerWidth`))
				return w
			}

			// No page is wider than the screen.
			for _, q := range []string{
				"variant=blocked&n=1M&p=0.01", "variant=scalable&n=1M&p=0.001", "variant=counting&n=1M&p=1%25&width=2",
				"variant=split-block&n=1e6&p=0.001", "n=1M&m=10Mb&p=1%25", "variant=scalable&n=100T&p=1e-12&B=64&s=1.01",
				"variant=multiblock&n=1M&p=0.01&multi=true&stride=2&k=5", "variant=age-partitioned&n=100k&p=0.01&mem=256KiB",
				"n=10G&p=1e-6", "variant=multiblock&n=1M&p=0.01&multi=true&stride=1&k=8",
			} {
				if err := chromedp.Do(tab, chromedp.Navigate(base+"/?"+q), chromedp.WaitReady(chromedp.CSS("#out"))); err != nil {
					t.Fatalf("/?%s: %v", q, err)
				}
				if !evalBool(`document.documentElement.scrollWidth <= window.innerWidth`) {
					t.Errorf("/?%s at %d px: the page overflows the screen (scrollWidth %s)", q, s.width, widths())
				}
				// Each figure is drawn as wide as its column, no wider.
				if !evalBool(`Array.from(document.querySelectorAll("figure svg")).every(g => g.getBoundingClientRect().right <= window.innerWidth + 0.5)`) {
					t.Errorf("/?%s at %d px: a figure runs off the screen", q, s.width)
				}
			}

			// The form offers each variant its own fields (page.js), and a
			// filter over the memory limit says so above the table.
			if err := chromedp.Do(tab, chromedp.Navigate(base+"/?variant=multiblock&n=1M&p=0.01&multi=true&stride=2&k=5"), chromedp.WaitVisible(chromedp.CSS("#result"))); err != nil {
				t.Fatal(err)
			}
			if !evalBool(`!document.getElementById("in-word").disabled && !document.getElementById("in-multi").disabled && !document.getElementById("in-stride").disabled && document.getElementById("in-B").disabled`) {
				t.Errorf("multiblock: the form does not offer word, multi and stride (or offers B)")
			}
			if err := chromedp.Do(tab, chromedp.Navigate(base+"/?variant=age-partitioned&n=100k&p=0.01"), chromedp.WaitVisible(chromedp.CSS("#fig-cycle"))); err != nil {
				t.Fatal(err)
			}
			if !evalBool(`!document.getElementById("in-mem").disabled && document.getElementById("in-m").disabled && document.getElementById("in-k").disabled`) {
				t.Errorf("age-partitioned: the form does not offer mem (or offers m or k)")
			}
			if err := chromedp.Do(tab, chromedp.Navigate(base+"/?n=1T&p=1e-3"), chromedp.WaitVisible(chromedp.CSS("#limit"))); err != nil {
				t.Errorf("n = 1T: no verdict of the memory limit: %v", err)
			}

			// Typing changes the answer, and the address, without a click.
			if err := chromedp.Do(tab, chromedp.Navigate(base+"/?variant=blocked&n=1M&p=0.01"), chromedp.WaitVisible(chromedp.CSS("#result"))); err != nil {
				t.Fatal(err)
			}
			before, err := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#v-m"), "data-value"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`window.notReloaded = true`)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(tab, chromedp.Clear(chromedp.CSS("#in-n")), chromedp.SendKeys(chromedp.CSS("#in-n"), "2M")); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById("v-n") && document.getElementById("v-n").dataset.value === "2000000"`,
				chromedp.WithPollingTimeout(20*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
				t.Fatalf("typing n = 2M: the answer did not change within 20 s: %v", err)
			}
			after, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#v-m"), "data-value"))
			location, _ := chromedp.Run(tab, chromedp.Location())
			if after.Value == before.Value || !evalBool(`window.notReloaded === true`) || !strings.HasSuffix(location, "/?variant=blocked&n=2M&p=0.01") {
				t.Errorf("typing n = 2M: m %s, then %s; page kept: %v; address %s, want a new m, the same page and ?variant=blocked&n=2M&p=0.01",
					before.Value, after.Value, evalBool(`window.notReloaded === true`), location)
			}
			if !evalBool(`document.documentElement.scrollWidth <= window.innerWidth`) {
				t.Errorf("after typing, at %d px: the page overflows the screen (scrollWidth %s)", s.width, widths())
			}
			png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if dir := os.Getenv("BLOOMCALC_SCREENSHOT_DIR"); dir != "" {
				if err := os.WriteFile(filepath.Join(dir, s.file), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}

			// Check mode: m typed beside n and p gives the verdict.
			if err := chromedp.Do(tab, chromedp.Navigate(base+"/?n=1M&p=1%25"), chromedp.WaitVisible(chromedp.CSS("#result")),
				chromedp.SendKeys(chromedp.CSS("#in-m"), "10Mb")); err != nil {
				t.Fatal(err)
			}
			verdict, err := chromedp.Run(tab, chromedp.Poll[string](`document.getElementById("verdict") && document.getElementById("verdict").textContent`,
				chromedp.WithPollingTimeout(20*time.Second), chromedp.WithPollingInterval(100*time.Millisecond)))
			if err != nil || !strings.Contains(verdict, "meets it: 0.82%") {
				t.Errorf("typing m = 10Mb beside n = 1M, p = 1%%: verdict %q (%v), want meets it: 0.82%%", verdict, err)
			}
			// Without JavaScript the form still works: Compute submits it
			// (empty fields then stay in the URL, as a plain form sends them).
			nojs, cancelNoJS := chromedp.NewContext(bctx)
			defer cancelNoJS()
			if _, err := chromedp.Call(nojs, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(nojs, chromedp.EmulateViewport(s.width, s.height, vopts...),
				chromedp.Navigate(base+"/?n=1M&p=0.01"), chromedp.WaitVisible(chromedp.CSS("#result")),
				chromedp.Clear(chromedp.CSS("#in-n")), chromedp.SendKeys(chromedp.CSS("#in-n"), "3M"),
				chromedp.Click(chromedp.CSS("#submit"))); err != nil {
				t.Fatalf("without JavaScript: %v", err)
			}
			// Until the new page has loaded, evaluating fails or finds the
			// old one. (Evaluate runs in the page's world, which the
			// disabled scripts do not stop.)
			for deadline := time.Now().Add(20 * time.Second); ; {
				done, err := chromedp.Run(nojs, chromedp.Evaluate[bool](`location.search.indexOf("n=3M") >= 0 && document.readyState === "complete" && !!document.getElementById("v-n")`))
				if err == nil && done {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("without JavaScript, submitting n = 3M: no new page within 20 s (%v)", err)
				}
				time.Sleep(50 * time.Millisecond)
			}
			if n, err := chromedp.Run(nojs, chromedp.AttributeValue(chromedp.CSS("#v-n"), "data-value")); err != nil || n.Value != "3000000" {
				t.Errorf("without JavaScript, submitting n = 3M shows n = %q (%v)", n.Value, err)
			}
			// page.js disables the width field of a standard filter; here
			// it did not run.
			if ran, err := chromedp.Run(nojs, chromedp.Evaluate[bool](`document.getElementById("in-width").disabled`)); err != nil || ran {
				t.Errorf("the tab without JavaScript ran page.js (%v)", err)
			}
			cancelNoJS()

			// A saved filter, uploaded by the page's form: what it is.
			if err := chromedp.Do(tab, chromedp.Navigate(base+"/?n=1M&p=1%25"), chromedp.WaitVisible(chromedp.CSS("#result")),
				chromedp.SetUploadFiles(chromedp.CSS("#in-filter"), []string{saved}),
				chromedp.Click(chromedp.CSS("#upload-submit")),
				chromedp.WaitVisible(chromedp.CSS("#filter"))); err != nil {
				t.Fatal(err)
			}
			variant, _ := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#f-variant")))
			items, _ := chromedp.Run(tab, chromedp.AttributeValue(chromedp.CSS("#f-items"), "data-value"))
			if variant != "scalable" || items.Value != strconv.FormatUint(savedItems, 10) {
				t.Errorf("the uploaded filter shows variant %q, items %q; want scalable and %d", variant, items.Value, savedItems)
			}
			if !evalBool(`document.documentElement.scrollWidth <= window.innerWidth`) {
				t.Errorf("the upload's page at %d px overflows the screen (scrollWidth %s)", s.width, widths())
			}
			checkConsole(t, s.name, console())
		})
	}
}
