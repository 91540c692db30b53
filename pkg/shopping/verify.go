package shopping

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/recent"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier"
)

// Verification is the outcome of checking a solution's price again with
// its suppliers: what changed, and the quote to book. See spec §4 price
// check.
type Verification struct {
	// Status is what the check found: ok (the price holds), price_changed
	// (the total differs: see solution and previousTotal), package_changed
	// (the baggage allowance or the change and refund conditions
	// changed), document_restriction_changed (the documents accepted
	// changed: passenger details may have to be entered again) or invalid
	// (no longer sold: search again).
	Status supplier.PriceStatus `json:"status" jsonschema:"enum=ok,enum=price_changed,enum=package_changed,enum=invalid,enum=document_restriction_changed"`
	// QuoteID books this price: pass it as quoteId to POST
	// /order/v2/flight/orders before quoteExpiresAt (absent when the
	// solution is invalid).
	QuoteID string `json:"quoteId,omitempty"`
	// Solution is the solution as the suppliers sell it now, with the same
	// id; absent when it is invalid.
	Solution *Solution `json:"solution,omitempty"`
	// PreviousTotal is the solution's total as the search listed it, to
	// compare with the new one.
	PreviousTotal Money `json:"previousTotal"`
	// QuoteExpiresAt is when the quote stops holding, 15 minutes after the
	// check (RFC 3339, UTC); absent when the solution is invalid.
	QuoteExpiresAt time.Time `json:"quoteExpiresAt,omitempty,omitzero"`
}

// Quote is a verified solution as stored for booking.
type Quote struct {
	ID          string               `json:"id"`
	AgencyID    int64                `json:"agencyId"`
	UserID      int64                `json:"userId"`
	SearchID    string               `json:"searchId"`
	SolutionID  string               `json:"solutionId"`
	Status      supplier.PriceStatus `json:"status"`
	Solution    Solution             `json:"solution"`
	Offers      []supplier.Offer     `json:"offers"`
	Passengers  supplier.Passengers  `json:"passengers"`
	Currency    string               `json:"currency"`
	BookingType string               `json:"bookingType"`
	CreatedAt   time.Time            `json:"createdAt"`
	ExpiresAt   time.Time            `json:"expiresAt"`
}

// Quotes stores verified quotes in flight_quotes, and keeps the payloads
// it saved or read last: a quote never changes once stored, and the booking
// that follows a price check, through the instance that made it, then reads
// no row. The payload, not the decoded quote, so that no caller shares a
// quote's slices with another.
type Quotes struct {
	db     *store.DB
	now    func() time.Time
	recent *recent.Map[string, recentQuote]
}

type recentQuote struct {
	payload   []byte
	expiresAt time.Time
}

// maxRecentQuotes bounds the payloads kept (a few kilobytes each): a quote
// is booked within minutes of its price check or not at all.
const maxRecentQuotes = 1024

// NewQuotes returns the quote store.
func NewQuotes(db *store.DB) *Quotes {
	return &Quotes{db: db, now: time.Now, recent: recent.New[string, recentQuote](maxRecentQuotes)}
}

// kept is a quote's payload if kept and not expired. An expired quote is
// read from the store, which may have let it go, so that the answer is the
// store's either way.
func (q *Quotes) kept(id string) ([]byte, bool) {
	r, ok := q.recent.Get(id)
	if ok && !q.now().Before(r.expiresAt) {
		q.recent.Delete(id)
		return nil, false
	}
	return r.payload, ok
}

