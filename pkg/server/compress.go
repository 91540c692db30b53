package server

import (
	"fmt"
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// compressedTypes are the answers worth compressing: text. Images, PDFs,
// workbooks and archives are compressed already.
var compressedTypes = []string{
	"application/json", "application/problem+json", "text/html", "text/css", "text/javascript",
	"application/javascript", "image/svg+xml", "text/plain", "text/csv", "application/xml",
}

// Compress gzips the text answers of a client that accepts gzip, from
// 1 KiB up (below that the header costs more than it saves): the OpenAPI
// document is 1.48 MB as JSON and about 70 KB gzipped, a portal page a
// fifth of its size. klauspost/compress's gzhttp rather than a
// hand-written writer: it handles Vary, ranges, flushes, ETags and the
// content-type sniffing that a small wrapper gets wrong. The compressed
// answer's ETag gets a suffix, so a cache never mixes the two forms, and
// 1 to 32 random bytes go in the gzip header (BREACH: a page that
// reflects input beside a secret must not have a length that says how
// well they compress together).
func Compress() Middleware {
	wrap, err := gzhttp.NewWrapper(
		gzhttp.MinSize(1024),
		gzhttp.ContentTypes(compressedTypes),
		gzhttp.SuffixETag("-gzip"),
		gzhttp.RandomJitter(32, 0, false),
	)
	if err != nil {
		// The options are constants: a failure is a programming error.
		panic(fmt.Sprintf("server: compression: %v", err))
	}
	return func(next http.Handler) http.Handler { return wrap(next) }
}
