package profile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// fixture is a provider with two agencies side by side and a sub-agency of
// the first: demo (with a user and a sub user) and other.
type fixture struct {
	svc   *profile.Service
	db    *store.DB
	now   time.Time
	demo  auth.Principal
	sub   auth.Principal
	other auth.Principal
}

var meta = auth.Meta{IP: "203.0.113.9", UserAgent: "test"}

func setup(t *testing.T, db *store.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	agencies := agency.NewStore(db)
	f := &fixture{db: db, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	principal := func(u auth.User) auth.Principal {
		return auth.Principal{UserID: u.ID, Username: u.Username, AgencyID: u.AgencyID}
	}
	err := db.InTx(ctx, func(tx *sqlx.Tx) error {
		provider, err := agencies.Create(ctx, tx, agency.New{Name: "Provider", CanCreateSubAgency: true})
		if err != nil {
			return err
		}
		demo, err := agencies.Create(ctx, tx, agency.New{ParentID: &provider.ID, Name: "Demo Travel", CanCreateSubAgency: true})
		if err != nil {
			return err
		}
		sub, err := agencies.Create(ctx, tx, agency.New{ParentID: &demo.ID, Name: "Sub Travel"})
		if err != nil {
			return err
		}
		other, err := agencies.Create(ctx, tx, agency.New{ParentID: &provider.ID, Name: "Other Travel"})
		if err != nil {
			return err
		}
		for _, u := range []struct {
			agency int64
			name   string
			into   *auth.Principal
		}{{demo.ID, "demo-user", &f.demo}, {sub.ID, "sub-user", &f.sub}, {other.ID, "other-user", &f.other}} {
			user, err := auth.CreateUser(ctx, tx, auth.NewUser{AgencyID: u.agency, Username: u.name, Email: u.name + "@example.com",
				Nickname: u.name, Roles: []string{auth.RoleOperator}, Password: "demo-pass-1"}, f.now)
			if err != nil {
				return err
			}
			*u.into = principal(user)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = profile.New(db)
	f.svc.SetClock(func() time.Time { return f.now })
	return f
}

func wantCode(t *testing.T, err error, code, status int) *fault.Error {
	t.Helper()
	fe, ok := fault.As(err)
	if !ok || fe.Code != code || fe.Status != status {
		t.Fatalf("err = %v, want code %d status %d", err, code, status)
	}
	return fe
}

func wantField(t *testing.T, err error, field, key string) {
	t.Helper()
	fe := wantCode(t, err, fault.CodeValidation, 400)
	if fe.Fields[field] != key {
		t.Fatalf("fields = %v, want %s: %s", fe.Fields, field, key)
	}
}

func (f *fixture) user(t *testing.T, id int64) auth.User {
	t.Helper()
	u, err := auth.NewService(f.db, agency.NewStore(f.db), time.Hour, time.Hour).User(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// passenger saves validPassenger as one of the passengers of p's agency.
func (f *fixture) passenger(t *testing.T, p auth.Principal) profile.Passenger {
	t.Helper()
	saved, err := f.svc.CreatePassenger(context.Background(), p, validPassenger(), meta)
	if err != nil {
		t.Fatal(err)
	}
	return saved
}

func (f *fixture) countLog(t *testing.T, action string) int {
	t.Helper()
	var n int
	if err := f.db.GetContext(context.Background(), &n, f.db.Rebind(`SELECT COUNT(*) FROM user_logs WHERE action = ?`), action); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestUpdateMe(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		err := f.svc.UpdateMe(ctx, f.demo, profile.Update{Nickname: "  ", Mobile: "abc", AreaCode: "12345"}, meta)
		fe := wantCode(t, err, fault.CodeValidation, 400)
		want := map[string]string{"nickname": "profile.error.nicknameRequired", "mobile": "user.error.mobile", "areaCode": "user.error.areaCode"}
		for k, v := range want {
			if fe.Fields[k] != v {
				t.Errorf("field %s = %q, want %q", k, fe.Fields[k], v)
			}
		}
		if n := f.countLog(t, profile.ActionUpdate); n != 0 {
			t.Fatalf("invalid update logged %d entries", n)
		}
		if err := f.svc.UpdateMe(ctx, f.demo, profile.Update{Nickname: " Li Lei ", Mobile: "13900000000", AreaCode: ""}, meta); err != nil {
			t.Fatal(err)
		}
		u := f.user(t, f.demo.UserID)
		if u.Nickname != "Li Lei" || u.Mobile != "13900000000" || u.AreaCode != "86" {
			t.Errorf("stored %q %q %q", u.Nickname, u.Mobile, u.AreaCode)
		}
		if n := f.countLog(t, profile.ActionUpdate); n != 1 {
			t.Errorf("profile.update entries = %d, want 1", n)
		}
		wantCode(t, f.svc.UpdateMe(ctx, auth.Principal{AgencyID: f.demo.AgencyID}, profile.Update{Nickname: "x"}, meta), fault.CodeNoAccess, 403)
	})
}

var pngHeader = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

func TestAvatar(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		wantField(t, f.svc.SetAvatar(ctx, f.demo, nil, meta), "avatar", "profile.avatar.error.empty")
		wantField(t, f.svc.SetAvatar(ctx, f.demo, []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), meta),
			"avatar", "profile.avatar.error.type")
		big := append(append([]byte{}, pngHeader...), bytes.Repeat([]byte{0}, profile.MaxAvatarBytes)...)
		wantField(t, f.svc.SetAvatar(ctx, f.demo, big, meta), "avatar", "profile.avatar.error.tooLarge")
		wantCode(t, func() error { _, _, err := f.svc.Avatar(ctx, f.demo, f.demo.UserID); return err }(), fault.CodeNotFound, 404)

		if err := f.svc.SetAvatar(ctx, f.demo, pngHeader, meta); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.SetAvatar(ctx, f.sub, []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), meta); err != nil {
			t.Fatal(err)
		}
		data, typ, err := f.svc.Avatar(ctx, f.demo, f.demo.UserID)
		if err != nil || typ != "image/png" || !bytes.Equal(data, pngHeader) {
			t.Fatalf("own avatar: %q %v", typ, err)
		}
		// The parent agency sees its sub-agency's users, not the reverse,
		// and a side agency sees neither.
		if _, typ, err := f.svc.Avatar(ctx, f.demo, f.sub.UserID); err != nil || typ != "image/gif" {
			t.Fatalf("sub user's avatar from the parent: %q %v", typ, err)
		}
		for _, tc := range []struct {
			name string
			p    auth.Principal
			id   int64
		}{{"sub reads parent", f.sub, f.demo.UserID}, {"other reads demo", f.other, f.demo.UserID}, {"other reads sub", f.other, f.sub.UserID},
			{"unknown user", f.demo, 999999}} {
			_, _, err := f.svc.Avatar(ctx, tc.p, tc.id)
			if fe, ok := fault.As(err); !ok || fe.Code != fault.CodeNotFound {
				t.Errorf("%s: err = %v, want not found", tc.name, err)
			}
		}
		if u := f.user(t, f.demo.UserID); u.AvatarType != "image/png" {
			t.Errorf("avatar_type = %q", u.AvatarType)
		}
	})
}

func TestSetConfig(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		set := func(key, raw string) error {
			return f.svc.SetConfig(ctx, f.demo, key, json.RawMessage(raw), meta)
		}
		bad := []struct{ key, raw, want string }{
			{"cities", `[]`, "profile.config.error.citiesEmpty"},
			{"cities", `null`, "profile.config.error.citiesEmpty"},
			{"cities", `["PEKING"]`, "profile.config.error.cities"},
			{"cities", `["PE1"]`, "profile.config.error.cities"},
			{"cities", `"PEK"`, "profile.config.error.cities"},
			{"cities", `["AAA","AAB","AAC","AAD","AAE","AAF","AAG","AAH","AAI","AAJ","AAK","AAL","AAM","AAN","AAO","AAP","AAQ","AAR","AAS","AAT","AAU"]`, "profile.config.error.citiesMax"},
			{"countries", `[]`, "profile.config.error.countriesEmpty"},
			{"countries", `["ZZ"]`, "profile.config.error.countries"},
			{"countries", `["CHN"]`, "profile.config.error.countries"},
			{"passengers", `[]`, "profile.config.error.passengersEmpty"},
			{"passengers", `[12345]`, "profile.config.error.passengers"},
			{"passengers", `["x"]`, "profile.config.error.passengers"},
			{"defaultRegion", `"12345"`, "profile.config.error.defaultRegion"},
			{"defaultRegion", `"+86"`, "profile.config.error.defaultRegion"},
			{"defaultRegion", `86`, "profile.config.error.defaultRegion"},
			{"dateFormat", `"YYYY-MM-DD"`, "profile.config.error.dateFormat"},
		}
		for _, b := range bad {
			err := set(b.key, b.raw)
			fe, ok := fault.As(err)
			if !ok || fe.Code != fault.CodeValidation || fe.Fields[b.key] != b.want {
				t.Errorf("%s %s: err = %v, want %s", b.key, b.raw, err, b.want)
			}
		}
		wantCode(t, set("theme", `"dark"`), fault.CodeNotFound, 404)
		if n := f.countLog(t, profile.ActionConfig); n != 0 {
			t.Fatalf("refused settings logged %d entries", n)
		}

		for _, ok := range []struct{ key, raw string }{
			{"cities", `["pek", "SHA", "PEK"]`}, {"countries", `["cn","HK"]`}, {"defaultRegion", `"852"`}, {"dateFormat", `"dd/MM/yyyy"`},
		} {
			if err := set(ok.key, ok.raw); err != nil {
				t.Fatalf("%s %s: %v", ok.key, ok.raw, err)
			}
		}
		u := f.user(t, f.demo.UserID)
		if got := u.FavouriteCities(); len(got) != 2 || got[0] != "PEK" || got[1] != "SHA" {
			t.Errorf("cities = %v", got)
		}
		if got := u.FavouriteCountries(); len(got) != 2 || got[0] != "CN" || got[1] != "HK" {
			t.Errorf("countries = %v", got)
		}
		if u.DefaultRegion != "852" || u.DateFormat != "dd/MM/yyyy" {
			t.Errorf("region %q date format %q", u.DefaultRegion, u.DateFormat)
		}

		// Favoured passengers must be the agency's own.
		mine := f.passenger(t, f.demo)
		theirs := f.passenger(t, f.other)
		if err := set("passengers", `[`+itoa(mine.ID)+`]`); err != nil {
			t.Fatal(err)
		}
		wantField(t, set("passengers", `[`+itoa(mine.ID)+`,`+itoa(theirs.ID)+`]`), "passengers", "profile.config.error.passengers")
		var stored string
		if err := f.db.Get(&stored, f.db.Rebind(`SELECT fav_passengers FROM users WHERE id = ?`), f.demo.UserID); err != nil || stored != `[`+itoa(mine.ID)+`]` {
			t.Errorf("favoured passengers stored = %q, %v", stored, err)
		}
		if n := f.countLog(t, profile.ActionConfig); n != 5 {
			t.Errorf("profile.config entries = %d, want 5", n)
		}
	})
}

func TestPaging(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want profile.Paging
	}{
		{profile.Paging{}, profile.Paging{Page: 1, PageSize: 20}},
		{profile.Paging{Page: 3, PageSize: 50}, profile.Paging{Page: 3, PageSize: 50}},
		{profile.Paging{Page: -1, PageSize: 1000}, profile.Paging{Page: 1, PageSize: 100}},
	} {
		if got := tc.in.Normalize(); got != tc.want {
			t.Errorf("%+v.Normalize() = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
