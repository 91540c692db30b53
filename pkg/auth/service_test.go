package auth_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

type fixture struct {
	svc      *auth.Service
	db       *store.DB
	now      time.Time
	provider agency.Agency
	agency   agency.Agency
	sub      agency.Agency
	super    auth.User
	operator auth.User
}

func (f *fixture) clock() time.Time { return f.now }

func setup(t *testing.T, db *store.DB, singleSession bool) *fixture {
	t.Helper()
	ctx := context.Background()
	agencies := agency.NewStore(db)
	f := &fixture{db: db, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		var err error
		if f.provider, err = agencies.Create(ctx, tx, agency.New{Name: "Provider", EnableFlightService: true, CanCreateSubAgency: true}); err != nil {
			return err
		}
		if f.agency, err = agencies.Create(ctx, tx, agency.New{ParentID: &f.provider.ID, Name: "Demo Travel", EnableFlightService: true,
			CanCreateSubAgency: true, SingleSession: singleSession, SSOSecret: "sso-secret"}); err != nil {
			return err
		}
		if f.sub, err = agencies.Create(ctx, tx, agency.New{ParentID: &f.agency.ID, Name: "Sub Travel"}); err != nil {
			return err
		}
		if f.super, err = auth.CreateUser(ctx, tx, auth.NewUser{AgencyID: f.agency.ID, Username: "Demo-Super", Email: "super@demo.example",
			Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: "demo-pass-1"}, f.now); err != nil {
			return err
		}
		if f.operator, err = auth.CreateUser(ctx, tx, auth.NewUser{AgencyID: f.agency.ID, Username: "demo-operator", Email: "op@demo.example",
			Roles: []string{auth.RoleOperator}, Password: "demo-pass-1"}, f.now); err != nil {
			return err
		}
		_, err = auth.CreateUser(ctx, tx, auth.NewUser{AgencyID: f.sub.ID, Username: "sub-super", Email: "s@sub.example",
			Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: "demo-pass-1"}, f.now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = auth.NewService(db, agencies, 2*time.Hour, 12*time.Hour)
	f.svc.SetClock(f.clock)
	return f
}

// run runs body on every store with a context and the fixture that setup
// makes.
func run[F any](t *testing.T, setup func(*testing.T, *store.DB) F, body func(t *testing.T, ctx context.Context, db *store.DB, f F)) {
	t.Helper()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		body(t, context.Background(), db, setup(t, db))
	})
}

// sharedSessions and singleSessions are setup with a user's sessions many
// at once, or one (a new login ends the others).
func sharedSessions(t *testing.T, db *store.DB) *fixture { return setup(t, db, false) }
func singleSessions(t *testing.T, db *store.DB) *fixture { return setup(t, db, true) }

func wantCode(t *testing.T, err error, code, status int) {
	t.Helper()
	fe, ok := fault.As(err)
	if !ok || fe.Code != code || fe.Status != status {
		t.Fatalf("err = %v, want code %d status %d", err, code, status)
	}
}

var meta = auth.Meta{IP: "203.0.113.5", UserAgent: "test"}

// mustLogin logs username in, failing the test when it cannot.
func mustLogin(t *testing.T, ctx context.Context, svc *auth.Service, username, password string) auth.LoginResult {
	t.Helper()
	res, err := svc.Login(ctx, username, password, meta)
	if err != nil {
		t.Fatalf("login %s: %v", username, err)
	}
	return res
}

