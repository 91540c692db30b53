package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
)

// LoginRequest is the login payload.
type LoginRequest struct {
	// Username is the user's login name; case-insensitive.
	Username string `json:"username" jsonschema:"required"`
	// Password is the user's password. Repeated failures for a username or
	// from an address are answered 429 for a while.
	Password string `json:"password" jsonschema:"required"`
}

// UserConfig is userInfo.config (spec §3).
type UserConfig struct {
	// DateFormat is how the user wants dates shown: yyyy-MM-dd (the
	// default), dd/MM/yyyy, MM/dd/yyyy, dd-MM-yyyy or yyyy/MM/dd; set by
	// PUT /base/v2/me/config/dateFormat.
	DateFormat string `json:"dateFormat"`
	// DefaultRegion is the user's default telephone country calling code,
	// 1 to 4 digits without the + (86 unless set); set by PUT
	// /base/v2/me/config/defaultRegion.
	DefaultRegion string `json:"defaultRegion"`
	// TimeZone is the user's own IANA time zone (e.g. Asia/Shanghai), set
	// by PUT /base/v2/me/config/timeZone; "" means the agency's.
	TimeZone string `json:"timeZone"`
}

// UserInfo is the logged-in user (spec §3 userInfo).
type UserInfo struct {
	// ID is the user's id.
	ID int64 `json:"id"`
	// Username is the user's login name, lower-case.
	Username string `json:"username"`
	// Nickname is the name shown for the user; empty when none was given.
	Nickname string `json:"nickname"`
	// Email is the user's email address.
	Email string `json:"email"`
	// Role is the user's roles: operator (flights, group flights, trains),
	// finance (bills, wallet, statements, agency management) and SuperUser
	// (everything, plus users, company and the user log).
	Role []string `json:"role"`
	// AgencyID is the id of the user's agency, company.id.
	AgencyID int64 `json:"agencyId"`
	// Avatar is the path of the user's avatar image
	// (/base/v2/users/{id}/avatar, fetched with the session); empty when
	// the user has none.
	Avatar string `json:"avatar"`
	// Status is the user's status: active, or testing for a test account
	// (the statuses that may log in).
	Status string `json:"status"`
	// Config is the user's personal display settings.
	Config UserConfig `json:"config"`
	// Cities are the user's favourite cities, upper-case three-letter IATA
	// city or airport codes (at most 20); set by PUT
	// /base/v2/me/config/cities.
	Cities []string `json:"cities"`
	// Countries are the user's favourite countries, ISO 3166-1 alpha-2
	// codes (at most 20); set by PUT /base/v2/me/config/countries.
	Countries []string `json:"countries"`
	// Passengers are the ids of the user's favoured often-used passengers,
	// set by PUT /base/v2/me/config/passengers.
	Passengers []int64 `json:"passengers"`
}

// CompanyConfig wraps commonConfig as the portal reads it.
type CompanyConfig struct {
	// CommonConfig is the company's switches the access rules read: its
	// services, settlement currency, bills and sub-agencies.
	CommonConfig auth.CommonConfig `json:"commonConfig"`
	// Restrictions are the agency's switches that shopping and ordering
	// obey: the portal hides what they forbid.
	Restrictions Restrictions `json:"restrictions"`
}

// Restrictions are the agency settings that limit what its users may do.
type Restrictions struct {
	// DisablePayment is whether the agency's users may not pay: paying an
	// order is refused (200003), and a new flight order is created reserved
	// instead of to_be_paid.
	DisablePayment bool `json:"disablePayment"`
	// OnlyOwnOrders is whether the agency's users other than SuperUsers see
	// only the orders they booked themselves.
	OnlyOwnOrders bool `json:"showOnlyOwnOrders"`
	// HidePNRBooking is whether the agency may not book from a pasted PNR:
	// POST /shopping/v2/flight/analysis-pnr is refused (200003).
	HidePNRBooking bool `json:"hidePnrBooking"`
	// HideMainland is whether content of mainland China is hidden from the
	// agency: searches drop every offer with a flight to or from a mainland
	// airport, and the airport search lists none.
	HideMainland bool `json:"hideMainlandContent"`
}

// companyConfig is the config block of an agency's company answer.
func companyConfig(a agency.Agency) CompanyConfig {
	return CompanyConfig{CommonConfig: a.Common(), Restrictions: Restrictions{DisablePayment: a.DisablePayment,
		OnlyOwnOrders: a.OnlyOwnOrders, HidePNRBooking: a.HidePNRBooking, HideMainland: a.HideMainland}}
}

