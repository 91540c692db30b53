package payment

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/store"
)

// ErrPending: the channel created the payment and waits for the payer; the
// booking stays held until the channel's notification or the status check
// says what became of it. The error is a *PendingError with what the payer
// is shown.
var ErrPending = errors.New("payment: waiting for the payer")

// PendingError is ErrPending with the payment the payer is to finish.
type PendingError struct {
	Channel string
	Pending Pending
}

func (e *PendingError) Error() string { return "payment: waiting for the payer at " + e.Channel }

// Unwrap makes a PendingError ErrPending.
func (e *PendingError) Unwrap() error { return ErrPending }

// Channel payment states as Voyage records them (channel_payments.state).
const (
	recordPending = "pending"
	recordPaid    = "paid"
	recordClosed  = "closed"
)

// ChannelPayment is a payment made through a real channel
// (channel_payments): what it pays, what the payer is shown, and what the
// channel said of it.
type ChannelPayment struct {
	ID           int64      `db:"id"`
	TradeNo      string     `db:"trade_no"`
	Key          string     `db:"payment_key"`
	Channel      string     `db:"channel"`
	Line         string     `db:"line"`
	BookingID    int64      `db:"booking_id"`
	Stage        string     `db:"stage"`
	AgencyID     int64      `db:"agency_id"`
	Amount       int64      `db:"amount"`
	Currency     string     `db:"currency"`
	State        string     `db:"state"`
	Reference    string     `db:"reference"`
	Fee          int64      `db:"fee"`
	QRCode       string     `db:"qr_code"`
	RedirectURL  string     `db:"redirect_url"`
	ClientSecret string     `db:"client_secret"`
	ExpiresAt    time.Time  `db:"expires_at"`
	PaidAt       *time.Time `db:"paid_at"`
	CreatedAt    time.Time  `db:"created_at"`
	UpdatedAt    time.Time  `db:"updated_at"`
}

func (p ChannelPayment) pending() Pending {
	return Pending{Reference: p.Reference, QRCode: p.QRCode, RedirectURL: p.RedirectURL, ClientSecret: p.ClientSecret,
		ExpiresAt: p.ExpiresAt}
}

func (p ChannelPayment) result() ChargeResult {
	return ChargeResult{Reference: p.Reference, Fee: p.Fee}
}

const channelPaymentColumns = `id, trade_no, payment_key, channel, line, booking_id, stage, agency_id, amount, currency, state,
	reference, fee, qr_code, redirect_url, client_secret, expires_at, paid_at, created_at, updated_at`

// PaymentByTradeNo reads the channel payment with the merchant order
// number; ok is false when there is none.
func PaymentByTradeNo(ctx context.Context, db *store.DB, tradeNo string) (p ChannelPayment, ok bool, err error) {
	return channelPayment(ctx, db, "trade_no", tradeNo)
}

func channelPayment(ctx context.Context, db *store.DB, column, value string) (ChannelPayment, bool, error) {
	p, ok, err := getRow[ChannelPayment](ctx, db, `SELECT `+channelPaymentColumns+` FROM channel_payments WHERE `+column+` = ?`, value)
	if err != nil {
		return p, false, fmt.Errorf("payment: read channel payment %s: %w", value, err)
	}
	return p, ok, nil
}

// getRow reads the one row query answers (its marks ?, rebound for db's
// engine); ok is false when it answers none.
func getRow[T any](ctx context.Context, db *store.DB, query string, args ...any) (row T, ok bool, err error) {
	err = db.GetContext(ctx, &row, db.Rebind(query), args...)
	if errors.Is(err, sql.ErrNoRows) {
		return row, false, nil
	}
	return row, err == nil, err
}

// PendingView is a payment through an external channel that waits for its
// payer, as a booking's detail shows it to the booking agency: how to
// finish it, and until when.
type PendingView struct {
	// Channel is the payment channel the payer is to finish the payment
	// at, e.g. alipay, wechat-pay, yeepay-wechat, stripe or airwallex.
	Channel string `json:"channel"`
	// Stage is the group order installment it pays (first, second, third,
	// final); absent for a flight or train booking.
	Stage string `json:"stage,omitempty"`
	// Amount is what the payer is asked to pay, in the booking's
	// (settlement) currency.
	Amount money.Money `json:"amount"`
	// QRCode is the text to show as a QR code for the payer's phone.
	QRCode string `json:"qrCode,omitempty"`
	// RedirectURL is the channel's hosted payment page.
	RedirectURL string `json:"redirectUrl,omitempty"`
	// ClientSecret completes a card form in the browser (Stripe,
	// Airwallex).
	ClientSecret string `json:"clientSecret,omitempty"`
	// Card is what the payer's browser needs beside the client secret to
	// open the channel's card step; absent when the channel takes no card
	// in the browser or its public keys are not configured.
	Card *CardStep `json:"card,omitempty"`
	// ExpiresAt is when the payment closes if it is still unpaid (15
	// minutes after it was started, or the booking's payment deadline if
	// that comes first); the booking can then be paid again.
	ExpiresAt time.Time `json:"expiresAt"`
}

