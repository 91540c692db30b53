package geo

// Names are a place's or airline's names in the interface languages.
type Names struct {
	En   string `json:"en"`
	ZhCN string `json:"zh-cn"`
	ZhTW string `json:"zh-tw"`
}

// In is the name in lang (en, zh-cn, zh-tw), English when that one is empty.
func (n Names) In(lang string) string {
	switch lang {
	case "zh-cn":
		if n.ZhCN != "" {
			return n.ZhCN
		}
	case "zh-tw":
		if n.ZhTW != "" {
			return n.ZhTW
		}
	}
	return n.En
}

// Airport is a commercial airport.
type Airport struct {
	Code     string // IATA
	ICAO     string
	CityCode string // IATA metropolitan code (BJS for PEK and PKX); the airport's own code when it has no group
	Country  string // ISO 3166-1 alpha-2
	Name     Names
	Lat, Lon float64
	TZ       string // IANA time zone
	// Rank is the airport's place by passengers (1 = busiest); 0 when not
	// among the ranked airports.
	Rank   int
	Pinyin string // toneless pinyin of the Chinese name, lower case, no spaces
	// MinConnect is the minimum connection time in minutes when changing
	// planes here between two separate tickets or carriers.
	MinConnect int
}

// City is a metropolitan area that groups airports under one code.
type City struct {
	Code     string
	Country  string
	Name     Names
	Pinyin   string
	Airports []string // airport codes, busiest first
}

// Airline is a carrier.
type Airline struct {
	Code     string // IATA designator
	ICAO     string
	Name     Names
	Country  string
	Hubs     []string // airport codes, main hub first
	Alliance string   // star, oneworld, skyteam or empty
	LowCost  bool
	Rank     int // 1 = largest by passengers; 0 when unranked
}

// Route is a city pair an airline flies nonstop (airport codes).
type Route struct {
	Carrier     string
	Origin      string
	Destination string
}

// Place is an airport or a city an autocomplete answers, named in the
// request's language.
type Place struct {
	// Code is the place's IATA code: an airport's (PEK) or a city's (BJS),
	// as a search's origin or destination takes it.
	Code string `json:"code"`
	// Name is the airport's or city's name in the request's language.
	Name string `json:"name"`
	// Type is airport or city (a city of several airports, listed in
	// airports).
	Type string `json:"type"`
	// CityCode is the IATA code of the place's city (BJS for PEK); an
	// airport whose city has no code of its own gives its own code.
	CityCode string `json:"cityCode"`
	// CityName is the city's name in the request's language.
	CityName string `json:"cityName"`
	// Country is the country's ISO 3166-1 alpha-2 code.
	Country string `json:"country"`
	// CountryName is the country's name in the request's language.
	CountryName string `json:"countryName"`
	// Airports are a city's airports, busiest first; absent for an
	// airport.
	Airports []Place `json:"airports,omitempty"`
}

// AirportName is an airport's name in lang, else its city's (a code such
// as BJS names a city), else the code itself. Names are looked up when
// shown, never kept: an order booked in English reads in Chinese to a
// Chinese caller.
func AirportName(code, lang string) string {
	if a, ok := AirportByCode(code); ok {
		return a.Name.In(lang)
	}
	if c, ok := CityByCode(code); ok {
		return c.Name.In(lang)
	}
	return code
}

// AirlineName is an airline's name in lang, else its code.
func AirlineName(code, lang string) string {
	if a, ok := AirlineByCode(code); ok {
		if n := a.Name.In(lang); n != "" {
			return n
		}
	}
	return code
}