// CompanyInfo is the user's agency (spec §3 Company).
type CompanyInfo struct {
	// ID is the agency's id.
	ID int64 `json:"id"`
	// Code is the agency's unique public code, generated at creation (e.g.
	// A7K2M9QX).
	Code string `json:"code"`
	// Name is the company name.
	Name string `json:"name"`
	// Alias is the company's short name; empty when it has none.
	Alias string `json:"alias"`
	// Address is the company's address.
	Address string `json:"address"`
	// Logo is the path of the company logo (/base/v2/company/logo?agency=
	// and the id, fetched with the session); empty when none was uploaded.
	Logo string `json:"logo"`
	// ProxyLevel is the agency's depth in the agency tree: 0 the provider,
	// 1 an agency directly under the provider, 2 a sub-agency of that one,
	// and so on.
	ProxyLevel int `json:"proxyLevel"`
	// Config is the company's settings that decide what its users may do.
	Config CompanyConfig `json:"config"`
	// Branding is how the portal looks for the company's users.
	Branding agency.Branding `json:"branding"`
}

// Me is GET /base/v2/me, and the login answer without the token.
type Me struct {
	// Token is the session token, to send as "Authorization: Bearer
	// <token>"; only in the answers of the login calls.
	Token string `json:"token,omitempty"`
	// ExpiresAt is when the new session ends at the latest (RFC 3339, UTC),
	// 12 hours after the login unless the provider configured otherwise; it
	// ends sooner when left unused (2 hours by default). Only in the
	// answers of the login calls.
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	// UserInfo is the logged-in user.
	UserInfo UserInfo `json:"userInfo"`
	// Company is the user's agency.
	Company CompanyInfo `json:"company"`
	// Permissions are the user's permission strings (e.g.
	// agencybills:read): an empty list, or one holding "all", grants every
	// permission; otherwise only those listed. Roles apply as well.
	Permissions []string `json:"permissions"`
	// WebsitePrefix is the portal's public URL prefix as the provider
	// configured it; empty when none is configured.
	WebsitePrefix string `json:"websitePrefix"`
	// Iframe is whether the session was opened by single login
	// (POST /base/v2/single-login): the portal runs embedded in the
	// agency's own site.
	Iframe bool `json:"iframe"`
}

// ChangePasswordRequest is PUT /base/v2/me/password.
type ChangePasswordRequest struct {
	// OldPassword is the user's current password; wrong guesses are
	// throttled like failed logins (429).
	OldPassword string `json:"oldPassword"`
	// Password is the new password, 6 to 15 characters and not one of the
	// 10,000 most common. The user's other sessions end; this one stays.
	Password string `json:"password"`
	// ConfirmPassword is the new password again; it must equal password.
	ConfirmPassword string `json:"confirmPassword"`
}

// ResetPasswordRequest is POST /base/v2/agencies/{id}/superuser/password.
type ResetPasswordRequest struct {
	// Password is the super admin's new password, 6 to 15 characters and
	// not one of the 10,000 most common; the super admin's sessions end.
	Password string `json:"password"`
}

// Meta builds the caller description the services log.
func Meta(r *http.Request) auth.Meta { return auth.Meta{IP: peerIP(r), UserAgent: r.UserAgent()} }

// Principal is the authenticated caller; handlers of non-public routes
// always have one.
func Principal(r *http.Request) auth.Principal {
	p, _ := auth.PrincipalFrom(r.Context())
	return p
}

// BuildMe assembles the userInfo/company answer for a user's principal.
func BuildMe(r *http.Request, s Services, p auth.Principal) (Me, error) {
	u, err := s.Auth.User(r.Context(), p.UserID)
	if err != nil {
		return Me{}, err
	}
	a, err := s.Agencies.Get(r.Context(), p.AgencyID)
	if err != nil {
		return Me{}, err
	}
	avatar := ""
	if u.AvatarType != "" {
		avatar = "/base/v2/users/" + strconv.FormatInt(u.ID, 10) + "/avatar"
	}
	logo := ""
	if a.LogoType != "" {
		logo = "/base/v2/company/logo?agency=" + strconv.FormatInt(a.ID, 10)
	}
	perms := u.Permissions()
	return Me{
		UserInfo: UserInfo{ID: u.ID, Username: u.Username, Nickname: u.Nickname, Email: u.Email, Role: u.Roles(), AgencyID: u.AgencyID,
			Avatar: avatar, Status: u.Status, Config: UserConfig{DateFormat: u.DateFormat, DefaultRegion: u.DefaultRegion, TimeZone: u.TimeZone},
			Cities: u.FavouriteCities(), Countries: u.FavouriteCountries(), Passengers: u.FavouritePassengers()},
		Company: CompanyInfo{ID: a.ID, Code: a.Code, Name: a.Name, Alias: a.Alias, Address: a.Address, Logo: logo, ProxyLevel: a.ProxyLevel,
			Config: companyConfig(a), Branding: a.Branding()},
		Permissions:   perms,
		WebsitePrefix: s.WebsitePrefix,
		Iframe:        p.Iframe,
	}, nil
}