// Save stores a quote.
func (q *Quotes) Save(ctx context.Context, qt Quote) error {
	payload, err := json.Marshal(qt)
	if err != nil {
		return fmt.Errorf("shopping: encode quote: %w", err)
	}
	var user any
	if qt.UserID != 0 {
		user = qt.UserID
	}
	_, err = q.db.ExecContext(ctx, q.db.Rebind(`INSERT INTO flight_quotes (id, agency_id, user_id, search_id, solution_id, status, payload, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), qt.ID, qt.AgencyID, user, qt.SearchID, qt.SolutionID, string(qt.Status), payload, qt.CreatedAt.UTC(), qt.ExpiresAt.UTC())
	if err != nil {
		return fmt.Errorf("shopping: save quote: %w", err)
	}
	q.recent.Put(qt.ID, recentQuote{payload: payload, expiresAt: qt.ExpiresAt})
	return nil
}

// getQuote is Get's SQL, prepared on PostgreSQL: every booking reads its
// quote, and parsing and planning the query cost more than running it.
var getQuote = store.NewStatement(`SELECT payload FROM flight_quotes WHERE id = ?`)

// Get loads a quote; ErrNoQuote when there is none.
func (q *Quotes) Get(ctx context.Context, id string) (Quote, error) {
	payload, ok := q.kept(id)
	if !ok {
		err := q.db.GetStmt(ctx, nil, &payload, getQuote, id)
		if errors.Is(err, sql.ErrNoRows) {
			return Quote{}, ErrNoQuote
		}
		if err != nil {
			return Quote{}, fmt.Errorf("shopping: load quote: %w", err)
		}
	}
	var qt Quote
	if err := json.Unmarshal(payload, &qt); err != nil {
		return Quote{}, fmt.Errorf("shopping: decode quote: %w", err)
	}
	if !ok {
		q.recent.Put(id, recentQuote{payload: payload, expiresAt: qt.ExpiresAt})
	}
	return qt, nil
}

// Latest is an agency's most recent quote of a solution; ErrNoQuote when it
// has none.
func (q *Quotes) Latest(ctx context.Context, agencyID int64, solutionID string) (Quote, error) {
	var id string
	err := q.db.GetContext(ctx, &id, q.db.Rebind(`SELECT id FROM flight_quotes WHERE agency_id = ? AND solution_id = ?
		ORDER BY created_at DESC LIMIT 1`), agencyID, solutionID)
	if errors.Is(err, sql.ErrNoRows) {
		return Quote{}, ErrNoQuote
	}
	if err != nil {
		return Quote{}, fmt.Errorf("shopping: latest quote: %w", err)
	}
	return q.Get(ctx, id)
}

// ErrNoQuote is returned for an unknown quote id.
var ErrNoQuote = errors.New("shopping: no such quote")

// Supplier is the named content source, for booking what it sold.
func (e *Engine) Supplier(name string) (supplier.Supplier, bool) {
	src, ok := e.sources[name]
	return src.Supplier, ok
}

// verifyTimeout bounds a price check: the user is waiting on the page.
const verifyTimeout = 20 * time.Second

// severity orders price-check outcomes: a solution is as bad as its worst
// ticket.
var severity = map[supplier.PriceStatus]int{
	supplier.PriceOK: 0, supplier.PriceChanged: 1, supplier.PackageChanged: 2,
	supplier.DocumentRestrictionChanged: 3, supplier.PriceInvalid: 4,
}

// Verify checks a solution's price with its suppliers, ticket by ticket, and
// stores the result as a quote valid for 15 minutes. A supplier that does not
// answer in time is error 400003.
func (e *Engine) Verify(ctx context.Context, who auth.Principal, solutionID, lang string) (Verification, error) {
	searchID, digest, ok := strings.Cut(solutionID, "_")
	if !ok {
		return Verification{}, fault.NotFound("shopping.error.noSolution")
	}
	st, err := e.load(ctx, who, searchID)
	if err != nil {
		return Verification{}, err
	}
	st.mu.Lock()
	if e.now().After(st.sess.ExpiresAt) {
		st.mu.Unlock()
		return Verification{}, errStale()
	}
	if err := e.refresh(ctx, st); err != nil {
		st.mu.Unlock()
		return Verification{}, err
	}
	v := st.find(digest)
	policy := st.policy
	req := st.sess.Request
	st.mu.Unlock()
	if v == nil {
		return Verification{}, fault.NotFound("shopping.error.noSolution")
	}
	if err := e.looks.CountLook(ctx, st.sess.AgencyID, "verifications"); err != nil {
		e.log.WarnContext(ctx, "look-to-book count failed", "err", err)
	}

	vctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	defer cancel()
	offers := v.offers()
	results := make([]supplier.PriceResult, len(offers))
	errs := make([]error, len(offers))
	var wg sync.WaitGroup
	for i, o := range v.offers() {
		src, ok := e.sources[o.Supplier]
		if !ok {
			results[i] = supplier.PriceResult{Status: supplier.PriceInvalid}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = src.Supplier.Price(vctx, o, req.Passengers)
		}()
	}
	wg.Wait()
	status := supplier.PriceOK
	for i, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, supplier.ErrOfferGone):
			results[i] = supplier.PriceResult{Status: supplier.PriceInvalid}
		case errors.Is(err, supplier.ErrTimeout) || errors.Is(err, context.DeadlineExceeded):
			return Verification{}, fault.New(fault.CodeSearchTimeout, http.StatusGatewayTimeout, "shopping.error.verifyTimeout")
		default:
			return Verification{}, fault.New(fault.CodeSearchTimeout, http.StatusBadGateway, "shopping.error.verifyFailed")
		}
		if severity[results[i].Status] > severity[status] {
			status = results[i].Status
		}
	}
	out := Verification{Status: status, PreviousTotal: v.solution(&req, &policy).Total}
	if status == supplier.PriceInvalid {
		return out, nil
	}
	// Rebuild the solution from the offers as the suppliers sell them now.
	parts := make([]Part, 0, len(results))
	for i, r := range results {
		o := r.Offer
		if len(o.Segments) == 0 {
			o = offers[i]
		}
		parts = append(parts, Part{Name: fmt.Sprintf("verify/%d", i), Supplier: o.Supplier, Status: PartDone, Offers: []supplier.Offer{o}})
	}
	nv := rebuildOne(&req, parts, &policy, v, e.now())
	if nv == nil {
		out.Status = supplier.PriceInvalid
		return out, nil
	}
	now := e.now()
	qt := Quote{ID: newID(), AgencyID: st.sess.AgencyID, UserID: who.UserID, SearchID: searchID, SolutionID: solutionID, Status: status,
		Offers: nv.offers(), Passengers: req.Passengers, Currency: policy.Currency, BookingType: req.BookingType,
		CreatedAt: now, ExpiresAt: now.Add(QuoteValidity)}
	sol := e.localize(st, nv.solution(&req, &policy), lang)
	sol.ID = solutionID
	qt.Solution = sol
	if err := e.quotes.Save(ctx, qt); err != nil {
		return Verification{}, err
	}
	out.QuoteID, out.Solution, out.QuoteExpiresAt = qt.ID, &sol, qt.ExpiresAt
	return out, nil
}

// rebuildOne prices the re-checked tickets of a solution in the shape of the
// original option: the same journeys and self-transfers, each ticket swapped
// for the offer as its supplier sells it now. A ticket whose flights changed
// makes the solution invalid.
func rebuildOne(req *Request, parts []Part, p *Policy, was *view, now time.Time) *view {
	old := was.opt.full()
	opt := newListed()
	opt.groups, opt.self = old.groups, old.self
	for i := range parts {
		o := &parts[i].Offers[0]
		if len(o.Segments) != len(old.tickets[i].offer.Segments) {
			return nil
		}
		for k, s := range o.Segments {
			if s.FlightNumber != old.tickets[i].offer.Segments[k].FlightNumber {
				return nil
			}
		}
		pr, ok := p.price(o)
		if !ok {
			return nil
		}
		opt.tickets = append(opt.tickets, pr)
		opt.segs = append(opt.segs, segmentsOf(o)...)
		opt.total += pr.total
	}
	m := &merged{option: opt, sources: was.sources}
	return m.view(req, p, now)
}
