// Package ledger is the double-entry wallet: every movement of money is one
// transfer of an amount from one account to another of the same currency,
// posted with both balance updates in one database transaction. Rows are
// never updated or deleted apart from the running balances; a correction is
// a new transfer. An agency's wallet never goes below minus its credit limit:
// a CHECK constraint enforces it inside the transaction, never a read in Go.
package ledger

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/turns"
)

// Account kinds. A wallet and a credit cover belong to an agency; the others
// to the provider.
const (
	KindWallet = "wallet"
	// KindCover holds what a parent agency set aside from its own wallet to
	// carry a sub-agency's credit line: the sub's account, the parent's money.
	KindCover     = "credit_cover"
	KindFunding   = "funding"           // money arriving from or leaving to banks and gateways
	KindRevenue   = "revenue"           // what the provider earns on sales
	KindFees      = "fees"              // service and transaction fees
	KindFX        = "fx"                // exchange differences
	KindSuppliers = "suppliers_payable" // what is owed to airlines and suppliers
)

var (
	providerKinds = []string{KindFunding, KindRevenue, KindFees, KindFX, KindSuppliers}
	agencyKinds   = []string{KindWallet, KindCover}
)

// Payment types of wallet entries (spec §3).
const (
	TypeTopUp        = "top-up"
	TypeOriginFlight = "origin-flight"
	TypeOriginTrain  = "origin-train"
	TypeRefundFlight = "refund-flight"
	TypeChangeFlight = "change-flight"
	TypeVoidFlight   = "void-flight"
)

// Group flight entry types (pkg/group): a deposit stage paid, the final
// payment, and a deposit the provider keeps because the group was cancelled
// or missed a deadline.
const (
	TypeGroupDeposit = "group-deposit"
	TypeGroupPayment = "group-payment"
	TypeGroupForfeit = "group-forfeit"
)

// Train entry types (pkg/train): a refund, and a change's fare difference
// either way.
const (
	TypeRefundTrain = "refund-train"
	TypeChangeTrain = "change-train"
)

// PaymentTypes lists the spec's wallet entry types, plus the provider's
// corrections.
var PaymentTypes = []string{TypeTopUp, TypeOriginFlight, TypeOriginTrain, TypeRefundFlight, TypeChangeFlight, TypeVoidFlight, TypeAdjustment,
	TypeRefundTrain, TypeChangeTrain, TypeGroupDeposit, TypeGroupPayment, TypeGroupForfeit, TypeChannelRefund}

// TypeChannelRefund is money given back for a booking leaving the agency's
// wallet for the payment channel that took it (pkg/payment's
// RefundToChannelsTx), and coming back when the channel refuses it.
const TypeChannelRefund = "channel-refund"

// TypeAdjustment is a correction posted by the provider.
const TypeAdjustment = "adjustment"

// Account names one side of a transfer: an agency's wallet (AgencyID set) or
// a provider account (AgencyID 0).
type Account struct {
	AgencyID int64
	Kind     string
}

// Wallet is agency's wallet account.
func Wallet(agencyID int64) Account { return Account{AgencyID: agencyID, Kind: KindWallet} }

// Provider is one of the provider's accounts.
func Provider(kind string) Account { return Account{Kind: kind} }

// Transfer is one movement of money.
type Transfer struct {
	// AgencyID scopes the idempotency key and the transfer's visibility:
	// the agency whose wallet it concerns.
	AgencyID       int64
	IdempotencyKey string
	From, To       Account
	Amount         int64 // minor units, > 0
	Currency       string
	PaymentType    string
	OrderID        string
	Reference      string
	Description    string
	Remark         string
	Detail         map[string]string
	CreatedBy      string
	// NoCredit makes the payer spend its balance only, never its credit
	// line: an agency's money given to a sub-agency must exist.
	NoCredit bool
}

