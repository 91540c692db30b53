package input

import (
	"encoding/json"
	"fmt"
	"mime/multipart"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestAllowed(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"Blue Sea Travel", true},
		{"line one\nline two\r\n\tindented", true},
		{"北京海淀区", true},
		{"=HYPERLINK(\"x\")", true}, // a CSV matter, not an input one
		{"a\x00b", false},
		{"\x00", false},
		{"bell\x07", false},
		{"esc\x1b[31m", false},
		{"\x1f", false},
		{"bad utf-8 \xff", false},
		{"北京\xe5", false},
		{"中\x00文", false},
		{"北京\x1b[31m", false},
		{"Zürich\x7f", false},
		{"Zürich\u0085", false},
		{"\u200b\u00a0", true}, // not control characters: a matter for each field's own rule
	}
	for _, tt := range tests {
		if got := Allowed(tt.in); got != tt.want {
			t.Errorf("Allowed(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestAllowedEveryRuneAnywhere: the rule, not a list of samples. Every
// character up to U+FFFF is put at the start, in the middle and at the end
// of text in three scripts (ASCII, Chinese, accented Latin); it is allowed
// exactly when it is no control character other than tab, line feed and
// carriage return, wherever it stands.
func TestAllowedEveryRuneAnywhere(t *testing.T) {
	for r := rune(0); r <= 0xffff; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		want := !unicode.IsControl(r) || r == '\t' || r == '\n' || r == '\r'
		c := string(r)
		for _, s := range []string{c, "ab" + c + "cd", "北京" + c + "上海", "中" + c, c + "文", "Zürich" + c, "ü" + c + "ü"} {
			if got := Allowed(s); got != want {
				t.Fatalf("Allowed(%q) = %v, want %v (U+%04X)", s, got, want, r)
			}
			if want && Clean(s) != s {
				t.Fatalf("Clean(%q) = %q changed allowed text", s, Clean(s))
			}
			if !want && !Allowed(Clean(s)) {
				t.Fatalf("Clean(%q) = %q is still refused", s, Clean(s))
			}
		}
	}
}

func TestBadValue(t *testing.T) {
	if f, bad := BadValue(map[string][]string{"name": {"Li"}, "remark": {"ok", "x\x00"}, "zz": {"\x01"}}); !bad || f != "remark" {
		t.Errorf("BadValue = %q %v, want remark", f, bad)
	}
	if f, bad := BadValue(map[string][]string{"name": {"Li"}, "remark": {"two\nlines"}}); bad {
		t.Errorf("clean values refused at %q", f)
	}
	if f, bad := BadValue(map[string][]string{"na\x00me": {"Li"}}); !bad || f != "?" {
		t.Errorf("a bad name: %q %v", f, bad)
	}
	form := &multipart.Form{Value: map[string][]string{"remark": {"fine"}},
		File: map[string][]*multipart.FileHeader{"proofs": {{Filename: "a.png"}, {Filename: "b\x00.png"}}}}
	if f, bad := BadMultipart(form); !bad || f != "proofs" {
		t.Errorf("BadMultipart = %q %v, want proofs", f, bad)
	}
	if _, bad := BadMultipart(nil); bad {
		t.Error("no form is refused")
	}
}

func TestBadJSON(t *testing.T) {
	tests := []struct {
		doc, path string
		bad       bool
	}{
		{`{"name":"Li","remark":"a\nb"}`, "", false},
		{`{"name":"Li\u0000"}`, "name", true},
		{`{"a":1,"b":[true,null,{"c":"x"}],"name":"\u0007"}`, "name", true},
		{`{"passengers":[{"surname":"LI"},{"surname":"W\u0000NG"}]}`, "passengers[1].surname", true},
		{`{"settings":{"nested":{"deep":["ok","\u001b"]}}}`, "settings.nested.deep[1]", true},
		{`{"x\u0000":"v"}`, "body", true},
		{`{"o":{"x\u0000":"v"}}`, "o", true},
		{`"\u0000"`, "body", true},
		{`["a","\u0000"]`, "[1]", true},
		{`{"after":{"a":"b"},"next":"\u0001"}`, "next", true},
		{`{"n":12.50,"s":"-1"}`, "", false},
	}
	for _, tt := range tests {
		path, bad, err := BadJSON([]byte(tt.doc))
		if err != nil || bad != tt.bad || path != tt.path {
			t.Errorf("BadJSON(%s) = %q %v %v, want %q %v", tt.doc, path, bad, err, tt.path, tt.bad)
		}
	}
	if _, _, err := BadJSON([]byte(`{"a":`)); err == nil {
		t.Error("a broken document walked without error")
	}
}

func TestClean(t *testing.T) {
	if got := Clean("Blue\x00 Sea\x07\r\n\tTravel\xff"); got != "Blue Sea\r\n\tTravel\uFFFD" {
		t.Errorf("Clean = %q", got)
	}
}

func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"", 5, ""},
		{"Mozilla/5.0", 20, "Mozilla/5.0"},
		{"Mozilla/5.0", 7, "Mozilla"},
		{"Mozilla/5.0", 0, ""},
		// 退 is three bytes: a cut inside it keeps none of it.
		{"退款失败", 6, "退款"},
		{"退款失败", 7, "退款"},
		{"退款失败", 8, "退款"},
		{"退款失败", 9, "退款失"},
		{"a退", 2, "a"},
		{"😀x", 3, ""},
	} {
		got := Clip(c.in, c.n)
		if got != c.want || len(got) > c.n || !utf8.ValidString(got) {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestPlainJSONAgreesWithTheWalk: BadJSON's shortcut (plainJSON) never
// calls a document clean that reading its tokens finds refused text in,
// for every character below U+0100 and a sample above, written as itself
// and as each escape JSON has for it.
func TestPlainJSONAgreesWithTheWalk(t *testing.T) {
	t.Parallel()
	var docs []string
	for r := rune(0); r < 0x3100; r++ {
		if r >= 0x100 && r%97 != 0 {
			continue
		}
		docs = append(docs, fmt.Sprintf(`{"a":["x\\u%04x"],"k":"a\u%04Xb"}`, r, r))
		if r >= 0x20 && r != '"' && r != '\\' && (r < 0xd800 || r > 0xdfff) {
			docs = append(docs, `{"k":"a`+string(r)+`b"}`)
		}
	}
	for _, e := range []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\ud83d\ude00`, `\ud800`, `\u00`} {
		docs = append(docs, `{"k":"a`+e+`b"}`, `{"k`+e+`":1}`)
	}
	docs = append(docs, "{\"k\":\"a\x80b\"}", "{\"k\":\"\xc2\x85\"}", `{"k":"end\`)
	for _, doc := range docs {
		var walked bool
		err := walkJSON([]byte(doc), func(t jsonToken) bool {
			walked = t.isString && !Allowed(t.text)
			return walked
		})
		if plainJSON([]byte(doc)) && json.Valid([]byte(doc)) && (walked || err != nil) {
			t.Errorf("%q: plain, but the walk finds refused text", doc)
		}
		if _, bad, _ := BadJSON([]byte(doc)); bad != walked {
			t.Errorf("%q: BadJSON says bad %v, the walk %v", doc, bad, walked)
		}
	}
}

// TestPathAt: the value that encoding/json's type error points at (the
// offset just past its first token) is named with its list indexes, which
// the decoder's own name for it lacks.
func TestPathAt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		doc, upTo, want string // upTo: the document up to the offset
	}{
		{`{"passengers":[{"surname":"a"},{"surname":5}]}`, `{"passengers":[{"surname":"a"},{"surname":5`, "passengers[1].surname"},
		{`{"passengers":[{"age":[1,2]}]}`, `{"passengers":[{"age":[`, "passengers[0].age"},
		{`{"passengers":{"a":1}}`, `{"passengers":{`, "passengers"},
		{`{"n":1.5,"m":2}`, `{"n":1.5`, "n"},
		{`{"m":{"k":"v"}}`, `{"m":{"k":"v"`, "m.k"},
		{`[1,"x"]`, `[1,"x"`, "[1]"},
		{`"x"`, `"x"`, "body"},
		// An offset inside a key, or past the document, names nothing.
		{`{"key":1}`, `{"ke`, ""},
		{`{"a":1}`, `{"a":1}  `, ""},
	}
	for _, tc := range tests {
		if got := PathAt([]byte(tc.doc), int64(len(tc.upTo))); got != tc.want {
			t.Errorf("PathAt(%s, %d) = %q, want %q", tc.doc, len(tc.upTo), got, tc.want)
		}
	}
}

// BenchmarkBadJSON: the walk every JSON request body takes, over a flight
// booking's body with five travellers, clean (the walk reads it whole).
func BenchmarkBadJSON(b *testing.B) {
	pax := `{"type":"adult","surname":"ZHANG","givenName":"SAN","gender":"male","birthday":"1988-02-03","nationality":"CN",` +
		`"documentType":"passport","documentNumber":"E12345678","documentExpiry":"2031-05-06","phone":"+86 13800000000","email":"zhang.san@example.com"}`
	body := []byte(`{"solutionId":"sol-8c1f2e","quoteId":"q-77a1","passengers":[` + strings.Repeat(pax+",", 4) + pax +
		`],"contact":{"name":"Zhang San","email":"ops@example.com","phone":"+86 13800000000"},"remark":"window seats, please\nand a vegetarian meal"}`)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, bad, err := BadJSON(body); bad || err != nil {
			b.Fatal(bad, err)
		}
	}
}

// BenchmarkAllowed: the check every form value and query parameter passes,
// on a Chinese address and an English remark.
func BenchmarkAllowed(b *testing.B) {
	texts := []string{"北京市海淀区中关村大街27号中关村大厦12层1201室", "Window seats, please; one vegetarian meal (VGML) for Mr Zhang.\nThanks!"}
	for b.Loop() {
		for _, s := range texts {
			if !Allowed(s) {
				b.Fatal(s)
			}
		}
	}
}
