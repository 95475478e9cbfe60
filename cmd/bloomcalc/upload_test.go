package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bloomlab/bloomlab/analysis"
	"github.com/bloomlab/bloomlab/variants"
)

// post sends body to /filter with the content type ct.
func post(t testing.TB, target, ct string, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	rec := httptest.NewRecorder()
	newHandler().ServeHTTP(rec, req)
	return rec
}

// form returns a multipart form holding data as the file field "filter".
func form(t testing.TB, data []byte) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	fw, err := mw.CreateFormFile("filter", "keys.bloom")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	return mw.FormDataContentType(), b.Bytes()
}

// TestUpload checks the page's answer for a saved filter: a standard
// filter sized for 10,000 items at 1% and given 5,000 keys shows its
// geometry, its items and fill, the rate its occupancy implies, and the
// exact rate at its items and at its capacity (analysis.ExactFPR).
func TestUpload(t *testing.T) {
	f, err := variants.NewStandardFor(10000, 0.01, variants.Hashing{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		f.Add(fmt.Appendf(nil, "key %d", i))
	}
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	st := f.Stats()
	// As JSON, from a raw body.
	rec := post(t, "/filter", "application/octet-stream", data)
	var r uploadResult
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &r) != nil {
		t.Fatalf("raw upload: status %d, %s", rec.Code, rec.Body)
	}
	if r.Variant != "standard" || r.Cells != st.Cells || r.Items != 5000 || r.Fill != st.FillRatio || r.OccupancyFPR != st.EstimatedFPR ||
		r.TheoryFPR == nil || *r.TheoryFPR != analysis.ExactFPR(st.Cells, 5000, st.Hashes) ||
		r.DesignFPR == nil || *r.DesignFPR != analysis.ExactFPR(st.Cells, 10000, st.Hashes) || r.FileSize != len(data) {
		t.Errorf("raw upload: %+v, want the filter's stats %+v and its exact rates", r, st)
	}
	// As the page, from its form.
	ct, body := form(t, data)
	rec = post(t, "/filter", ct, body)
	page := html.UnescapeString(rec.Body.String())
	for _, want := range []string{`id="f-variant" data-value="standard">standard<`, `id="f-items" data-value="5000">5,000<`, `id="f-fpr_design"`, `id="f-fpr_occupancy"`} {
		if rec.Code != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("form upload: status %d, the page lacks %q", rec.Code, want)
		}
	}
	if rec.Header().Get("Content-Security-Policy") != pagePolicy {
		t.Errorf("form upload: the page has no Content-Security-Policy")
	}
}

// TestUploadRefused checks the uploads the page refuses: not a filter
// (400, variants' message), too large (413, before it is read), a GET
// (405), a form without the file (400).
func TestUploadRefused(t *testing.T) {
	if rec := post(t, "/filter", "application/octet-stream", []byte("not a filter")); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "not a filter bloomlab can read") {
		t.Errorf("garbage: status %d, %s", rec.Code, rec.Body)
	}
	ct, body := form(t, []byte("garbage"))
	if rec := post(t, "/filter", ct, body); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `id="upload-error"`) {
		t.Errorf("garbage by the form: status %d", rec.Code)
	}
	big := make([]byte, maxUpload+1)
	if rec := post(t, "/filter", "application/octet-stream", big); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("%d bytes: status %d, want 413", len(big), rec.Code)
	}
	if rec := get(t, "/filter"); rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET /filter: status %d, want 405", rec.Code)
	}
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("other", "x")
	mw.Close()
	if rec := post(t, "/filter", mw.FormDataContentType(), b.Bytes()); rec.Code != http.StatusBadRequest {
		t.Errorf("a form without the file: status %d, want 400", rec.Code)
	}
	// The other paths still take no body.
	if rec := post(t, "/json?n=1M&p=0.01", "application/octet-stream", []byte("x")); rec.Code == http.StatusOK {
		t.Errorf("POST /json: status %d", rec.Code)
	}
}

// FuzzUpload checks that no body sent to /filter gets a status of 500 or
// more; the seeds are saved filters of several variants and their
// truncations.
func FuzzUpload(f *testing.F) {
	for _, mk := range []func() (variants.Filter, error){
		func() (variants.Filter, error) { return variants.NewStandardFor(1000, 0.01, variants.Hashing{}) },
		func() (variants.Filter, error) { return variants.NewCountingFor(1000, 0.01, variants.Hashing{}) },
		func() (variants.Filter, error) { return variants.NewBlockedFor(1000, 0.01, variants.Hashing{}) },
		func() (variants.Filter, error) { return variants.NewScalable(variants.ScalableParams{P: 0.01}) },
	} {
		flt, err := mk()
		if err != nil {
			f.Fatal(err)
		}
		for i := range 300 {
			flt.Add(fmt.Appendf(nil, "%d", i))
		}
		data, err := flt.(interface{ MarshalBinary() ([]byte, error) }).MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if rec := post(t, "/filter", "application/octet-stream", data); rec.Code >= 500 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}
