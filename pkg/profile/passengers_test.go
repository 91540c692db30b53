package profile_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

func validPassenger() profile.PassengerInput {
	return profile.PassengerInput{
		Surname: "zhang", GivenName: "san", Type: "Adult", Gender: "male", Birthday: "1990-05-17", Nationality: "cn",
		Phone: "+86 139 0000 0000", Email: "zhang.san@example.com", DocumentType: "passport", DocumentNumber: "e12345678",
		DocumentExpiry: "2031-05-16", DocumentIssuedAt: "Beijing",
	}
}

func TestPassengerRules(t *testing.T) {
	t.Parallel()
	today := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		edit  func(*profile.PassengerInput)
		field string
		key   string
	}{
		{"valid", func(*profile.PassengerInput) {}, "", ""},
		{"born today", func(p *profile.PassengerInput) { p.Birthday = "2026-11-23"; p.Type = "infant" }, "", ""},
		{"no optional contact", func(p *profile.PassengerInput) { p.Phone, p.Email, p.DocumentIssuedAt = "", "", "" }, "", ""},
		{"every document type", func(p *profile.PassengerInput) { p.DocumentType = "taiwan-resident-mainland-permit" }, "", ""},
		{"surname empty", func(p *profile.PassengerInput) { p.Surname = "  " }, "surname", "profile.passenger.error.surnameRequired"},
		{"surname digits", func(p *profile.PassengerInput) { p.Surname = "Zhang3" }, "surname", "profile.passenger.error.surnameFormat"},
		{"surname space", func(p *profile.PassengerInput) { p.Surname = "VAN DAM" }, "surname", "profile.passenger.error.surnameFormat"},
		{"surname chinese", func(p *profile.PassengerInput) { p.Surname = "张" }, "surname", "profile.passenger.error.surnameFormat"},
		{"surname accented", func(p *profile.PassengerInput) { p.Surname = "MÜLLER" }, "surname", "profile.passenger.error.surnameFormat"},
		{"given name empty", func(p *profile.PassengerInput) { p.GivenName = "" }, "givenName", "profile.passenger.error.givenNameRequired"},
		{"type unknown", func(p *profile.PassengerInput) { p.Type = "senior" }, "type", "profile.passenger.error.type"},
		{"type empty", func(p *profile.PassengerInput) { p.Type = "" }, "type", "profile.passenger.error.type"},
		{"gender unknown", func(p *profile.PassengerInput) { p.Gender = "x" }, "gender", "profile.passenger.error.gender"},
		{"birthday empty", func(p *profile.PassengerInput) { p.Birthday = "" }, "birthday", "profile.passenger.error.birthdayRequired"},
		{"birthday tomorrow", func(p *profile.PassengerInput) { p.Birthday = "2026-11-24" }, "birthday", "profile.passenger.error.birthdayFuture"},
		{"birthday slashes", func(p *profile.PassengerInput) { p.Birthday = "1990/05/17" }, "birthday", "profile.passenger.error.birthdayFormat"},
		{"birthday no such day", func(p *profile.PassengerInput) { p.Birthday = "1990-02-30" }, "birthday", "profile.passenger.error.birthdayFormat"},
		{"birthday year", func(p *profile.PassengerInput) { p.Birthday = "0990-05-17" }, "birthday", "profile.passenger.error.birthdayFormat"},
		{"nationality empty", func(p *profile.PassengerInput) { p.Nationality = "" }, "nationality", "profile.passenger.error.nationalityRequired"},
		{"nationality unknown", func(p *profile.PassengerInput) { p.Nationality = "XX" }, "nationality", "profile.passenger.error.nationality"},
		{"nationality alpha-3", func(p *profile.PassengerInput) { p.Nationality = "CHN" }, "nationality", "profile.passenger.error.nationality"},
		{"document type empty", func(p *profile.PassengerInput) { p.DocumentType = "" }, "documentType", "profile.passenger.error.documentTypeRequired"},
		{"document type all", func(p *profile.PassengerInput) { p.DocumentType = "all" }, "documentType", "profile.passenger.error.documentType"},
		{"document number empty", func(p *profile.PassengerInput) { p.DocumentNumber = "" }, "documentNumber", "profile.passenger.error.documentNumberRequired"},
		{"document number symbols", func(p *profile.PassengerInput) { p.DocumentNumber = "E123-456" }, "documentNumber", "profile.passenger.error.documentNumber"},
		{"document number long", func(p *profile.PassengerInput) { p.DocumentNumber = "A1234567890123456789012345678901" }, "documentNumber", "profile.passenger.error.documentNumber"},
		{"expiry empty", func(p *profile.PassengerInput) { p.DocumentExpiry = "" }, "documentExpiry", "profile.passenger.error.documentExpiryRequired"},
		{"expiry bad", func(p *profile.PassengerInput) { p.DocumentExpiry = "2031-13-01" }, "documentExpiry", "profile.passenger.error.documentExpiryFormat"},
		{"phone bad", func(p *profile.PassengerInput) { p.Phone = "call me" }, "phone", "profile.passenger.error.phone"},
		{"email bad", func(p *profile.PassengerInput) { p.Email = "zhang@" }, "email", "profile.passenger.error.email"},
		{"issued at long", func(p *profile.PassengerInput) { p.DocumentIssuedAt = string(make([]byte, 51)) }, "documentIssuedAt", "error.field.tooLong"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := validPassenger()
			tt.edit(&in)
			errs := in.Normalize().Validate(today)
			if tt.field == "" {
				if len(errs) != 0 {
					t.Fatalf("errors %v, want none", errs)
				}
				return
			}
			if errs[tt.field] != tt.key || len(errs) != 1 {
				t.Fatalf("errors %v, want only %s: %s", errs, tt.field, tt.key)
			}
		})
	}
}

