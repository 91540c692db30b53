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
	Username string `json:"username" jsonschema:"required"`
	Password string `json:"password" jsonschema:"required"`
}

// UserConfig is userInfo.config (spec §3).
type UserConfig struct {
	DateFormat    string `json:"dateFormat"`
	DefaultRegion string `json:"defaultRegion"`
	// TimeZone is the user's own IANA time zone; "" means the agency's.
	TimeZone string `json:"timeZone"`
}

// UserInfo is the logged-in user (spec §3 userInfo).
type UserInfo struct {
	ID        int64      `json:"id"`
	Username  string     `json:"username"`
	Nickname  string     `json:"nickname"`
	Email     string     `json:"email"`
	Role      []string   `json:"role"`
	AgencyID  int64      `json:"agencyId"`
	Avatar    string     `json:"avatar"`
	Status    string     `json:"status"`
	Config    UserConfig `json:"config"`
	Cities    []string   `json:"cities"`
	Countries []string   `json:"countries"`
	// Passengers are the ids of the user's favoured often-used passengers.
	Passengers []int64 `json:"passengers"`
}

// CompanyConfig wraps commonConfig as the portal reads it.
type CompanyConfig struct {
	CommonConfig auth.CommonConfig `json:"commonConfig"`
	// Restrictions are the agency's switches that shopping and ordering
	// obey: the portal hides what they forbid.
	Restrictions Restrictions `json:"restrictions"`
}

// Restrictions are the agency settings that limit what its users may do.
type Restrictions struct {
	DisablePayment bool `json:"disablePayment"`
	OnlyOwnOrders  bool `json:"showOnlyOwnOrders"`
	HidePNRBooking bool `json:"hidePnrBooking"`
	HideMainland   bool `json:"hideMainlandContent"`
}

// companyConfig is the config block of an agency's company answer.
func companyConfig(a agency.Agency) CompanyConfig {
	return CompanyConfig{CommonConfig: a.Common(), Restrictions: Restrictions{DisablePayment: a.DisablePayment,
		OnlyOwnOrders: a.OnlyOwnOrders, HidePNRBooking: a.HidePNRBooking, HideMainland: a.HideMainland}}
}

// CompanyInfo is the user's agency (spec §3 Company).
type CompanyInfo struct {
	ID         int64           `json:"id"`
	Code       string          `json:"code"`
	Name       string          `json:"name"`
	Alias      string          `json:"alias"`
	Address    string          `json:"address"`
	Logo       string          `json:"logo"`
	ProxyLevel int             `json:"proxyLevel"`
	Config     CompanyConfig   `json:"config"`
	Branding   agency.Branding `json:"branding"`
}

// Me is GET /base/v2/me, and the login answer without the token.
type Me struct {
	Token         string      `json:"token,omitempty"`
	ExpiresAt     *time.Time  `json:"expiresAt,omitempty"`
	UserInfo      UserInfo    `json:"userInfo"`
	Company       CompanyInfo `json:"company"`
	Permissions   []string    `json:"permissions"`
	WebsitePrefix string      `json:"websitePrefix"`
	Iframe        bool        `json:"iframe"`
}

// ChangePasswordRequest is PUT /base/v2/me/password.
type ChangePasswordRequest struct {
	OldPassword     string `json:"oldPassword"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
}

// ResetPasswordRequest is POST /base/v2/agencies/{id}/superuser/password.
type ResetPasswordRequest struct {
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
