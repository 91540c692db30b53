package input

import (
	"mime/multipart"
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
