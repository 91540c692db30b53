package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// manageFixture is two unrelated agencies, each with a super admin, and an
// operator in the first.
type manageFixture struct {
	svc        *auth.Service
	db         *store.DB
	now        time.Time
	mine       agency.Agency
	other      agency.Agency
	super      auth.User
	operator   auth.User
	otherSuper auth.User
}

func manageSetup(t *testing.T, db *store.DB) *manageFixture {
	t.Helper()
	ctx := context.Background()
	agencies := agency.NewStore(db)
	f := &manageFixture{db: db, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		provider, err := agencies.Create(ctx, tx, agency.New{Name: "Provider", CanCreateSubAgency: true})
		if err != nil {
			return err
		}
		if f.mine, err = agencies.Create(ctx, tx, agency.New{ParentID: &provider.ID, Name: "Mine"}); err != nil {
			return err
		}
		if f.other, err = agencies.Create(ctx, tx, agency.New{ParentID: &provider.ID, Name: "Other"}); err != nil {
			return err
		}
		if f.super, err = auth.CreateUser(ctx, tx, auth.NewUser{AgencyID: f.mine.ID, Username: "mine-super", Email: "super@mine.example",
			Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: "pass-word-1"}, f.now); err != nil {
			return err
		}
		if f.operator, err = auth.CreateUser(ctx, tx, auth.NewUser{AgencyID: f.mine.ID, Username: "mine-operator", Email: "op@mine.example",
			Nickname: "Op", Roles: []string{auth.RoleOperator}, Password: "pass-word-1"}, f.now); err != nil {
			return err
		}
		f.otherSuper, err = auth.CreateUser(ctx, tx, auth.NewUser{AgencyID: f.other.ID, Username: "other-super", Email: "super@other.example",
			Roles: []string{auth.RoleSuperUser}, IsSuperAdmin: true, Password: "pass-word-1"}, f.now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = auth.NewService(db, agencies, 2*time.Hour, 12*time.Hour)
	f.svc.SetClock(func() time.Time { return f.now })
	return f
}

func (f *manageFixture) actor(u auth.User) auth.Principal {
	return auth.Principal{UserID: u.ID, Username: u.Username, AgencyID: u.AgencyID, Subject: auth.Subject{Roles: u.Roles()}}
}

func wantFields(t *testing.T, err error, fields map[string]string) {
	t.Helper()
	fe, ok := fault.As(err)
	if !ok || fe.Code != fault.CodeValidation {
		t.Fatalf("err = %v, want a validation error", err)
	}
	for f, key := range fields {
		if fe.Fields[f] != key {
			t.Errorf("field %s = %q, want %q (all: %v)", f, fe.Fields[f], key, fe.Fields)
		}
	}
}

func countUsers(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.Get(&n, `SELECT COUNT(*) FROM users`); err != nil {
		t.Fatal(err)
	}
	return n
}

func logActions(t *testing.T, db *store.DB, agencyID int64) []string {
	t.Helper()
	entries, _, err := audit.List(context.Background(), db, audit.Filter{AgencyID: agencyID, Page: 1, PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Action)
	}
	return out
}

func strp(s string) *string { return &s }

func TestCreateUserIn(t *testing.T) {
	t.Parallel()
	run(t, manageSetup, func(t *testing.T, ctx context.Context, db *store.DB, f *manageFixture) {
		before := countUsers(t, db)

		tests := []struct {
			name   string
			in     auth.NewUser
			fields map[string]string
		}{
			{"no role", auth.NewUser{Username: "new-one", Email: "n@mine.example", Password: "pass-word-1"}, map[string]string{"role": "user.error.role"}},
			{"unknown role", auth.NewUser{Username: "new-one", Email: "n@mine.example", Roles: []string{"admin"}, Password: "pass-word-1"}, map[string]string{"role": "user.error.role"}},
			{"bad email", auth.NewUser{Username: "new-one", Email: "n@", Roles: []string{auth.RoleOperator}, Password: "pass-word-1"}, map[string]string{"email": "user.error.email"}},
			{"short password", auth.NewUser{Username: "new-one", Email: "n@mine.example", Roles: []string{auth.RoleOperator}, Password: "123"}, map[string]string{"password": "password.error.length"}},
			{"common password", auth.NewUser{Username: "new-one", Email: "n@mine.example", Roles: []string{auth.RoleOperator}, Password: "Qwerty123"}, map[string]string{"password": "password.error.common"}},
			{"taken username", auth.NewUser{Username: "Other-Super", Email: "n@mine.example", Roles: []string{auth.RoleOperator}, Password: "pass-word-1"}, map[string]string{"username": "user.error.usernameTaken"}},
		}
		for _, tt := range tests {
			_, err := f.svc.CreateUserIn(ctx, f.actor(f.super), tt.in, meta)
			wantFields(t, err, tt.fields)
		}
		if n := countUsers(t, db); n != before {
			t.Fatalf("invalid creations stored users: %d → %d", before, n)
		}

		// The agency is always the actor's, whatever the input says, and the
		// new user is never the super admin.
		u, err := f.svc.CreateUserIn(ctx, f.actor(f.super), auth.NewUser{AgencyID: f.other.ID, Username: "New-One", Email: "n@mine.example",
			Roles: []string{auth.RoleFinance}, IsSuperAdmin: true, Password: "pass-word-1"}, meta)
		if err != nil {
			t.Fatal(err)
		}
		if u.AgencyID != f.mine.ID || u.Username != "new-one" || u.IsSuperAdmin || u.Status != auth.StatusActive {
			t.Fatalf("created %+v", u)
		}
		if got := logActions(t, db, f.mine.ID); len(got) != 1 || got[0] != auth.ActionUserCreate {
			t.Errorf("user log of mine = %v, want [user.create]", got)
		}
		if got := logActions(t, db, f.other.ID); len(got) != 0 {
			t.Errorf("user log of other = %v, want nothing", got)
		}
		if _, err := f.svc.Login(ctx, "new-one", "pass-word-1", meta); err != nil {
			t.Errorf("new user cannot log in: %v", err)
		}
	})
}

func TestListUsers(t *testing.T) {
	t.Parallel()
	run(t, manageSetup, func(t *testing.T, ctx context.Context, db *store.DB, f *manageFixture) {
		for i, name := range []string{"anna-ops", "bob-fin", "carl_ops"} {
			role := auth.RoleOperator
			if i == 1 {
				role = auth.RoleFinance
			}
			if _, err := f.svc.CreateUserIn(ctx, f.actor(f.super), auth.NewUser{Username: name, Email: name + "@mine.example",
				Roles: []string{role}, Password: "pass-word-1"}, meta); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.svc.DeactivateUser(ctx, f.actor(f.super), f.operator.ID, meta); err != nil {
			t.Fatal(err)
		}
		names := func(us []auth.User) []string {
			var out []string
			for _, u := range us {
				out = append(out, u.Username)
			}
			return out
		}
		tests := []struct {
			name  string
			f     auth.UserFilter
			want  []string
			total int
		}{
			{"all of mine", auth.UserFilter{}, []string{"mine-super", "mine-operator", "anna-ops", "bob-fin", "carl_ops"}, 5},
			{"keyword", auth.UserFilter{Keyword: "OPS"}, []string{"anna-ops", "carl_ops"}, 2},
			{"underscore is literal", auth.UserFilter{Keyword: "_"}, []string{"carl_ops"}, 1},
			{"keyword in username or email", auth.UserFilter{Keyword: "op"}, []string{"mine-operator", "anna-ops", "carl_ops"}, 3},
			{"role", auth.UserFilter{Role: auth.RoleFinance}, []string{"bob-fin"}, 1},
			{"status", auth.UserFilter{Status: auth.StatusInactive}, []string{"mine-operator"}, 1},
			{"page 2", auth.UserFilter{Page: 2, PageSize: 2}, []string{"anna-ops", "bob-fin"}, 5},
			{"other agency's name", auth.UserFilter{Keyword: "other"}, nil, 0},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				us, total, err := f.svc.ListUsers(ctx, f.mine.ID, tt.f)
				if err != nil {
					t.Fatal(err)
				}
				got := names(us)
				if total != tt.total || len(got) != len(tt.want) {
					t.Fatalf("got %v (total %d), want %v (total %d)", got, total, tt.want, tt.total)
				}
				for i := range got {
					if got[i] != tt.want[i] {
						t.Fatalf("got %v, want %v", got, tt.want)
					}
				}
			})
		}
		_, _, err := f.svc.ListUsers(ctx, f.mine.ID, auth.UserFilter{Status: "gone"})
		wantFields(t, err, map[string]string{"status": "user.error.status"})
	})
}

func TestUpdateUser(t *testing.T) {
	t.Parallel()
	run(t, manageSetup, func(t *testing.T, ctx context.Context, db *store.DB, f *manageFixture) {
		boss := f.actor(f.super)

		roles := []string{auth.RoleOperator, auth.RoleFinance}
		u, err := f.svc.UpdateUser(ctx, boss, f.operator.ID, auth.UserChanges{Nickname: strp(" Olga "), Mobile: strp("13900139000"),
			AreaCode: strp("852"), Roles: &roles, Email: strp("OP@mine.example"), Username: strp("mine-operator")}, meta)
		if err != nil {
			t.Fatal(err)
		}
		if u.Nickname != "Olga" || u.Mobile != "13900139000" || u.AreaCode != "852" || len(u.Roles()) != 2 || u.Email != "op@mine.example" {
			t.Fatalf("updated %+v", u)
		}

		empty := []string{}
		tests := []struct {
			name   string
			actor  auth.Principal
			id     int64
			c      auth.UserChanges
			fields map[string]string
		}{
			{"email changes", boss, f.operator.ID, auth.UserChanges{Email: strp("new@mine.example")}, map[string]string{"email": "user.error.emailFixed"}},
			{"username changes", boss, f.operator.ID, auth.UserChanges{Username: strp("renamed")}, map[string]string{"username": "user.error.usernameFixed"}},
			{"no role", boss, f.operator.ID, auth.UserChanges{Roles: &empty}, map[string]string{"role": "user.error.role"}},
			{"bad status", boss, f.operator.ID, auth.UserChanges{Status: strp("gone")}, map[string]string{"status": "user.error.status"}},
			{"self deactivate", boss, f.super.ID, auth.UserChanges{Status: strp(auth.StatusInactive)}, map[string]string{"status": "user.error.selfDeactivate"}},
			{"self drops SuperUser", boss, f.super.ID, auth.UserChanges{Roles: &roles}, map[string]string{"role": "user.error.selfSuperUser"}},
			{"own password", boss, f.super.ID, auth.UserChanges{Password: "pass-word-2"}, map[string]string{"password": "user.error.ownPassword"}},
			{"short password", boss, f.operator.ID, auth.UserChanges{Password: "123"}, map[string]string{"password": "password.error.length"}},
			{"common password", boss, f.operator.ID, auth.UserChanges{Password: "iloveyou"}, map[string]string{"password": "password.error.common"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := f.svc.UpdateUser(ctx, tt.actor, tt.id, tt.c, meta)
				wantFields(t, err, tt.fields)
			})
		}
		// Another SuperUser of the agency cannot demote or deactivate the
		// agency's super admin either.
		second, err := f.svc.CreateUserIn(ctx, boss, auth.NewUser{Username: "second-super", Email: "s2@mine.example",
			Roles: []string{auth.RoleSuperUser}, Password: "pass-word-1"}, meta)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.UpdateUser(ctx, f.actor(second), f.super.ID, auth.UserChanges{Roles: &roles}, meta)
		wantFields(t, err, map[string]string{"role": "user.error.superAdmin"})
		_, err = f.svc.DeactivateUser(ctx, f.actor(second), f.super.ID, meta)
		wantFields(t, err, map[string]string{"status": "user.error.superAdmin"})

		// Another agency's user is not found, and stays as it was.
		_, err = f.svc.UpdateUser(ctx, f.actor(f.otherSuper), f.operator.ID, auth.UserChanges{Nickname: strp("pwned")}, meta)
		wantCode(t, err, fault.CodeNotFound, 404)
		_, err = f.svc.DeactivateUser(ctx, f.actor(f.otherSuper), f.operator.ID, meta)
		wantCode(t, err, fault.CodeNotFound, 404)
		_, err = f.svc.UpdateUser(ctx, boss, 999999, auth.UserChanges{Nickname: strp("x")}, meta)
		wantCode(t, err, fault.CodeNotFound, 404)
		got, err := f.svc.User(ctx, f.operator.ID)
		if err != nil || got.Nickname != "Olga" || got.Status != auth.StatusActive {
			t.Fatalf("operator after refused changes: %+v %v", got, err)
		}
		for _, a := range logActions(t, db, f.other.ID) {
			t.Errorf("other agency's log has %s", a)
		}
	})
}

func TestDeactivateEndsSessions(t *testing.T) {
	t.Parallel()
	run(t, manageSetup, func(t *testing.T, ctx context.Context, db *store.DB, f *manageFixture) {
		res := mustLogin(t, ctx, f.svc, "mine-operator", "pass-word-1")
		u, err := f.svc.DeactivateUser(ctx, f.actor(f.super), f.operator.ID, meta)
		if err != nil || u.Status != auth.StatusInactive {
			t.Fatalf("deactivate: %+v %v", u, err)
		}
		_, err = f.svc.Authenticate(ctx, res.Token)
		wantCode(t, err, fault.CodeSessionInvalid, 401)
		var reason string
		if err := db.Get(&reason, db.Rebind(`SELECT revoke_reason FROM sessions WHERE user_id = ?`), f.operator.ID); err != nil || reason != "disabled" {
			t.Errorf("revoke reason %q (%v), want disabled", reason, err)
		}
		_, err = f.svc.Login(ctx, "mine-operator", "pass-word-1", meta)
		wantCode(t, err, fault.CodeBadCredentials, 401)
		if got := logActions(t, db, f.mine.ID); len(got) == 0 || got[0] != audit.ActionLoginFailed || !contains(got, auth.ActionUserDeactivate) {
			t.Errorf("user log = %v", got)
		}

		// Reactivating lets the user back in; a new password ends sessions.
		u, err = f.svc.SetUserStatus(ctx, f.actor(f.super), f.operator.ID, auth.StatusActive, meta)
		if err != nil || u.Status != auth.StatusActive {
			t.Fatalf("reactivate: %+v %v", u, err)
		}
		res = mustLogin(t, ctx, f.svc, "mine-operator", "pass-word-1")
		if _, err := f.svc.UpdateUser(ctx, f.actor(f.super), f.operator.ID, auth.UserChanges{Password: "pass-word-2"}, meta); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Authenticate(ctx, res.Token)
		wantCode(t, err, fault.CodeSessionInvalid, 401)
		if _, err := f.svc.Login(ctx, "mine-operator", "pass-word-2", meta); err != nil {
			t.Errorf("new password: %v", err)
		}
	})
}

func TestUserLogStaysInItsAgency(t *testing.T) {
	t.Parallel()
	run(t, manageSetup, func(t *testing.T, ctx context.Context, db *store.DB, f *manageFixture) {
		mustLogin(t, ctx, f.svc, "mine-super", "pass-word-1")
		mustLogin(t, ctx, f.svc, "other-super", "pass-word-1")
		// The filter's agency is ignored: the caller's agency wins.
		entries, total, err := f.svc.UserLog(ctx, f.other.ID, audit.Filter{AgencyID: f.mine.ID})
		if err != nil {
			t.Fatal(err)
		}
		if total != 1 || len(entries) != 1 || entries[0].Username != "other-super" || entries[0].AgencyID != f.other.ID {
			t.Fatalf("other's log = %+v (total %d)", entries, total)
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
