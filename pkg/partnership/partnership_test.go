package partnership

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

func valid() Application {
	return Application{Name: "Ms Tan", Email: "tan@lionheart.example", Country: "sg", CompanyName: "Lionheart Travel"}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(a *Application)
		want   map[string]string
	}{
		{"valid", func(a *Application) {}, map[string]string{}},
		{"phone instead of email", func(a *Application) { a.Email = ""; a.Phone = "+65 6123 4567" }, map[string]string{}},
		{"name missing", func(a *Application) { a.Name = "  " }, map[string]string{"name": "application.error.name"}},
		{"country missing", func(a *Application) { a.Country = "" }, map[string]string{"country": "application.error.country"}},
		{"country unknown", func(a *Application) { a.Country = "XX" }, map[string]string{"country": "application.error.country"}},
		{"no email nor phone", func(a *Application) { a.Email = "" }, map[string]string{"email": "application.error.contact", "phone": "application.error.contact"}},
		{"bad email", func(a *Application) { a.Email = "tan@" }, map[string]string{"email": "application.error.email"}},
		{"email with display name", func(a *Application) { a.Email = "Tan <tan@x.example>" }, map[string]string{"email": "application.error.email"}},
		{"email without dot domain", func(a *Application) { a.Email = "tan@localhost" }, map[string]string{"email": "application.error.email"}},
		{"bad phone", func(a *Application) { a.Phone = "call me" }, map[string]string{"phone": "application.error.phone"}},
		{"bad website", func(a *Application) { a.Website = "javascript:alert(1)" }, map[string]string{"website": "application.error.website"}},
		{"website without scheme", func(a *Application) { a.Website = "lionheart.example" }, map[string]string{}},
		{"remark too long", func(a *Application) { a.Remark = strings.Repeat("字", 2001) }, map[string]string{"remark": "error.field.tooLong"}},
		{"remark at the limit", func(a *Application) { a.Remark = strings.Repeat("字", 2000) }, map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := valid()
			tt.change(&a)
			got := Validate(a.Normalize())
			if !maps.Equal(got, tt.want) {
				t.Errorf("Validate = %v, want %v", got, tt.want)
			}
		})
	}
}

func count(t *testing.T, db *store.DB) int {
	t.Helper()
	var n int
	if err := db.Get(&n, `SELECT COUNT(*) FROM applications`); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSubmit(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := New(db)
		now := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
		s.now = func() time.Time { return now }

		bad := valid()
		bad.Name = ""
		_, err := s.Submit(ctx, bad, Meta{IP: "203.0.113.9"})
		fe, ok := fault.As(err)
		if !ok || fe.Code != fault.CodeValidation || fe.Fields["name"] != "application.error.name" {
			t.Fatalf("invalid application: err = %v, want validation error on name", err)
		}
		if n := count(t, db); n != 0 {
			t.Fatalf("an invalid application stored %d rows", n)
		}

		got, err := s.Submit(ctx, valid(), Meta{Lang: "en", IP: "203.0.113.9", UserAgent: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if got.ID == 0 || !got.CreatedAt.Equal(now) {
			t.Errorf("Submitted = %+v", got)
		}
		recent, err := s.Recent(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(recent) != 1 || recent[0].Country != "SG" || recent[0].Name != "Ms Tan" || recent[0].Status != "new" || recent[0].Lang != "en" {
			t.Errorf("stored = %+v", recent)
		}
	})
}

func TestSubmitRateLimitedPerIP(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := New(db)
		s.PerIPPerHour = 2
		now := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
		s.now = func() time.Time { return now }
		for i := 0; i < 2; i++ {
			if _, err := s.Submit(ctx, valid(), Meta{IP: "198.51.100.1"}); err != nil {
				t.Fatal(err)
			}
		}
		_, err := s.Submit(ctx, valid(), Meta{IP: "198.51.100.1"})
		if fe, ok := fault.As(err); !ok || fe.Code != fault.CodeRateLimited || fe.Status != 429 {
			t.Fatalf("third submission: err = %v, want rate limited", err)
		}
		// Another address is not affected, and the limit lifts after an hour.
		if _, err := s.Submit(ctx, valid(), Meta{IP: "198.51.100.2"}); err != nil {
			t.Errorf("other IP: %v", err)
		}
		now = now.Add(61 * time.Minute)
		if _, err := s.Submit(ctx, valid(), Meta{IP: "198.51.100.1"}); err != nil {
			t.Errorf("an hour later: %v", err)
		}
		if n := count(t, db); n != 4 {
			t.Errorf("stored %d applications, want 4", n)
		}
	})
}
