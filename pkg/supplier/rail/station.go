package rail

import "strings"

// Station is one station of a railway's network, as a station directory
// (a source's embedded list) answers it.
type Station struct {
	Code     string  `json:"code"` // telegraph code (电报码)
	Name     string  `json:"name"` // English
	NameHans string  `json:"nameHans"`
	NameHant string  `json:"nameHant"`
	Pinyin   string  `json:"pinyin"`
	City     string  `json:"city"` // English
	CityHans string  `json:"cityHans"`
	CityHant string  `json:"cityHant"`
	Country  string  `json:"country"` // ISO 3166-1 alpha-2
	Lat      float64 `json:"lat"`
	Lon      float64 `json:"lon"`
}

// Localized returns the station's name and city in a language: "zh-cn"
// Simplified, "zh-tw" Traditional, anything else English.
func (s Station) Localized(lang string) (name, city string) {
	switch strings.ToLower(lang) {
	case "zh-cn", "zh", "zh-hans":
		return s.NameHans, s.CityHans
	case "zh-tw", "zh-hk", "zh-hant":
		return s.NameHant, s.CityHant
	}
	return s.Name, s.City
}
