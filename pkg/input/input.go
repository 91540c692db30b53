// Package input holds the rule every piece of text people send must pass,
// whatever it is for: valid UTF-8 without control characters. A NUL byte is
// refused by PostgreSQL (a 500) and stored raw by SQLite; other control
// characters end up in documents, CSV files and e-mails. Tab, line feed and
// carriage return are allowed: multi-line fields (remarks, addresses) need
// them, and they are harmless in a single-line one.
//
// The checks run at the edges, once for every handler: the API's JSON
// decoder, the server's query and form check, the multipart handlers.
package input

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/voyage/voyage/pkg/fault"
)

// FieldKey is the catalog key of the field error for refused text.
const FieldKey = "error.field.control"

// Page numbers and sizes, wherever a list is paged (a query's page and
// pageSize, a search's solutions): pages are numbered 1 to MaxPage, a page
// holds at most MaxPageSize items. A page number past MaxPage is refused
// rather than computed with: its offset ((page-1) × size) overflowed into a
// 500 on PostgreSQL.
const (
	MaxPage     = 10_000
	MaxPageSize = 100
	// PageKey and PageSizeKey are the catalog keys of their field errors.
	PageKey     = "error.field.page"
	PageSizeKey = "error.field.pageSize"
)

// BadPage returns "page" when a query's page is a whole number past
// MaxPage (however many digits it has). Other values of page and pageSize
// stay lenient, as reads are: no number, zero or less is page 1 and the
// default size; a size past MaxPageSize is MaxPageSize.
func BadPage(q map[string][]string) (string, bool) {
	for _, v := range q["page"] {
		v = strings.TrimPrefix(v, "+")
		if v == "" || strings.Trim(v, "0123456789") != "" {
			continue
		}
		if n, err := strconv.Atoi(v); err != nil || n > MaxPage {
			return "page", true
		}
	}
	return "", false
}

// Allowed reports whether s is valid UTF-8 without control characters:
// C0 other than tab, line feed and carriage return, DEL, and C1 (U+0080 to
// U+009F, which a terminal or a CSV reader may take as commands too).
// Every character is looked at, wherever it is: a control character after
// Chinese text is as harmful as one before it.
func Allowed(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if refused(rune(c)) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || refused(r) {
			return false
		}
		i += size
	}
	return true
}

// refused is a control character Allowed refuses.
func refused(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || (r >= 0x7f && r <= 0x9f)
}

// Clean is s without what Allowed refuses (invalid UTF-8 becomes U+FFFD):
// for showing refused input back in a form, never for storing it.
func Clean(s string) string {
	return strings.Map(func(r rune) rune {
		if refused(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// Clip cuts s to at most n bytes without splitting a character, for a
// bounded text we keep or pass on (a user agent, a refund's note, a
// channel's description): cut inside a character it would be invalid
// UTF-8, which PostgreSQL refuses to store.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// BadValue returns the first field (in name order) of v whose name or one
// of whose values is not Allowed.
func BadValue(v map[string][]string) (string, bool) {
	names := make([]string, 0, len(v))
	for n := range v {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if !Allowed(n) {
			return "?", true
		}
		for _, s := range v[n] {
			if !Allowed(s) {
				return n, true
			}
		}
	}
	return "", false
}

// BadMultipart is BadValue over a multipart form's values and the names of
// its files (a file name is stored with the file).
func BadMultipart(f *multipart.Form) (string, bool) {
	if f == nil {
		return "", false
	}
	if name, bad := BadValue(f.Value); bad {
		return name, true
	}
	names := make(map[string][]string, len(f.File))
	for field, files := range f.File {
		for _, fh := range files {
			names[field] = append(names[field], fh.Filename)
		}
	}
	return BadValue(names)
}

// BadJSON walks a JSON document and returns the path of the first string
// (a value or an object key) that is not Allowed, named as the API names
// fields (fault.Item): "remark", "passengers[0].surname". ok is false when the document
// is clean; err reports a document that is not JSON (the caller's decoder
// says so in its own words, so the walk only stops).
func BadJSON(data []byte) (path string, bad bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// stack holds, per open container, the current key (objects) or index
	// (arrays); expectKV says whether an object's next string is a key.
	type level struct {
		array    bool
		key      string
		index    int
		expectKV bool
	}
	var stack []level
	name := func(stack []level) string {
		path := ""
		for _, l := range stack {
			if l.array {
				path = fault.Item(path, l.index)
			} else {
				path = fault.Field(path, l.key)
			}
		}
		return path
	}
	// advance moves past a finished value inside the enclosing container.
	advance := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].expectKV = true
			}
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if len(stack) > 0 {
				return "", false, io.ErrUnexpectedEOF
			}
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, level{expectKV: true})
			case '[':
				stack = append(stack, level{array: true})
			default:
				stack = stack[:len(stack)-1]
				advance()
			}
			continue
		case string:
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].expectKV {
				stack[n-1].key, stack[n-1].expectKV = t, false
				if !Allowed(t) {
					// A key is no name for itself: name its object.
					return fieldName(name(stack[:n-1])), true, nil
				}
				continue
			}
			if !Allowed(t) {
				return fieldName(name(stack)), true, nil
			}
		}
		advance()
	}
}

// fieldName is a path, or "body" for a bare top-level value.
func fieldName(p string) string {
	if p == "" {
		return "body"
	}
	return p
}
