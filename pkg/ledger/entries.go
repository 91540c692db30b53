package ledger

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/store"
)

// Entry is a wallet entry (spec §3): one transfer seen from the agency's
// wallet, signed (+ money in, − money out), with the balance after it.
type Entry struct {
	ID           int64     `json:"id" db:"id"`
	Type         string    `json:"type" db:"payment_type"`
	Amount       int64     `json:"amount" db:"amount"`
	Currency     string    `json:"currency" db:"currency"`
	BalanceAfter int64     `json:"balanceAfter" db:"balance_after"`
	OrderID      string    `json:"orderId" db:"order_id"`
	Reference    string    `json:"paymentReference" db:"reference"`
	Description  string    `json:"description" db:"description"`
	Remark       string    `json:"remark" db:"remark"`
	Detail       string    `json:"-" db:"detail"`
	PaidAt       time.Time `json:"paidAt" db:"created_at"`
	// Key is the transfer's idempotency key, which the posting service
	// wrote (it may carry structured data, as a group payment's stage).
	Key string `json:"-" db:"idempotency_key"`
}

// EntryFilter narrows a wallet listing; From is inclusive, To exclusive.
type EntryFilter struct {
	Currency string
	Type     string
	// Types, when set, keeps the entries of any of these types (and Type
	// is ignored).
	Types    []string
	OrderID  string
	From, To time.Time
	Page     int
	PageSize int
}

// walletAccount returns the id of agency's wallet in currency, 0 when it was
// never opened.
func (l *Ledger) walletAccount(ctx context.Context, agencyID int64, currency string) (int64, error) {
	var id int64
	err := l.db.GetContext(ctx, &id, l.db.Rebind(`SELECT id FROM ledger_accounts WHERE agency_id = ? AND kind = ? AND currency = ?`), agencyID, KindWallet, currency)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("ledger: find wallet: %w", err)
	}
	return id, nil
}

// entrySelect reads transfers touching wallet account ? (bound twice for the
// sign and the balance, once more in the WHERE).
const entrySelect = `SELECT id, payment_type, currency, order_id, reference, description, remark, detail, created_at, idempotency_key,
	CASE WHEN to_account = ? THEN amount ELSE -amount END AS amount,
	CASE WHEN to_account = ? THEN to_balance ELSE from_balance END AS balance_after
	FROM ledger_transfers WHERE (from_account = ? OR to_account = ?)`

// Entries lists an agency's wallet entries, newest first, and their total.
func (l *Ledger) Entries(ctx context.Context, agencyID int64, f EntryFilter) ([]Entry, int, error) {
	acct, err := l.walletAccount(ctx, agencyID, f.Currency)
	if err != nil || acct == 0 {
		return []Entry{}, 0, err
	}
	var w store.Where
	if len(f.Types) > 0 {
		w.And("payment_type IN ("+store.Marks(len(f.Types))+")", anySlice(f.Types)...)
	} else {
		w.Equal("payment_type", f.Type)
	}
	w.Equal("order_id", f.OrderID)
	w.Period("created_at", f.From, f.To)
	args := append([]any{acct, acct, acct, acct}, w.Args...)
	cond := ""
	if len(w.Conds) > 0 {
		cond = " AND " + w.SQL()
	}
	var total int
	if err := l.db.GetContext(ctx, &total, l.db.Rebind(`SELECT COUNT(*) FROM ledger_transfers WHERE (from_account = ? OR to_account = ?)`+cond), args[2:]...); err != nil {
		return nil, 0, fmt.Errorf("ledger: count entries: %w", err)
	}
	if f.PageSize <= 0 {
		f.PageSize = 20
	}
	if f.Page <= 0 {
		f.Page = 1
	}
	out := []Entry{}
	err = l.db.SelectContext(ctx, &out, l.db.Rebind(entrySelect+cond+` ORDER BY id DESC LIMIT ? OFFSET ?`), append(args, f.PageSize, (f.Page-1)*f.PageSize)...)
	if err != nil {
		return nil, 0, fmt.Errorf("ledger: list entries: %w", err)
	}
	return out, total, nil
}

// Statement is an agency's wallet over a period: the balance before it, every
// entry in it (oldest first) and the balance after it. Opening + entries =
// closing, to the cent, because each entry carries the running balance the
// transfer itself wrote.
type Statement struct {
	AgencyID int64     `json:"agencyId"`
	Currency string    `json:"currency"`
	From     time.Time `json:"from"`
	To       time.Time `json:"to"`
	Opening  int64     `json:"openingBalance"`
	Closing  int64     `json:"closingBalance"`
	Entries  []Entry   `json:"entries"`
}

