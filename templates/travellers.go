package templates

import (
	"net/url"
	"strconv"
)

// Paths of the saved-traveller and profile forms (issue 18); pkg/web's route
// table declares them.
const (
	TravellersPath      = "/profile/travellers"
	TravellersImport    = TravellersPath + "/import"
	CardsPath           = "/profile/cards"
	ProfileDetailsPath  = "/profile/details"
	ProfileConfigPrefix = "/profile/config/"
	// TravellerResultsID is the element the search swaps.
	TravellerResultsID = "travellers-results"
)

// TravellerPath is a saved traveller's form address; TravellerDeletePath
// its delete form's.
func TravellerPath(id int64) string       { return TravellersPath + "/" + strconv.FormatInt(id, 10) }
func TravellerDeletePath(id int64) string { return TravellerPath(id) + "/delete" }

// CardPath and CardDeletePath are a member card's form addresses.
func CardPath(id int64) string       { return CardsPath + "/" + strconv.FormatInt(id, 10) }
func CardDeletePath(id int64) string { return CardPath(id) + "/delete" }

// TravellerForm is the add or edit form of a saved traveller (spec §3
// Passenger), with the field → catalog key errors of pkg/profile.
type TravellerForm struct {
	TravellerRow     // what the list shows of the traveller
	Phone            string
	Email            string
	DocumentIssuedAt string
	Errors           map[string]string
	ErrorKey         string
}

// TravellerRow is one saved traveller of the list.
type TravellerRow struct {
	ID             int64
	Surname        string
	GivenName      string
	Type           string
	Gender         string
	Birthday       string
	Nationality    string
	DocumentType   string
	DocumentNumber string
	DocumentExpiry string
}

// ImportForm is the paste-DOCS form.
type ImportForm struct {
	Text     string
	ErrorKey string
}

// TravellersView is /profile/travellers.
type TravellersView struct {
	Keyword  string
	Rows     []TravellerRow
	Total    int // matching the keyword
	Count    int // all the agency keeps
	Max      int
	Pager    Pager
	Create   TravellerForm
	Edit     *TravellerForm
	Import   ImportForm
	Today    string
	DocTypes []string
}

// Full reports whether the agency keeps as many travellers as it may.
func (v TravellersView) Full() bool { return v.Count >= v.Max }

// TravellersURL is the list's address for keyword and page.
func TravellersURL(keyword string, page int) string {
	q := url.Values{}
	if keyword != "" {
		q.Set("keyword", keyword)
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	if len(q) == 0 {
		return TravellersPath
	}
	return TravellersPath + "?" + q.Encode()
}

// CardForm is the add or edit form of an airline member card.
type CardForm struct {
	ID          int64
	Airline     string
	Number      string
	HolderName  string
	PassengerID int64
	Errors      map[string]string
	ErrorKey    string
}

// CardRow is one member card of the list.
type CardRow struct {
	ID         int64
	Airline    string
	Number     string
	HolderName string
	Passenger  string // SURNAME/GIVEN of the traveller it is tied to, or ""
}

// CardsView is /profile/cards.
type CardsView struct {
	Rows       []CardRow
	Pager      Pager
	Create     CardForm
	Edit       *CardForm
	Travellers []TravellerRow // to tie a card to
}

// ProfileSettings are the profile page's own forms: details (nickname,
// mobile, area code) and the frequent info of spec §2.
type ProfileSettings struct {
	Nickname      string
	Mobile        string
	AreaCode      string
	Cities        string // comma-separated codes as typed or stored
	Countries     []string
	DefaultRegion string
	DateFormat    string
	DateFormats   []string
	// TimeZone is the user's own zone ("" for the agency's), AgencyZone
	// the agency's, described with its offset.
	TimeZone   string
	AgencyZone string
	// Travellers are the agency's saved travellers, Favourites the ids the
	// user favours among them.
	Travellers []TravellerRow
	Favourites []int64
	// Errors are per form ("details", "cities", "countries",
	// "defaultRegion", "dateFormat", "timeZone"): field → catalog key.
	Errors map[string]map[string]string
}

// ScanProps are the props of the ScanDocument island on a server-rendered
// form (islands/travellers/ScanDocumentForm.tsx): it fills the inputs of
// the form with id Form by their names.
type ScanProps struct {
	Lang string `json:"lang"`
	Form string `json:"form"`
}
