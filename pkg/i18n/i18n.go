// Package i18n holds the message catalogs (en, zh-cn, zh-tw) shared by the server
// and the React islands, and the rule that picks a request's language.
//
// Catalogs live in locales/<lang>/<namespace>.json as flat objects of dotted keys
// to strings. Placeholders use i18next's {{name}} syntax so islands read the very
// same files.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"
	"sync"
)

//go:embed locales
var localeFS embed.FS

// Language codes of the catalogs.
const (
	EN   = "en"
	ZhCN = "zh-cn"
	ZhTW = "zh-tw"
)

// Default is the site's default language (spec §3 site info).
const Default = ZhCN

// Supported lists the catalog languages in display order.
func Supported() []string { return []string{EN, ZhCN, ZhTW} }

// Catalog is the set of translations for every supported language.
type Catalog struct {
	msgs map[string]map[string]string
	// misses is told of a key asked for in a language whose catalog lacks
	// it (OnMiss); seen keeps each reported once.
	misses func(Miss)
	mu     sync.Mutex
	seen   map[Miss]bool
}

// Miss is a key asked for in a language whose catalog does not have it: a
// page or message that shows the raw key (or an English or bare-code
// fallback) to its reader.
type Miss struct {
	Lang, Key string
}

// maxMisses bounds how many distinct misses a catalog remembers and
// reports: a key is a constant of the code, so a few hundred means a
// caller passes something else (data) as a key, and reporting it more
// would only grow memory.
const maxMisses = 1000

// OnMiss makes every later miss (each lang and key once) call f, so the
// server can log it (pkg/app logs it as a warning, which the browser walk
// reads) and a test can record it. Set it before the catalog is shared.
func (c *Catalog) OnMiss(f func(Miss)) { c.misses = f }

// keyShaped reports whether key is written as the code writes a catalog
// key: two or more dotted words of letters, digits, '_' and '-'. Text that
// is not (a key with an empty last word, a person's words after a prefix)
// is data a caller tries against the catalog, falling back to the text
// itself, as a statement's descriptions are: no miss to report.
func keyShaped(key string) bool {
	words := strings.Split(key, ".")
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if w == "" || strings.IndexFunc(w, func(r rune) bool {
			return !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0 {
			return false
		}
	}
	return true
}

// miss reports key missing in lang, once.
func (c *Catalog) miss(lang, key string) {
	if c.misses == nil || !keyShaped(key) {
		return
	}
	m := Miss{Lang: lang, Key: key}
	c.mu.Lock()
	if c.seen == nil {
		c.seen = map[Miss]bool{}
	}
	fresh := !c.seen[m] && len(c.seen) < maxMisses
	if fresh {
		c.seen[m] = true
	}
	c.mu.Unlock()
	if fresh {
		c.misses(m)
	}
}

// embedded is the embedded catalogs, parsed once per process: every server
// and test app of a process loads them, and parsing them is most of what
// starting one costs. The messages are only read after loading, so the
// catalogs Load answers share them; each keeps its own misses.
var embedded = sync.OnceValues(func() (*Catalog, error) { return LoadFS(localeFS, "locales") })

// Load reads the embedded catalogs: a catalog of its own (OnMiss), over the
// messages every catalog of the process shares.
func Load() (*Catalog, error) {
	c, err := embedded()
	if err != nil {
		return nil, err
	}
	return &Catalog{msgs: c.msgs}, nil
}

// MustLoad is Load for program start-up and tests, where a broken embedded
// catalog is a build defect.
func MustLoad() *Catalog {
	c, err := Load()
	if err != nil {
		panic(err)
	}
	return c
}

// LoadFS reads catalogs from root/<lang>/*.json in fsys.
func LoadFS(fsys fs.FS, root string) (*Catalog, error) {
	c := &Catalog{msgs: map[string]map[string]string{}}
	for _, lang := range Supported() {
		c.msgs[lang] = map[string]string{}
		files, err := fs.Glob(fsys, path.Join(root, lang, "*.json"))
		if err != nil {
			return nil, fmt.Errorf("i18n: list %s: %w", lang, err)
		}
		for _, f := range files {
			b, err := fs.ReadFile(fsys, f)
			if err != nil {
				return nil, fmt.Errorf("i18n: read %s: %w", f, err)
			}
			var m map[string]string
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("i18n: parse %s: %w", f, err)
			}
			for k, v := range m {
				if _, dup := c.msgs[lang][k]; dup {
					return nil, fmt.Errorf("i18n: key %q defined twice for %s (second in %s)", k, lang, f)
				}
				c.msgs[lang][k] = v
			}
		}
	}
	return c, nil
}

