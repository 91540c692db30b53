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
	return utf8.ValidString(s) && !hasControl(s)
}

// hasControl reports whether s, valid UTF-8, holds a character refused,
// reading its bytes: what refused names is ASCII, or U+0080 to U+00BF,
// which UTF-8 writes as 0xC2 and the code point's own byte. A request
// body is read as it came, without a string's copy.
func hasControl[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < utf8.RuneSelf:
			if refused(rune(c)) {
				return true
			}
		case c == 0xc2 && i+1 < len(s):
			if refused(rune(s[i+1])) {
				return true
			}
		}
	}
	return false
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
// fields (fault.Item): "remark", "passengers[0].surname". bad is false when
// the document is clean; err reports data that is not one JSON value
// (empty, not JSON, or trailing data after the value), in encoding/json's
// words.
func BadJSON(data []byte) (path string, bad bool, err error) {
	if !json.Valid(data) {
		if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
			return "", false, err
		}
		return "", false, errors.New("input: not one JSON value")
	}
	if plainJSON(data) {
		return "", false, nil
	}
	err = walkJSON(data, func(t jsonToken) bool {
		if t.isString && !Allowed(t.text) {
			// A key is no name for itself: its path is its object's.
			path, bad = fieldName(t.path()), true
		}
		return bad
	})
	if err != nil {
		return "", false, err
	}
	return path, bad, nil
}

// plainJSON reports, without reading data's tokens, that none of its
// strings can hold what Allowed refuses: its bytes as they are pass
// Allowed, and no escape in it stands for a refused character (it has only
// \" \\ \/ \n \r \t and \u of an allowed character; \b, \f and \u0000 may).
// Most bodies are plain, and reading one's tokens took 50 µs for a booking
// of five travellers, 879 allocations, on every request. What it is unsure
// of is read.
func plainJSON(data []byte) bool {
	for i := 0; i < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		if i+1 == len(data) {
			return false
		}
		switch data[i+1] {
		case '"', '\\', '/', 'n', 'r', 't':
			i++
		case 'u':
			// \u4e2d: clients that escape everything past ASCII send
			// Chinese text this way.
			if i+6 > len(data) {
				return false
			}
			r, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16)
			if err != nil || refused(rune(r)) {
				return false
			}
			i += 5
		default:
			return false
		}
	}
	return utf8.Valid(data) && !hasControl(data)
}

// PathAt answers the path of the value of data whose first token ends at
// offset, as BadJSON names it: where encoding/json's UnmarshalTypeError
// (Offset) found a value of the wrong type, which it names without the
// list items' indexes ("passengers.surname"). "" when no value ends there.
func PathAt(data []byte, offset int64) string {
	path := ""
	_ = walkJSON(data, func(t jsonToken) bool {
		if t.end < offset || t.key {
			return false
		}
		if t.end == offset {
			path = fieldName(t.path())
		}
		return true
	})
	return path
}

// jsonToken is a token of a JSON document as walkJSON reads it: a value (a
// string, number, true, false, null, or the opening delimiter of an
// object or a list) or an object's key.
type jsonToken struct {
	walk     *jsonWalk
	depth    int // how many containers hold it; a key's object's
	key      bool
	isString bool
	text     string // a string's or a key's text
	end      int64  // the offset just past the token
}

// path is the value's path; a key's is its object's. It is made only when
// asked for: the walk reads every request body.
func (t jsonToken) path() string {
	path := ""
	for _, l := range t.walk.stack[:t.depth] {
		if l.array {
			path = fault.Item(path, l.index)
		} else {
			path = fault.Field(path, l.key)
		}
	}
	return path
}

// jsonWalk holds, per open container, the current key (objects) or index
// (arrays).
type jsonWalk struct{ stack []jsonLevel }

// jsonLevel is an open container; expectKV says whether an object's next
// string is a key.
type jsonLevel struct {
	array    bool
	key      string
	index    int
	expectKV bool
}

// walkJSON reads data token by token, keeping the path of the value being
// read, and calls visit with each value and key until it answers true. An
// error is a document that is not JSON.
func walkJSON(data []byte, visit func(jsonToken) bool) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := &jsonWalk{}
	// advance moves past a finished value inside the enclosing container.
	advance := func() {
		if n := len(w.stack); n > 0 {
			if w.stack[n-1].array {
				w.stack[n-1].index++
			} else {
				w.stack[n-1].expectKV = true
			}
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if len(w.stack) > 0 {
				return io.ErrUnexpectedEOF
			}
			return nil
		}
		if err != nil {
			return err
		}
		n := len(w.stack)
		value := jsonToken{walk: w, depth: n, end: dec.InputOffset()}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if visit(value) {
					return nil
				}
				w.stack = append(w.stack, jsonLevel{array: t == '[', expectKV: t == '{'})
			default:
				w.stack = w.stack[:n-1]
				advance()
			}
			continue
		case string:
			value.isString, value.text = true, t
			if n > 0 && !w.stack[n-1].array && w.stack[n-1].expectKV {
				w.stack[n-1].key, w.stack[n-1].expectKV = t, false
				value.key, value.depth = true, n-1
				if visit(value) {
					return nil
				}
				continue
			}
		}
		if visit(value) {
			return nil
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