// BuildStatement computes the statement of [from, to).
func (l *Ledger) BuildStatement(ctx context.Context, agencyID int64, currency string, from, to time.Time) (Statement, error) {
	st := Statement{AgencyID: agencyID, Currency: currency, From: from, To: to, Entries: []Entry{}}
	// UTC like the stored times: SQLite compares them as text.
	from, to = from.UTC(), to.UTC()
	acct, err := l.walletAccount(ctx, agencyID, currency)
	if err != nil || acct == 0 {
		return st, err
	}
	var before []Entry
	err = l.db.SelectContext(ctx, &before, l.db.Rebind(entrySelect+` AND created_at < ? ORDER BY id DESC LIMIT 1`), acct, acct, acct, acct, from)
	if err != nil {
		return st, fmt.Errorf("ledger: opening balance: %w", err)
	}
	if len(before) == 1 {
		st.Opening = before[0].BalanceAfter
	}
	err = l.db.SelectContext(ctx, &st.Entries, l.db.Rebind(entrySelect+` AND created_at >= ? AND created_at < ? ORDER BY id`), acct, acct, acct, acct, from, to)
	if err != nil {
		return st, fmt.Errorf("ledger: statement entries: %w", err)
	}
	st.Closing = st.Opening
	for _, e := range st.Entries {
		st.Closing += e.Amount
	}
	return st, nil
}

// Payment methods of a transaction that no channel names.
const (
	MethodBankTransfer = "bank-transfer"
	MethodParentWallet = "parent-wallet"
)

// Transaction is a payment received into an agency's wallet (All
// Transactions): a top-up, a booking's payment through a payment channel,
// or money sent back through the channel that took it. See spec §3
// Transaction. A channel's payment is recorded as a top-up by the channel
// naming the booking; a refund to a channel (TypeChannelRefund) has a
// negative amount, and its return when the channel refused it a positive
// one.
type Transaction struct {
	// ID is the id of the wallet entry that recorded the money.
	ID         int64  `json:"transactionId"`
	OriginalID string `json:"originalId" jsonschema_description:"the order paid, or the top-up's own id"`
	// Reference is the payment's reference outside Voyage: the bank or
	// payment reference given with a top-up, or the payment channel's
	// reference for the payment or refund.
	Reference string `json:"referenceId"`
	// PaymentMethod is how the money came: bank-transfer for a top-up by
	// the provider, parent-wallet for a parent agency's top-up of its
	// sub-agency (out of the parent's wallet), else the payment channel
	// (alipay, wechat-pay, yeepay-wechat, stripe, airwallex, ...).
	PaymentMethod string `json:"paymentMethod"`
	Gross         string `json:"gross" jsonschema_description:"total amount paid, in the currency received"`
	// GrossCurrency is the currency of gross: the currency the money
	// arrived in.
	GrossCurrency string `json:"grossCurrency"`
	Net           string `json:"net" jsonschema_description:"amount credited, in the wallet currency"`
	// Currency is the wallet's (settlement) currency, of net and fee.
	Currency string `json:"currency"`
	// Fee is the handling fee the provider kept, a decimal string in the
	// wallet's currency (zero when none; a channel's payment carries no
	// fee for the agency).
	Fee string `json:"fee"`
	// PaymentTime is when the money was credited (or, for a refund, sent
	// back), RFC 3339 UTC.
	PaymentTime time.Time `json:"paymentTime"`
	// CreatedAt is when the transaction was recorded (RFC 3339, UTC); the
	// same moment as paymentTime.
	CreatedAt time.Time `json:"createdAt"`
}

// Transactions lists the payments received into an agency's wallet.
func (l *Ledger) Transactions(ctx context.Context, agencyID int64, currency string, page, size int) ([]Transaction, int, error) {
	entries, total, err := l.Entries(ctx, agencyID, EntryFilter{Currency: currency, Types: []string{TypeTopUp, TypeChannelRefund}, Page: page, PageSize: size})
	if err != nil {
		return nil, 0, err
	}
	out := make([]Transaction, 0, len(entries))
	for _, e := range entries {
		var d map[string]string
		_ = json.Unmarshal([]byte(e.Detail), &d)
		gross, grossCur := d["amountReceived"], d["currencyReceived"]
		if gross == "" {
			gross, grossCur = money.Amount{Minor: e.Amount, Currency: e.Currency}.String(), e.Currency
		}
		// A parent's top-up of its sub-agency never changes currency, so its
		// detail names none (and cannot gain one: the detail is part of the
		// posting's idempotency hash).
		if grossCur == "" {
			grossCur = e.Currency
		}
		fee := d["fee"]
		if fee == "" {
			fee = money.Amount{Currency: e.Currency}.String()
		}
		method := d["method"]
		switch {
		case method != "":
		case d["fromAgency"] != "":
			method = MethodParentWallet
		default:
			method = MethodBankTransfer
		}
		orig := e.OrderID
		if orig == "" {
			orig = fmt.Sprintf("T%d", e.ID)
		}
		out = append(out, Transaction{ID: e.ID, OriginalID: orig, Reference: e.Reference, PaymentMethod: method, Gross: gross, GrossCurrency: grossCur,
			Net: money.Amount{Minor: e.Amount, Currency: e.Currency}.String(), Currency: e.Currency, Fee: fee, PaymentTime: e.PaidAt, CreatedAt: e.PaidAt})
	}
	return out, total, nil
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
