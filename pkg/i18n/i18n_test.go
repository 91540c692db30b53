package i18n

import (
	"context"
	"regexp"
	"sort"
	"testing"
	"testing/fstest"
)

// TestCatalogsComplete fails when a key is missing in any language, when a
// translation is empty, or when languages disagree on a message's placeholders.
func TestCatalogsComplete(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	for _, l := range Supported() {
		for _, k := range c.Keys(l) {
			all[k] = true
		}
	}
	if len(all) == 0 {
		t.Fatal("no keys loaded")
	}
	placeholder := regexp.MustCompile(`\{\{\s*(\w+)\s*\}\}`)
	names := func(s string) []string {
		var out []string
		for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		sort.Strings(out)
		return out
	}
	for k := range all {
		en := c.msgs[EN][k]
		for _, l := range Supported() {
			v, ok := c.msgs[l][k]
			if !ok {
				t.Errorf("key %q missing in %s", k, l)
				continue
			}
			if v == "" {
				t.Errorf("key %q empty in %s", k, l)
			}
			if a, b := names(en), names(v); len(a) != len(b) || (len(a) > 0 && a[0] != b[0]) {
				t.Errorf("key %q: placeholders %v in en but %v in %s", k, a, b, l)
			}
		}
	}
}

func TestLoadRejectsDuplicates(t *testing.T) {
	fsys := fstest.MapFS{
		"l/en/a.json":    {Data: []byte(`{"x.k":"one"}`)},
		"l/en/b.json":    {Data: []byte(`{"x.k":"two"}`)},
		"l/zh-cn/a.json": {Data: []byte(`{}`)},
		"l/zh-tw/a.json": {Data: []byte(`{}`)},
	}
	if _, err := LoadFS(fsys, "l"); err == nil {
		t.Fatal("a key defined in two files loaded without error")
	}
}

func TestT(t *testing.T) {
	fsys := fstest.MapFS{
		"l/en/a.json":    {Data: []byte(`{"hello":"Hello {{name}}","only.en":"English only"}`)},
		"l/zh-cn/a.json": {Data: []byte(`{"hello":"你好，{{name}}"}`)},
		"l/zh-tw/a.json": {Data: []byte(`{"hello":"您好，{{name}}"}`)},
	}
	c, err := LoadFS(fsys, "l")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ lang, key, want string }{
		{"en", "hello", "Hello Ann"},
		{"zh-CN", "hello", "你好，Ann"},
		{"zh_TW", "hello", "您好，Ann"},
		{"zh-cn", "only.en", "English only"},
		{"en", "missing.key", "missing.key"},
	}
	for _, tt := range tests {
		if got := c.T(tt.lang, tt.key, "name", "Ann"); got != tt.want {
			t.Errorf("T(%s, %s) = %q, want %q", tt.lang, tt.key, got, tt.want)
		}
	}
	ctx := WithLocalizer(context.Background(), c, "zh-tw")
	if got := T(ctx, "hello", "name", "Bo"); got != "您好，Bo" {
		t.Errorf("T(ctx) = %q", got)
	}
	if !Has(ctx, "hello") || Has(ctx, "nope") {
		t.Error("Has is wrong")
	}
}

// TestWithArgs: a field error key can carry its message's arguments.
func TestWithArgs(t *testing.T) {
	fsys := fstest.MapFS{
		"l/en/a.json":    {Data: []byte(`{"dec":"{{currency}} allows at most {{places}} decimal places"}`)},
		"l/zh-cn/a.json": {Data: []byte(`{"dec":"{{currency}} 最多 {{places}} 位小数"}`)},
		"l/zh-tw/a.json": {Data: []byte(`{"dec":"{{currency}} 最多 {{places}} 位小數"}`)},
	}
	c, err := LoadFS(fsys, "l")
	if err != nil {
		t.Fatal(err)
	}
	key := WithArgs("dec", "currency", "CNY", "places", 2)
	if key != "dec?currency=CNY&places=2" {
		t.Errorf("WithArgs = %q", key)
	}
	if got := c.T("en", key); got != "CNY allows at most 2 decimal places" {
		t.Errorf("T(en) = %q", got)
	}
	if got := c.T("zh-tw", WithArgs("dec", "currency", "A&B=?", "places", 0)); got != "A&B=? 最多 0 位小數" {
		t.Errorf("T(zh-tw) = %q", got)
	}
	if !c.Has("en", key) || WithArgs("dec") != "dec" {
		t.Error("Has or WithArgs without arguments is wrong")
	}
}

