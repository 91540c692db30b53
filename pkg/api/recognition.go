package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/recognition"
	"github.com/voyage/voyage/pkg/server"
)

// DocumentForm documents the multipart body of document recognition.
type DocumentForm struct {
	File []byte `json:"file" jsonschema:"required" jsonschema_description:"the photo or scan of the document's data page: jpg, jpeg or png (judged from the content), at most 10 MB; multipart field 'file'"`
}

// RegisterRecognition adds document recognition (spec §7
// /base/v2/analysis/document) to rt, reading with rec.
func RegisterRecognition(rt *Router, rec *recognition.Recognizer) {
	rt.Handle("POST "+server.RecognitionPath, Operation{
		ID: "recognizeDocument", Reads: true, Tag: "recognition",
		Summary: "Read a passport, ID card or Exit-Entry Permit from a photo or scan of its machine-readable zone " +
			"(multipart field 'file': jpg, jpeg or png, at most 10 MB; the image is not kept). " +
			"An unreadable image answers 100001 'Document recognition failed: check the document type and re-upload'",
		Request: DocumentForm{}, Multipart: true, Response: recognition.Document{},
		Errors: []int{fault.CodeBodyTooLarge, fault.CodeRateLimited},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		file, err := documentFile(r)
		if err != nil {
			return nil, err
		}
		defer discard(file)
		doc, err := rec.RecognizeFrom(r.Context(), file)
		if err != nil {
			return nil, recognitionFault(err)
		}
		return doc, nil
	})
}

// documentFile streams the multipart field "file" to a temporary file
// (removed by discard once read): an upload waiting for its turn holds no
// picture in memory, only a 32 KB copy buffer while it arrives. A file
// over the limit is refused only after the rest of the body has been read
// (server.LimitBody lets this route's body run past 10 MB for that): a
// server that stops reading and closes makes the client see a reset
// connection instead of the answer.
func documentFile(r *http.Request) (*os.File, error) {
	missing := recognitionError(http.StatusBadRequest, fault.CodeValidation, "recognition.error.file")
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, missing
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, missing
		}
		if err != nil {
			return nil, bodyFault(err, missing)
		}
		if part.FormName() != "file" {
			continue
		}
		f, err := os.CreateTemp("", "voyage-document-*")
		if err != nil {
			return nil, fault.Internal(fmt.Errorf("recognition: temporary file: %w", err))
		}
		n, err := io.Copy(f, io.LimitReader(part, recognition.MaxBytes+1))
		if err != nil {
			discard(f)
			return nil, bodyFault(err, missing)
		}
		if n > recognition.MaxBytes {
			discard(f)
			_, _ = io.Copy(io.Discard, r.Body)
			return nil, recognitionError(http.StatusRequestEntityTooLarge, fault.CodeBodyTooLarge, "recognition.error.tooLarge")
		}
		return f, nil
	}
}

// discard closes and removes an upload's temporary file: the image is not
// kept.
func discard(f *os.File) {
	_ = f.Close()
	_ = os.Remove(f.Name())
}

// bodyFault is the answer to a body that could not be read: too large
// (past server.RecognitionUploadBytes) or not multipart after all.
func bodyFault(err error, otherwise error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return recognitionError(http.StatusRequestEntityTooLarge, fault.CodeBodyTooLarge, "recognition.error.tooLarge")
	}
	return otherwise
}

func recognitionError(status, code int, key string) *fault.Error {
	e := &fault.Error{Code: code, Status: status, Key: key}
	if code == fault.CodeValidation {
		e.Fields = map[string]string{"file": key}
	}
	return e
}

// recognitionFault maps the recognizer's refusals to API answers.
func recognitionFault(err error) error {
	switch {
	case errors.Is(err, recognition.ErrType):
		return recognitionError(http.StatusBadRequest, fault.CodeValidation, "recognition.error.type")
	case errors.Is(err, recognition.ErrTooLarge):
		if errors.Is(err, recognition.ErrTooManyPixels) {
			return recognitionError(http.StatusRequestEntityTooLarge, fault.CodeBodyTooLarge, "recognition.error.pixels")
		}
		return recognitionError(http.StatusRequestEntityTooLarge, fault.CodeBodyTooLarge, "recognition.error.tooLarge")
	case errors.Is(err, recognition.ErrUnreadable):
		e := recognitionError(http.StatusUnprocessableEntity, fault.CodeValidation, "recognition.error.failed")
		e.Err = err
		return e
	case errors.Is(err, recognition.ErrBusy):
		return fault.RateLimited("recognition.error.busy", 5*time.Second)
	case errors.Is(err, recognition.ErrEngine):
		// A server without tesseract (make run without root) still serves
		// everything else: the caller is told to type the details in.
		e := fault.New(fault.CodeInternal, http.StatusServiceUnavailable, "recognition.error.unavailable")
		e.Err = err
		return e
	}
	return fault.Internal(err)
}