func TestLoginAndAuthenticate(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {

		res := mustLogin(t, ctx, f.svc, "demo-super", "demo-pass-1")
		if res.Token == "" || res.User.Username != "demo-super" || !res.Principal.Subject.HasRole(auth.RoleFinance) {
			t.Fatalf("login result = %+v", res)
		}
		p, err := f.svc.Authenticate(ctx, res.Token)
		if err != nil || p.UserID != f.super.ID || p.AgencyID != f.agency.ID || p.Subject.ProxyLevel != 1 {
			t.Fatalf("Authenticate = %+v, %v", p, err)
		}
		var stored int
		if err := db.Get(&stored, db.Rebind(`SELECT COUNT(*) FROM sessions WHERE token_hash = ?`), res.Token); err != nil || stored != 0 {
			t.Fatalf("the raw token is stored (%d rows, %v)", stored, err)
		}
		// A second login gets a new token; the first one still works.
		res2, err := f.svc.Login(ctx, "DEMO-SUPER", "demo-pass-1", meta)
		if err != nil || res2.Token == res.Token {
			t.Fatalf("second login: %v", err)
		}
		if _, err := f.svc.Authenticate(ctx, res.Token); err != nil {
			t.Fatalf("first session ended without the single-session rule: %v", err)
		}

		_, err = f.svc.Login(ctx, "demo-super", "wrong-pass", meta)
		wantCode(t, err, fault.CodeBadCredentials, 401)
		_, err = f.svc.Login(ctx, "nobody-here", "demo-pass-1", meta)
		wantCode(t, err, fault.CodeBadCredentials, 401)
		_, err = f.svc.Login(ctx, "", "", meta)
		wantCode(t, err, fault.CodeValidation, 400)
		_, err = f.svc.Authenticate(ctx, "not-a-token")
		wantCode(t, err, fault.CodeSessionInvalid, 401)

		if err := f.svc.Logout(ctx, p, meta); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Authenticate(ctx, res.Token)
		wantCode(t, err, fault.CodeSessionInvalid, 401)
		if _, err := f.svc.Authenticate(ctx, res2.Token); err != nil {
			t.Errorf("logout ended another session: %v", err)
		}
	})
}

func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		res := mustLogin(t, ctx, f.svc, "demo-operator", "demo-pass-1")
		// Used every 90 minutes, the session lives past the 2h idle limit...
		for i := 0; i < 7; i++ {
			f.now = f.now.Add(90 * time.Minute)
			if _, err := f.svc.Authenticate(ctx, res.Token); err != nil {
				t.Fatalf("after %d active periods: %v", i+1, err)
			}
		}
		// ...but not past the 12h absolute limit.
		f.now = f.now.Add(90 * time.Minute)
		_, err := f.svc.Authenticate(ctx, res.Token)
		wantCode(t, err, fault.CodeSessionExpired, 401)

		res = mustLogin(t, ctx, f.svc, "demo-operator", "demo-pass-1")
		f.now = f.now.Add(2*time.Hour + time.Second)
		_, err = f.svc.Authenticate(ctx, res.Token)
		wantCode(t, err, fault.CodeSessionExpired, 401)
	})
}

func TestSingleSessionPerUser(t *testing.T) {
	t.Parallel()
	run(t, singleSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		first := mustLogin(t, ctx, f.svc, "demo-operator", "demo-pass-1")
		mustLogin(t, ctx, f.svc, "demo-operator", "demo-pass-1")
		_, err := f.svc.Authenticate(ctx, first.Token)
		wantCode(t, err, fault.CodeLoggedOutByOther, 401)
	})
}

// retryAfter is the wait a throttled error asks for, or fails the test.
func retryAfter(t *testing.T, err error) time.Duration {
	t.Helper()
	fe, ok := fault.As(err)
	if !ok || fe.Code != fault.CodeRateLimited || fe.Status != 429 || fe.RetryAfter <= 0 {
		t.Fatalf("err = %v, want 429 200029 with a wait", err)
	}
	return fe.RetryAfter
}

