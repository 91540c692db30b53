package api

import (
	"net/http"
	"strconv"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/i18n"
)

// Autocomplete answer sizes.
const (
	airportsDefaultLimit = 10
	airportsMaxLimit     = 50
)

func registerAirports(rt *Router, s Services) {
	rt.Handle("GET /base/v2/airports", Operation{
		ID: "searchAirports", Tag: "geo",
		Summary: "Autocomplete airports and cities by IATA code or by name in English, Simplified or Traditional Chinese or pinyin, " +
			"busiest first, named in the request's language. A city of several airports answers as type city with its airports " +
			"nested (BJS: PEK, PKX); other airports answer as type airport with their cityCode and cityName. An empty q lists the busiest places",
		Query: []Param{
			{Name: "q", Type: "string", Description: "code or the start of a name: PEK, BJS, 北京, beijing, heathrow"},
			{Name: "limit", Type: "integer", Description: "at most this many places; default 10, at most 50"},
		},
		Response: []geo.Place{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
		if err != nil || limit < 1 {
			limit = airportsDefaultLimit
		}
		limit = min(limit, airportsMaxLimit)
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return nil, err
		}
		if !a.HideMainland {
			return geo.Search(r.URL.Query().Get("q"), i18n.Lang(r.Context()), limit), nil
		}
		// An agency hiding mainland China content does not see its airports
		// to pick either: ask for more and keep the rest.
		places := geo.Search(r.URL.Query().Get("q"), i18n.Lang(r.Context()), airportsMaxLimit)
		out := make([]geo.Place, 0, limit)
		for _, p := range places {
			if p.Country != "CN" && len(out) < limit {
				out = append(out, p)
			}
		}
		return out, nil
	})
}