func TestPassengerNormalize(t *testing.T) {
	t.Parallel()
	in := validPassenger()
	in.GivenName = "  san   feng "
	got := in.Normalize()
	if got.Surname != "ZHANG" || got.GivenName != "SAN FENG" || got.Type != "adult" || got.Nationality != "CN" || got.DocumentNumber != "E12345678" {
		t.Errorf("normalized = %+v", got)
	}
}

func TestPassengersCRUD(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		bad := validPassenger()
		bad.Surname = "Zh4ng"
		wantField(t, func() error { _, err := f.svc.CreatePassenger(ctx, f.demo, bad, meta); return err }(), "surname", "profile.passenger.error.surnameFormat")

		p := f.passenger(t, f.demo)
		if p.ID == 0 || p.Surname != "ZHANG" || p.Nationality != "CN" || p.UserID != f.demo.UserID || p.CreatedAt.IsZero() {
			t.Fatalf("created %+v", p)
		}
		page, err := f.svc.Passengers(ctx, f.demo, profile.Paging{})
		if err != nil || page.Total != 1 || len(page.Items) != 1 || page.Page != 1 || page.PageSize != 20 {
			t.Fatalf("list = %+v, %v", page, err)
		}

		// Another agency, and the sub-agency, see nothing and change nothing.
		for name, outsider := range map[string]auth.Principal{"other": f.other, "sub": f.sub} {
			list, err := f.svc.Passengers(ctx, outsider, profile.Paging{})
			if err != nil || list.Total != 0 || len(list.Items) != 0 {
				t.Errorf("%s lists %+v, %v", name, list, err)
			}
			_, err = f.svc.Passenger(ctx, outsider, p.ID)
			wantCode(t, err, fault.CodeNotFound, 404)
			changed := validPassenger()
			changed.Surname = "HACKED"
			_, err = f.svc.UpdatePassenger(ctx, outsider, p.ID, changed, meta)
			wantCode(t, err, fault.CodeNotFound, 404)
			wantCode(t, f.svc.DeletePassenger(ctx, outsider, p.ID, meta), fault.CodeNotFound, 404)
		}
		if got, err := f.svc.Passenger(ctx, f.demo, p.ID); err != nil || got.Surname != "ZHANG" || !got.UpdatedAt.Equal(p.UpdatedAt) {
			t.Fatalf("row changed by outsiders: %+v %v", got, err)
		}

		changed := validPassenger()
		changed.Surname = "li"
		changed.Gender = "female"
		f.now = f.now.Add(time.Hour)
		up, err := f.svc.UpdatePassenger(ctx, f.demo, p.ID, changed, meta)
		if err != nil || up.Surname != "LI" || up.Gender != "female" || !up.UpdatedAt.After(up.CreatedAt) {
			t.Fatalf("update = %+v, %v", up, err)
		}
		changed.Birthday = "2026-11-24"
		_, err = f.svc.UpdatePassenger(ctx, f.demo, p.ID, changed, meta)
		wantField(t, err, "birthday", "profile.passenger.error.birthdayFuture")

		// A card of the passenger goes when the passenger goes.
		card, err := f.svc.CreateCard(ctx, f.demo, profile.CardInput{Airline: "ca", Number: "123456789", HolderName: "LI SAN", PassengerID: &p.ID}, meta)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.svc.DeletePassenger(ctx, f.demo, p.ID, meta); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.Passenger(ctx, f.demo, p.ID)
		wantCode(t, err, fault.CodeNotFound, 404)
		_, err = f.svc.Card(ctx, f.demo, card.ID)
		wantCode(t, err, fault.CodeNotFound, 404)
		for _, action := range []string{profile.ActionPassengerCreate, profile.ActionPassengerUpdate, profile.ActionPassengerDelete} {
			if n := f.countLog(t, action); n != 1 {
				t.Errorf("%s entries = %d, want 1", action, n)
			}
		}
	})
}

