package web

import (
	"bytes"
	"mime/multipart"
	"net/http/httptest"
	"testing"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/i18n"
)

// FuzzAdminReadLogo drives the portal's logo upload reader with built forms
// (a file of the fuzzer's name and bytes) and with raw bodies under a fixed
// boundary: it never panics, answers either bytes to store (some, at most
// the logo limit) or a catalog key, never both.
func FuzzAdminReadLogo(f *testing.F) {
	f.Add("logo", "logo.png", []byte("\x89PNG\r\n\x1a\n"), false)
	f.Add("logo", "", []byte{}, false)
	f.Add("other", "x.gif", []byte("GIF89a"), false)
	f.Add("", "", []byte("--B\r\nContent-Disposition: form-data; name=\"logo\"; filename=\"a\"\r\n\r\nxyz\r\n--B--\r\n"), true)
	f.Add("", "", []byte("--B\r\nContent-Disposition: form-data; name=\"logo\"\r\n\r\n"), true)
	cat := i18n.MustLoad()
	f.Fuzz(func(t *testing.T, field, filename string, data []byte, raw bool) {
		var body bytes.Buffer
		ctype := "multipart/form-data; boundary=B"
		if raw {
			body.Write(data)
		} else {
			mw := multipart.NewWriter(&body)
			if fw, err := mw.CreateFormFile(field, filename); err == nil {
				_, _ = fw.Write(data)
			}
			_ = mw.Close()
			ctype = mw.FormDataContentType()
		}
		r := httptest.NewRequest("POST", "/admin/company/logo", &body)
		r.Header.Set("Content-Type", ctype)
		got, key := adminReadLogo(httptest.NewRecorder(), r)
		if r.MultipartForm != nil {
			defer r.MultipartForm.RemoveAll()
		}
		switch {
		case key == "" && (len(got) == 0 || len(got) > agency.MaxLogoBytes):
			t.Fatalf("accepted a logo of %d bytes", len(got))
		case key != "" && got != nil:
			t.Fatalf("refused (%s) but handed on %d bytes", key, len(got))
		case key != "" && !cat.Has(i18n.EN, key):
			t.Fatalf("refused with %q, not a catalog key", key)
		}
	})
}
