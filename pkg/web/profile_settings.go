package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/templates"
)

// profileSettings are u's stored details and frequent info for the forms.
func profileSettings(u auth.User) templates.ProfileSettings {
	st := templates.ProfileSettings{Nickname: u.Nickname, Mobile: u.Mobile, AreaCode: u.AreaCode,
		Cities: strings.Join(u.FavouriteCities(), ", "), Countries: u.FavouriteCountries(), Favourites: u.FavouritePassengers(),
		DefaultRegion: u.DefaultRegion, DateFormat: u.DateFormat, DateFormats: profile.DateFormats, TimeZone: u.TimeZone}
	if st.DefaultRegion == "" {
		st.DefaultRegion = profile.DefaultRegion
	}
	if st.DateFormat == "" {
		st.DateFormat = profile.DefaultDateFormat
	}
	return st
}

// profileDetailsSave takes the nickname, mobile and area code form.
func (s *Server) profileDetailsSave(w http.ResponseWriter, r *http.Request) {
	v, ok := s.travellersViewer(w, r)
	if !ok {
		return
	}
	u := profile.Update{Nickname: r.PostFormValue("nickname"), Mobile: r.PostFormValue("mobile"), AreaCode: r.PostFormValue("areaCode")}
	err := s.travellers.UpdateMe(r.Context(), v.Principal, u, s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, pathProfile, templates.Flash{Kind: "success", Key: "travellers.profile.flash.details"})
		return
	}
	s.settingsRefused(w, r, v, "details", err, func(st *templates.ProfileSettings) {
		st.Nickname, st.Mobile, st.AreaCode = u.Nickname, u.Mobile, u.AreaCode
	})
}

// profileConfigSave takes one frequent-info form (PUT /me/config/{key} of
// spec §7): cities typed as codes separated by commas or spaces, countries
// chosen from a list, the default area code, the date format.
func (s *Server) profileConfigSave(w http.ResponseWriter, r *http.Request) {
	v, ok := s.travellersViewer(w, r)
	if !ok {
		return
	}
	key := r.PathValue("key")
	// The server's body limit has already applied; a form that cannot be
	// parsed reads as empty and is refused by the service's rules.
	_ = r.ParseForm()
	var value any
	var keep func(*templates.ProfileSettings)
	switch key {
	case profile.KeyCities:
		typed := r.PostFormValue("cities")
		list := strings.FieldsFunc(typed, func(c rune) bool { return c == ',' || c == ' ' || c == '，' || c == '\n' || c == '\r' })
		value, keep = list, func(st *templates.ProfileSettings) { st.Cities = typed }
	case profile.KeyCountries:
		list := r.PostForm["countries"]
		if list == nil {
			list = []string{}
		}
		value, keep = list, func(st *templates.ProfileSettings) { st.Countries = list }
	case profile.KeyPassengers:
		ids := []int64{}
		for _, raw := range r.PostForm["passengers"] {
			// A value that is no id reads as 0, which is no traveller of
			// the agency and is refused as such.
			id, _ := strconv.ParseInt(raw, 10, 64)
			ids = append(ids, id)
		}
		value, keep = ids, func(st *templates.ProfileSettings) { st.Favourites = ids }
	case profile.KeyDefaultRegion:
		typed := r.PostFormValue("defaultRegion")
		value, keep = typed, func(st *templates.ProfileSettings) { st.DefaultRegion = typed }
	case profile.KeyDateFormat:
		value, keep = r.PostFormValue("dateFormat"), func(*templates.ProfileSettings) {}
	case profile.KeyTimeZone:
		typed := r.PostFormValue("timeZone")
		value, keep = typed, func(st *templates.ProfileSettings) { st.TimeZone = typed }
	default:
		s.NotFound(w, r)
		return
	}
	raw, _ := json.Marshal(value)
	err := s.travellers.SetConfig(r.Context(), v.Principal, key, raw, s.meta(r))
	if err == nil && key == profile.KeyTimeZone {
		s.redirectWithFlash(w, r, pathProfile+"#time-zone", templates.Flash{Kind: "success", Key: "timezone.flash.saved"})
		return
	}
	if err == nil {
		s.redirectWithFlash(w, r, pathProfile+"#frequent-info", templates.Flash{Kind: "success", Key: "travellers.profile.flash." + key})
		return
	}
	s.settingsRefused(w, r, v, key, err, keep)
}

// settingsRefused shows the profile again with form's errors and entries;
// a failure that is no form's goes back with its message.
func (s *Server) settingsRefused(w http.ResponseWriter, r *http.Request, v viewer, form string, err error, keep func(*templates.ProfileSettings)) {
	fields, key := formErrors(r.Context(), "profile: "+form, err)
	if len(fields) == 0 {
		if fault.From(err).Code == fault.CodeInternal {
			s.ServerError(w, r)
			return
		}
		fields = map[string]string{form: key}
	}
	s.profileAnswer(w, r, http.StatusOK, v, templates.PasswordForm{}, func(st *templates.ProfileSettings) {
		keep(st)
		st.Errors = map[string]map[string]string{form: fields}
	})
}