func TestPassengerLimitAndPaging(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		for i := 0; i < profile.MaxPassengers; i++ {
			in := validPassenger()
			in.Surname = "P" + string(rune('A'+i%26)) + string(rune('A'+i/26))
			in.DocumentNumber = fmt.Sprintf("E%08d", i)
			if _, err := f.svc.CreatePassenger(ctx, f.demo, in, meta); err != nil {
				t.Fatalf("passenger %d: %v", i+1, err)
			}
		}
		_, err := f.svc.CreatePassenger(ctx, f.demo, validPassenger(), meta)
		fe := wantCode(t, err, fault.CodeConflict, 409)
		if fe.Key != "profile.passenger.error.max" {
			t.Errorf("key = %s", fe.Key)
		}
		// The limit is per agency: another agency still has room.
		if _, err := f.svc.CreatePassenger(ctx, f.other, validPassenger(), meta); err != nil {
			t.Fatal(err)
		}
		page, err := f.svc.Passengers(ctx, f.demo, profile.Paging{Page: 2, PageSize: 25})
		if err != nil || page.Total != 30 || len(page.Items) != 5 || page.Page != 2 || page.PageSize != 25 {
			t.Fatalf("page 2 = total %d items %d, %v", page.Total, len(page.Items), err)
		}
		if page.Items[0].Surname != "PVA" {
			t.Errorf("page 2 starts with %s, want PVA (by surname)", page.Items[0].Surname)
		}
	})
}

// TestBirthdayOnTheAgencysDate: "not after today" is the agency's today. At
// 20:00 UTC on 23 November it is already the 24th in Beijing (the agency's
// zone, the default): a traveller born on the 24th is accepted; one born on
// the 25th is not.
func TestBirthdayOnTheAgencysDate(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		f.now = time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)
		in := validPassenger()
		in.Birthday = "2026-11-24"
		if _, err := f.svc.CreatePassenger(ctx, f.demo, in, meta); err != nil {
			t.Fatalf("born on the agency's today: %v", err)
		}
		in.Birthday, in.DocumentNumber = "2026-11-25", "E99999999"
		_, err := f.svc.CreatePassenger(ctx, f.demo, in, meta)
		wantField(t, err, "birthday", "profile.passenger.error.birthdayFuture")
	})
}

// TestAlreadySaved: one rule for the form, a scan and the DOCS import: a
// traveller whose document the agency already keeps is refused (the form,
// a scan, an edit onto another's document) or passed over (the import),
// whatever the name, and nothing changes; another agency may keep it.
func TestAlreadySaved(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		first := f.passenger(t, f.demo)
		renamed := validPassenger()
		renamed.GivenName = "si"
		for name, in := range map[string]profile.PassengerInput{"exact duplicate": validPassenger(), "same document, other name": renamed} {
			_, err := f.svc.CreatePassenger(ctx, f.demo, in, meta)
			wantField(t, err, "documentNumber", profile.KeyAlreadySaved)
			if page, _ := f.svc.Passengers(ctx, f.demo, profile.Paging{}); page.Total != 1 {
				t.Fatalf("%s: %d travellers saved", name, page.Total)
			}
		}
		// An edit keeps its own document; it may not take another's.
		if _, err := f.svc.UpdatePassenger(ctx, f.demo, first.ID, renamed, meta); err != nil {
			t.Fatalf("edit keeping its document: %v", err)
		}
		other := validPassenger()
		other.DocumentNumber = "E7654321"
		second, err := f.svc.CreatePassenger(ctx, f.demo, other, meta)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.UpdatePassenger(ctx, f.demo, second.ID, validPassenger(), meta)
		wantField(t, err, "documentNumber", profile.KeyAlreadySaved)
		// The import passes over both, by the same rule.
		res, err := f.svc.ImportDocs(ctx, f.demo, "SSR DOCS CA HK1 P/CN/E12345678/CN/17MAY90/M/16MAY31/ZHANG/SAN\nSSR DOCS CA HK1 P/CN/E7654321/CN/17MAY90/M/16MAY31/WANG/WU", meta)
		if err != nil || len(res.Created) != 0 || res.Skipped != 2 {
			t.Fatalf("import of saved documents = %+v, %v", res, err)
		}
		if _, err := f.svc.CreatePassenger(ctx, f.other, validPassenger(), meta); err != nil {
			t.Fatalf("another agency: %v", err)
		}
	})
}
