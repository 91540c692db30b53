package geo

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Place types.
const (
	TypeAirport = "airport"
	TypeCity    = "city"
)

// Match tiers, best first.
const (
	tierCode   = iota // the whole IATA code
	tierExact         // a whole name ("xian" is Xi'an before Xianggang)
	tierName          // the start of a name: English, Chinese, pinyin
	tierWord          // the start of a later word, Chinese character run or pinyin syllable; pinyin initials
	tierPrefix        // the start of a code
	tiers
)

// searchEntry is one answer the index can give: a city of several airports
// or an airport.
type searchEntry struct {
	city    bool
	code    string
	parent  int32 // the entry of the airport's multi-airport city, -1 if none
	airport int32 // index in Airports (airport entries)
}

// searchKey is one normalised string that finds an entry.
type searchKey struct {
	key   string
	entry int32
	tier  uint8
}

type searchIndex struct {
	entries []searchEntry // busiest first
	keys    []searchKey   // sorted by key
}

var (
	indexOnce sync.Once
	index     *searchIndex
)

// fold normalises text for matching: compatibility forms (full-width
// letters), no accents, lower case, 臺 as 台, and nothing but letters and
// digits, so "Xi'an", "xian" and "XI AN" meet.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range norm.NFKD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == '臺':
			b.WriteRune('台')
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// stopWords do not start a word key: "airport" would find every airport.
var stopWords = map[string]bool{
	"airport": true, "international": true, "intl": true, "regional": true, "municipal": true, "county": true,
	"field": true, "airfield": true, "aerodrome": true, "air": true, "base": true, "the": true, "of": true,
	"de": true, "del": true, "da": true, "do": true, "aeropuerto": true, "aeroporto": true, "aeroport": true, "flughafen": true,
	"guo": true, "ji": true, "chang": true,
}

// genericHan do not start a Chinese key: 国际机场 is in every name.
var genericHan = map[rune]bool{'国': true, '國': true, '际': true, '際': true, '机': true, '機': true, '场': true, '場': true}

type keyAdder struct {
	keys  []searchKey
	entry int32
	seen  map[string]uint8
}

func (k *keyAdder) add(key string, tier uint8) {
	if key == "" {
		return
	}
	if t, ok := k.seen[key]; ok && t <= tier {
		return
	}
	k.seen[key] = tier
	k.keys = append(k.keys, searchKey{key: key, entry: k.entry, tier: tier})
}

// name adds a name: the whole of it, and every later word (Latin script) or
// character run (Chinese) as a word key.
func (k *keyAdder) name(s string) {
	whole := fold(s)
	k.add(whole, tierName)
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i := 1; i < len(words); i++ {
		if stopWords[fold(words[i])] {
			continue
		}
		k.add(fold(strings.Join(words[i:], "")), tierWord)
	}
	runes := []rune(whole)
	for i := 1; i < len(runes); i++ {
		if unicode.Is(unicode.Han, runes[i]) && !genericHan[runes[i]] {
			k.add(string(runes[i:]), tierWord)
		}
	}
}

// names adds the English and Chinese names of n.
func (k *keyAdder) names(n Names) {
	k.name(n.En)
	k.name(n.ZhCN)
	k.name(n.ZhTW)
}

// pinyin adds toneless pinyin given as syllables: the whole, each later
// syllable run and the initials ("bj" for Beijing).
func (k *keyAdder) pinyin(syllables string) {
	s := strings.Fields(syllables)
	if len(s) == 0 {
		return
	}
	k.add(strings.Join(s, ""), tierName)
	initials := make([]byte, 0, len(s))
	for i, syl := range s {
		initials = append(initials, syl[0])
		if i > 0 && !stopWords[syl] {
			k.add(strings.Join(s[i:], ""), tierWord)
		}
	}
	if len(s) > 1 {
		k.add(string(initials), tierWord)
	}
}

func buildIndex() {
	p := loaded()
	// Order: each place by its busiest airport; a city just before its own
	// busiest airport.
	type ordered struct {
		e     searchEntry
		order int
	}
	var list []ordered
	for i, a := range p.airports {
		list = append(list, ordered{searchEntry{code: a.Code, airport: int32(i), parent: -1}, 2*i + 1})
	}
	for _, c := range p.cities {
		if len(c.Airports) < 2 {
			continue
		}
		best := len(p.airports)
		for _, code := range c.Airports {
			if i, ok := p.airportAt[code]; ok && i < best {
				best = i
			}
		}
		list = append(list, ordered{searchEntry{city: true, code: c.Code, airport: -1, parent: -1}, 2 * best})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].order < list[j].order })

	ix := &searchIndex{entries: make([]searchEntry, len(list))}
	cityEntry := map[string]int32{}
	for i, o := range list {
		ix.entries[i] = o.e
		if o.e.city {
			cityEntry[o.e.code] = int32(i)
		}
	}
	for i := range ix.entries {
		e := &ix.entries[i]
		k := keyAdder{entry: int32(i), seen: map[string]uint8{}}
		if e.city {
			c := p.cities[p.cityAt[e.code]]
			k.add(strings.ToLower(c.Code), tierPrefix)
			k.names(c.Name)
			k.pinyin(p.citySyllables[c.Code])
		} else {
			a := p.airports[e.airport]
			if ci, ok := cityEntry[a.CityCode]; ok {
				e.parent = ci
			}
			k.add(strings.ToLower(a.Code), tierPrefix)
			k.names(a.Name)
			k.pinyin(p.airportSyllables[a.Code])
			c := p.cities[p.cityAt[a.CityCode]]
			if e.parent < 0 {
				// A city of one airport is found by the city's names too.
				k.names(c.Name)
				k.pinyin(p.citySyllables[c.Code])
			}
			// "Tokyo Haneda", "London Heathrow": the city then the airport.
			if cn := fold(c.Name.En); !strings.HasPrefix(fold(a.Name.En), cn) {
				k.add(cn+fold(a.Name.En), tierName)
			}
		}
		ix.keys = append(ix.keys, k.keys...)
	}
	sort.Slice(ix.keys, func(i, j int) bool { return ix.keys[i].key < ix.keys[j].key })
	index = ix
}

