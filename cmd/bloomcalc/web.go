package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"
)

// The page's limits: a query longer than maxQuery bytes is refused, and a
// computation (the numbers and the figures) that has not finished after
// computeLimit is answered with an error, so that no request hangs.
const (
	maxQuery     = 1024
	computeLimit = 3 * time.Second
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
}

// errQuery marks a query the page refuses before bloomcalc sees it.
var errQuery = errors.New("bad query")

// parseQuery checks a raw query string and returns its non-empty values,
// each trimmed, by parameter name.
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
			names := make([]string, len(params))
			for i, p := range params {
				names[i] = p.Name
			}
			return nil, fmt.Errorf("%w: unknown parameter %q; the page takes %s", errQuery, name, strings.Join(names, ", "))
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

// args returns the command line of bloomcalc for vals, with -json.
func args(vals map[string]string) []string {
	a := []string{"-json"}
	for _, p := range params {
		if v, ok := vals[p.Name]; ok {
			a = append(a, "-"+p.Flag+"="+v)
		}
	}
	return a
}

// calculate is the computation the page and its JSON endpoint share with
// the command line: it runs bloomcalc with args (see args) and returns what
// `bloomcalc -json` prints for them, or the error bloomcalc reports. So the
// page shows exactly the numbers, and the messages, of the command line.
func calculate(args []string) ([]byte, error) {
	var out bytes.Buffer
	if err := run(args, &out, io.Discard); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// slots bounds the computations running at once, and so the cores the
// page takes.
var slots = make(chan struct{}, runtime.GOMAXPROCS(0))

// errTooSlow is the answer to a computation that exceeds computeLimit.
var errTooSlow = fmt.Errorf("this input takes longer than %v to compute, the page's limit; run bloomcalc on the command line, which has none", computeLimit)

// within runs f in its own goroutine, at most len(slots) at a time, and
// returns errTooSlow if it has not finished within limit. f cannot be
// stopped: it finishes in the background and keeps its slot until then.
func within[T any](limit time.Duration, f func() (T, error)) (T, error) {
	var zero T
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case slots <- struct{}{}:
	case <-timer.C:
		return zero, errTooSlow
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-slots }()
		defer func() {
			if r := recover(); r != nil {
				done <- result{zero, fmt.Errorf("%w: %v", errInternal, r)}
			}
		}()
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-timer.C:
		return zero, errTooSlow
	}
}

// errInternal marks a failure that is not the input's fault.
var errInternal = errors.New("internal error")

//go:embed page.html
var pageHTML string

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
}

// row is one line of the answer: a label, the JSON key it shows, the
// number as bloomcalc printed it, and as the page formats it.
type row struct {
	Label, Key, Raw, Text string
}

// figure is one SVG figure, inline, with its caption.
type figure struct {
	ID      string
	SVG     template.HTML
	Caption string
}

// newHandler returns the page's handler: the page at /, the same numbers
// as JSON at /json, and 404 for anything else. It reads nothing from the
// file system.
func newHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", servePage)
	mux.HandleFunc("/json", serveJSON)
	return limits(mux)
}

// limits refuses methods other than GET and HEAD, request bodies, and long
// queries, before the handlers see them.
func limits(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
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

func servePage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	if r.URL.RawQuery == "" {
		http.Redirect(w, r, "/?"+defaultQuery, http.StatusFound)
		return
	}
	pg, status := buildPage(r.URL.RawQuery)
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, pg); err != nil {
		http.Error(w, "bloomcalc: internal error: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; form-action 'self'")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// buildPage computes the page for a raw query and returns it with its HTTP
// status: 200, 400 for bad input, 500 only for a failure of the page itself.
func buildPage(raw string) (*page, int) {
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
	a, err := within(computeLimit, func() (answer, error) {
		out, err := calculate(args(vals))
		if err != nil {
			return answer{}, err
		}
		rows, stages, in, err := describe(out)
		if err != nil {
			return answer{}, fmt.Errorf("%w: %v", errInternal, err)
		}
		in.variant = pg.Variant
		figs, err := figures(in)
		if err != nil {
			return answer{}, fmt.Errorf("%w: figure: %v", errInternal, err)
		}
		return answer{rows, stages, figs}, nil
	})
	if err != nil {
		pg.Error = "bloomcalc: " + err.Error()
		if errors.Is(err, errInternal) {
			return pg, http.StatusInternalServerError
		}
		return pg, http.StatusBadRequest
	}
	pg.Rows, pg.Stages, pg.Figures = a.rows, a.stages, a.figures
	return pg, http.StatusOK
}

func serveJSON(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	fail := func(status int, err error) {
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": "bloomcalc: " + err.Error()})
	}
	vals, err := parseQuery(r.URL.RawQuery)
	if err != nil {
		fail(http.StatusBadRequest, err)
		return
	}
	out, err := within(computeLimit, func() ([]byte, error) { return calculate(args(vals)) })
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, errInternal) {
			status = http.StatusInternalServerError
		}
		fail(status, err)
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
		WriteTimeout:      computeLimit + 10*time.Second,
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

// serve serves the page on addr until interrupted: the form of every
// variant, the answer and its figures, each state a URL (the query holds
// the inputs, named as the flags but for B, the block size), and the
// same numbers as JSON at /json, exactly what bloomcalc -json prints.
func serve(addr string, stderr io.Writer) error {
	ln, err := listen(addr)
	if err != nil {
		return err
	}
	srv := newServer(newHandler())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	fmt.Fprintf(stderr, "bloomcalc: serving on http://%s/\n", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
