package payment_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// queued records the refund jobs queued (a River client's InsertTx).
type queued struct {
	mu   sync.Mutex
	nums []string
}

func (q *queued) InsertTx(_ context.Context, _ *sql.Tx, args river.JobArgs, _ *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.nums = append(q.nums, args.(payment.ChannelRefundArgs).RefundNo)
	return &rivertype.JobInsertResult{}, nil
}

// refunder is a channel whose refunds answer what answer says, and
// remembers what it was asked. Only Refund is called by the refund job.
type refunder struct {
	payment.Channel
	name   string
	answer func(payment.Refund) (payment.RefundResult, error)
	asked  []payment.Refund
}

func (c *refunder) Name() string { return c.name }

func (c *refunder) Refund(_ context.Context, r payment.Refund) (payment.RefundResult, error) {
	c.asked = append(c.asked, r)
	return c.answer(r)
}

// refundEnv is one agency's booking paid by channel payments, on one
// database.
type refundEnv struct {
	t        *testing.T
	db       *store.DB
	ledger   *ledger.Ledger
	agencyID int64
	jobs     *queued
	payments []int64 // channel_payments ids, oldest first
}

// The env's clock: the payments are made at paidAt and refunded at
// refundedAt; the refund jobs run a minute later (jobTime), whatever the day
// the test runs on.
var (
	paidAt     = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	refundedAt = paidAt.Add(time.Hour)
)

func jobTime() time.Time { return refundedAt.Add(time.Minute) }

func newRefundEnv(t *testing.T, d store.Dialect, channel string, amounts ...int64) *refundEnv {
	t.Helper()
	db := storetest.Open(t, d)
	e := &refundEnv{t: t, db: db, ledger: ledger.New(db), agencyID: agency(t, db), jobs: &queued{}}
	at := paidAt
	for i, amount := range amounts {
		var id int64
		key := fmt.Sprintf("group-9-%d", i)
		err := db.GetContext(context.Background(), &id, db.Rebind(`INSERT INTO channel_payments (trade_no, payment_key, channel, line, booking_id,
			stage, agency_id, amount, currency, state, reference, expires_at, paid_at, created_at, updated_at)
			VALUES (?, ?, ?, 'group', 9, '', ?, ?, 'CNY', 'paid', ?, ?, ?, ?, ?) RETURNING id`),
			payment.TradeNo(key), key, channel, e.agencyID, amount, "ref-"+key, at, at, at, at)
		if err != nil {
			t.Fatal(err)
		}
		e.payments = append(e.payments, id)
	}
	return e
}