// Search autocompletes an airport or city for q: the exact IATA code first
// (a city code answers the city with its airports), then places whose names
// start with q — in English, Simplified or Traditional Chinese, pinyin, or
// by a later word — each group busiest first. A city of several airports
// answers as type "city" with the airports nested; a city of one airport
// answers as its airport. Names are in lang (en, zh-cn, zh-tw). An empty q
// gives the busiest places. limit ≤ 0 means 10.
func Search(q, lang string, limit int) []Place {
	indexOnce.Do(buildIndex)
	if limit <= 0 {
		limit = 10
	}
	ix := index
	n := len(ix.entries)
	f := fold(q)
	if f == "" && strings.TrimSpace(q) != "" {
		return []Place{} // only punctuation: nothing can match
	}
	out := make([]Place, 0, limit)
	// An airport whose city is in the answer is inside it.
	inside := func(e searchEntry, best []uint8) bool { return e.parent >= 0 && best[e.parent] != 0 }
	if f == "" {
		for _, e := range ix.entries {
			if len(out) == limit {
				break
			}
			if e.parent < 0 {
				out = append(out, place(e, lang))
			}
		}
		return out
	}
	best := make([]uint8, n) // tier+1 per entry; 0 = no match
	var touched []int32
	i := sort.Search(len(ix.keys), func(i int) bool { return ix.keys[i].key >= f })
	for ; i < len(ix.keys) && strings.HasPrefix(ix.keys[i].key, f); i++ {
		k := ix.keys[i]
		t := k.tier
		switch {
		case t == tierPrefix && k.key == f && len(f) == 3:
			t = tierCode
		case t == tierName && k.key == f:
			t = tierExact
		}
		if best[k.entry] == 0 {
			touched = append(touched, k.entry)
		}
		if best[k.entry] == 0 || t+1 < best[k.entry] {
			best[k.entry] = t + 1
		}
	}
	if len(touched) <= 512 {
		// Few matches: order them by tier, then by size (entry order).
		slices.SortFunc(touched, func(a, b int32) int {
			if best[a] != best[b] {
				return int(best[a]) - int(best[b])
			}
			return int(a - b)
		})
		for _, i := range touched {
			if len(out) == limit {
				break
			}
			if e := ix.entries[i]; !inside(e, best) {
				out = append(out, place(e, lang))
			}
		}
		return out
	}
	// Many matches (one or two letters): walk the entries once per tier,
	// which stops as soon as the answer is full.
	for t := uint8(1); t <= tiers && len(out) < limit; t++ {
		for i := 0; i < n && len(out) < limit; i++ {
			if best[i] == t && !inside(ix.entries[i], best) {
				out = append(out, place(ix.entries[i], lang))
			}
		}
	}
	return out
}

// place renders an entry in lang.
func place(e searchEntry, lang string) Place {
	p := loaded()
	if e.city {
		c := p.cities[p.cityAt[e.code]]
		pl := Place{Code: c.Code, Name: c.Name.In(lang), Type: TypeCity, CityCode: c.Code, CityName: c.Name.In(lang),
			Country: c.Country, CountryName: countryName(c.Country, lang)}
		for _, code := range c.Airports {
			a := p.airports[p.airportAt[code]]
			pl.Airports = append(pl.Airports, airportPlace(a, c, lang))
		}
		return pl
	}
	a := p.airports[e.airport]
	return airportPlace(a, p.cities[p.cityAt[a.CityCode]], lang)
}

func airportPlace(a Airport, c City, lang string) Place {
	return Place{Code: a.Code, Name: a.Name.In(lang), Type: TypeAirport, CityCode: c.Code, CityName: c.Name.In(lang),
		Country: a.Country, CountryName: countryName(a.Country, lang)}
}

func countryName(code, lang string) string {
	if c, ok := Lookup(code); ok {
		return c.Name(lang)
	}
	return ""
}