func TestLoginThrottlePerAccount(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		addr := func(i int) auth.Meta { return auth.Meta{IP: fmt.Sprintf("198.51.100.%d", i)} }
		// The user's usual desk.
		mustLogin(t, ctx, f.svc, "demo-super", "demo-pass-1")
		// Five wrong passwords, each from another address: then the account
		// waits, whichever address comes next, even with the right password.
		for i := 0; i < 5; i++ {
			_, err := f.svc.Login(ctx, "demo-super", "wrong-pass", addr(i))
			wantCode(t, err, fault.CodeBadCredentials, 401)
		}
		_, err := f.svc.Login(ctx, "demo-super", "demo-pass-1", addr(99))
		if w := retryAfter(t, err); w != 5*time.Second {
			t.Errorf("first wait %v, want 5s", w)
		}
		// The wait doubles with every further failure, up to 15 minutes.
		want := 5 * time.Second
		for i := 0; i < 12; i++ {
			f.now = f.now.Add(want)
			_, err := f.svc.Login(ctx, "demo-super", "wrong-pass", addr(10+i))
			wantCode(t, err, fault.CodeBadCredentials, 401)
			want = min(2*want, 15*time.Minute)
			_, err = f.svc.Login(ctx, "demo-super", "wrong-pass", addr(10+i))
			if w := retryAfter(t, err); w != want {
				t.Fatalf("after %d failures the wait is %v, want %v", 6+i, w, want)
			}
		}
		// Retrying early counts nothing: the wait only runs down.
		f.now = f.now.Add(time.Minute)
		_, err = f.svc.Login(ctx, "demo-super", "demo-pass-1", addr(50))
		if w := retryAfter(t, err); w != 14*time.Minute {
			t.Errorf("a refused attempt moved the wait to %v, want 14m", w)
		}
		// Not a lockout: the usual desk logs in meanwhile, and after the
		// wait the right password works from anywhere.
		if _, err := f.svc.Login(ctx, "demo-super", "demo-pass-1", meta); err != nil {
			t.Errorf("the user's own address is shut out: %v", err)
		}
		f.now = f.now.Add(14 * time.Minute)
		if _, err := f.svc.Login(ctx, "demo-super", "demo-pass-1", addr(51)); err != nil {
			t.Errorf("the right password after the wait: %v", err)
		}
		// The good login cleared the account: five fresh tries again.
		for i := 0; i < 5; i++ {
			_, err := f.svc.Login(ctx, "demo-super", "wrong-pass", addr(60+i))
			wantCode(t, err, fault.CodeBadCredentials, 401)
		}
	})
}

func TestLoginThrottlePerAddress(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		from := auth.Meta{IP: "192.0.2.77"}
		// One password tried on twenty accounts (existing or not) from one
		// address: the address waits, for every account.
		for i := 0; i < 20; i++ {
			_, err := f.svc.Login(ctx, fmt.Sprintf("user-%02d", i), "password-1", from)
			wantCode(t, err, fault.CodeBadCredentials, 401)
		}
		_, err := f.svc.Login(ctx, "demo-operator", "demo-pass-1", from)
		retryAfter(t, err)
		if _, err := f.svc.Login(ctx, "demo-operator", "demo-pass-1", meta); err != nil {
			t.Errorf("another address is held up too: %v", err)
		}
		f.now = f.now.Add(5 * time.Second)
		if _, err := f.svc.Login(ctx, "demo-operator", "demo-pass-1", from); err != nil {
			t.Errorf("after the wait: %v", err)
		}
		// A good login from the address does not wipe its failures on
		// other accounts: the next failure waits longer.
		_, err = f.svc.Login(ctx, "user-99", "password-1", from)
		wantCode(t, err, fault.CodeBadCredentials, 401)
		_, err = f.svc.Login(ctx, "user-98", "password-1", from)
		if w := retryAfter(t, err); w != 10*time.Second {
			t.Errorf("wait after 21 failures = %v, want 10s", w)
		}
		// Quiet makes failures leak away: a day later the address is free.
		f.now = f.now.Add(24 * time.Hour)
		for i := 0; i < 20; i++ {
			_, err := f.svc.Login(ctx, fmt.Sprintf("user-%02d", i), "password-1", from)
			wantCode(t, err, fault.CodeBadCredentials, 401)
		}
	})
}

// TestLoginThrottleConcurrent: attempts made at once once the account waits
// are counted one after another; only one gets to try its password.
func TestLoginThrottleConcurrent(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		for i := 0; i < 5; i++ {
			_, err := f.svc.Login(ctx, "demo-operator", "wrong-pass", auth.Meta{IP: fmt.Sprintf("198.51.100.%d", i)})
			wantCode(t, err, fault.CodeBadCredentials, 401)
		}
		f.now = f.now.Add(5 * time.Second)
		const n = 8
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			go func() {
				_, err := f.svc.Login(ctx, "demo-operator", "wrong-pass", auth.Meta{IP: fmt.Sprintf("203.0.113.%d", 100+i)})
				errs <- err
			}()
		}
		tried := 0
		for i := 0; i < n; i++ {
			err := <-errs
			fe, _ := fault.As(err)
			switch {
			case fe != nil && fe.Code == fault.CodeBadCredentials:
				tried++
			case fe != nil && fe.Code == fault.CodeRateLimited:
			default:
				t.Errorf("unexpected error %v", err)
			}
		}
		if tried != 1 {
			t.Errorf("%d of %d simultaneous attempts tried a password, want 1", tried, n)
		}
	})
}

