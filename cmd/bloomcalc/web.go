package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The page's limits: a query longer than maxQuery bytes is refused; a
// request that finds no free slot for its computation within slotWait is
// answered 503 with Retry-After (the page is busy, the input is not at
// fault); and a computation (the numbers and the figures) is cancelled
// after computeLimit of computing, counted from when it has its slot, and
// answered 400 (the input costs more than the page gives one request).
// Cancellation reaches the computation through its context within a
// fraction of a second (figures stop between points; every analysis call
// is bounded, see analysis.ExactStandardSize), and the slot is free again
// before the answer is sent, so no request holds one for longer than about
// computeLimit.
const (
	maxQuery     = 1024
	computeLimit = time.Second
	slotWait     = 2 * time.Second
	// cancelGrace is how long within waits, after cancelling, for the
	// computation to return before answering anyway.
	cancelGrace = time.Second
)

// param is one input of the page: its name in the URL and the flag of
// bloomcalc it is passed to.
type param struct {
	Name, Flag, Label, Hint string
}

// params are the page's inputs, in the order of the form and of a shared
// URL. The names are those of the flags but for B, the block size.
var params = []param{
	{"variant", "variant", "variant", ""},
	{"n", "n", "items n", "10M, 1e6, 2.5k"},
	{"p", "p", "rate p", "0.01, 1e-4, 1 in 1000, 1%"},
	{"m", "m", "size m", "8Mb, 1MiB, 1e6"},
	{"k", "k", "hashes k", "best"},
	{"B", "block", "block bits B", "512"},
	{"width", "width", "counter width", "4"},
	{"r", "r", "ratio r", "0.9"},
	{"s", "s", "growth s", "2"},
	{"n0", "n0", "first stage n0", "1000"},
	{"mem", "mem", "memory budget", "64MiB"},
	{"word", "word", "word bits w", "64"},
	{"multi", "multi", "one bit per word", "false"},
	{"stride", "stride", "stride (bytes)", "0: none"},
}

// errQuery marks a query the page refuses before bloomcalc sees it.
var errQuery = errors.New("bad query")

// parseQuery checks a raw query string and returns its non-empty values,
// each trimmed, by parameter name. Parameters the page does not know are
// ignored; a known one given twice is refused, since the page cannot tell
// which one was meant.
func parseQuery(raw string) (map[string]string, error) {
	if len(raw) > maxQuery {
		return nil, fmt.Errorf("%w: %d bytes, the page takes at most %d", errQuery, len(raw), maxQuery)
	}
	vals, err := url.ParseQuery(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errQuery, err)
	}
	out := map[string]string{}
	for name, vs := range vals {
		known := false
		for _, p := range params {
			known = known || p.Name == name
		}
		if !known {
			// A shared link gathers parameters of its own on the way
			// (utm_source, fbclid, ...): they are not the page's, and the
			// link still works.
			continue
		}
		if len(vs) > 1 {
			return nil, fmt.Errorf("%w: parameter %q given %d times", errQuery, name, len(vs))
		}
		if v := strings.TrimSpace(vs[0]); v != "" {
			out[name] = v
		}
	}
	return out, nil
}

// canonical returns the query of vals in the order of params: the URL that
// is shared.
func canonical(vals map[string]string) string {
	var parts []string
	for _, p := range params {
		if v, ok := vals[p.Name]; ok {
			parts = append(parts, url.QueryEscape(p.Name)+"="+url.QueryEscape(v))
		}
	}
	return strings.Join(parts, "&")
}

// args returns the command line of bloomcalc for vals, with -json. A p
// written as hur.st's calculator takes it, a whole number N of 2 or more
// for "1 in N" (hur.st/bloomfilter/?n=4000&p=100), is passed as "1 in N".
func args(vals map[string]string) []string {
	a := []string{"-json"}
	for _, p := range params {
		if v, ok := vals[p.Name]; ok {
			if p.Name == "p" {
				v = oneInForm(v)
			}
			a = append(a, "-"+p.Flag+"="+v)
		}
	}
	return a
}