func TestNegotiate(t *testing.T) {
	tests := []struct{ cookie, accept, def, want string }{
		{"", "", "zh-cn", ZhCN},
		{"", "", "", ZhCN},
		{"", "", "en", EN},
		{"en", "zh-CN", "zh-cn", EN},
		{"klingon", "zh-TW", "en", ZhTW},
		{"", "fr-FR,en;q=0.8,zh;q=0.5", "zh-cn", EN},
		{"", "zh-Hant-HK", "en", ZhTW},
		{"", "zh-HK", "en", ZhTW},
		{"", "zh-SG", "en", ZhCN},
		{"", "zh", "en", ZhCN},
		{"", "en;q=0.2,zh-TW;q=0.9", "en", ZhTW},
		{"", "de,fr", "en", EN},
		{"", "en;q=0", "zh-tw", ZhTW},
	}
	for _, tt := range tests {
		if got := Negotiate(tt.cookie, tt.accept, tt.def); got != tt.want {
			t.Errorf("Negotiate(%q, %q, %q) = %q, want %q", tt.cookie, tt.accept, tt.def, got, tt.want)
		}
	}
	for in, want := range map[string]string{"en": "en", "zh-cn": "zh-CN", "zh-tw": "zh-TW", "": "en"} {
		if got := HTMLLang(in); got != want {
			t.Errorf("HTMLLang(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlural(t *testing.T) {
	c := MustLoad()
	tests := []struct {
		lang  string
		count any
		want  string
	}{
		{EN, 1, "1 entry"},
		{EN, 0, "0 entries"},
		{EN, 2, "2 entries"},
		{EN, int64(1), "1 entry"},
		{EN, "1", "1 entry"},
		{ZhCN, 1, "共 1 笔"},
		{ZhTW, 5, "共 5 筆"},
	}
	for _, tt := range tests {
		if got := c.T(tt.lang, "statement.entries", "count", tt.count); got != tt.want {
			t.Errorf("%s %v: got %q, want %q", tt.lang, tt.count, got, tt.want)
		}
	}
	if got := c.T(EN, WithArgs("auth.throttle.minutes", "count", 1)); got != "Too many failed attempts. Please try again in 1 minute." {
		t.Errorf("folded count: %q", got)
	}
	if !c.Has(EN, "auth.throttle.seconds") {
		t.Error("a key with plural variants is not found")
	}
}

// TestMissesReported: a key a language lacks, asked through T or as a
// label, reaches OnMiss once per language; a key that exists, a probe with
// Has and a plural key with its variants report nothing.
func TestMissesReported(t *testing.T) {
	fsys := fstest.MapFS{
		"l/en/a.json":    {Data: []byte(`{"hello":"Hello","only.en":"English only","n_one":"{{count}} seat","n_other":"{{count}} seats","st.open":"Open"}`)},
		"l/zh-cn/a.json": {Data: []byte(`{"hello":"你好","n_other":"{{count}} 个座位","st.open":"开放"}`)},
		"l/zh-tw/a.json": {Data: []byte(`{"hello":"您好","n_other":"{{count}} 個座位","st.open":"開放"}`)},
	}
	c, err := LoadFS(fsys, "l")
	if err != nil {
		t.Fatal(err)
	}
	var got []Miss
	c.OnMiss(func(m Miss) { got = append(got, m) })
	c.T("en", "hello")
	c.T("zh-cn", "hello")
	c.T("zh-cn", "n", "count", 3)
	c.T("en", "n", "count", 1)
	c.Has("zh-cn", "nowhere.at.all")
	c.T("zh-cn", "only.en")
	c.T("zh-cn", "only.en")
	c.T("zh-tw", "trainportal.status.holding?x=1")
	// Data tried against the catalog is not a key: no miss.
	c.T("zh-cn", "finance.description.")
	c.T("zh-cn", "finance.description.Top-up by bank, ref 12")
	c.T("zh-cn", "plain words")
	ctx := WithLocalizer(context.Background(), c, "zh-cn")
	if got := Label(ctx, "st.open", "open"); got != "开放" {
		t.Errorf("Label(st.open) = %q, want 开放", got)
	}
	if got := Label(ctx, "st.holding", "holding"); got != "holding" {
		t.Errorf("Label(st.holding) = %q, want the fallback", got)
	}
	want := []Miss{{ZhCN, "only.en"}, {ZhTW, "trainportal.status.holding"}, {ZhCN, "st.holding"}}
	if len(got) != len(want) {
		t.Fatalf("misses %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("miss %d = %v, want %v", i, got[i], want[i])
		}
	}
}

// Two servers of one process load the embedded catalogs once, but each is
// told of its own misses only, once per key.
func TestLoadedCatalogsKeepTheirOwnMisses(t *testing.T) {
	a, b := MustLoad(), MustLoad()
	var gotA, gotB []Miss
	a.OnMiss(func(m Miss) { gotA = append(gotA, m) })
	b.OnMiss(func(m Miss) { gotB = append(gotB, m) })
	if got := a.T(ZhCN, "orders.change.option"); got != "所选方案" {
		t.Errorf("a loaded catalog reads %q", got)
	}
	a.T(ZhCN, "orders.no.such.key")
	b.T(ZhCN, "orders.no.such.key")
	b.T(ZhCN, "orders.no.such.key")
	want := []Miss{{ZhCN, "orders.no.such.key"}}
	if len(gotA) != 1 || gotA[0] != want[0] || len(gotB) != 1 || gotB[0] != want[0] {
		t.Errorf("misses: a %v, b %v; want %v each", gotA, gotB, want)
	}
}

// BenchmarkLoad is what starting a server costs in catalogs: parsing them
// (LoadFS, as every start did before) against Load, which parses them once
// per process.
func BenchmarkLoad(b *testing.B) {
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadFS(localeFS, "locales"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
