package payment_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/clock/clocktest"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// shanghai is the provider's zone in these tests: 2026-12-02 there is
// [2026-12-01 16:00, 2026-12-02 16:00) UTC.
var shanghai = func() *time.Location {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		panic(err)
	}
	return loc
}()

// reconFixture writes channel payments, refunds and ledger transfers as
// the channels and the protocol leave them, each at its own time.
type reconFixture struct {
	t      *testing.T
	db     *store.DB
	ledger *ledger.Ledger
	clock  *clocktest.Clock
	agency int64
	id     int64
}

// newReconFixture is a fixture on a migrated database of dialect of its
// own, with an agency, its ledger's clock set at start.
func newReconFixture(t *testing.T, dialect store.Dialect, start time.Time) *reconFixture {
	t.Helper()
	db := storetest.Open(t, dialect)
	f := &reconFixture{t: t, db: db, ledger: ledger.New(db), clock: clocktest.New(start), agency: agency(t, db)}
	f.ledger.SetClock(f.clock.Now)
	return f
}

func utc(day, hour, minute int) time.Time {
	return time.Date(2026, 12, day, hour, minute, 0, 0, time.UTC)
}

// payment records a channel payment of key in state, paid at paidAt (zero:
// not paid), expiring at expires; it answers its id.
func (f *reconFixture) payment(key, channel, state string, amount, fee int64, currency string, paidAt, expires time.Time) int64 {
	f.t.Helper()
	f.id++
	var paid any
	if !paidAt.IsZero() {
		paid = paidAt
	}
	created := expires.Add(-15 * time.Minute)
	_, err := f.db.ExecContext(context.Background(), f.db.Rebind(`INSERT INTO channel_payments (trade_no, payment_key, channel, line,
		booking_id, stage, agency_id, amount, currency, state, reference, fee, expires_at, paid_at, created_at, updated_at)
		VALUES (?, ?, ?, 'flight', ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		payment.TradeNo(key), key, channel, f.id, f.agency, amount, currency, state, "ref-"+key, fee, expires, paid, created, created)
	if err != nil {
		f.t.Fatal(err)
	}
	var id int64
	if err := f.db.GetContext(context.Background(), &id, f.db.Rebind(`SELECT id FROM channel_payments WHERE payment_key = ?`), key); err != nil {
		f.t.Fatal(err)
	}
	return id
}

// receipt posts the gateway's receipt of key at at, as SettleTx does.
func (f *reconFixture) receipt(key, method string, amount int64, currency string, at time.Time) {
	f.t.Helper()
	f.clock.Set(at)
	_, err := f.ledger.Post(context.Background(), ledger.Transfer{AgencyID: f.agency, IdempotencyKey: "receipt-" + key,
		From: ledger.Provider(ledger.KindFunding), To: ledger.Wallet(f.agency), Amount: amount, Currency: currency,
		PaymentType: ledger.TypeTopUp, OrderID: "B" + key, Reference: "ref-" + key, CreatedBy: "system",
		Detail: map[string]string{"method": method, "for": ledger.TypeOriginFlight}})
	if err != nil {
		f.t.Fatal(err)
	}
}

// refund records a refund of payment id in state; done ones take their sum
// out of the wallet under ledgerKey when posted is set.
func (f *reconFixture) refund(no string, paymentID int64, channel, state string, amount int64, created, done time.Time, posted int64) {
	f.t.Helper()
	var doneAt any
	if !done.IsZero() {
		doneAt = done
	}
	_, err := f.db.ExecContext(context.Background(), f.db.Rebind(`INSERT INTO channel_refunds (refund_no, payment_id, channel, line,
		booking_id, agency_id, amount, currency, state, reference, ledger_key, created_at, updated_at, done_at)
		VALUES (?, ?, ?, 'flight', ?, ?, ?, 'CNY', ?, ?, ?, ?, ?, ?)`),
		no, paymentID, channel, paymentID, f.agency, amount, state, "rref-"+no, "channel-refund-"+no, created, created, doneAt)
	if err != nil {
		f.t.Fatal(err)
	}
	if posted > 0 {
		f.clock.Set(done)
		_, err := f.ledger.Post(context.Background(), ledger.Transfer{AgencyID: f.agency, IdempotencyKey: "channel-refund-" + no,
			From: ledger.Wallet(f.agency), To: ledger.Provider(ledger.KindFunding), Amount: posted, Currency: "CNY",
			PaymentType: ledger.TypeRefundFlight, CreatedBy: "system"})
		if err != nil {
			f.t.Fatal(err)
		}
	}
}

// TestReconciliation: one day of channel transactions on the provider's
// clock, each flagged against its ledger transfer, on both engines:
// matched, paid without a ledger entry, another sum in the ledger, a
// ledger receipt without a paid payment, pending past its window, a
// refund not done; what falls on another day, the test gateway's and a
// bank transfer's receipts are not in it.
func TestReconciliation(t *testing.T) {
	t.Parallel()
	for _, dialect := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(dialect), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			f := newReconFixture(t, dialect, utc(1, 0, 0))
			db := f.db

			// 00:30 on the 2nd in Shanghai, still the 1st in UTC.
			matched := f.payment("k-match", "alipay", "paid", 100_00, 60, "CNY", utc(1, 16, 30), utc(1, 16, 40))
			f.receipt("k-match", "alipay", 100_00, "CNY", utc(1, 16, 30))
			f.payment("k-noledger", "wechat-pay", "paid", 200_00, 120, "CNY", utc(2, 3, 0), utc(2, 3, 10))
			f.payment("k-differs", "stripe", "paid", 50_00, 175, "USD", utc(2, 4, 0), utc(2, 4, 10))
			f.receipt("k-differs", "stripe", 49_00, "USD", utc(2, 4, 0))
			// A receipt whose payment is not there, and one whose payment
			// the channel closed.
			f.receipt("k-ghost", "alipay", 10_00, "CNY", utc(2, 5, 0))
			f.payment("k-closed", "alipay", "closed", 15_00, 0, "CNY", time.Time{}, utc(2, 5, 10))
			f.receipt("k-closed", "alipay", 15_00, "CNY", utc(2, 5, 20))
			f.payment("k-expired", "wechat-pay", "pending", 30_00, 0, "CNY", time.Time{}, utc(2, 6, 0))
			f.refund("r-done", matched, "alipay", "done", 40_00, utc(2, 7, 0), utc(2, 7, 5), 40_00)
			f.refund("r-short", matched, "alipay", "done", 10_00, utc(2, 8, 0), utc(2, 8, 5), 9_00)
			f.refund("r-processing", matched, "alipay", "processing", 5_00, utc(2, 9, 0), time.Time{}, 0)

			// Not this day: paid at 23:50 on the 1st in Shanghai, a refund
			// done on the 3rd, a payment pending whose window runs out
			// after the day.
			f.payment("k-before", "alipay", "paid", 70_00, 40, "CNY", utc(1, 15, 50), utc(1, 16, 0))
			f.refund("r-later", matched, "alipay", "done", 1_00, utc(2, 15, 0), utc(2, 16, 5), 1_00)
			f.payment("k-open", "wechat-pay", "pending", 30_00, 0, "CNY", time.Time{}, utc(2, 16, 5))
			// The test gateway's receipt and a bank transfer's.
			if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO test_gateway_payments (payment_key, outcome, channel, amount, currency,
				fee, reference, created_at) VALUES ('k-test', 'paid', 'alipay', 100, 'CNY', 0, 'T1', ?)`), utc(2, 10, 0)); err != nil {
				t.Fatal(err)
			}
			f.receipt("k-test", "alipay", 1_00, "CNY", utc(2, 10, 0))
			f.receipt("k-bank", "bank-transfer", 1_00, "CNY", utc(2, 11, 0))

			f.clock.Set(utc(3, 10, 0))
			r := payment.Reconciler{DB: db, Ledger: f.ledger, Now: f.clock.Now,
				Zone: func(context.Context) (*time.Location, error) { return shanghai, nil }}
			if day, err := r.Yesterday(ctx); err != nil || day != "2026-12-02" {
				t.Fatalf("yesterday = %q, %v; want 2026-12-02 in Shanghai at 18:00", day, err)
			}
			rec, err := r.Day(ctx, "2026-12-02")
			if err != nil {
				t.Fatal(err)
			}

			type want struct {
				flag            string
				gross, fee, net int64
				inLedger        bool
				ledgerAmount    int64
			}
			cases := []struct {
				name, key string
				want      want
			}{
				{"paid at 00:30 on the provider's clock, in the ledger", payment.TradeNo("k-match"), want{payment.FlagMatched, 100_00, 60, 99_40, true, 100_00}},
				{"paid, nothing in the ledger", payment.TradeNo("k-noledger"), want{payment.FlagNoLedger, 200_00, 120, 198_80, false, 0}},
				{"the ledger holds another sum", payment.TradeNo("k-differs"), want{payment.FlagAmountDiffers, 50_00, 175, 48_25, true, 49_00}},
				{"a receipt without its payment", "receipt-k-ghost", want{payment.FlagLedgerOnly, 0, 0, 0, true, 10_00}},
				{"a receipt of a closed payment", "receipt-k-closed", want{payment.FlagLedgerOnly, 0, 0, 0, true, 15_00}},
				{"pending past its window", payment.TradeNo("k-expired"), want{payment.FlagPendingExpired, 0, 0, 0, false, 0}},
				{"a refund done, in the ledger", "r-done", want{payment.FlagMatched, -40_00, 0, -40_00, true, -40_00}},
				{"a refund done, another sum in the ledger", "r-short", want{payment.FlagAmountDiffers, -10_00, 0, -10_00, true, -9_00}},
				// What was asked is shown; the totals leave it out.
				{"a refund the channel is still at", "r-processing", want{payment.FlagRefundNotDone, -5_00, 0, -5_00, false, 0}},
			}
			byKey := map[string]payment.ReconRow{}
			for _, row := range rec.Rows {
				k := row.TradeNo
				if row.Flag == payment.FlagLedgerOnly {
					k = row.LedgerKey
				}
				if _, dup := byKey[k]; dup {
					t.Errorf("%s listed twice", k)
				}
				byKey[k] = row
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					row, ok := byKey[c.key]
					if !ok {
						t.Fatalf("%s is not in the report: %+v", c.key, rec.Rows)
					}
					got := want{row.Flag, row.Gross, row.Fee, row.Net, row.InLedger, row.LedgerAmount}
					if got != c.want {
						t.Errorf("%s = %+v, want %+v", c.key, got, c.want)
					}
				})
			}
			// A row names its booking by the number its receipt gives it,
			// a refund by its payment's receipt.
			for key, want := range map[string]string{payment.TradeNo("k-match"): "Bk-match", "r-done": "Bk-match"} {
				if got := byKey[key].BookingNumber; got != want {
					t.Errorf("%s names booking %q, want %q", key, got, want)
				}
			}
			if len(rec.Rows) != len(cases) {
				t.Errorf("%d rows, want %d (nothing of another day, no test gateway or bank transfer receipt): %+v", len(rec.Rows), len(cases), rec.Rows)
			}
			// Differences first, the matched ones last.
			for i, row := range rec.Rows {
				if i >= len(rec.Rows)-2 != !row.Difference() {
					t.Errorf("row %d (%s) is %s: the two matched rows come last", i, row.TradeNo, row.Flag)
				}
			}
			wantTotals := []payment.ReconTotal{
				{Channel: "alipay", Currency: "CNY", Count: 6, Gross: 100_00 - 40_00 - 10_00, Fee: 60, Net: 99_40 - 40_00 - 10_00, Differences: 4},
				{Channel: "stripe", Currency: "USD", Count: 1, Gross: 50_00, Fee: 175, Net: 48_25, Differences: 1},
				{Channel: "wechat-pay", Currency: "CNY", Count: 2, Gross: 200_00, Fee: 120, Net: 198_80, Differences: 2},
			}
			if fmt.Sprint(rec.Totals) != fmt.Sprint(wantTotals) {
				t.Errorf("totals\n %+v\nwant\n %+v", rec.Totals, wantTotals)
			}
			if rec.Differences != 7 || rec.Truncated {
				t.Errorf("%d differences (truncated %v), want 7", rec.Differences, rec.Truncated)
			}

			// The day before holds the payment paid at 23:50 there, and
			// no ledger receipt of it.
			before, err := r.Day(ctx, "2026-12-01")
			if err != nil {
				t.Fatal(err)
			}
			if len(before.Rows) != 1 || before.Rows[0].TradeNo != payment.TradeNo("k-before") || before.Rows[0].Flag != payment.FlagNoLedger {
				t.Errorf("the 1st: %+v", before.Rows)
			}
			// A day with nothing is clean.
			if empty, err := r.Day(ctx, "2026-11-20"); err != nil || len(empty.Rows) != 0 || empty.Differences != 0 {
				t.Errorf("a quiet day: %+v, %v", empty, err)
			}
			for _, bad := range []string{"", "2026-13-01", "yesterday", "2026-12-02T00:00"} {
				_, err := r.Day(ctx, bad)
				var fe *fault.Error
				if !errors.As(err, &fe) || fe.Fields["date"] != payment.ErrDateKey {
					t.Errorf("date %q: %v, want the date's validation fault", bad, err)
				}
			}
		})
	}
}