// oneInForm returns "1 in N" for a p that is a whole number N >= 2 (the
// form of hur.st's calculator, where p is "a fraction between 0 and 1 or a
// number indicating 1-in-p"), and p unchanged otherwise: a rate above 1
// that is not whole, as 1.5, stays a mistake.
func oneInForm(p string) string {
	x, err := strconv.ParseFloat(p, 64)
	if err != nil || !(x >= 2) || x != math.Trunc(x) || math.IsInf(x, 0) {
		return p
	}
	return "1 in " + p
}

// pageFields are the page's names of bloomcalc's flags, longest first, so
// that -n0 is found before -n.
var pageFields = func() [][2]string {
	var out [][2]string
	for _, p := range params {
		out = append(out, [2]string{"-" + p.Flag, p.Name})
	}
	slices.SortStableFunc(out, func(a, b [2]string) int { return len(b[0]) - len(a[0]) })
	return out
}()

// pageMessage rewords bloomcalc's message for the page: the flags become
// the page's fields ("-block" is "B", "-n" is "n"; "(-m 1000000)" is
// "(m = 1,000,000)"), and whole numbers of five digits or more get
// thousands separators.
func pageMessage(msg string) string {
	msg = strings.ReplaceAll(msg, "no flags given", "nothing given")
	var b strings.Builder
	for i := 0; i < len(msg); {
		start := i == 0 || strings.IndexByte(" (,[\"", msg[i-1]) >= 0
		if msg[i] == '-' && start {
			done := false
			for _, f := range pageFields {
				rest, ok := strings.CutPrefix(msg[i:], f[0])
				if !ok || (rest != "" && (isWordByte(rest[0]))) {
					continue
				}
				b.WriteString(f[1])
				i += len(f[0])
				if len(rest) > 1 && rest[0] == ' ' && rest[1] >= '0' && rest[1] <= '9' {
					b.WriteString(" =")
				}
				done = true
				break
			}
			if done {
				continue
			}
		}
		if msg[i] >= '0' && msg[i] <= '9' && (i == 0 || !isNumberByte(msg[i-1])) {
			j := i
			for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
				j++
			}
			if j-i >= 5 && (j == len(msg) || !isNumberByte(msg[j])) {
				b.WriteString(group(msg[i:j]))
			} else {
				b.WriteString(msg[i:j])
			}
			i = j
			continue
		}
		b.WriteByte(msg[i])
		i++
	}
	return b.String()
}