func TestChangePassword(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		a, _ := f.svc.Login(ctx, "demo-operator", "demo-pass-1", meta)
		b, _ := f.svc.Login(ctx, "demo-operator", "demo-pass-1", meta)
		p, _ := f.svc.Authenticate(ctx, a.Token)

		err := f.svc.ChangePassword(ctx, p, "demo-pass-1", "short", "short", meta)
		wantCode(t, err, fault.CodeValidation, 400)
		err = f.svc.ChangePassword(ctx, p, "demo-pass-1", "new-pass-22", "new-pass-23", meta)
		wantCode(t, err, fault.CodeValidation, 400)
		err = f.svc.ChangePassword(ctx, p, "wrong-old", "new-pass-22", "new-pass-22", meta)
		wantCode(t, err, fault.CodeValidation, 400)
		err = f.svc.ChangePassword(ctx, p, "demo-pass-1", "password1", "password1", meta)
		if fe, _ := fault.As(err); fe == nil || fe.Fields["password"] != "password.error.common" {
			t.Errorf("a common new password: %v", err)
		}
		if _, err := f.svc.Login(ctx, "demo-operator", "demo-pass-1", meta); err != nil {
			t.Fatalf("a refused change altered the password: %v", err)
		}

		if err := f.svc.ChangePassword(ctx, p, "demo-pass-1", "new-pass-22", "new-pass-22", meta); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Authenticate(ctx, a.Token); err != nil {
			t.Errorf("the session that changed the password ended: %v", err)
		}
		_, err = f.svc.Authenticate(ctx, b.Token)
		wantCode(t, err, fault.CodeSessionInvalid, 401)
		if _, err := f.svc.Login(ctx, "demo-operator", "new-pass-22", meta); err != nil {
			t.Errorf("new password: %v", err)
		}
	})
}

func TestChangePasswordThrottle(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		a, _ := f.svc.Login(ctx, "demo-operator", "demo-pass-1", meta)
		p, _ := f.svc.Authenticate(ctx, a.Token)
		// A right current password with a refused new one still clears
		// the count: the secret was known.
		err := f.svc.ChangePassword(ctx, p, "demo-pass-1", "short", "short", meta)
		wantCode(t, err, fault.CodeValidation, 400)
		for i := 0; i < 5; i++ {
			err := f.svc.ChangePassword(ctx, p, fmt.Sprintf("guess-%d", i), "new-pass-22", "new-pass-22", meta)
			wantCode(t, err, fault.CodeValidation, 400)
		}
		// The sixth try waits, even with the right password, from any
		// address and any session.
		b, _ := f.svc.Login(ctx, "demo-operator", "demo-pass-1", auth.Meta{IP: "198.51.100.3"})
		q, _ := f.svc.Authenticate(ctx, b.Token)
		err = f.svc.ChangePassword(ctx, q, "demo-pass-1", "new-pass-22", "new-pass-22", auth.Meta{IP: "198.51.100.3"})
		if w := retryAfter(t, err); w != 5*time.Second {
			t.Errorf("wait = %v, want 5s", w)
		}
		f.now = f.now.Add(5 * time.Second)
		if err := f.svc.ChangePassword(ctx, p, "demo-pass-1", "new-pass-22", "new-pass-22", meta); err != nil {
			t.Errorf("the right password after the wait: %v", err)
		}
	})
}