// TestReconciliationBound: a day with more channel transactions than a
// report holds answers MaxReconRows of them, differences first, and says
// it was cut; on both engines.
func TestReconciliationBound(t *testing.T) {
	t.Parallel()
	for _, dialect := range []store.Dialect{store.SQLite, store.Postgres} {
		t.Run(string(dialect), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			f := newReconFixture(t, dialect, utc(2, 0, 0))
			db := f.db
			// One payment matched in the ledger, then MaxReconRows more paid
			// after it with nothing in the ledger: one row too many.
			f.payment("k-first", "alipay", "paid", 100, 0, "CNY", utc(2, 1, 0), utc(2, 1, 10))
			f.receipt("k-first", "alipay", 100, "CNY", utc(2, 1, 0))
			paid := utc(2, 2, 0)
			// Inserted in one statement: ten thousand single inserts would
			// make the test slow, not truer.
			_, err := db.ExecContext(ctx, db.Rebind(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
				INSERT INTO channel_payments (trade_no, payment_key, channel, line, booking_id, stage, agency_id, amount, currency, state,
					reference, fee, expires_at, paid_at, created_at, updated_at)
				SELECT 'bulk-' || i, 'bulk-key-' || i, 'wechat-pay', 'flight', i, '', ?, 100, 'CNY', 'paid', '', 0, ?, ?, ?, ?
				FROM n`), payment.MaxReconRows, f.agency, paid, paid, paid, paid)
			if err != nil {
				t.Fatal(err)
			}
			r := payment.Reconciler{DB: db, Ledger: f.ledger, Now: func() time.Time { return utc(3, 10, 0) },
				Zone: func(context.Context) (*time.Location, error) { return shanghai, nil }}
			rec, err := r.Day(ctx, "2026-12-02")
			if err != nil {
				t.Fatal(err)
			}
			if !rec.Truncated || len(rec.Rows) != payment.MaxReconRows || rec.Differences != payment.MaxReconRows {
				t.Fatalf("truncated %v, %d rows, %d differences; want the bound's %d, all differences", rec.Truncated, len(rec.Rows),
					rec.Differences, payment.MaxReconRows)
			}
			if rec.CountFlags()[payment.FlagMatched] != 0 {
				t.Error("a matched row took the place of a difference")
			}
		})
	}
}
