package web

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/templates"
)

// companyPage is GET /company: the company profile of the SuperUser's agency.
func (s *Server) companyPage(w http.ResponseWriter, r *http.Request) {
	v, ok := s.adminViewer(w, r)
	if !ok {
		return
	}
	s.companyAnswer(w, r, v, nil, "")
}

// companyAnswer shows the profile; form, when not nil, is a details form
// that came back with errors, and logoErr the catalog key of a failed upload.
func (s *Server) companyAnswer(w http.ResponseWriter, r *http.Request, v viewer, form *templates.CompanyInfoForm, logoErr string) {
	a, err := s.companyAdmin.Get(r.Context(), v.Principal.AgencyID)
	if err != nil {
		slog.ErrorContext(r.Context(), "company: load", "agency", v.Principal.AgencyID, "err", err)
		s.ServerError(w, r)
		return
	}
	view := templates.CompanyView{Code: a.Code, ProxyLevel: a.ProxyLevel, Common: a.Common(), LogoError: logoErr,
		Form: templates.CompanyInfoForm{Name: a.Name, Alias: a.Alias, Address: a.Address}}
	if form != nil {
		view.Form = *form
	}
	if a.LogoType != "" {
		// The API serves the logo and accepts the portal's session cookie;
		// v changes with every upload so the browser never shows an old one.
		view.LogoURL = "/base/v2/company/logo?agency=" + strconv.FormatInt(a.ID, 10) + "&v=" + strconv.FormatInt(a.UpdatedAt.UnixNano(), 36)
	}
	render(w, r, http.StatusOK, templates.CompanyPage(s.page(w, r, "company"), view))
}

// companySave takes the name, alias and address form.
func (s *Server) companySave(w http.ResponseWriter, r *http.Request) {
	v, ok := s.adminViewer(w, r)
	if !ok {
		return
	}
	u := agency.CompanyUpdate{Name: r.PostFormValue("name"), Alias: r.PostFormValue("alias"), Address: r.PostFormValue("address")}
	_, err := s.companyAdmin.UpdateCompany(r.Context(), v.Principal, v.Principal.AgencyID, u, s.meta(r))
	if err == nil {
		s.redirectWithFlash(w, r, pathCompany, templates.Flash{Kind: "success", Key: "admin.company.saved"})
		return
	}
	fe := fault.From(err)
	if len(fe.Fields) == 0 {
		s.adminFault(w, r, pathCompany, err, "company: update")
		return
	}
	form := templates.CompanyInfoForm{Name: u.Name, Alias: u.Alias, Address: u.Address, Errors: fe.Fields}
	s.companyAnswer(w, r, v, &form, "")
}

// adminLogoFormLimit is the most a logo upload may send: the 2MB image and room
// for the multipart envelope around it.
const adminLogoFormLimit = agency.MaxLogoBytes + 64<<10

// companyLogo takes the logo upload, a multipart form.
func (s *Server) companyLogo(w http.ResponseWriter, r *http.Request) {
	v, ok := s.adminViewer(w, r)
	if !ok {
		return
	}
	data, key := adminReadLogo(w, r)
	if key == "" {
		_, err := s.companyAdmin.SetLogo(r.Context(), v.Principal, v.Principal.AgencyID, data, s.meta(r))
		if err == nil {
			s.redirectWithFlash(w, r, pathCompany, templates.Flash{Kind: "success", Key: "admin.company.logoSaved"})
			return
		}
		fe := fault.From(err)
		if fe.Fields["logo"] == "" {
			s.adminFault(w, r, pathCompany, err, "company: set logo")
			return
		}
		key = fe.Fields["logo"]
	}
	s.companyAnswer(w, r, v, nil, key)
}

// adminReadLogo reads the form's logo file; key is the catalog key of what is
// wrong with it, "" when it can be stored.
func adminReadLogo(w http.ResponseWriter, r *http.Request) (data []byte, key string) {
	r.Body = http.MaxBytesReader(w, r.Body, adminLogoFormLimit)
	if err := r.ParseMultipartForm(agency.MaxLogoBytes + 1); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, "company.error.logoTooLarge"
		}
		return nil, "admin.company.logoEmpty"
	}
	f, hdr, err := r.FormFile("logo")
	if err != nil || hdr.Size == 0 {
		return nil, "admin.company.logoEmpty"
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, agency.MaxLogoBytes+1))
	switch {
	case err != nil:
		return nil, "admin.company.logoEmpty"
	case len(data) > agency.MaxLogoBytes:
		return nil, "company.error.logoTooLarge"
	}
	return data, ""
}