// Posted is the outcome of a transfer. Replayed is true when the same
// idempotency key and request had been posted before: nothing moved again.
type Posted struct {
	ID          int64     `json:"id" db:"id"`
	FromBalance int64     `json:"fromBalance" db:"from_balance"`
	ToBalance   int64     `json:"toBalance" db:"to_balance"`
	CreatedAt   time.Time `json:"createdAt" db:"created_at"`
	Replayed    bool      `json:"replayed" db:"-"`
}

// Ledger posts and reads transfers.
type Ledger struct {
	db  *store.DB
	now func() time.Time
	// accounts caches account ids: an account, once opened, keeps its id
	// for ever, so the lookup needs the database only the first time.
	accounts sync.Map // accountKey → int64
	fresh    sync.Map // accountKey → *sqlx.Tx that inserted it, not yet seen committed
	batch    atomic.Pointer[batcher]
	// turns queue this instance's gated payments (PostFirstWith) per
	// account, so that a busy agency's payments wait here rather than on
	// its wallet's row (see pkg/turns). Post needs none: its concurrent
	// callers are gathered into one transaction by the batcher.
	turns turns.Queue[int64]
	// onPosted is told the payment type of every transfer written (not a
	// replay): the metrics' count (OnPosted).
	onPosted func(paymentType string)
}

// OnPosted has f told the payment type of every transfer this ledger
// writes, replays excluded, as its statement succeeds: a transfer in a
// caller's transaction that later rolls back is told too, which the
// callers' own checks before posting keep rare. Set it before the ledger
// is used.
func (l *Ledger) OnPosted(f func(paymentType string)) { l.onPosted = f }

// posted tells onPosted of t.
func (l *Ledger) posted(t Transfer) {
	if l.onPosted != nil {
		l.onPosted(t.PaymentType)
	}
}

type accountKey struct {
	agency   int64
	kind     string
	currency string
	shard    int
}

// ProviderShards is how many sub-accounts each provider account is split
// into. Every agency's payments credit the provider: with one row per
// provider account, each transfer waited for the previous one's commit to
// lock it, whatever the number of agencies. A transfer uses the shard of
// its agency (AgencyID modulo ProviderShards), so an agency's own transfers
// keep one order, and the shards of an account sum to its balance
// (ProviderBalance).
const ProviderShards = 16

// keyOf is the account a's key in currency: a provider account's is the
// shard transfers for agency spread use.
func keyOf(a Account, currency string, spread int64) accountKey {
	key := accountKey{a.AgencyID, a.Kind, currency, 0}
	if a.AgencyID == 0 {
		key.shard = shardOf(spread)
	}
	return key
}

// shardOf is the provider shard a transfer for agencyID posts to.
func shardOf(agencyID int64) int {
	if agencyID <= 0 {
		return 0
	}
	return int(agencyID % ProviderShards)
}

// New returns the ledger on db.
func New(db *store.DB) *Ledger { return &Ledger{db: db, now: time.Now} }

func errMismatch() error { return fault.Conflict("ledger.error.idempotencyMismatch") }

// ErrInsufficient is what a transfer beyond balance + credit answers.
func errInsufficient() error {
	return fault.New(fault.CodeInsufficientFund, http.StatusUnprocessableEntity, "ledger.error.insufficient")
}

func (t Transfer) validate() error {
	errs := map[string]string{}
	if t.Amount <= 0 {
		errs["amount"] = "ledger.error.amount"
	}
	if !slices.Contains(config.Currencies, t.Currency) {
		errs["currency"] = "ledger.error.currency"
	}
	if k := t.IdempotencyKey; k == "" || len(k) > 100 {
		errs["idempotencyKey"] = "ledger.error.idempotencyKey"
	}
	if !slices.Contains(PaymentTypes, t.PaymentType) {
		errs["paymentType"] = "ledger.error.paymentType"
	}
	if t.AgencyID <= 0 {
		errs["agencyId"] = "ledger.error.agency"
	}
	for _, a := range []Account{t.From, t.To} {
		kinds := providerKinds
		if a.AgencyID != 0 {
			kinds = agencyKinds
		}
		if a.AgencyID < 0 || !slices.Contains(kinds, a.Kind) {
			errs["account"] = "ledger.error.account"
		}
	}
	if t.From == t.To {
		errs["account"] = "ledger.error.account"
	}
	if len(errs) > 0 {
		return fault.Validation(errs)
	}
	return nil
}