// logIn answers a way of logging in: the body's credentials, checked by
// login, open a session whose Me is the answer.
func logIn[Req any](s Services, login func(context.Context, Req, auth.Meta) (auth.LoginResult, error)) HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) (any, error) {
		var req Req
		if err := Decode(r, &req); err != nil {
			return nil, err
		}
		res, err := login(r.Context(), req, Meta(r))
		if err != nil {
			return nil, err
		}
		return loginAnswer(r, s, res)
	}
}

func loginAnswer(r *http.Request, s Services, res auth.LoginResult) (any, error) {
	me, err := BuildMe(r, s, res.Principal)
	if err != nil {
		return nil, err
	}
	me.Token = res.Token
	me.ExpiresAt = &res.ExpiresAt
	return me, nil
}

func registerIdentity(rt *Router, s Services) {
	rt.Handle("POST /base/v2/login", Operation{
		ID: "login", Tag: "identity", Public: true,
		Summary: "Log in with username and password; answers a session token",
		Request: LoginRequest{}, Response: Me{},
		Errors: []int{fault.CodeBadCredentials, fault.CodeRateLimited, fault.CodeNoAccess},
	}, logIn(s, func(ctx context.Context, req LoginRequest, m auth.Meta) (auth.LoginResult, error) {
		return s.Auth.Login(ctx, req.Username, req.Password, m)
	}))

	rt.Handle("POST /base/v2/single-login", Operation{
		ID: "singleLogin", Tag: "identity", Public: true,
		Summary: "Single login from an agency's system: code, timestamp, userid and their HMAC-SHA256 signature",
		Request: auth.SSORequest{}, Response: Me{},
		Errors: []int{fault.CodeSessionInvalid, fault.CodeRateLimited},
	}, logIn(s, s.Auth.SingleLogin))

	rt.Handle("GET /base/v2/me", Operation{
		ID: "getMe", Tag: "identity", UserOnly: true,
		Summary:  "The logged-in user: userInfo, company, permissions and websitePrefix",
		Response: Me{},
		Errors:   []int{fault.CodeSessionExpired, fault.CodeSessionInvalid, fault.CodeLoggedOutByOther},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return BuildMe(r, s, Principal(r))
	})

	rt.Handle("DELETE /base/v2/me", Operation{
		ID: "logout", Tag: "identity", UserOnly: true, SelfAudited: true,
		Summary: "Log out: ends this session",
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return nil, s.Auth.Logout(r.Context(), Principal(r), Meta(r))
	})

	rt.Handle("PUT /base/v2/me/password", Operation{
		ID: "changePassword", Tag: "identity", UserOnly: true, SelfAudited: true,
		Summary: "Change the password (6–15 characters, not one of the 10,000 most common, confirmed); the user's other sessions end; the current password is throttled like a login",
		Request: ChangePasswordRequest{},
		Errors:  []int{fault.CodeRateLimited},
	}, withBodyAudited(func(ctx context.Context, p auth.Principal, req ChangePasswordRequest, m auth.Meta) (any, error) {
		return nil, s.Auth.ChangePassword(ctx, p, req.OldPassword, req.Password, req.ConfirmPassword, m)
	}))

	rt.Handle("GET /base/v2/me/sessions", Operation{
		ID: "listMySessions", Tag: "identity", UserOnly: true,
		Summary:  "The user's open sessions",
		Response: []auth.SessionInfo{},
	}, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.Auth.Sessions(r.Context(), Principal(r))
	})

	rt.Handle("DELETE /base/v2/me/sessions/{id}", Operation{
		ID: "endMySession", Tag: "identity", UserOnly: true, SelfAudited: true,
		Summary: "End one of the user's sessions",
		Errors:  []int{fault.CodeNotFound},
	}, onIDAudited(noAnswer(s.Auth.EndSession)))

	rt.Handle("POST /base/v2/agencies/{id}/superuser/password", Operation{
		ID: "resetSuperAdminPassword", Tag: "agencies", Role: auth.RoleSuperUser, SelfAudited: true,
		Summary: "Reset the super admin password of a sub-agency (higher-tier partner or provider only)",
		Request: ResetPasswordRequest{},
		Errors:  []int{fault.CodeNotFound, fault.CodeNoAccess},
	}, onIDWithAudited(func(ctx context.Context, p auth.Principal, id int64, req ResetPasswordRequest, m auth.Meta) (any, error) {
		return nil, s.Auth.ResetSuperAdminPassword(ctx, p, id, req.Password, m)
	}))
}

// PathID parses a numeric path parameter; anything else is not found.
func PathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, fault.NotFound("")
	}
	return id, nil
}