// Keys returns the sorted keys of one language.
func (c *Catalog) Keys(lang string) []string {
	keys := make([]string, 0, len(c.msgs[lang]))
	for k := range c.msgs[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Messages returns a copy of one language's catalog.
func (c *Catalog) Messages(lang string) map[string]string {
	out := make(map[string]string, len(c.msgs[lang]))
	for k, v := range c.msgs[lang] {
		out[k] = v
	}
	return out
}

// Has reports whether key exists in lang.
func (c *Catalog) Has(lang, key string) bool {
	key, _ = splitArgs(key)
	_, ok := c.msgs[Normalize(lang)][key]
	if !ok {
		// A key with plural variants exists as its variants.
		_, ok = c.msgs[Normalize(lang)][key+"_other"]
	}
	return ok
}

// WithArgs folds placeholder arguments (name, value pairs) into a key:
// "money.error.decimals?currency=CNY&places=2". A field error travels as a
// bare catalog key (fault.Error.Fields, the portal's form errors), with no
// room for arguments; T unfolds them, so a field message can still say
// "CNY allows at most 2 decimal places" wherever it is shown.
func WithArgs(key string, args ...any) string {
	if len(args) < 2 {
		return key
	}
	q := url.Values{}
	for i := 0; i+1 < len(args); i += 2 {
		q.Set(fmt.Sprint(args[i]), fmt.Sprint(args[i+1]))
	}
	return key + "?" + q.Encode()
}

// splitArgs undoes WithArgs: the bare key and its arguments as pairs.
// Catalog keys never hold a '?'.
func splitArgs(key string) (string, []any) {
	bare, query, ok := strings.Cut(key, "?")
	if !ok {
		return key, nil
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return bare, nil
	}
	names := make([]string, 0, len(q))
	for n := range q {
		names = append(names, n)
	}
	sort.Strings(names)
	args := make([]any, 0, 2*len(names))
	for _, n := range names {
		args = append(args, n, q.Get(n))
	}
	return bare, args
}

// T translates key into lang, filling {{name}} placeholders from args given
// as name, value pairs and from those WithArgs folded into the key. A missing
// key falls back to English, then to the key itself, so a gap shows up on
// screen instead of an empty string.
func (c *Catalog) T(lang, key string, args ...any) string {
	key, folded := splitArgs(key)
	args = append(folded, args...)
	key = c.pluralKey(Normalize(lang), key, args)
	msg, ok := c.msgs[Normalize(lang)][key]
	if !ok {
		c.miss(Normalize(lang), key)
		if msg, ok = c.msgs[EN][key]; !ok {
			msg = key
		}
	}
	if len(args) < 2 || !strings.Contains(msg, "{{") {
		return msg
	}
	pairs := make([]string, 0, len(args))
	for i := 0; i+1 < len(args); i += 2 {
		pairs = append(pairs, "{{"+fmt.Sprint(args[i])+"}}", fmt.Sprint(args[i+1]))
	}
	return strings.NewReplacer(pairs...).Replace(msg)
}

// Normalize maps a language tag (en-US, zh-CN, zh-Hant, zh_TW…) to a catalog
// code, or "" when it is none of ours.
func Normalize(tag string) string {
	t := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(tag, "_", "-")))
	switch {
	case t == "":
		return ""
	case t == EN || strings.HasPrefix(t, "en-"):
		return EN
	case t == ZhTW, t == "zh-hk", t == "zh-mo", strings.HasPrefix(t, "zh-hant"):
		return ZhTW
	case t == "zh" || t == ZhCN || t == "zh-sg" || strings.HasPrefix(t, "zh-hans") || strings.HasPrefix(t, "zh-"):
		return ZhCN
	}
	return ""
}

// Negotiate applies the language rule of API.md: the lang cookie if it names a
// catalog, else the best Accept-Language entry we have, else def.
func Negotiate(cookie, acceptLanguage, def string) string {
	if l := Normalize(cookie); l != "" {
		return l
	}
	best, bestQ := "", -1.0
	for _, part := range strings.Split(acceptLanguage, ",") {
		tag, q := part, 1.0
		if i := strings.Index(part, ";"); i >= 0 {
			tag = part[:i]
			var f float64
			if _, err := fmt.Sscanf(strings.TrimSpace(part[i+1:]), "q=%g", &f); err == nil {
				q = f
			}
		}
		if l := Normalize(tag); l != "" && q > bestQ && q > 0 {
			best, bestQ = l, q
		}
	}
	if best != "" {
		return best
	}
	if l := Normalize(def); l != "" {
		return l
	}
	return Default
}

// HTMLLang is the value of <html lang> for a catalog code.
func HTMLLang(lang string) string {
	switch Normalize(lang) {
	case ZhCN:
		return "zh-CN"
	case ZhTW:
		return "zh-TW"
	}
	return "en"
}

type ctxKey struct{}

type localizer struct {
	cat  *Catalog
	lang string
}

// WithLocalizer stores the catalog and language for templates and services.
func WithLocalizer(ctx context.Context, c *Catalog, lang string) context.Context {
	return context.WithValue(ctx, ctxKey{}, localizer{cat: c, lang: Normalize(lang)})
}

// Lang returns the request language stored by WithLocalizer, or Default.
func Lang(ctx context.Context) string {
	if l, ok := ctx.Value(ctxKey{}).(localizer); ok && l.lang != "" {
		return l.lang
	}
	return Default
}

// T translates key in the language of ctx; templates call it as i18n.T(ctx, "key").
func T(ctx context.Context, key string, args ...any) string {
	l, ok := ctx.Value(ctxKey{}).(localizer)
	if !ok || l.cat == nil {
		return key
	}
	return l.cat.T(l.lang, key, args...)
}

// Label is the message of key in ctx's language, or fallback where the
// catalog has none: the label of a status, type or kind read from data.
// Unlike a probe with Has, a label the catalog lacks is a gap on the page
// (the reader sees a bare code), so it is reported as a miss.
func Label(ctx context.Context, key, fallback string) string {
	l, ok := ctx.Value(ctxKey{}).(localizer)
	if !ok || l.cat == nil {
		return fallback
	}
	if l.cat.Has(l.lang, key) {
		return l.cat.T(l.lang, key)
	}
	bare, _ := splitArgs(key)
	l.cat.miss(l.lang, bare)
	return fallback
}

// Has reports whether key exists in the catalog of ctx's language.
func Has(ctx context.Context, key string) bool {
	l, ok := ctx.Value(ctxKey{}).(localizer)
	return ok && l.cat != nil && l.cat.Has(l.lang, key)
}