// CardKeys are a card channel's public settings for the payer's browser:
// Stripe's publishable key, Airwallex's SDK environment. Neither is a
// secret; they are what the providers' browser SDKs are opened with.
type CardKeys struct {
	// PublishableKey is Stripe's publishable key (pk_…).
	PublishableKey string
	// Env is Airwallex's environment, demo or prod.
	Env string
}

// CardStep is a card payment's step in the payer's browser: the channel's
// public keys and the payment intent the client secret belongs to.
type CardStep struct {
	// PublishableKey is Stripe's publishable key (pk_…).
	PublishableKey string `json:"publishableKey,omitempty"`
	// Env is Airwallex's environment for its hosted payment page (demo,
	// prod).
	Env string `json:"env,omitempty"`
	// IntentID is the id of the channel's payment intent.
	IntentID string `json:"intentId"`
	// Currency is the intent's currency (ISO 4217).
	Currency string `json:"currency"`
}

// CardChannel is a gateway whose payments the payer finishes with a card
// form in the browser: it gives the form's public keys; ok is false when
// they are not configured.
type CardChannel interface {
	CardKeys() (keys CardKeys, ok bool)
}

// CardKeys implements CardChannel: the keys the gateway was given.
func (g ChannelGateway) CardKeys() (CardKeys, bool) {
	if g.Card == nil {
		return CardKeys{}, false
	}
	return *g.Card, true
}

// PendingFor is the payment a booking of the line waits for at a channel
// (the latest, of any installment), nil when it waits for none. A card
// payment's view has its card step when its gateway (of gateways) gives
// the browser's keys.
func PendingFor(ctx context.Context, db *store.DB, gateways map[string]Gateway, line string, bookingID int64) (*PendingView, error) {
	p, ok, err := getRow[ChannelPayment](ctx, db, `SELECT `+channelPaymentColumns+` FROM channel_payments
		WHERE line = ? AND booking_id = ? AND state = ? ORDER BY id DESC LIMIT 1`, line, bookingID, recordPending)
	if err != nil {
		return nil, fmt.Errorf("payment: pending payment of %s %d: %w", line, bookingID, err)
	}
	if !ok {
		return nil, nil
	}
	v := &PendingView{Channel: p.Channel, Stage: p.Stage, Amount: money.Of(p.Amount, p.Currency), QRCode: p.QRCode,
		RedirectURL: p.RedirectURL, ClientSecret: p.ClientSecret, ExpiresAt: p.ExpiresAt}
	if cc, ok := gateways[p.Channel].(CardChannel); ok && p.ClientSecret != "" {
		if keys, ok := cc.CardKeys(); ok {
			v.Card = &CardStep{PublishableKey: keys.PublishableKey, Env: keys.Env, IntentID: p.Reference, Currency: strings.ToUpper(p.Currency)}
		}
	}
	return v, nil
}

