package profile_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// A user's time zone (issue 20): an IANA name or "" for the agency's; a
// name that is no zone is refused with the catalog's message and changes
// nothing; the session reads the choice, so the next page uses it.
func TestSetTimeZone(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		set := func(raw string) error { return f.svc.SetConfig(ctx, f.demo, "timeZone", json.RawMessage(raw), meta) }
		if u := f.user(t, f.demo.UserID); u.TimeZone != "" {
			t.Fatalf("a new user's zone = %q, want the agency's (\"\")", u.TimeZone)
		}
		if err := set(`"Europe/Paris"`); err != nil {
			t.Fatal(err)
		}
		for _, raw := range []string{`"Mars/Olympus"`, `"Local"`, `"../../etc/passwd"`, `8`, `["Asia/Tokyo"]`} {
			err := set(raw)
			fe, ok := fault.As(err)
			if !ok || fe.Code != fault.CodeValidation || fe.Fields["timeZone"] != display.ErrZoneKey {
				t.Errorf("%s: err = %v, want %s", raw, err, display.ErrZoneKey)
			}
		}
		if u := f.user(t, f.demo.UserID); u.TimeZone != "Europe/Paris" {
			t.Fatalf("after refused names the zone = %q, want Europe/Paris kept", u.TimeZone)
		}

		// The session carries the zone to the pages, read again once the
		// profile changed, as the app wires them.
		st := auth.NewService(db, agency.NewStore(db), time.Hour, time.Hour)
		f.svc.OnUserChange(st.ForgetUser)
		res, err := st.Login(ctx, "sub-user", "demo-pass-1", meta)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.svc.SetConfig(ctx, res.Principal, "timeZone", json.RawMessage(`" Asia/Tokyo "`), meta); err != nil {
			t.Fatal(err)
		}
		p, err := st.Authenticate(ctx, res.Token)
		if err != nil || p.TimeZone != "Asia/Tokyo" {
			t.Fatalf("principal zone = %q, %v; want Asia/Tokyo", p.TimeZone, err)
		}
		if err := f.svc.SetConfig(ctx, res.Principal, "timeZone", json.RawMessage(`""`), meta); err != nil {
			t.Fatal(err)
		}
		if p, _ := st.Authenticate(ctx, res.Token); p.TimeZone != "" {
			t.Fatalf("back to the agency's zone: %q", p.TimeZone)
		}
	})
}