// isWordByte reports whether c continues a flag's name.
func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isNumberByte reports whether c belongs to a number written beside a run
// of digits (a decimal point, an exponent, a sign), which then is not a
// whole number to group.
func isNumberByte(c byte) bool {
	return c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// calculate is the computation the page and its JSON endpoint share with
// the command line: it runs bloomcalc with args (see args) and returns what
// `bloomcalc -json` prints for them, or the error bloomcalc reports. So the
// page shows exactly the numbers, and the messages, of the command line.
func calculate(ctx context.Context, args []string) ([]byte, error) {
	var out bytes.Buffer
	if err := run(ctx, args, &out, io.Discard); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// limiter bounds the computations running at once (slots, one per core)
// and each computation's time; see maxQuery for the values the page uses.
type limiter struct {
	slots chan struct{}
	wait  time.Duration // the longest wait for a slot
	limit time.Duration // computing time allowed, once a slot is held
	grace time.Duration // wait for a cancelled computation to return
}

// newLimiter returns the page's limiter: a slot per core, slotWait,
// computeLimit and cancelGrace.
func newLimiter() *limiter {
	return &limiter{slots: make(chan struct{}, runtime.GOMAXPROCS(0)), wait: slotWait, limit: computeLimit, grace: cancelGrace}
}

// errBusy is the answer to a request that finds no slot in time.
var errBusy = errors.New("the page is busy; try again in a moment")

// errTooSlow is the answer to a computation that exceeds computeLimit.
var errTooSlow = fmt.Errorf("this input takes more than %v of computing, the page's limit for one request; run bloomcalc on the command line", computeLimit)

// within runs f in its own goroutine, at most len(l.slots) at a time. It
// returns errBusy if no slot frees within l.wait (or ctx is done first),
// and errTooSlow if f has not finished within l.limit of getting its slot:
// f's context is cancelled then (or when ctx is done), and within waits up
// to l.grace for f to return, so that the slot is normally free again
// when it returns. A panic in f becomes an errInternal.
func within[T any](ctx context.Context, l *limiter, f func(context.Context) (T, error)) (T, error) {
	var zero T
	wait := time.NewTimer(l.wait)
	defer wait.Stop()
	select {
	case l.slots <- struct{}{}:
	case <-wait.C:
		return zero, errBusy
	case <-ctx.Done():
		return zero, errBusy
	}
	cctx, cancel := context.WithTimeout(ctx, l.limit)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		r := func() (r result) {
			defer func() {
				if p := recover(); p != nil {
					r = result{zero, fmt.Errorf("%w: %v", errInternal, p)}
				}
			}()
			v, err := f(cctx)
			return result{v, err}
		}()
		<-l.slots // free before the answer, so that the next request finds it
		done <- r
	}()
	select {
	case r := <-done:
		if cctx.Err() == nil || r.err == nil {
			return r.v, r.err
		}
	case <-cctx.Done():
		grace := time.NewTimer(l.grace)
		defer grace.Stop()
		select {
		case <-done:
		case <-grace.C:
		}
	}
	return zero, errTooSlow
}

// status is the HTTP status of an error of within.
func status(err error) int {
	switch {
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable
	case errors.Is(err, errInternal):
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// errInternal marks a failure that is not the input's fault.
var errInternal = errors.New("internal error")

//go:embed page.html
var pageHTML string

// The page's script and style, served from the page's own origin so that
// its Content-Security-Policy (see pagePolicy) allows no inline script and
// no style element.
var (
	//go:embed page.js
	pageJS []byte
	//go:embed page.css
	pageCSS []byte
)

// pagePolicy is the Content-Security-Policy of the page. Scripts and style
// sheets come only from the page's origin (/page.js, /page.css): no inline
// script, no <style> element, no event-handler attribute. The one
// exception is style attributes (style-src-attr): the SVG figures, inline
// in the page, are gonum's output, which draws every line with a style
// attribute. style-src keeps 'unsafe-inline' only for browsers that do not
// know style-src-elem and style-src-attr (CSP level 3), which fall back to
// it; the browsers that know them allow no inline style element. Nothing
// else is loaded: no images (the figures are inline SVG, not data: URIs),
// no fonts. The one connection is the script's fetch of the page itself
// (connect-src 'self'), to update the answer as the user types. The form submits only to the page itself, the
// page cannot be framed (frame-ancestors; X-Frame-Options for browsers
// that predate it), and a <base> element cannot redirect its relative URLs.
const pagePolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"style-src-elem 'self'; style-src-attr 'unsafe-inline'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// asset is a static file of the page, embedded in the command.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// newAsset returns the asset of body, with an ETag of its SHA-256.
func newAsset(body []byte, contentType string) asset {
	sum := sha256.Sum256(body)
	return asset{body: body, contentType: contentType, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
}

// serve answers r with a: its Content-Type, its ETag, and Cache-Control
// no-cache, so that a browser keeps its copy but asks, with the ETag,
// whether it is still current before using it (a 304 without a body if
// it is). So a page served by a newer bloomcalc never runs an older
// script. The query is ignored.
func (a asset) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", a.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"variants": func() []string { return variantNames },
}).Parse(pageHTML))

// page is what the page template shows.
type page struct {
	Params  []param
	Values  map[string]string
	Variant string
	Query   string       // canonical query of the shared link
	Share   template.URL // the shared link
	JSONURL template.URL // the JSON endpoint's URL
	Error   string       // bloomcalc's message, if the input is bad
	Rows    []row
	Stages  [][]string // scalable: the stages table, formatted
	Figures []figure
	Check   *pageCheck // the verdict, when n, m and p are all given
	// Limit is the memory limit's verdict, shown above the table when the
	// filter does not fit under it.
	Limit *pageCheck
	// Upload is what a saved filter sent to /filter is (see upload.go),
	// and UploadError why it could not be read.
	Upload      []row
	UploadError string
}

// pageCheck is the verdict of check mode as the page shows it, above the
// table: the geometry, the target and bloomcalc's verdict.
type pageCheck struct {
	Question, Verdict string
	Meets             bool
}

// checkOf returns the page's verdict from the rows of a check (n, m and
// p given) or of a memory budget (scalable and age-partitioned filters),
// or nil.
func checkOf(variant string, rows []row) *pageCheck {
	v := map[string]row{}
	for _, r := range rows {
		v[r.Key] = r
	}
	switch {
	case v["check.verdict"].Text != "":
		return &pageCheck{
			Question: fmt.Sprintf("Does n = %s, m = %s bits, k = %s meet p = %s (1 in %s)?", v["n"].Text, v["m"].Text, v["k"].Text,
				v["check.target"].Text, v["check.target"].OneIn),
			Verdict: v["check.verdict"].Text, Meets: v["check.meets"].Raw == "true"}
	case v["budget.verdict"].Text != "" && variant == agePartitioned:
		return &pageCheck{
			Question: fmt.Sprintf("Does an age-partitioned filter of a window of n = %s at p = %s fit in %s?", v["n"].Text, v["p"].Text, v["budget.memory"].Text),
			Verdict:  v["budget.verdict"].Text, Meets: v["budget.fits"].Raw == "true"}
	case v["budget.verdict"].Text != "":
		return &pageCheck{
			Question: fmt.Sprintf("Does a scalable filter reach n = %s within %s?", v["n"].Text, v["budget.memory"].Text),
			Verdict:  v["budget.verdict"].Text, Meets: v["budget.fits"].Raw == "true"}
	}
	return nil
}

// limitOf returns the memory limit's verdict from the rows when the
// filter does not fit under the limit, or nil.
func limitOf(rows []row) *pageCheck {
	v := map[string]row{}
	for _, r := range rows {
		v[r.Key] = r
	}
	if v["limit.fits"].Raw != "false" {
		return nil
	}
	return &pageCheck{Question: fmt.Sprintf("Does it fit under the library's memory limit for one filter on this machine, %s?", v["limit.memory"].Text),
		Verdict: v["limit.verdict"].Text}
}

// row is one line of the answer: a label, the JSON key it shows, the
// number as bloomcalc printed it, and as the page formats it.
type row struct {
	Label, Key, Raw, Text string
	// OneIn is a rate's "1 in N", N alone, shown after Text; IsText marks
	// a value in words (a note), which wraps as text does.
	OneIn  string
	IsText bool
}

// figure is one SVG figure, inline, with its caption.
type figure struct {
	ID      string
	SVG     template.HTML // for wide screens, the legend to the right
	Narrow  template.HTML // for phones, the legend above the data
	Caption string
}

// newHandler returns the page's handler: the page at /, its script at
// /page.js and its style at /page.css, the same numbers as JSON at /json,
// and 404 for anything else, with the limits of newLimiter. It reads
// nothing from the file system.
func newHandler() http.Handler { return newLimitedHandler(newLimiter()) }

// newLimitedHandler is newHandler with the limits of l.
func newLimitedHandler(l *limiter) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { servePage(w, r, l) })
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) { serveJSON(w, r, l) })
	mux.HandleFunc("/filter", func(w http.ResponseWriter, r *http.Request) { serveUpload(w, r, l) })
	mux.HandleFunc("/page.js", newAsset(pageJS, "text/javascript; charset=utf-8").serve)
	mux.HandleFunc("/page.css", newAsset(pageCSS, "text/css; charset=utf-8").serve)
	return limits(mux)
}

