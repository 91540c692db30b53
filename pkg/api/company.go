package api

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/upload"
)

// companyInfo is the company answer of /me and GET /base/v2/company.
func companyInfo(a agency.Agency) CompanyInfo {
	logo := ""
	if a.LogoType != "" {
		logo = "/base/v2/company/logo?agency=" + strconv.FormatInt(a.ID, 10)
	}
	return CompanyInfo{ID: a.ID, Code: a.Code, Name: a.Name, Alias: a.Alias, Address: a.Address, Logo: logo, ProxyLevel: a.ProxyLevel,
		Config: companyConfig(a), Branding: a.Branding()}
}

// logoBodyLimit is what the upload reads at most: one byte over the 2MB
// limit, so that an oversize logo is told apart from one exactly at it.
const logoBodyLimit = agency.MaxLogoBytes + 1

func registerCompany(rt *Router, s Services) {
	rt.Handle("GET /base/v2/company", Operation{
		ID: "getCompany", Tag: "company", UserOnly: true,
		Summary:  "The caller's company: name, alias, address, logo address, proxy level and commonConfig",
		Response: CompanyInfo{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		a, err := s.Agencies.Get(r.Context(), Principal(r).AgencyID)
		if err != nil {
			return nil, err
		}
		return companyInfo(a), nil
	})

	rt.Handle("PUT /base/v2/company", Operation{
		ID: "updateCompany", Tag: "company", Role: auth.RoleSuperUser, UserOnly: true, SelfAudited: true,
		Summary: "Change the caller's company name, alias and address (name and address required)",
		Request: agency.CompanyUpdate{}, Response: CompanyInfo{},
		Errors: []int{fault.CodeNoAccess},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req agency.CompanyUpdate
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		p := Principal(r)
		a, err := s.Agencies.UpdateCompany(r.Context(), p, p.AgencyID, req, Meta(r))
		if err != nil {
			return nil, err
		}
		return companyInfo(a), nil
	})

	rt.Handle("PUT /base/v2/company/logo", Operation{
		ID: "setCompanyLogo", Tag: "company", Role: auth.RoleSuperUser, UserOnly: true, SelfAudited: true,
		Summary: "Upload the company logo. The body is the raw image, not JSON, sent with Content-Type image/*: " +
			"PNG, JPEG, GIF or WebP (judged from the content), at most 2MB. Answers the company",
		Response: CompanyInfo{}, RawBody: upload.Images,
		Errors: []int{fault.CodeNoAccess, fault.CodeBodyTooLarge},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		if ct := strings.ToLower(r.Header.Get("Content-Type")); !strings.HasPrefix(ct, "image/") {
			return nil, fault.Validation(map[string]string{"logo": "company.error.logoType"})
		}
		if r.ContentLength > agency.MaxLogoBytes {
			return nil, fault.Validation(map[string]string{"logo": "company.error.logoTooLarge"})
		}
		// The server's global body limit (http.max_body_bytes, 1 MiB by
		// default) is below the logo's 2MB, so server.LimitBody leaves paths
		// ending in /logo alone and this route caps its own body.
		body := http.MaxBytesReader(w, r.Body, logoBodyLimit)
		data, err := io.ReadAll(io.LimitReader(body, logoBodyLimit))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				return nil, fault.Validation(map[string]string{"logo": "company.error.logoTooLarge"})
			}
			return nil, fault.Malformed(err)
		}
		p := Principal(r)
		if _, err := s.Agencies.SetLogo(r.Context(), p, p.AgencyID, data, Meta(r)); err != nil {
			return nil, err
		}
		a, err := s.Agencies.Get(r.Context(), p.AgencyID)
		if err != nil {
			return nil, err
		}
		return companyInfo(a), nil
	})

	rt.HandleRaw("GET /base/v2/company/logo", Operation{
		ID: "getCompanyLogo", Tag: "company", UserOnly: true,
		Summary: "The company logo: the image bytes with their content type (not the JSON envelope); a 404 envelope when there is none. " +
			"agency=<id> reads the logo of the caller's agency or one of its sub-agencies",
		Query:  []Param{{Name: "agency", Type: "integer", Description: "agency id; default the caller's"}},
		Errors: []int{fault.CodeNotFound}, Produces: upload.Images,
	}, func(w http.ResponseWriter, r *http.Request) error {
		p := Principal(r)
		id := p.AgencyID
		if v := r.URL.Query().Get("agency"); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return fault.NotFound("")
			}
			// An agency's rows are visible to itself and its ancestors only.
			within, err := s.Agencies.IsWithin(r.Context(), p.AgencyID, n)
			if err != nil {
				return err
			}
			if !within {
				return fault.NotFound("")
			}
			id = n
		}
		data, ct, err := s.Agencies.Logo(r.Context(), id)
		if err != nil {
			return err
		}
		inlineImage(w, ct, data)
		return nil
	})
}
