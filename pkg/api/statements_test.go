package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// TestStatementPeriodOnAgencyClock creates statements over HTTP for an
// agency east of UTC and one west of it (across New York's DST end): the
// period runs from 00:00 on the first day to 24:00 on the last on the
// agency's clock, whatever the caller's own zone.
func TestStatementPeriodOnAgencyClock(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, rt, mux := demoNetwork(t, db)
		registerStatements(rt, s)
		st, authSvc, led := s.Agencies, s.Auth, s.Ledger
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		login, err := authSvc.Login(ctx, "demo-finance", "demo-pass-1", auth.Meta{IP: "192.0.2.1"})
		if err != nil {
			t.Fatal(err)
		}
		agencyID := login.Principal.AgencyID
		a, err := st.Get(ctx, agencyID)
		if err != nil {
			t.Fatal(err)
		}
		// The user reads the portal in Honolulu: it must not move the
		// agency's days.
		if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE users SET time_zone = 'Pacific/Honolulu' WHERE id = ?`), login.Principal.UserID); err != nil {
			t.Fatal(err)
		}

		tests := []struct {
			zone, from, to string
			// local wall-clock times of top-ups and whether the period holds them
			entries map[string]bool
		}{
			{"Asia/Shanghai", "2026-09-01", "2026-09-30", map[string]bool{
				"2026-08-31 23:30": false, "2026-09-01 00:30": true, "2026-09-30 23:30": true, "2026-10-01 00:30": false}},
			{"America/New_York", "2026-10-01", "2026-11-01", map[string]bool{
				"2026-09-30 23:30": false, "2026-10-01 00:30": true, "2026-11-01 23:30": true, "2026-11-02 00:30": false}},
		}
		n := 0
		for _, tt := range tests {
			t.Run(tt.zone, func(t *testing.T) {
				if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE agencies SET time_zone = ? WHERE id = ?`), tt.zone, agencyID); err != nil {
					t.Fatal(err)
				}
				loc, _ := time.LoadLocation(tt.zone)
				want := map[string]bool{}
				for local, in := range tt.entries {
					at, err := time.ParseInLocation("2006-01-02 15:04", local, loc)
					if err != nil {
						t.Fatal(err)
					}
					n++
					ref := fmt.Sprintf("WIRE-%s-%s", tt.zone, local)
					led.SetClock(func() time.Time { return at })
					if _, err := led.Post(ctx, ledger.Transfer{AgencyID: agencyID, IdempotencyKey: fmt.Sprintf("tz-%d", n), From: ledger.Provider(ledger.KindFunding),
						To: ledger.Wallet(agencyID), Amount: 100_00, Currency: a.SettlementCurrency, PaymentType: ledger.TypeTopUp, Reference: ref,
						Description: "top-up", CreatedBy: "test"}); err != nil {
						t.Fatal(err)
					}
					want[ref] = in
				}
				led.SetClock(time.Now)

				body, _ := json.Marshal(StatementRequest{From: tt.from, To: tt.to})
				req, _ := http.NewRequest("POST", srv.URL+"/base/v2/statements", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+login.Token)
				req.Header.Set("Content-Type", "application/json")
				res, err := srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				raw, _ := io.ReadAll(res.Body)
				res.Body.Close()
				var answer struct {
					Data StatementDetail `json:"data"`
				}
				if err := json.Unmarshal(raw, &answer); err != nil || res.StatusCode != http.StatusCreated {
					t.Fatalf("create: status %d %v\n%s", res.StatusCode, err, raw)
				}
				d := answer.Data
				if d.From != tt.from || d.To != tt.to || d.TimeZone != tt.zone {
					t.Errorf("statement reads %s – %s in %q, want %s – %s in %s", d.From, d.To, d.TimeZone, tt.from, tt.to, tt.zone)
				}
				got := map[string]bool{}
				for _, e := range d.Entries {
					got[e.PaymentReference] = true
				}
				for ref, in := range want {
					if got[ref] != in {
						t.Errorf("entry %s in the statement: %v, want %v", ref, got[ref], in)
					}
				}
			})
		}
	})
}