// retryAfter is the Retry-After of a 503, in seconds.
const retryAfter = "1"

// limits refuses methods other than GET and HEAD, request bodies, and long
// queries, before the handlers see them; the one exception is a POST to
// /filter, a saved filter of at most maxUpload bytes (and a little more
// for the form around it).
func limits(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.URL.Path == "/filter" {
			if r.Method != http.MethodPost {
				w.Header().Set("Allow", "POST")
				http.Error(w, "bloomcalc: /filter takes a saved filter by POST; use the page's form", http.StatusMethodNotAllowed)
				return
			}
			if r.ContentLength > maxUpload+64<<10 {
				http.Error(w, "bloomcalc: "+errTooLarge.Error(), http.StatusRequestEntityTooLarge)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, maxUpload+64<<10)
			h.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "bloomcalc: only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		if r.ContentLength > 0 {
			http.Error(w, "bloomcalc: a request takes no body", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 0)
		h.ServeHTTP(w, r)
	})
}

// defaultQuery is where / without a query leads: an example to start from.
const defaultQuery = "variant=standard&n=1M&p=0.01"

func servePage(w http.ResponseWriter, r *http.Request, l *limiter) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	if r.URL.RawQuery == "" {
		http.Redirect(w, r, "/?"+defaultQuery, http.StatusFound)
		return
	}
	pg, code := buildPage(r.Context(), l, r.URL.RawQuery)
	writePage(w, pg, code)
}