// refund is the line giving amount back under key: the credit to the
// wallet and the channels' part, in one transaction.
func (e *refundEnv) refund(key string, amount int64) int64 {
	e.t.Helper()
	var sent int64
	err := e.db.InTx(context.Background(), func(tx *sqlx.Tx) error {
		t := ledger.Transfer{AgencyID: e.agencyID, IdempotencyKey: key, From: ledger.Provider(ledger.KindSuppliers),
			To: ledger.Wallet(e.agencyID), Amount: amount, Currency: "CNY", PaymentType: ledger.TypeRefundFlight, OrderID: "G9",
			Description: "group G9", CreatedBy: "system"}
		if _, err := e.ledger.PostTx(context.Background(), tx, t); err != nil {
			return err
		}
		var err error
		sent, err = payment.RefundToChannelsTx(context.Background(), tx, e.ledger, e.jobs, payment.RefundBack{Line: "group", BookingID: 9,
			AgencyID: e.agencyID, Amount: amount, Currency: "CNY", Key: key, OrderID: "G9", Description: "group G9", Reason: "cancelled",
			CreatedBy: "system", At: refundedAt})
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return sent
}

func (e *refundEnv) wallet() int64 {
	e.t.Helper()
	b, err := e.ledger.WalletBalance(context.Background(), e.agencyID, "CNY")
	if err != nil {
		e.t.Fatal(err)
	}
	return b.Balance
}

// parts answers the refunds recorded, as "payment index:amount:state".
func (e *refundEnv) parts() []string {
	e.t.Helper()
	var rows []payment.ChannelRefund
	if err := e.db.SelectContext(context.Background(), &rows, `SELECT id, refund_no, payment_id, channel, line, booking_id, agency_id, amount,
		currency, state, reason, reference, ledger_key, detail, created_at, updated_at, done_at FROM channel_refunds ORDER BY id`); err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		i := 0
		for j, id := range e.payments {
			if id == r.PaymentID {
				i = j
			}
		}
		out = append(out, fmt.Sprintf("%d:%d:%s", i, r.Amount, r.State))
	}
	return out
}

func (e *refundEnv) ledgerZero() {
	e.t.Helper()
	var sums []int64
	if err := e.db.SelectContext(context.Background(), &sums, `SELECT SUM(balance) FROM ledger_accounts GROUP BY currency`); err != nil {
		e.t.Fatal(err)
	}
	for _, s := range sums {
		if s != 0 {
			e.t.Fatalf("the ledger sums to %d", s)
		}
	}
}

// TestRefundToChannels: money given back for a booking goes back through
// the channel payments that paid it, newest first, each at most what is
// left of it; what no channel took stays in the wallet; the same refund
// twice makes nothing new.
func TestRefundToChannels(t *testing.T) {
	t.Parallel()
	type step struct {
		key    string
		amount int64
	}
	cases := []struct {
		name     string
		payments []int64
		steps    []step
		parts    string // payment index:amount:state of every part, in order
		wallet   int64  // what stays in the wallet
		jobs     int
	}{
		{"full refund", []int64{880_00}, []step{{"r1", 880_00}}, "[0:88000:pending]", 0, 1},
		{"partial refund", []int64{880_00}, []step{{"r1", 300_00}}, "[0:30000:pending]", 0, 1},
		{"two installments, newest first", []int64{200_00, 680_00}, []step{{"r1", 800_00}}, "[1:68000:pending 0:12000:pending]", 0, 2},
		{"more than the channels took: the rest in the wallet", []int64{500_00}, []step{{"r1", 700_00}}, "[0:50000:pending]", 200_00, 1},
		{"a second refund takes what the first left", []int64{880_00}, []step{{"r1", 300_00}, {"r2", 700_00}},
			"[0:30000:pending 0:58000:pending]", 120_00, 2},
		{"a retry makes nothing new", []int64{200_00, 680_00}, []step{{"r1", 800_00}, {"r1", 800_00}},
			"[1:68000:pending 0:12000:pending]", 0, 2},
	}
	for _, d := range storetest.Engines {
		for _, c := range cases {
			t.Run(string(d)+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				e := newRefundEnv(t, d, "alipay", c.payments...)
				for _, s := range c.steps {
					e.refund(s.key, s.amount)
				}
				if got := fmt.Sprint(e.parts()); got != c.parts {
					t.Fatalf("parts %s, want %s", got, c.parts)
				}
				if w := e.wallet(); w != c.wallet {
					t.Fatalf("wallet %d, want %d", w, c.wallet)
				}
				if len(e.jobs.nums) != c.jobs {
					t.Fatalf("%d jobs queued, want %d", len(e.jobs.nums), c.jobs)
				}
				e.ledgerZero()
			})
		}
		t.Run(string(d)+"/no channel payment: all in the wallet", func(t *testing.T) {
			t.Parallel()
			e := newRefundEnv(t, d, "alipay")
			if sent := e.refund("r1", 100_00); sent != 0 || e.wallet() != 100_00 || len(e.parts()) != 0 {
				t.Fatalf("sent %d, wallet %d, parts %v", sent, e.wallet(), e.parts())
			}
		})
	}
}