func TestResetSuperAdminPassword(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		res, _ := f.svc.Login(ctx, "demo-super", "demo-pass-1", meta)
		parent := res.Principal

		// An agency cannot reset its own super admin, nor one outside its tree.
		wantCode(t, f.svc.ResetSuperAdminPassword(ctx, parent, f.agency.ID, "reset-pass-1", meta), fault.CodeNoAccess, 403)
		wantCode(t, f.svc.ResetSuperAdminPassword(ctx, parent, f.provider.ID, "reset-pass-1", meta), fault.CodeNotFound, 404)
		wantCode(t, f.svc.ResetSuperAdminPassword(ctx, parent, f.sub.ID, "12", meta), fault.CodeValidation, 400)
		if fe, _ := fault.As(f.svc.ResetSuperAdminPassword(ctx, parent, f.sub.ID, "1q2w3e4r", meta)); fe == nil || fe.Fields["password"] != "password.error.common" {
			t.Errorf("a common password: %v", fe)
		}

		if err := f.svc.ResetSuperAdminPassword(ctx, parent, f.sub.ID, "reset-pass-1", meta); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Login(ctx, "sub-super", "reset-pass-1", meta); err != nil {
			t.Errorf("login with the reset password: %v", err)
		}
		// The sub-agency cannot reset its parent.
		sub, _ := f.svc.Login(ctx, "sub-super", "reset-pass-1", meta)
		wantCode(t, f.svc.ResetSuperAdminPassword(ctx, sub.Principal, f.agency.ID, "hack-pass-1", meta), fault.CodeNotFound, 404)
	})
}

func TestSingleLogin(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		ts := f.now.Unix()
		req := auth.SSORequest{Code: "c-1", Timestamp: ts, UserID: f.operator.ID, Signature: auth.SSOSignature("sso-secret", "c-1", ts, f.operator.ID)}
		res, err := f.svc.SingleLogin(ctx, req, meta)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Principal.Iframe || res.User.ID != f.operator.ID {
			t.Errorf("single login result = %+v", res.Principal)
		}
		p, err := f.svc.Authenticate(ctx, res.Token)
		if err != nil || !p.Iframe {
			t.Fatalf("Authenticate = %+v, %v", p, err)
		}
		// A code works once.
		_, err = f.svc.SingleLogin(ctx, req, meta)
		wantCode(t, err, fault.CodeSessionInvalid, 401)

		tests := []struct {
			name string
			req  auth.SSORequest
		}{
			{"wrong secret", auth.SSORequest{Code: "c-2", Timestamp: ts, UserID: f.operator.ID, Signature: auth.SSOSignature("other", "c-2", ts, f.operator.ID)}},
			{"tampered user", auth.SSORequest{Code: "c-3", Timestamp: ts, UserID: f.super.ID, Signature: auth.SSOSignature("sso-secret", "c-3", ts, f.operator.ID)}},
			{"too old", auth.SSORequest{Code: "c-4", Timestamp: ts - 301, UserID: f.operator.ID, Signature: auth.SSOSignature("sso-secret", "c-4", ts-301, f.operator.ID)}},
			{"too new", auth.SSORequest{Code: "c-5", Timestamp: ts + 301, UserID: f.operator.ID, Signature: auth.SSOSignature("sso-secret", "c-5", ts+301, f.operator.ID)}},
			{"unknown user", auth.SSORequest{Code: "c-6", Timestamp: ts, UserID: 99999, Signature: auth.SSOSignature("sso-secret", "c-6", ts, 99999)}},
		}
		for _, tt := range tests {
			_, err := f.svc.SingleLogin(ctx, tt.req, meta)
			if fe, ok := fault.As(err); !ok || fe.Status != 401 {
				t.Errorf("%s: err = %v, want 401", tt.name, err)
			}
		}
		// Within the window on either side is fine.
		for i, off := range []int64{-299, 299} {
			code := fmt.Sprintf("ok-%d", i)
			r := auth.SSORequest{Code: code, Timestamp: ts + off, UserID: f.operator.ID, Signature: auth.SSOSignature("sso-secret", code, ts+off, f.operator.ID)}
			if _, err := f.svc.SingleLogin(ctx, r, meta); err != nil {
				t.Errorf("offset %ds: %v", off, err)
			}
		}
	})
}

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		k, err := f.svc.CreateAPIKey(ctx, f.agency.ID, "booking engine", []string{auth.RoleOperator}, f.super.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(k.Key) < 40 || k.Key[:len(k.Prefix)] != k.Prefix {
			t.Fatalf("key %q prefix %q", k.Key, k.Prefix)
		}
		p, err := f.svc.AuthenticateAPIKey(ctx, k.Key, meta)
		if err != nil || p.AgencyID != f.agency.ID || !p.Subject.HasRole(auth.RoleOperator) || p.Subject.HasRole(auth.RoleFinance) {
			t.Fatalf("AuthenticateAPIKey = %+v, %v", p, err)
		}
		list, _ := f.svc.APIKeys(ctx, f.agency.ID)
		if len(list) != 1 || list[0].Prefix != k.Prefix {
			t.Errorf("APIKeys = %+v", list)
		}
		if other, _ := f.svc.APIKeys(ctx, f.sub.ID); len(other) != 0 {
			t.Errorf("another agency lists %d keys", len(other))
		}
		wantCode(t, f.svc.RevokeAPIKey(ctx, f.sub.ID, k.ID), fault.CodeNotFound, 404)
		if err := f.svc.RevokeAPIKey(ctx, f.agency.ID, k.ID); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.AuthenticateAPIKey(ctx, k.Key, meta)
		wantCode(t, err, fault.CodeSessionInvalid, 401)
		_, err = f.svc.AuthenticateAPIKey(ctx, "vk_forged_key", meta)
		wantCode(t, err, fault.CodeSessionInvalid, 401)
	})
}

