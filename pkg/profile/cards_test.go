package profile_test

import (
	"context"
	"testing"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/profile"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

func TestCardRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    profile.CardInput
		field string
		key   string
	}{
		{"valid", profile.CardInput{Airline: "ca", Number: "ab1234", HolderName: "Zhang San"}, "", ""},
		{"digit airline", profile.CardInput{Airline: "3U", Number: "1234", HolderName: "X"}, "", ""},
		{"airline long", profile.CardInput{Airline: "CAX", Number: "1234", HolderName: "X"}, "airline", "profile.card.error.airline"},
		{"airline empty", profile.CardInput{Number: "1234", HolderName: "X"}, "airline", "profile.card.error.airline"},
		{"number short", profile.CardInput{Airline: "CA", Number: "123", HolderName: "X"}, "number", "profile.card.error.number"},
		{"number symbols", profile.CardInput{Airline: "CA", Number: "12-34", HolderName: "X"}, "number", "profile.card.error.number"},
		{"holder empty", profile.CardInput{Airline: "CA", Number: "1234", HolderName: " "}, "holderName", "profile.card.error.holderNameRequired"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := tt.in.Normalize().Validate()
			if tt.field == "" && len(errs) != 0 {
				t.Fatalf("errors %v, want none", errs)
			}
			if tt.field != "" && (errs[tt.field] != tt.key || len(errs) != 1) {
				t.Fatalf("errors %v, want only %s: %s", errs, tt.field, tt.key)
			}
		})
	}
}

func TestCardsCRUD(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		f := setup(t, db)
		ctx := context.Background()
		theirs := f.passenger(t, f.other)
		mine := f.passenger(t, f.demo)
		// Another agency's passenger reads as unknown.
		_, err := f.svc.CreateCard(ctx, f.demo, profile.CardInput{Airline: "MU", Number: "55554444", HolderName: "ZHANG SAN", PassengerID: &theirs.ID}, meta)
		wantField(t, err, "passengerId", "profile.card.error.passenger")

		c, err := f.svc.CreateCard(ctx, f.demo, profile.CardInput{Airline: "mu", Number: "55554444", HolderName: " Zhang  San ", PassengerID: &mine.ID}, meta)
		if err != nil {
			t.Fatal(err)
		}
		if c.Airline != "MU" || c.Number != "55554444" || c.HolderName != "Zhang San" || c.PassengerID == nil || *c.PassengerID != mine.ID {
			t.Fatalf("created %+v", c)
		}
		_, err = f.svc.CreateCard(ctx, f.demo, profile.CardInput{Airline: "MU", Number: "55554444", HolderName: "Other"}, meta)
		wantField(t, err, "number", "profile.card.error.duplicate")
		// The same card in another agency is that agency's business.
		if _, err := f.svc.CreateCard(ctx, f.other, profile.CardInput{Airline: "MU", Number: "55554444", HolderName: "Other"}, meta); err != nil {
			t.Fatal(err)
		}

		for name, outsider := range map[string]auth.Principal{"other": f.other, "sub": f.sub} {
			list, err := f.svc.Cards(ctx, outsider, profile.Paging{})
			for _, it := range list.Items {
				if it.ID == c.ID {
					t.Errorf("%s lists demo's card", name)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.svc.Card(ctx, outsider, c.ID)
			wantCode(t, err, fault.CodeNotFound, 404)
			_, err = f.svc.UpdateCard(ctx, outsider, c.ID, profile.CardInput{Airline: "CA", Number: "99998888", HolderName: "X"}, meta)
			wantCode(t, err, fault.CodeNotFound, 404)
			wantCode(t, f.svc.DeleteCard(ctx, outsider, c.ID, meta), fault.CodeNotFound, 404)
		}

		up, err := f.svc.UpdateCard(ctx, f.demo, c.ID, profile.CardInput{Airline: "CA", Number: "99998888", HolderName: "Zhang San"}, meta)
		if err != nil || up.Airline != "CA" || up.PassengerID != nil {
			t.Fatalf("update = %+v, %v", up, err)
		}
		list, err := f.svc.Cards(ctx, f.demo, profile.Paging{})
		if err != nil || list.Total != 1 || list.Items[0].Number != "99998888" {
			t.Fatalf("list = %+v, %v", list, err)
		}
		if err := f.svc.DeleteCard(ctx, f.demo, c.ID, meta); err != nil {
			t.Fatal(err)
		}
		wantCode(t, f.svc.DeleteCard(ctx, f.demo, c.ID, meta), fault.CodeNotFound, 404)
	})
}