// TestChannelRefundJob: the job asks the channel with the refund's number,
// sum and the payment's total; done, processing (asked again later),
// a timeout (River retries), a refusal (the sum back in the wallet, once),
// a channel no longer configured (retried; on the last attempt, never
// asked, back in the wallet).
func TestChannelRefundJob(t *testing.T) {
	t.Parallel()
	declined := fmt.Errorf("alipay: %w: ACQ.SELLER_BALANCE_NOT_ENOUGH", payment.ErrDeclined)
	timeout := fmt.Errorf("%w: alipay: HTTP 503", payment.ErrPaymentTimeout)
	// A channel that answers in Chinese at length: the note keeps its
	// first 500 bytes, a cut that must not fall inside a character
	// (PostgreSQL refuses invalid UTF-8, and the refund would never end).
	long := strings.Repeat("退款失败：卖家余额不足", 30)
	declinedLong := fmt.Errorf("alipay: %w: %s", payment.ErrDeclined, long)
	if utf8.ValidString(declinedLong.Error()[:500]) {
		declinedLong = fmt.Errorf("alipay: %w:  %s", payment.ErrDeclined, long)
	}
	timeoutLong := fmt.Errorf("%w: alipay: %s", payment.ErrPaymentTimeout, long)
	if utf8.ValidString(timeoutLong.Error()[:500]) {
		timeoutLong = fmt.Errorf("%w: alipay:  %s", payment.ErrPaymentTimeout, long)
	}
	cases := []struct {
		name      string
		answers   []error // one a run: nil is done, errProcessing processing
		unknown   bool    // the channel is not configured here
		last      bool    // every run is the job's last attempt
		state     string
		wallet    int64 // after the refund of 300.00 of 880.00
		runErrors int
	}{
		{"done", []error{nil}, false, false, payment.RefundDone, 0, 0},
		{"processing, then done", []error{errProcessing, nil}, false, false, payment.RefundDone, 0, 1},
		{"timeout, then done", []error{timeout, nil}, false, false, payment.RefundDone, 0, 1},
		{"refused: back in the wallet, once", []error{declined, nil}, false, false, payment.RefundFailed, 300_00, 0},
		{"refused at length in Chinese: back in the wallet, once", []error{declinedLong, nil}, false, false, payment.RefundFailed, 300_00, 0},
		{"timeout at length in Chinese, then done", []error{timeoutLong, nil}, false, false, payment.RefundDone, 0, 1},
		{"not configured: retried", []error{nil}, true, false, payment.RefundPending, 0, 2},
		{"not configured, never asked, last attempt: back in the wallet", []error{nil}, true, true, payment.RefundFailed, 300_00, 0},
	}
	for _, d := range storetest.Engines {
		for _, c := range cases {
			t.Run(string(d)+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				e := newRefundEnv(t, d, "alipay", 880_00)
				e.refund("r1", 300_00)
				runs := 0
				ch := &refunder{name: "alipay", answer: func(r payment.Refund) (payment.RefundResult, error) {
					err := c.answers[min(runs, len(c.answers)-1)]
					switch {
					case errors.Is(err, errProcessing):
						return payment.RefundResult{Reference: "2026120322001"}, nil
					case err != nil:
						return payment.RefundResult{}, err
					}
					return payment.RefundResult{Reference: "2026120322001", Done: true}, nil
				}}
				channels := map[string]payment.Channel{"alipay": ch}
				if c.unknown {
					channels = nil
				}
				rs := payment.Refunds{DB: e.db, Ledger: e.ledger, Channels: channels, Log: slog.New(slog.DiscardHandler), Now: jobTime}
				errs := 0
				for range len(c.answers) + 1 {
					if err := rs.Ask(context.Background(), e.jobs.nums[0], c.last); err != nil {
						errs++
					}
					runs++
				}
				rf, ok, err := payment.RefundByNo(context.Background(), e.db, e.jobs.nums[0])
				if err != nil || !ok {
					t.Fatal(ok, err)
				}
				if rf.State != c.state || errs != c.runErrors {
					t.Fatalf("refund %s after %d runs (%d errors), want %s (%d errors); detail %q", rf.State, runs, errs, c.state, c.runErrors, rf.Detail)
				}
				if len(rf.Detail) > 500 || !utf8.ValidString(rf.Detail) {
					t.Fatalf("the refund's note is %d bytes, valid UTF-8 %v", len(rf.Detail), utf8.ValidString(rf.Detail))
				}
				if rf.State == payment.RefundDone && (rf.Reference != "2026120322001" || rf.DoneAt == nil) {
					t.Fatalf("done refund %+v", rf)
				}
				if !c.unknown {
					first := ch.asked[0]
					if first.Key != payment.TradeNo("group-9-0") || first.RefundKey != rf.RefundNo || first.Amount != 300_00 ||
						first.Total != 880_00 || first.Currency != "CNY" || first.Reason != "cancelled" {
						t.Fatalf("the channel was asked %+v", first)
					}
					for _, r := range ch.asked {
						if r.RefundKey != first.RefundKey {
							t.Fatalf("asked again under another refund number: %+v", ch.asked)
						}
					}
				}
				if w := e.wallet(); w != c.wallet {
					t.Fatalf("wallet %d, want %d", w, c.wallet)
				}
				e.ledgerZero()
			})
		}
	}
}

// TestChannelRefundAskedForADayAtMost: a refund its channel was asked
// for and that is still open a day later is not asked again (Stripe
// would take its number, an idempotency key kept 24 hours, for a new
// refund): it is left, as it is, to the provider's staff; one never asked
// is asked whatever its age.
func TestChannelRefundAskedForADayAtMost(t *testing.T) {
	t.Parallel()
	for _, d := range storetest.Engines {
		for _, asked := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/asked before %v", d, asked), func(t *testing.T) {
				t.Parallel()
				e := newRefundEnv(t, d, "alipay", 880_00)
				e.refund("r1", 300_00)
				detail := ""
				if asked {
					detail = "asked"
				}
				if _, err := e.db.ExecContext(context.Background(), e.db.Rebind(`UPDATE channel_refunds SET detail = ?, created_at = ?`),
					detail, jobTime().Add(-21*time.Hour)); err != nil {
					t.Fatal(err)
				}
				ch := &refunder{name: "alipay", answer: func(payment.Refund) (payment.RefundResult, error) {
					return payment.RefundResult{Reference: "2026120322001", Done: true}, nil
				}}
				rs := payment.Refunds{DB: e.db, Ledger: e.ledger, Channels: map[string]payment.Channel{"alipay": ch}, Log: slog.New(slog.DiscardHandler), Now: jobTime}
				if err := rs.Ask(context.Background(), e.jobs.nums[0], false); err != nil {
					t.Fatal(err)
				}
				rf, _, err := payment.RefundByNo(context.Background(), e.db, e.jobs.nums[0])
				if err != nil {
					t.Fatal(err)
				}
				want, calls := payment.RefundDone, 1
				if asked {
					want, calls = payment.RefundPending, 0
				}
				if rf.State != want || len(ch.asked) != calls {
					t.Fatalf("refund %s after %d calls, want %s after %d", rf.State, len(ch.asked), want, calls)
				}
			})
		}
	}
}

// errProcessing stands for the channel's "accepted, still at it".
var errProcessing = errors.New("processing")
