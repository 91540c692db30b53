package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/recognition"
	"github.com/voyage/voyage/pkg/recognition/specimen"
)

// postDocument sends data as the multipart field "file" (field names the
// part) with the given auth header pair.
func postDocument(t *testing.T, srv *httptest.Server, field string, data []byte, lang string, hdr ...string) (*http.Response, envelope) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile(field, "passport.jpg")
	_, _ = fw.Write(data)
	_ = mw.Close()
	req := newRequest(t, "POST", srv.URL+"/base/v2/analysis/document", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept-Language", lang)
	resp, raw := send(t, srv.Client(), req, hdr...)
	return resp, asEnvelope(t, fmt.Sprintf("post %d bytes", len(data)), raw)
}

func TestDocumentRecognitionAPI(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	rng := rand.New(rand.NewPCG(7, 18))
	doc := specimen.Random(rng, specimen.Passport, now)
	doc.Number, doc.Surname, doc.GivenNames, doc.Nationality, doc.Issuing, doc.Sex = "E12345678", "ERIKSSON", "ANNA MARIA", "UTO", "UTO", 'F'
	photo, err := specimen.Render(doc, specimen.Effects{Width: 1300, Angle: 3, Blur: 1, Noise: 8, Shade: 0.3, Photo: true, JPEG: 80}, rng)
	if err != nil {
		t.Fatal(err)
	}
	var blank bytes.Buffer
	page := image.NewGray(image.Rect(0, 0, 600, 400))
	for i := range page.Pix {
		page.Pix[i] = uint8(220 + rng.IntN(30))
	}
	if err := png.Encode(&blank, page); err != nil {
		t.Fatal(err)
	}
	// Over 10 MB: a PNG signature and padding (its type is right, its size
	// is not).
	huge := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, recognition.MaxBytes+1<<20)...)

	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		me := loginAs(t, srv, "demo-operator", "demo-pass-1")
		auth := bearer(me.Token)

		resp, env := postDocument(t, srv, "file", photo, "en", auth...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("recognize: %d %+v", resp.StatusCode, env)
		}
		var got recognition.Document
		if err := json.Unmarshal(env.Data, &got); err != nil {
			t.Fatal(err)
		}
		want := recognition.Document{Type: "passport", TravelDocument: "E12345678", Surname: "ERIKSSON", GivenNames: "ANNA MARIA",
			Nationality: "UTO", Birthday: doc.Birth.Format(time.DateOnly), Gender: "female", Expiry: doc.Expiry.Format(time.DateOnly),
			IssuingCountry: "UTO", Confidence: got.Confidence}
		if got != want || got.Confidence <= 0 {
			t.Errorf("read %+v\nwant %+v", got, want)
		}

		// An agency's API key may call it too.
		k, err := a.Auth.CreateAPIKey(context.Background(), me.Company.ID, "scanner", nil, me.UserInfo.ID)
		if err != nil {
			t.Fatal(err)
		}
		if resp, env := postDocument(t, srv, "file", photo, "en", "X-Api-Key", k.Key); resp.StatusCode != 200 || env.Code != 0 {
			t.Errorf("with an API key: %d %+v", resp.StatusCode, env)
		}

		for _, c := range []struct {
			name, field, lang string
			data              []byte
			status, code      int
			message           string
		}{
			{"pdf", "file", "en", []byte("%PDF-1.4\n1 0 obj\n<< >>\nendobj\n"), 400, 100001, "The document image must be a JPG, JPEG or PNG file."},
			{"pdf zh-tw", "file", "zh-tw", []byte("%PDF-1.4\n1 0 obj\n<< >>\nendobj\n"), 400, 100001, "證件圖片須為 JPG、JPEG 或 PNG 格式。"},
			{"over 10 MB", "file", "en", huge, 413, 100002, "The document image is larger than 10 MB."},
			{"unreadable", "file", "en", blank.Bytes(), 422, 100001, "Document recognition failed: check the document type and re-upload"},
			{"unreadable zh-cn", "file", "zh-cn", blank.Bytes(), 422, 100001, "证件识别失败：请检查证件类型后重新上传"},
			{"no file field", "photo", "en", photo, 400, 100001, "Choose a photo or scan of the document (multipart field 'file')."},
		} {
			resp, env := postDocument(t, srv, c.field, c.data, c.lang, auth...)
			if resp.StatusCode != c.status || env.Code != c.code || env.Message != c.message {
				t.Errorf("%s: %d %d %q, want %d %d %q", c.name, resp.StatusCode, env.Code, env.Message, c.status, c.code, c.message)
			}
		}

		if resp, env := postDocument(t, srv, "file", photo, "en"); resp.StatusCode != 401 || env.Code == 0 {
			t.Errorf("not logged in: %d %+v", resp.StatusCode, env)
		}
	})
}
