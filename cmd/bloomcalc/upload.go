package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/bloomlab/bloomlab/variants"
)

// maxUpload is the largest saved filter the page reads: a request body of
// more is refused with 413 before it is read further. A filter holds at
// most maxUpload bytes of cells, so one upload costs at most about twice
// maxUpload of memory (the bytes and the filter decoded from them); one
// upload is read at a time (see uploadSlot), and its decoding and theory
// then take one of the page's computing slots, within computeLimit.
const maxUpload = 64 << 20

// uploadSlot lets one upload be read at a time; another waits up to
// slotWait and is answered 503.
var uploadSlot = make(chan struct{}, 1)

// uploadResult is what the page says of a saved filter: what the filter
// reports of itself (variants' Stats), the rate its occupancy implies,
// and the rate its theory (its Model) gives at the items it holds and at
// its capacity, the design rate.
type uploadResult struct {
	Variant  string  `json:"variant"`
	FileSize int     `json:"file_bytes"`
	Cells    uint64  `json:"cells"`
	CellBits int     `json:"cell_bits"`
	Bits     uint64  `json:"bits"`
	Memory   string  `json:"memory"`
	Hashes   int     `json:"k"`
	Capacity uint64  `json:"capacity"`
	Items    uint64  `json:"items"`
	Fill     float64 `json:"fill_ratio"`
	Stages   int     `json:"stages,omitempty"`
	// Saturated counts the counters at their maximum (counting filters).
	Saturated uint64 `json:"saturated,omitempty"`
	// OccupancyFPR is the rate the fill implies (Stats.EstimatedFPR): the
	// rate of this filter as it is, whatever keys it was given.
	OccupancyFPR float64 `json:"fpr_occupancy"`
	// TheoryFPR is the rate of the filter's model at Items, and DesignFPR
	// at Capacity; absent where the variant has no model of that form
	// (age-partitioned filters) or the model refuses the count.
	TheoryFPR *float64 `json:"fpr_theory_items,omitempty"`
	DesignFPR *float64 `json:"fpr_design,omitempty"`
}

// modelFPR returns the rate of f's model (see variants' Model methods) as
// a function of the items, or nil.
func modelFPR(f variants.Filter) func(uint64) (float64, error) {
	switch f := f.(type) {
	case *variants.Standard:
		return f.Model().FPR
	case *variants.ConcurrentStandard:
		return f.Model().FPR
	case *variants.Partitioned:
		return f.Model().FPR
	case *variants.Counting:
		return f.Model().FPR
	case *variants.Blocked:
		return f.Model().FPR
	case *variants.SplitBlock:
		return f.Model().FPR
	case *variants.Scalable:
		return f.Model().FPR
	case *variants.Dynamic:
		return f.Model().FPR
	case *variants.RedisBloom:
		return f.Model().FPR
	}
	return nil
}

