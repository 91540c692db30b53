package api

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/server"
)

// FuzzPostSale drives the post-sale multipart handler with built forms
// (fields and a proof file from the fuzzer) and with raw bodies under a
// fixed boundary: it never panics, refuses only with a 4xx fault, and what it
// accepts holds no control characters and no proof over the size limit.
func FuzzPostSale(f *testing.F) {
	f.Add("1", "lost passport", "3", "proof.png", []byte("\x89PNG\r\n\x1a\n"), false)
	f.Add("x", "remark\x00", "", "a\x00.png", []byte{}, false)
	f.Add("", "", "", "", []byte("--B\r\nContent-Disposition: form-data; name=\"remark\"\r\n\r\nhi\r\n--B--\r\n"), true)
	f.Add("", "", "", "", []byte("--B\r\nContent-Disposition: form-data; name=\"proofs\"; filename*=UTF-8''%00.png\r\n\r\nx\r\n--B--\r\n"), true)
	f.Add("", "", "", "", []byte("--B\r\n\r\n--B"), true)
	f.Fuzz(func(t *testing.T, reason, remark, subReason, filename string, data []byte, raw bool) {
		var body bytes.Buffer
		ctype := "multipart/form-data; boundary=B"
		if raw {
			body.Write(data)
		} else {
			mw := multipart.NewWriter(&body)
			_ = mw.WriteField("reason", reason)
			_ = mw.WriteField("remark", remark)
			_ = mw.WriteField("subReason", subReason)
			if fw, err := mw.CreateFormFile("proofs", filename); err == nil {
				_, _ = fw.Write(data)
			}
			_ = mw.Close()
			ctype = mw.FormDataContentType()
		}
		r := httptest.NewRequest("POST", "/order/v2/flight/orders/1/refund", &body)
		r.Header.Set("Content-Type", ctype)
		r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, server.ProofUploadBytes)
		req, err := postSale(r)
		if r.MultipartForm != nil {
			defer r.MultipartForm.RemoveAll()
		}
		if err != nil {
			fe, ok := fault.As(err)
			if !ok || fe.Status != http.StatusBadRequest {
				t.Fatalf("refused with %v, want a 400 fault", err)
			}
			return
		}
		if !input.Allowed(req.Remark) || !input.Allowed(req.SubReason) || !input.Allowed(req.OptionID) {
			t.Fatalf("accepted control characters: %+v", req)
		}
		for _, p := range req.Proofs {
			if !input.Allowed(p.Name) || len(p.Data) > flight.MaxProofBytes+1 {
				t.Fatalf("accepted proof %q of %d bytes", p.Name, len(p.Data))
			}
		}
		if !raw && strings.TrimSpace(reason) != "" && req.Reason == nil {
			t.Fatalf("reason %q accepted but lost", reason)
		}
	})
}