// detailJSON is t.Detail as stored: an object, empty without one.
func (t Transfer) detailJSON() string {
	if t.Detail == nil {
		return "{}"
	}
	b, _ := json.Marshal(t.Detail)
	return string(b)
}

// hash identifies the request behind an idempotency key, so a different
// request under the same key is refused rather than answered with the first.
func (t Transfer) hash() string {
	b, _ := json.Marshal(struct {
		From, To                                 Account
		Amount                                   int64
		Currency, Type, Order, Ref, Desc, Remark string
		Detail                                   map[string]string
	}{t.From, t.To, t.Amount, t.Currency, t.PaymentType, t.OrderID, t.Reference, t.Description, t.Remark, t.Detail})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Post moves t.Amount from t.From to t.To, once per idempotency key.
func (l *Ledger) Post(ctx context.Context, t Transfer) (Posted, error) {
	if err := t.validate(); err != nil {
		return Posted{}, err
	}
	h := t.hash()
	if b := l.batch.Load(); b != nil && !t.NoCredit {
		return b.submit(ctx, t, h)
	}
	return l.postOne(ctx, t, h)
}

// postOne posts a validated transfer in a transaction of its own.
func (l *Ledger) postOne(ctx context.Context, t Transfer, h string) (Posted, error) {
	if p, done, err := l.postAlone(ctx, t, h); done {
		return p, err
	}
	var out Posted
	err := l.db.InTx(ctx, func(tx *sqlx.Tx) error {
		p, err := l.postTx(ctx, tx, t, h)
		out = p
		return err
	})
	if err != nil && store.IsUniqueViolation(err) {
		// A concurrent call with the same key committed first.
		if p, found, rerr := l.replay(ctx, nil, t, h); rerr == nil && found {
			return p, nil
		} else if rerr != nil {
			return Posted{}, rerr
		}
	}
	return out, err
}

// postAlone is postOne's PostgreSQL path once both accounts are known: the
// transfer is postTransfer alone, committed by the server as it runs, one
// round trip where BEGIN, the look-up of the key, the posting and COMMIT
// were four, and the accounts' rows locked for that round trip only. The
// look-up of an earlier transfer with the key comes after, only when the
// statement fails: on the key's unique index (a retry), or on the balance
// limit (a retry that the balance no longer covers must still answer what
// was posted). A failed statement changed nothing. done is false when the
// transfer needs the transaction path: SQLite, an account not yet opened,
// or NoCredit, whose check on the balance after needs a rollback.
func (l *Ledger) postAlone(ctx context.Context, t Transfer, h string) (p Posted, done bool, err error) {
	fromID, toID, ok := l.aloneIDs(t)
	if !ok {
		return Posted{}, false, nil
	}
	p, err = l.postOneStatement(ctx, nil, t, h, fromID, toID, t.detailJSON(), l.now().UTC(), Gate{})
	if err == nil {
		return p, true, nil
	}
	if fe, ok := fault.As(err); store.IsUniqueViolation(err) || ok && fe.Code == fault.CodeInsufficientFund {
		if earlier, found, rerr := l.replay(ctx, nil, t, h); rerr != nil || found {
			return earlier, true, rerr
		}
	}
	return Posted{}, true, err
}

// Gate is another table's conditional write that a transfer is posted
// with, in one statement committed by the server as it runs: the transfer
// is posted only when the gate wrote, and the gate's write stands only
// when the transfer is posted (a refused transfer fails the statement, and
// a failed statement changes nothing). An order leaving to_be_paid is the
// gate of its payment: the move and the charge are one round trip instead
// of BEGIN, the move, the charge and COMMIT, and the wallet's row is locked
// for that one round trip.
type Gate struct {
	// CTEs are WITH items (without the WITH) run before the transfer, with
	// ? marks for Args.
	CTEs string
	// Name is the item whose rows say the gate wrote (one row or more).
	Name string
	Args []any
}

// ErrGateClosed is PostFirstWith's answer when the gate wrote nothing:
// nothing was posted.
var ErrGateClosed = errors.New("ledger: the transfer's gate is closed")

// PostFirstWith posts t, known to be new as for PostFirstTx, together with
// gate (see Gate). done is false, with nothing written, when the transfer
// needs a transaction: SQLite, an account this ledger has not seen
// committed, the same account on both sides, or NoCredit (whose check on
// the balance after needs a rollback). A transfer with the key posted
// before is refused by the unique index, and the gate's write with it.
// Calls on the same accounts take turns in this instance (Ledger.turns).
func (l *Ledger) PostFirstWith(ctx context.Context, gate Gate, t Transfer) (p Posted, done bool, err error) {
	if err := t.validate(); err != nil {
		return Posted{}, true, err
	}
	fromID, toID, ok := l.aloneIDs(t)
	if !ok {
		return Posted{}, false, nil
	}
	lo, hi, _ := lockOrder(fromID, toID, t.Amount)
	release, err := l.turns.Take(ctx, lo, hi)
	if err != nil {
		return Posted{}, true, err
	}
	defer release()
	p, err = l.postOneStatement(ctx, nil, t, t.hash(), fromID, toID, t.detailJSON(), l.now().UTC(), gate)
	return p, true, err
}

// gatedTransfers holds gatedTransfer's text by gate (a gate's items are
// the same text every call: building it once spares every payment).
var gatedTransfers sync.Map

// gatedTransfer is postTransfer after gate's items, the lower account's
// update waiting on the gate. The gate's marks are numbered after
// postTransfer's eighteen parameters.
func gatedTransfer(gate Gate) string {
	key := gate.Name + "\x00" + gate.CTEs
	if q, ok := gatedTransfers.Load(key); ok {
		return q.(string)
	}
	var b strings.Builder
	n := 18
	for _, part := range strings.Split(gate.CTEs, "?") {
		if b.Len() > 0 {
			n++
			b.WriteString("$" + strconv.Itoa(n))
		}
		b.WriteString(part)
	}
	q := `WITH ` + b.String() + `,
		lo AS (
			UPDATE ledger_accounts SET balance = balance + $3, updated_at = $5 WHERE id = $1 AND EXISTS (SELECT 1 FROM ` + gate.Name + `) RETURNING balance),
		hi AS (
			UPDATE ledger_accounts SET balance = balance - $3, updated_at = $5 WHERE id = $2 AND EXISTS (SELECT 1 FROM lo) RETURNING balance)
		` + insertPosted
	gatedTransfers.Store(key, q)
	return q
}

// aloneIDs are t's accounts when t can be posted by one statement that the
// server commits as it runs: on PostgreSQL, both accounts seen committed by
// this ledger and distinct, and no NoCredit check (which needs a rollback).
func (l *Ledger) aloneIDs(t Transfer) (fromID, toID int64, ok bool) {
	if l.db.Dialect != store.Postgres || t.NoCredit {
		return 0, 0, false
	}
	fromID, ok = l.cachedID(t.From, t.Currency, t.AgencyID)
	if !ok {
		return 0, 0, false
	}
	toID, ok = l.cachedID(t.To, t.Currency, t.AgencyID)
	return fromID, toID, ok && fromID != toID
}

// lockOrder is the accounts of a transfer of amount from fromID to toID
// lower id first, with the lower's change: the order every posting locks
// them in, so two cannot deadlock.
func lockOrder(fromID, toID, amount int64) (lo, hi, loDelta int64) {
	if toID < fromID {
		return toID, fromID, amount
	}
	return fromID, toID, -amount
}

// cachedID is the account's id when this ledger has seen it committed.
func (l *Ledger) cachedID(a Account, currency string, spread int64) (int64, bool) {
	id, ok := l.accounts.Load(keyOf(a, currency, spread))
	if !ok {
		return 0, false
	}
	return id.(int64), true
}

// The statements every posting runs, prepared on PostgreSQL: parsing and
// planning them on every call cost the server more than running them.
var (
	findTransfer = store.NewStatement(`SELECT id, from_balance, to_balance, created_at, request_hash
		FROM ledger_transfers WHERE agency_id = ? AND idempotency_key = ?`)
	// postTransfer is postOneStatement's SQL (PostgreSQL only).
	postTransfer = store.NewStatement(`WITH lo AS (
			UPDATE ledger_accounts SET balance = balance + $3, updated_at = $5 WHERE id = $1 RETURNING balance),
		hi AS (
			UPDATE ledger_accounts SET balance = balance - $3, updated_at = $5 WHERE id = $2 AND EXISTS (SELECT 1 FROM lo) RETURNING balance)
		` + insertPosted)
)

// insertPosted records the transfer once lo and hi (the accounts' updates,
// lower id first) have run: the parameters are postTransfer's.
const insertPosted = `INSERT INTO ledger_transfers (agency_id, idempotency_key, request_hash, from_account, to_account,
			amount, currency, payment_type, order_id, reference, description, remark, detail, from_balance, to_balance, created_by, created_at)
		SELECT $6, $7, $8, $9, $10, $4, $11, $12, $13, $14, $15, $16, $17,
			CASE WHEN $9 = $1 THEN lo.balance ELSE hi.balance END, CASE WHEN $10 = $1 THEN lo.balance ELSE hi.balance END, $18, $5
		FROM lo, hi
		RETURNING id, from_balance, to_balance`

// replay finds an earlier transfer with t's idempotency key, in tx or on the
// pool when tx is nil.
func (l *Ledger) replay(ctx context.Context, tx *sqlx.Tx, t Transfer, h string) (Posted, bool, error) {
	var row struct {
		Posted
		RequestHash string `db:"request_hash"`
	}
	err := l.db.GetStmt(ctx, tx, &row, findTransfer, t.AgencyID, t.IdempotencyKey)
	if errors.Is(err, sql.ErrNoRows) {
		return Posted{}, false, nil
	}
	if err != nil {
		return Posted{}, false, fmt.Errorf("ledger: find idempotency key: %w", err)
	}
	if row.RequestHash != h {
		return Posted{}, true, errMismatch()
	}
	row.Posted.Replayed = true
	return row.Posted, true, nil
}

// PostTx posts t inside the caller's transaction, for services that change
// their own rows with the money in one commit (an order and its payment).
// PostTx validates t itself.
func (l *Ledger) PostTx(ctx context.Context, tx *sqlx.Tx, t Transfer) (Posted, error) {
	if err := t.validate(); err != nil {
		return Posted{}, err
	}
	return l.postTx(ctx, tx, t, t.hash())
}

// PostFirstTx is PostTx for a caller whose own conditional write in tx
// already makes the transfer happen once (an order leaving to_be_paid): it
// skips the look-up of an earlier transfer with the key, one statement per
// payment. A transfer with the key posted before is still refused, by the
// unique index: the error rolls the caller's transaction back, and nothing
// moves twice.
func (l *Ledger) PostFirstTx(ctx context.Context, tx *sqlx.Tx, t Transfer) (Posted, error) {
	if err := t.validate(); err != nil {
		return Posted{}, err
	}
	return l.postNew(ctx, tx, t, t.hash())
}

// postTx posts a validated transfer whose request hash is h.
func (l *Ledger) postTx(ctx context.Context, tx *sqlx.Tx, t Transfer, h string) (Posted, error) {
	if p, found, err := l.replay(ctx, tx, t, h); err != nil || found {
		return p, err
	}
	return l.postNew(ctx, tx, t, h)
}

// postNew posts a validated transfer known to be new.
func (l *Ledger) postNew(ctx context.Context, tx *sqlx.Tx, t Transfer, h string) (Posted, error) {
	now := l.now().UTC()
	ids, err := l.accountIDs(ctx, tx, []Account{t.From, t.To}, t.Currency, t.AgencyID, now)
	if err != nil {
		return Posted{}, err
	}
	fromID, toID := ids[0], ids[1]
	detail := t.detailJSON()
	if l.db.Dialect == store.Postgres && fromID != toID {
		p, err := l.postOneStatement(ctx, tx, t, h, fromID, toID, detail, now, Gate{})
		if err == nil && t.NoCredit && p.FromBalance < 0 {
			return Posted{}, errInsufficient()
		}
		return p, err
	}
	// Lower id first: two transfers between the same accounts lock them in
	// the same order and cannot deadlock on PostgreSQL.
	deltas := []struct {
		id    int64
		delta int64
	}{{fromID, -t.Amount}, {toID, t.Amount}}
	if toID < fromID {
		deltas[0], deltas[1] = deltas[1], deltas[0]
	}
	balances := map[int64]int64{}
	for _, d := range deltas {
		var bal int64
		err := tx.GetContext(ctx, &bal, tx.Rebind(`UPDATE ledger_accounts SET balance = balance + ?, updated_at = ? WHERE id = ? RETURNING balance`), d.delta, now, d.id)
		if err != nil {
			if strings.Contains(err.Error(), "ledger_wallet_limit") {
				return Posted{}, errInsufficient()
			}
			return Posted{}, fmt.Errorf("ledger: update account %d: %w", d.id, err)
		}
		balances[d.id] = bal
	}
	p := Posted{FromBalance: balances[fromID], ToBalance: balances[toID], CreatedAt: now}
	if t.NoCredit && p.FromBalance < 0 {
		// The caller's transaction rolls the balance updates back.
		return Posted{}, errInsufficient()
	}
	err = tx.GetContext(ctx, &p.ID, tx.Rebind(`INSERT INTO ledger_transfers (agency_id, idempotency_key, request_hash, from_account, to_account,
		amount, currency, payment_type, order_id, reference, description, remark, detail, from_balance, to_balance, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		t.AgencyID, t.IdempotencyKey, h, fromID, toID, t.Amount, t.Currency, t.PaymentType, t.OrderID, t.Reference,
		t.Description, t.Remark, detail, p.FromBalance, p.ToBalance, t.CreatedBy, now)
	if err != nil {
		return Posted{}, fmt.Errorf("ledger: insert transfer: %w", err)
	}
	l.posted(t)
	return p, nil
}

// postOneStatement is postTx's PostgreSQL path: both balances and the
// transfer in one statement, so that the accounts' rows (a busy agency's
// wallet, the provider's accounts) stay locked for one round trip and the
// commit rather than three. The higher id's update waits for the lower's
// row (it reads the lower's result first), the lock order of the
// statement-per-account path, so two transfers cannot deadlock.
//
// With a gate (PostFirstWith; the zero Gate is none) the statement runs
// the gate's items first, on the pool, and answers ErrGateClosed when the
// gate wrote nothing.
func (l *Ledger) postOneStatement(ctx context.Context, tx *sqlx.Tx, t Transfer, h string, fromID, toID int64, detail string, now time.Time,
	gate Gate) (Posted, error) {
	lo, hi, loDelta := lockOrder(fromID, toID, t.Amount)
	p := Posted{CreatedAt: now}
	args := []any{lo, hi, loDelta, t.Amount, now, t.AgencyID, t.IdempotencyKey, h, fromID, toID, t.Currency, t.PaymentType, t.OrderID,
		t.Reference, t.Description, t.Remark, detail, t.CreatedBy}
	var row *sqlx.Row
	if gate.Name == "" {
		row = l.db.QueryRowStmt(ctx, tx, postTransfer, args...)
	} else {
		row = l.db.QueryRowxContext(ctx, gatedTransfer(gate), append(args, gate.Args...)...)
	}
	if err := row.Scan(&p.ID, &p.FromBalance, &p.ToBalance); err != nil {
		if strings.Contains(err.Error(), "ledger_wallet_limit") {
			return Posted{}, errInsufficient()
		}
		if errors.Is(err, sql.ErrNoRows) {
			if gate.Name != "" {
				return Posted{}, ErrGateClosed
			}
			return Posted{}, fmt.Errorf("ledger: post transfer: account %d or %d is gone", fromID, toID)
		}
		return Posted{}, fmt.Errorf("ledger: post transfer: %w", err)
	}
	l.posted(t)
	return p, nil
}

// accountID finds or opens the account; opening races are settled by the
// unique indexes (ON CONFLICT DO NOTHING, then read). A provider account is
// the shard of it that transfers for agency spread use (see shardOf).
func (l *Ledger) accountID(ctx context.Context, tx *sqlx.Tx, a Account, currency string, spread int64, now time.Time) (int64, error) {
	key := keyOf(a, currency, spread)
	if id, ok := l.accounts.Load(key); ok {
		return id.(int64), nil
	}
	id, committed, err := l.openAccount(ctx, tx, a, currency, key, now)
	if err == nil && committed {
		l.accounts.Store(key, id)
		l.fresh.Delete(key)
	}
	return id, err
}

// accountIDs are the ids of accounts (all in currency, provider ones in
// spread's shard), found or opened in one order whatever order they are
// asked in: the provider's before the agencies', then by agency and kind.
// An account opened here stays locked by its insert until the commit, and
// two transactions opening the same two accounts in opposite orders (a
// payment and a refund of a new agency) deadlocked.
func (l *Ledger) accountIDs(ctx context.Context, tx *sqlx.Tx, as []Account, currency string, spread int64, now time.Time) ([]int64, error) {
	order := make([]int, len(as))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		if c := cmp.Compare(as[i].AgencyID, as[j].AgencyID); c != 0 {
			return c
		}
		return strings.Compare(as[i].Kind, as[j].Kind)
	})
	out := make([]int64, len(as))
	for _, i := range order {
		id, err := l.accountID(ctx, tx, as[i], currency, spread, now)
		if err != nil {
			return nil, err
		}
		out[i] = id
	}
	return out, nil
}

// openAccount finds or creates the account. committed reports whether the
// row is known to be committed (so its id may be cached): a row this
// transaction inserted is not, until another transaction sees it.
func (l *Ledger) openAccount(ctx context.Context, tx *sqlx.Tx, a Account, currency string, key accountKey, now time.Time) (id int64, committed bool, err error) {
	var agency any
	where := `agency_id IS NULL AND kind = ? AND currency = ? AND shard = ?`
	args := []any{a.Kind, currency, key.shard}
	if a.AgencyID != 0 {
		agency = a.AgencyID
		where = `agency_id = ? AND kind = ? AND currency = ?`
		args = []any{a.AgencyID, a.Kind, currency}
	}
	err = tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM ledger_accounts WHERE `+where), args...)
	if err == nil {
		opener, _ := l.fresh.Load(key)
		return id, opener != tx, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, fmt.Errorf("ledger: find account: %w", err)
	}
	conflict := `(kind, currency, shard) WHERE agency_id IS NULL`
	if a.AgencyID != 0 {
		conflict = `(agency_id, kind, currency) WHERE agency_id IS NOT NULL`
	}
	res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO ledger_accounts (agency_id, kind, currency, shard, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT `+conflict+` DO NOTHING`), agency, a.Kind, currency, key.shard, now, now)
	if err != nil {
		return 0, false, fmt.Errorf("ledger: open account: %w", err)
	}
	inserted, _ := res.RowsAffected()
	if inserted > 0 {
		l.fresh.Store(key, tx)
	}
	if err := tx.GetContext(ctx, &id, tx.Rebind(`SELECT id FROM ledger_accounts WHERE `+where), args...); err != nil {
		return 0, false, fmt.Errorf("ledger: read opened account: %w", err)
	}
	return id, inserted == 0, nil
}

// Balance is an agency's wallet in one currency (amounts in minor units).
type Balance struct {
	Currency    string `json:"currency" db:"currency"`
	Balance     int64  `json:"balance" db:"balance"`
	CreditLimit int64  `json:"creditLimit" db:"credit_limit"`
}

// Available is what the agency can still spend.
func (b Balance) Available() int64 { return b.Balance + b.CreditLimit }

// WalletBalance reads an agency's wallet; an account never used reads zero.
func (l *Ledger) WalletBalance(ctx context.Context, agencyID int64, currency string) (Balance, error) {
	b := Balance{Currency: currency}
	err := l.db.GetContext(ctx, &b, l.db.Rebind(`SELECT currency, balance, credit_limit FROM ledger_accounts
		WHERE agency_id = ? AND kind = ? AND currency = ?`), agencyID, KindWallet, currency)
	if errors.Is(err, sql.ErrNoRows) {
		return Balance{Currency: currency}, nil
	}
	if err != nil {
		return Balance{}, fmt.Errorf("ledger: wallet balance: %w", err)
	}
	return b, nil
}

// ProviderBalance is a provider account's balance in currency: the sum of
// its shards (zero for an account never used).
func (l *Ledger) ProviderBalance(ctx context.Context, kind, currency string) (int64, error) {
	var sum int64
	err := l.db.GetContext(ctx, &sum, l.db.Rebind(`SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts
		WHERE agency_id IS NULL AND kind = ? AND currency = ?`), kind, currency)
	if err != nil {
		return 0, fmt.Errorf("ledger: provider balance: %w", err)
	}
	return sum, nil
}

// SetCreditLimit sets an agency's credit line in currency. Lowering it below
// what the agency already owes is refused by the same constraint.
func (l *Ledger) SetCreditLimit(ctx context.Context, agencyID int64, currency string, limit int64) error {
	return l.db.InTx(ctx, func(tx *sqlx.Tx) error {
		return l.SetCreditLimitTx(ctx, tx, agencyID, currency, limit)
	})
}

// SetCreditLimitTx is SetCreditLimit inside the caller's transaction.
func (l *Ledger) SetCreditLimitTx(ctx context.Context, tx *sqlx.Tx, agencyID int64, currency string, limit int64) error {
	if limit < 0 {
		return fault.Validation(map[string]string{"creditLimit": "ledger.error.creditLimit"})
	}
	if !slices.Contains(config.Currencies, currency) {
		return fault.Validation(map[string]string{"currency": "ledger.error.currency"})
	}
	now := l.now().UTC()
	id, err := l.accountID(ctx, tx, Wallet(agencyID), currency, 0, now)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE ledger_accounts SET credit_limit = ?, updated_at = ? WHERE id = ?`), limit, now, id)
	if err != nil && strings.Contains(err.Error(), "ledger_wallet_limit") {
		return fault.Validation(map[string]string{"creditLimit": "ledger.error.creditBelowUsage"})
	}
	if err != nil {
		return fmt.Errorf("ledger: set credit limit: %w", err)
	}
	return nil
}

// SetClock replaces the clock, for tests.
func (l *Ledger) SetClock(now func() time.Time) { l.now = now }