// inspect decodes a saved filter and says what it is.
func inspect(ctx context.Context, data []byte) (*uploadResult, error) {
	f, err := variants.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("the file is not a filter bloomlab can read: %s", plain(err.Error()))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st := f.Stats()
	r := &uploadResult{
		Variant: st.Variant, FileSize: len(data), Cells: st.Cells, CellBits: st.CellBits, Bits: st.Bits,
		Memory: memory((st.Bits + 7) / 8), Hashes: st.Hashes, Capacity: st.Capacity, Items: st.Items,
		Fill: st.FillRatio, Stages: len(st.Stages), Saturated: st.Saturated, OccupancyFPR: st.EstimatedFPR,
	}
	if fpr := modelFPR(f); fpr != nil {
		if x, err := fpr(st.Items); err == nil {
			r.TheoryFPR = &x
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if st.Capacity > 0 {
			if x, err := fpr(st.Capacity); err == nil {
				r.DesignFPR = &x
			}
		}
	}
	return r, ctx.Err()
}

// uploadRows are the page's rows of r, as the calculator's rows are.
func uploadRows(r *uploadResult) []row {
	rate := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	rows := []row{
		{Label: "variant", Key: "variant", Raw: r.Variant, Text: r.Variant},
		{Label: "file", Key: "file_bytes", Raw: strconv.Itoa(r.FileSize), Text: group(strconv.Itoa(r.FileSize)) + " B"},
		{Label: "cells m", Key: "cells", Raw: strconv.FormatUint(r.Cells, 10), Text: groupUint(r.Cells)},
		{Label: "bits per cell", Key: "cell_bits", Raw: strconv.Itoa(r.CellBits), Text: strconv.Itoa(r.CellBits)},
		{Label: "memory of the cells (m × bits per cell)", Key: "memory", Raw: r.Memory, Text: r.Memory},
		{Label: "hashes k (the newest stage's, if it grows)", Key: "k", Raw: strconv.Itoa(r.Hashes), Text: strconv.Itoa(r.Hashes)},
		{Label: "capacity (0: built from a geometry)", Key: "capacity", Raw: strconv.FormatUint(r.Capacity, 10), Text: groupUint(r.Capacity)},
		{Label: "items added", Key: "items", Raw: strconv.FormatUint(r.Items, 10), Text: groupUint(r.Items)},
		{Label: "fill (cells not zero)", Key: "fill_ratio", Raw: strconv.FormatFloat(r.Fill, 'g', -1, 64), Text: strconv.FormatFloat(r.Fill, 'g', 6, 64)},
	}
	if r.Stages > 0 {
		rows = append(rows, row{Label: "stages", Key: "stages", Raw: strconv.Itoa(r.Stages), Text: strconv.Itoa(r.Stages)})
	}
	if r.Saturated > 0 {
		rows = append(rows, row{Label: "saturated counters", Key: "saturated", Raw: strconv.FormatUint(r.Saturated, 10), Text: groupUint(r.Saturated)})
	}
	rows = append(rows, row{Label: "rate its occupancy implies (as it is now)", Key: "fpr_occupancy",
		Raw: strconv.FormatFloat(r.OccupancyFPR, 'g', -1, 64), Text: rate(r.OccupancyFPR), OneIn: oneInText(r.OccupancyFPR)})
	if r.TheoryFPR != nil {
		rows = append(rows, row{Label: "rate theory gives at the items added", Key: "fpr_theory_items",
			Raw: strconv.FormatFloat(*r.TheoryFPR, 'g', -1, 64), Text: rate(*r.TheoryFPR), OneIn: oneInText(*r.TheoryFPR)})
	}
	if r.DesignFPR != nil {
		rows = append(rows, row{Label: "design rate (theory at capacity)", Key: "fpr_design",
			Raw: strconv.FormatFloat(*r.DesignFPR, 'g', -1, 64), Text: rate(*r.DesignFPR), OneIn: oneInText(*r.DesignFPR)})
	}
	return rows
}

// errTooLarge is the answer to an upload of more than maxUpload bytes.
var errTooLarge = fmt.Errorf("the file is larger than the page reads (%d MiB); use variants.ReadFilter in Go", maxUpload>>20)

// readUpload reads the saved filter of r: the part named "filter" of a
// multipart form (the page's form), or else the whole body (curl
// --data-binary @file). It reads at most maxUpload bytes and one more,
// to tell a file of more.
func readUpload(r *http.Request) ([]byte, error) {
	read := func(src io.Reader) ([]byte, error) {
		data, err := io.ReadAll(io.LimitReader(src, maxUpload+1))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, errTooLarge
			}
			return nil, fmt.Errorf("reading the upload: %v", err)
		}
		if len(data) > maxUpload {
			return nil, errTooLarge
		}
		return data, nil
	}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return read(r.Body)
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, fmt.Errorf("reading the form: %v", err)
	}
	for {
		part, err := mr.NextPart()
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, errTooLarge
			}
			return nil, errors.New("the form holds no file named filter; choose a saved filter")
		}
		if part.FormName() == "filter" {
			return read(part)
		}
	}
}

// serveUpload answers a POST to /filter: what the saved filter in it is,
// as the page's rows (the form's multipart upload) or as JSON (a raw
// body, or ?json).
func serveUpload(w http.ResponseWriter, r *http.Request, l *limiter) {
	asJSON := r.URL.Query().Has("json")
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		asJSON = true
	}
	fail := func(code int, err error) {
		if code == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", retryAfter)
		}
		if asJSON {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			json.NewEncoder(w).Encode(map[string]string{"error": "bloomcalc: " + err.Error()})
			return
		}
		writePage(w, &page{Params: params, Values: map[string]string{}, Variant: standard, UploadError: "bloomcalc: " + err.Error()}, code)
	}
	wait := time.NewTimer(l.wait)
	defer wait.Stop()
	select {
	case uploadSlot <- struct{}{}:
	case <-wait.C:
		fail(http.StatusServiceUnavailable, errBusy)
		return
	case <-r.Context().Done():
		return
	}
	data, err := readUpload(r)
	<-uploadSlot
	if err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, errTooLarge) {
			code = http.StatusRequestEntityTooLarge
		}
		fail(code, err)
		return
	}
	res, err := within(r.Context(), l, func(ctx context.Context) (*uploadResult, error) { return inspect(ctx, data) })
	data = nil
	if err != nil {
		fail(status(err), err)
		return
	}
	if asJSON {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(res)
		return
	}
	writePage(w, &page{Params: params, Values: map[string]string{}, Variant: standard, Upload: uploadRows(res)}, http.StatusOK)
}