// TestSessionsKeptASecond: a session read from the store serves the
// requests of the next second. What is done through this service is seen
// at once (a logout, a change of the user); what another instance did is
// seen within that second (a revocation written to the store); and a
// copy that would refuse is checked against the store first (the session
// kept alive by another instance meanwhile).
func TestSessionsKeptASecond(t *testing.T) {
	t.Parallel()
	run(t, sharedSessions, func(t *testing.T, ctx context.Context, db *store.DB, f *fixture) {
		login := func() auth.LoginResult {
			t.Helper()
			res := mustLogin(t, ctx, f.svc, "demo-operator", "demo-pass-1")
			if _, err := f.svc.Authenticate(ctx, res.Token); err != nil {
				t.Fatal(err)
			}
			return res
		}

		res := login()
		if err := f.svc.Logout(ctx, res.Principal, meta); err != nil {
			t.Fatal(err)
		}
		_, err := f.svc.Authenticate(ctx, res.Token)
		wantCode(t, err, fault.CodeSessionInvalid, 401)

		res = login()
		if _, err := f.svc.DeactivateUser(ctx, auth.Principal{UserID: f.super.ID, AgencyID: f.agency.ID, Username: f.super.Username,
			Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1}}, f.operator.ID, meta); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Authenticate(ctx, res.Token)
		wantCode(t, err, fault.CodeSessionInvalid, 401)
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET status = 'active' WHERE id = ?`), f.operator.ID); err != nil {
			t.Fatal(err)
		}

		// Another instance revokes the session: seen within the second.
		res = login()
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE sessions SET revoked_at = ?, revoke_reason = 'logout' WHERE id = ?`), f.now, res.Principal.SessionID); err != nil {
			t.Fatal(err)
		}
		f.now = f.now.Add(time.Second)
		_, err = f.svc.Authenticate(ctx, res.Token)
		wantCode(t, err, fault.CodeSessionInvalid, 401)

		// Another instance kept the session alive: the copy's idle limit
		// has passed, within the second, the store's has not.
		res = login()
		idle := func(at time.Time) {
			t.Helper()
			if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE sessions SET idle_expires_at = ? WHERE id = ?`), at, res.Principal.SessionID); err != nil {
				t.Fatal(err)
			}
		}
		t0 := f.now
		idle(t0.Add(1500 * time.Millisecond))
		f.now = t0.Add(1200 * time.Millisecond)
		if _, err := f.svc.Authenticate(ctx, res.Token); err != nil {
			t.Fatal(err)
		}
		idle(t0.Add(2 * time.Hour))
		f.now = t0.Add(1700 * time.Millisecond)
		if _, err := f.svc.Authenticate(ctx, res.Token); err != nil {
			t.Fatalf("a session kept alive elsewhere is refused: %v", err)
		}
	})
}
