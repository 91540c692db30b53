package railsim

import (
	_ "embed"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/voyage/voyage/pkg/supplier/rail"
)

// stations.tsv is hand-curated, because no licensed machine-readable list
// of Chinese stations exists as a package (RAIL.md). Sources:
//   - telegraph codes, Simplified names and pinyin: China Railway's 12306
//     station list (kyfw.12306.cn/otn/resources/js/framework/station_name.js,
//     fields "@abbr|name|CODE|pinyin|…"). The codes of the Beijing,
//     Shanghai, Tianjin, Guangzhou, Chongqing, Chengdu, Changsha,
//     Changchun, Fuzhou, Harbin, Hangzhou, Jinan, Kunming, Lanzhou,
//     Nanchang, Nanjing, Shenyang, Wuhan, Xi'an, Zhengzhou, Shenzhen North,
//     Nanchang West and the Beijing–Guangzhou HSR stations (Zhuozhou East,
//     Xingtai East, Xinxiang East, Xuchang East, Zhumadian West, Xinyang
//     East) were checked against public copies of that file; the others
//     were written from memory, not checked against any source, and must
//     be checked against a current station_name.js before a real
//     connector relies on them.
//   - English names: China Railway's English station signage (a direction
//     suffix translated: 南 South, 北 North, 东 East, 西 West).
//   - Traditional names: the Simplified names converted character by
//     character with Taiwan usage (瀋陽 for 沈阳, 崑山 for 昆山).
//   - Coordinates: approximate positions written from memory (not checked
//     against a map source); they place stations roughly, nothing more.
//
//go:embed stations.tsv
var stationsTSV string

// Station is one station of the simulated network: the rail seam's.
type Station = rail.Station

// network is the parsed station file, read once at start-up.
type network struct {
	stations []Station // file order
	// keys are each station's search keys, by the stations' index.
	keys   [][]string
	byCode map[string]int
	byCity map[string][]int // English city → station indexes
}

func parseStations(src string) (*network, error) {
	n := &network{byCode: map[string]int{}, byCity: map[string][]int{}}
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 10 {
			return nil, fmt.Errorf("stations.tsv:%d: %d fields, want 10", i+1, len(f))
		}
		lat, err1 := strconv.ParseFloat(f[8], 64)
		lon, err2 := strconv.ParseFloat(f[9], 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("stations.tsv:%d: bad coordinates", i+1)
		}
		st := Station{Code: f[0], Name: f[1], NameHans: f[2], NameHant: f[3], Pinyin: f[4],
			City: f[5], CityHans: f[6], CityHant: f[7], Country: "CN", Lat: lat, Lon: lon}
		if len(st.Code) != 3 || strings.ToUpper(st.Code) != st.Code {
			return nil, fmt.Errorf("stations.tsv:%d: code %q is not three capitals", i+1, st.Code)
		}
		if _, dup := n.byCode[st.Code]; dup {
			return nil, fmt.Errorf("stations.tsv:%d: code %s twice", i+1, st.Code)
		}
		keys := []string{
			strings.ToLower(st.Code),
			strings.ToLower(st.Name),
			strings.ToLower(strings.ReplaceAll(st.Name, " ", "")),
			st.NameHans, st.NameHant, st.Pinyin,
			strings.ToLower(st.City), st.CityHans, st.CityHant,
			initials(st.Pinyin, st.NameHans),
		}
		n.byCode[st.Code] = len(n.stations)
		n.byCity[st.City] = append(n.byCity[st.City], len(n.stations))
		n.stations = append(n.stations, st)
		n.keys = append(n.keys, keys)
	}
	return n, nil
}

// initials is the pinyin abbreviation 12306 lets users type ("bjn" for
// 北京南): the first letter of each syllable. The file has the pinyin
// without syllable breaks (as 12306 writes it), so it is split into as many
// syllables as the Chinese name has characters; of the splits, the one with
// the fewest vowel-initial syllables wins ("changsha nan", not "changshan
// an"), since written pinyin would mark those with an apostrophe.
func initials(pinyin, hans string) string {
	syl := splitPinyin(pinyin, utf8.RuneCountInString(hans))
	var b strings.Builder
	for _, s := range syl {
		b.WriteByte(s[0])
	}
	return b.String()
}

// splitPinyin splits toneless pinyin into n syllables (nil when it cannot).
func splitPinyin(p string, n int) []string {
	best, bestCost := []string(nil), -1
	var walk func(rest string, acc []string, cost int)
	walk = func(rest string, acc []string, cost int) {
		if len(acc) > n || (bestCost >= 0 && cost >= bestCost) {
			return
		}
		if rest == "" {
			if len(acc) == n {
				best, bestCost = append([]string(nil), acc...), cost
			}
			return
		}
		for k := 1; k <= min(6, len(rest)); k++ {
			if !pinyinSyllables[rest[:k]] {
				continue
			}
			c := cost
			if len(acc) > 0 && strings.ContainsRune("aoe", rune(rest[0])) {
				c++
			}
			walk(rest[k:], append(acc, rest[:k]), c)
		}
	}
	walk(p, nil, 0)
	return best
}

// pinyinSyllables are the syllables the station file's names use.
var pinyinSyllables = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`bei jing nan xi chao yang tian jin lang fang cang zhou de dong ji
		tai an qu fu teng zao zhuang xu su beng bu zhen jiang chang wu kun shan shang hai hong qiao
		hang ning bo wen men chao shan shen zhen tian guang shao guan chen heng sha yue han xin zhu ma dian
		zheng xiang xing shi jia bao ding qiu luo long men lan hua rao gui ming er bin chun da lian cheng du
		qing xia ha chong zhuo ao e`) {
		m[s] = true
	}
	return m
}()

// find returns a station by telegraph code.
func (n *network) find(code string) (Station, bool) {
	i, ok := n.byCode[strings.ToUpper(strings.TrimSpace(code))]
	if !ok {
		return Station{}, false
	}
	return n.stations[i], true
}

// sameCity returns the codes of the stations in a station's city (12306
// answers a search from any Beijing station with trains from all of them).
func (n *network) sameCity(code string) []string {
	st, ok := n.find(code)
	if !ok {
		return nil
	}
	var out []string
	for _, i := range n.byCity[st.City] {
		out = append(out, n.stations[i].Code)
	}
	return out
}

// search finds stations whose code, English name, Chinese name in either
// script, pinyin, pinyin initials or city starts with q (case-insensitive).
// Exact code matches come first, then name prefixes, then city matches;
// within a rank the file order (major stations first in each city) holds.
func (n *network) search(q string, limit int) []Station {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil
	}
	qs := strings.ReplaceAll(q, " ", "")
	type hit struct {
		rank, idx int
	}
	var hits []hit
	for i, st := range n.stations {
		rank := -1
		switch {
		case strings.ToLower(st.Code) == q:
			rank = 0
		case prefixAny(n.keys[i][1:6], q, qs):
			rank = 1
		case prefixAny(n.keys[i][9:], q, qs):
			rank = 2
		case prefixAny(n.keys[i][6:9], q, qs):
			rank = 3
		}
		if rank >= 0 {
			hits = append(hits, hit{rank, i})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].rank < hits[b].rank })
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Station, len(hits))
	for i, h := range hits {
		out[i] = n.stations[h.idx]
	}
	return out
}

func prefixAny(keys []string, q, qs string) bool {
	for _, k := range keys {
		if k != "" && (strings.HasPrefix(k, q) || strings.HasPrefix(k, qs)) {
			return true
		}
	}
	return false
}