// settleRecord writes what the channel said of a payment: paid (with its
// reference and fee) or closed. Closed changes only a pending payment;
// paid also a closed one, since the channel's word on money taken beats
// Voyage's close (a payer who paid as the payment closed: the money goes
// back to the agency, see Notices). A paid one stays as it is: the first
// word stands.
func settleRecord(ctx context.Context, db *store.DB, tradeNo string, st Status, now time.Time) error {
	state := recordClosed
	var paidAt any
	if st.State == StatePaid {
		state, paidAt = recordPaid, store.NullTime(st.PaidAt)
		if st.PaidAt.IsZero() {
			paidAt = now
		}
	}
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE channel_payments SET state = ?, reference = CASE WHEN ? = '' THEN reference ELSE ? END,
		fee = ?, paid_at = ?, updated_at = ? WHERE trade_no = ? AND (state = ? OR (state = ? AND ? = ?))`),
		state, st.Reference, st.Reference, st.Fee, paidAt, now, tradeNo, recordPending, recordClosed, state, recordPaid)
	if err != nil {
		return fmt.Errorf("payment: record %s %s: %w", tradeNo, state, err)
	}
	return nil
}

// ChannelGateway is a real channel as a Gateway of the one protocol: a
// charge creates the payment at the channel and answers a *PendingError
// with what the payer is shown; the status check finds what a verified
// notification said first (Notices), or asks the channel, and closes a
// payment past its time so the booking can be paid again.
type ChannelGateway struct {
	Channel Channel
	DB      *store.DB
	// NotifyURL is this server's public address for the channel's
	// notifications; ReturnURL where a hosted page sends the payer back.
	NotifyURL, ReturnURL string
	// Card are the public keys of the channel's card form in the payer's
	// browser (Stripe, Airwallex); nil for a channel without one.
	Card *CardKeys
	// Window is how long a payer has to finish a payment, at most until
	// the booking's own deadline; 15 minutes when zero.
	Window time.Duration
	Now    func() time.Time
	Log    *slog.Logger
}

func (g ChannelGateway) now() time.Time { return Clock(g.Now)() }

func (g ChannelGateway) log() *slog.Logger { return Logger(g.Log) }

// Charge implements Gateway: it records the payment, then creates it at
// the channel. A replay of the key answers what the first charge made of
// it, and creates nothing new.
func (g ChannelGateway) Charge(ctx context.Context, c Charge) (ChargeResult, error) {
	name := g.Channel.Name()
	now := g.now().UTC()
	window := g.Window
	if window <= 0 {
		window = 15 * time.Minute
	}
	expires := now.Add(window)
	if !c.PayBy.IsZero() && c.PayBy.Before(expires) {
		expires = c.PayBy.UTC()
	}
	if !expires.After(now) {
		return ChargeResult{}, ErrDeclined
	}
	tradeNo := TradeNo(c.Key)
	res, err := g.DB.ExecContext(ctx, g.DB.Rebind(`INSERT INTO channel_payments (trade_no, payment_key, channel, line, booking_id, stage,
		agency_id, amount, currency, state, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`),
		tradeNo, c.Key, name, c.Line, c.OrderID, c.Stage, c.AgencyID, c.Amount, c.Currency, recordPending, expires, now, now)
	if err != nil {
		return ChargeResult{}, fmt.Errorf("%w: record %s payment %s: %w", ErrPaymentTimeout, name, tradeNo, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return ChargeResult{}, fmt.Errorf("%w: record %s payment %s: %w", ErrPaymentTimeout, name, tradeNo, err)
	} else if n == 0 {
		return g.replay(ctx, tradeNo)
	}
	p, err := g.Channel.Create(ctx, Create{Key: tradeNo, Amount: c.Amount, Currency: c.Currency, Subject: c.Subject,
		Method: c.Method, NotifyURL: g.NotifyURL, ReturnURL: g.ReturnURL, ExpiresAt: expires})
	switch {
	case errors.Is(err, ErrPaymentTimeout):
		// It may exist at the channel: the status check asks.
		return ChargeResult{}, err
	case err != nil:
		// The channel refused to create it (a currency it does not take,
		// credentials it does not accept): nothing was paid.
		g.log().WarnContext(ctx, "payment: the channel refused to create a payment", "channel", name, "payment", tradeNo, "err", err)
		if err := settleRecord(ctx, g.DB, tradeNo, Status{State: StateClosed}, now); err != nil {
			return ChargeResult{}, fmt.Errorf("%w: %w", ErrPaymentTimeout, err)
		}
		return ChargeResult{}, ErrDeclined
	}
	if p.ExpiresAt.IsZero() {
		p.ExpiresAt = expires
	}
	_, err = g.DB.ExecContext(ctx, g.DB.Rebind(`UPDATE channel_payments SET reference = ?, qr_code = ?, redirect_url = ?, client_secret = ?,
		updated_at = ? WHERE trade_no = ?`), p.Reference, p.QRCode, p.RedirectURL, p.ClientSecret, now, tradeNo)
	if err != nil {
		return ChargeResult{}, fmt.Errorf("%w: record %s payment %s: %w", ErrPaymentTimeout, name, tradeNo, err)
	}
	return ChargeResult{}, &PendingError{Channel: name, Pending: p}
}

// recorded answers what the record of a payment settles, as the lookup
// (p, ok, err) found it: a failed lookup, no payment, a paid or a closed
// one. settled is false for a payment still open, which the caller goes on
// to ask about.
func recorded(p ChannelPayment, ok bool, err error) (res ChargeResult, settled bool, _ error) {
	switch {
	case err != nil:
		return ChargeResult{}, true, fmt.Errorf("%w: %w", ErrPaymentTimeout, err)
	case !ok:
		return ChargeResult{}, true, ErrUnknownPayment
	case p.State == recordPaid:
		return p.result(), true, nil
	case p.State == recordClosed:
		return ChargeResult{}, true, ErrDeclined
	}
	return ChargeResult{}, false, nil
}

// replay answers a charge of a key already asked for, as the first did.
func (g ChannelGateway) replay(ctx context.Context, tradeNo string) (ChargeResult, error) {
	p, ok, err := PaymentByTradeNo(ctx, g.DB, tradeNo)
	if res, settled, err := recorded(p, ok, err); settled {
		return res, err
	}
	if p.QRCode == "" && p.RedirectURL == "" && p.ClientSecret == "" {
		// Created, but its answer never came back: the status check asks.
		return ChargeResult{}, fmt.Errorf("%w: %s payment %s has no answer from the channel yet", ErrPaymentTimeout, p.Channel, tradeNo)
	}
	return ChargeResult{}, &PendingError{Channel: p.Channel, Pending: p.pending()}
}

// Status implements Gateway for the status check: what a verified
// notification recorded first, else what the channel says now. A payment
// still waiting for its payer is ErrPaymentTimeout (ask again later) until
// its time is up; then it is closed at the channel and declined, unless
// the payer paid in the meantime.
func (g ChannelGateway) Status(ctx context.Context, key string) (ChargeResult, error) {
	p, ok, err := channelPayment(ctx, g.DB, "payment_key", key)
	if res, settled, err := recorded(p, ok, err); settled {
		return res, err
	}
	st, err := g.Channel.Status(ctx, p.TradeNo)
	if errors.Is(err, ErrUnknownPayment) {
		// The creation never reached the channel: nothing can be paid
		// once its time is up.
		st, err = Status{Key: p.TradeNo, State: StatePending}, nil
	}
	if err != nil {
		return ChargeResult{}, err
	}
	now := g.now().UTC()
	if st.State == StatePending && !now.Before(p.ExpiresAt) {
		err := g.Channel.Close(ctx, p.TradeNo)
		switch {
		case errors.Is(err, ErrAlreadyPaid):
			// Paid as it closed: ask once more what was paid.
			if st, err = g.Channel.Status(ctx, p.TradeNo); err != nil {
				return ChargeResult{}, err
			}
		case err != nil:
			return ChargeResult{}, err
		default:
			st.State = StateClosed
		}
	}
	return g.record(ctx, p, st, now)
}

// record writes what the channel said of p and answers it as the
// protocol takes it.
func (g ChannelGateway) record(ctx context.Context, p ChannelPayment, st Status, now time.Time) (ChargeResult, error) {
	switch st.State {
	case StatePending:
		return ChargeResult{}, fmt.Errorf("%w: %s payment %s waits for the payer until %s", ErrPaymentTimeout, p.Channel, p.TradeNo,
			p.ExpiresAt.Format(time.RFC3339))
	case StatePaid:
		if st.Amount != p.Amount || (st.Currency != "" && st.Currency != p.Currency) {
			// Never settle what the channel says was another sum: the
			// provider's staff look at it (the job stays in the console).
			g.log().ErrorContext(ctx, "payment: the channel reports another amount than the payment's", "channel", p.Channel,
				"payment", p.TradeNo, "amount", p.Amount, "currency", p.Currency, "reported", st.Amount, "reportedCurrency", st.Currency)
			return ChargeResult{}, fmt.Errorf("%w: %s payment %s: the channel reports %d %s for %d %s", ErrPaymentTimeout,
				p.Channel, p.TradeNo, st.Amount, st.Currency, p.Amount, p.Currency)
		}
	default:
		// Closed, or refunded before it was ever settled here.
		st.State = StateClosed
	}
	if err := settleRecord(ctx, g.DB, p.TradeNo, st, now); err != nil {
		return ChargeResult{}, fmt.Errorf("%w: %w", ErrPaymentTimeout, err)
	}
	// The first word stands: read what was recorded.
	q, _, err := PaymentByTradeNo(ctx, g.DB, p.TradeNo)
	switch {
	case err != nil:
		return ChargeResult{}, fmt.Errorf("%w: %w", ErrPaymentTimeout, err)
	case q.State == recordPaid:
		return q.result(), nil
	}
	return ChargeResult{}, ErrDeclined
}