// writePage writes the page pg with status code and the page's headers.
func writePage(w http.ResponseWriter, pg *page, code int) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, pg); err != nil {
		http.Error(w, "bloomcalc: internal error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", pagePolicy)
	w.Header().Set("X-Frame-Options", "DENY")
	if code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

// buildPage computes the page for a raw query and returns it with its HTTP
// status: 200, 400 for bad input (or an input over the page's computing
// limit), 503 if the page is busy, 500 only for a failure of the page
// itself.
func buildPage(ctx context.Context, l *limiter, raw string) (*page, int) {
	pg := &page{Params: params, Values: map[string]string{}, Variant: standard}
	vals, err := parseQuery(raw)
	if err != nil {
		pg.Error = "bloomcalc: " + err.Error()
		return pg, http.StatusBadRequest
	}
	pg.Values = vals
	if v, ok := vals["variant"]; ok {
		pg.Variant = v
	}
	pg.Query = canonical(vals)
	pg.Share = template.URL("/?" + pg.Query)       // escaped by canonical
	pg.JSONURL = template.URL("/json?" + pg.Query) // escaped by canonical
	type answer struct {
		rows    []row
		stages  [][]string
		figures []figure
	}
	a, err := within(ctx, l, func(ctx context.Context) (answer, error) {
		out, err := calculate(ctx, args(vals))
		if err != nil {
			return answer{}, err
		}
		rows, stages, in, err := describe(out)
		if err != nil {
			return answer{}, fmt.Errorf("%w: %v", errInternal, err)
		}
		in.variant = pg.Variant
		figs, err := figures(ctx, in)
		if err != nil && ctx.Err() != nil {
			return answer{}, err
		}
		if err != nil {
			return answer{}, fmt.Errorf("%w: figure: %v", errInternal, err)
		}
		return answer{rows, stages, figs}, nil
	})
	if err != nil {
		pg.Error = "bloomcalc: " + pageMessage(err.Error())
		return pg, status(err)
	}
	pg.Rows, pg.Stages, pg.Figures = a.rows, a.stages, a.figures
	pg.Check = checkOf(pg.Variant, a.rows)
	pg.Limit = limitOf(a.rows)
	return pg, http.StatusOK
}

func serveJSON(w http.ResponseWriter, r *http.Request, l *limiter) {
	w.Header().Set("Content-Type", "application/json")
	fail := func(code int, err error) {
		if code == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]string{"error": "bloomcalc: " + pageMessage(err.Error())})
	}
	vals, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		fail(http.StatusBadRequest, err)
		return
	}
	out, err := within(r.Context(), l, func(ctx context.Context) ([]byte, error) { return calculate(ctx, args(vals)) })
	if err != nil {
		fail(status(err), err)
		return
	}
	w.Write(out)
}

// newServer returns the page's server on h, with timeouts and a header
// size limit.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      slotWait + computeLimit + cancelGrace + 10*time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// listen opens addr for the page; an address without a host, as ":8080",
// is localhost's.
func listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-http: %q is not host:port, as localhost:8080", addr)
	}
	if host == "" {
		host = "localhost"
	}
	return net.Listen("tcp", net.JoinHostPort(host, port))
}

// pageURL is the URL a browser opens for the page on addr: for an address
// of all interfaces (0.0.0.0, ::), localhost's, with a note that it
// listens on all of them, since http://[::]:8091/ is not an address to
// open.
func pageURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return "http://" + addr.String() + "/"
	}
	return fmt.Sprintf("http://localhost:%d/ (listening on every interface, %s)", tcp.Port, addr)
}

// serve serves the page on addr until interrupted: the form of every
// variant, the answer and its figures, each state a URL (the query holds
// the inputs, named as the flags but for B, the block size), and the
// same numbers as JSON at /json, exactly what bloomcalc -json prints.
func serve(ctx context.Context, addr string, stderr io.Writer) error {
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	srv := newServer(newHandler())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	fmt.Fprintf(stderr, "bloomcalc: serving on %s\n", pageURL(ln.Addr()))
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
