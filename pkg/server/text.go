package server

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"net/url"

	"github.com/voyage/voyage/pkg/input"
)

// PlainText refuses a request whose path, query string or URL-encoded form
// carries text that input.Allowed refuses (a NUL answered 500 on PostgreSQL
// and was stored raw on SQLite): onReject answers, told the offending field
// ("path" for the path itself) and the catalog key of the error
// (input.FieldKey). It is the one check for every portal form and every
// query string; JSON bodies are checked by the API's decoder and multipart
// forms by their handlers, which parse them under their own limits. A query's
// page number past input.MaxPage is refused here too (input.PageKey), for
// every list of the API and the portal.
//
// A form body is read here (within LimitBody's cap) and handed on unchanged,
// read error included, so handlers parse it as before.
func PlainText(onReject func(w http.ResponseWriter, r *http.Request, field, key string)) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !input.Allowed(r.URL.Path) {
				onReject(w, r, "path", input.FieldKey)
				return
			}
			if q, err := url.ParseQuery(r.URL.RawQuery); err == nil {
				if field, bad := input.BadValue(q); bad {
					onReject(w, r, field, input.FieldKey)
					return
				}
				if field, bad := input.BadPage(q); bad {
					onReject(w, r, field, input.PageKey)
					return
				}
			}
			if formBody(r) {
				data, err := io.ReadAll(r.Body)
				r.Body = replayBody{Reader: io.MultiReader(bytes.NewReader(data), errReader{err}), closer: r.Body}
				if err == nil {
					if v, perr := url.ParseQuery(string(data)); perr == nil {
						if field, bad := input.BadValue(v); bad {
							onReject(w, r, field, input.FieldKey)
							return
						}
					}
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// formBody reports a request with a URL-encoded form body.
func formBody(r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return false
	}
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && ct == "application/x-www-form-urlencoded"
}

// replayBody is a body read ahead: the same bytes, then the same error.
type replayBody struct {
	io.Reader
	closer io.Closer
}

func (b replayBody) Close() error { return b.closer.Close() }

// errReader returns err (io.EOF when nil) once its bytes are spent.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}
