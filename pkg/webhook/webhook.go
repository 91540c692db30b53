// Package webhook tells agencies' systems about their bookings and changes:
// each event is a JSON body POSTed to the agency's booking or change
// notification URL (its flight settings), signed with the agency's secret
// (HMAC-SHA256), delivered and retried with backoff by River, and kept in a
// delivery log the agency manager shows.
//
// A delivery is stored in the same transaction as the change it reports,
// together with its River job, so a change that rolls back never notifies
// and a committed one is never forgotten.
package webhook

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/store"
)

// Delivery statuses: pending until the receiver answers 2xx (delivered) or
// the last attempt fails (failed).
const (
	StatusPending   = "pending"
	StatusDelivered = "delivered"
	StatusFailed    = "failed"
)

// Delivery is one webhook event sent (or being sent) to an agency's
// notification URL, with the outcome of its attempts.
type Delivery struct {
	// ID identifies the delivery; the receiver gets it as the body's id and
	// in the X-Voyage-Delivery header, the same on every attempt.
	ID int64 `db:"id" json:"id"`
	// AgencyID is the agency the event was sent to.
	AgencyID int64 `db:"agency_id" json:"agencyId"`
	// Event is the event's name (X-Voyage-Event): order.status,
	// change.status, disruption.created, group.status, group.reminder or
	// train.order.status.
	Event string `db:"event" json:"event"`
	// URL is where the event is POSTed: the agency's booking, change or
	// train notification URL as it was when the event was stored (or when
	// it was last redelivered).
	URL     string `db:"url" json:"url"`
	Payload string `db:"payload" json:"payload" jsonschema_description:"the exact JSON body sent (what the signature covers)"`
	// Status is pending while attempts go on, delivered once the receiver
	// answered 2xx, failed when the last attempt failed (8 attempts over
	// about a day, or at once for a URL that is not http or https); a
	// failed delivery can be sent again with POST
	// /base/v2/agencies/{id}/webhooks/{deliveryId}/redeliver.
	Status string `db:"status" json:"status" jsonschema:"enum=pending,enum=delivered,enum=failed"`
	// Attempts is how many times the event has been POSTed so far.
	Attempts       int `db:"attempts" json:"attempts"`
	LastStatusCode int `db:"last_status_code" json:"lastStatusCode" jsonschema_description:"HTTP status of the last attempt; 0 when there was no answer"`
	// LastError is why the last attempt failed (the receiver's HTTP status,
	// a timeout, a refused connection); empty when it succeeded or none was
	// made.
	LastError string `db:"last_error" json:"lastError"`
	// CreatedAt is when the event happened and the delivery was stored
	// (RFC 3339, UTC).
	CreatedAt time.Time `db:"created_at" json:"createdAt"`
	// LastAttemptAt is when the last attempt was made; absent before the
	// first.
	LastAttemptAt *time.Time `db:"last_attempt_at" json:"lastAttemptAt,omitempty"`
	// NextAttemptAt is when the next attempt is due while the delivery is
	// pending; absent once it is delivered or failed.
	NextAttemptAt *time.Time `db:"next_attempt_at" json:"nextAttemptAt,omitempty"`
	// DeliveredAt is when the receiver accepted the event (answered 2xx);
	// absent until then.
	DeliveredAt *time.Time `db:"delivered_at" json:"deliveredAt,omitempty"`
	JobID       *int64     `db:"job_id" json:"-"`
}

const columns = `id, agency_id, event, url, payload, status, attempts, last_status_code, last_error, created_at,
	last_attempt_at, next_attempt_at, delivered_at, job_id`

// Inserter puts a job in the queue inside the caller's transaction;
// *river.Client[*sql.Tx] implements it.
type Inserter interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// Service stores, signs and delivers webhooks.
type Service struct {
	db      *store.DB
	now     func() time.Time
	backoff func(attempt int) time.Duration
	worker  *DeliverWorker

	mu    sync.RWMutex
	queue Inserter
	// agencies, when set, answers an agency's notification URLs from its
	// cached row instead of a query in every notifying transaction.
	agencies *agency.Store
	// wrap, when set, wraps the delivery client's transport (WrapTransport).
	wrap func(http.RoundTripper) http.RoundTripper
}

// Option configures a Service.
type Option func(*Service)

// WithHTTPClient sends deliveries through c instead of the default client,
// which refuses private and loopback addresses.
func WithHTTPClient(c *http.Client) Option {
	return func(s *Service) { s.worker.Client = c }
}

// WithBackoff replaces the retry schedule (30 s, 2 min, 10 min, 1 h, 3 h,
// 6 h, 12 h): f gets the attempt that just failed, from 1. A jitter of ±10 %
// is added to whatever f answers.
func WithBackoff(f func(attempt int) time.Duration) Option {
	return func(s *Service) { s.backoff = f }
}

// WithAgencies reads the agencies' notification URLs through st's cache of
// hot rows (a change made elsewhere shows within its TTL).
func WithAgencies(st *agency.Store) Option {
	return func(s *Service) { s.agencies = st }
}

// AllowPrivateNetworks lets the default client reach loopback and private
// addresses: for a development machine or receivers on the provider's own
// network. Without it a notification URL cannot probe the internal network.
func AllowPrivateNetworks() Option {
	return func(s *Service) { s.worker.Client = newClient(true) }
}

// WrapTransport sends deliveries through wrap's transport around the
// client's own, whichever client the other options chose: the app traces
// them this way, the receiver getting the traceparent header.
func WrapTransport(wrap func(http.RoundTripper) http.RoundTripper) Option {
	return func(s *Service) { s.wrap = wrap }
}

// New returns the webhook service. Deliveries are only stored until SetQueue
// gives it the River client.
func New(db *store.DB, opts ...Option) *Service {
	s := &Service{db: db, now: time.Now, backoff: DefaultBackoff}
	s.worker = &DeliverWorker{svc: s, Client: newClient(false)}
	for _, o := range opts {
		o(s)
	}
	if s.wrap != nil {
		c := *s.worker.Client
		c.Transport = s.wrap(c.Transport)
		s.worker.Client = &c
	}
	return s
}

// SetQueue gives the service the River client deliveries are queued on; it
// is built after the services, so it comes in afterwards.
func (s *Service) SetQueue(q Inserter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = q
}

func (s *Service) inserter() Inserter {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.queue
}

// eventName keeps event names plain dotted words ("booking.confirmed",
// "change.requested").
var eventName = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$`)

// URLFor is where a flight event goes: change and disruption events to the
// change notification URL, every other event to the booking notification
// URL. Empty when the agency set none. Train events go to the train
// notification URL instead (IsTrainEvent).
func URLFor(f agency.FlightSettings, event string) string {
	if strings.HasPrefix(event, "change.") || strings.HasPrefix(event, "disruption.") {
		return strings.TrimSpace(f.ChangeNotifyURL)
	}
	return strings.TrimSpace(f.BookingNotifyURL)
}

// IsTrainEvent reports an event of the train product line (pkg/train):
// it goes to the agency's train notification URL.
func IsTrainEvent(event string) bool { return strings.HasPrefix(event, "train.") }

// body is the JSON an agency receives; the field order is the wire order.
type body struct {
	ID        int64           `json:"id"`
	Event     string          `json:"event"`
	CreatedAt string          `json:"createdAt"`
	AgencyID  int64           `json:"agencyId"`
	Data      json.RawMessage `json:"data"`
}

// NotifyTx stores event for agencyID in tx, with its delivery job when a
// queue is set: {"id", "event", "createdAt", "agencyId", "data"} is sent to
// the agency's URL for the event (see URLFor). Without a URL nothing is
// stored. Everything goes through tx, so the caller's rollback undoes it.
func (s *Service) NotifyTx(ctx context.Context, tx *sqlx.Tx, agencyID int64, event string, data any) error {
	if !eventName.MatchString(event) || len(event) > 64 {
		return fmt.Errorf("webhook: invalid event name %q", event)
	}
	url, err := s.currentURL(ctx, tx, agencyID, event)
	if err != nil {
		return err
	}
	if url == "" {
		return nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("webhook: encode %s data: %w", event, err)
	}
	now := s.now().UTC().Truncate(time.Second)
	var id int64
	err = tx.GetContext(ctx, &id, tx.Rebind(`INSERT INTO webhook_deliveries (agency_id, event, url, payload, status, created_at, next_attempt_at)
		VALUES (?, ?, ?, '', ?, ?, ?) RETURNING id`), agencyID, event, url, StatusPending, now, now)
	if err != nil {
		return fmt.Errorf("webhook: store %s for agency %d: %w", event, agencyID, err)
	}
	payload, err := json.Marshal(body{ID: id, Event: event, CreatedAt: now.Format(time.RFC3339), AgencyID: agencyID, Data: raw})
	if err != nil {
		return fmt.Errorf("webhook: encode delivery %d: %w", id, err)
	}
	job, err := insertJob(ctx, tx, s.inserter(), id)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhook_deliveries SET payload = ?, job_id = ? WHERE id = ?`), string(payload), job, id); err != nil {
		return fmt.Errorf("webhook: store payload of delivery %d: %w", id, err)
	}
	return nil
}

// Subscribed reports whether the agency has a URL for event now, as
// NotifyTx finds it: a caller with nothing else to write in a transaction
// asks first, and makes one only when an event is to be delivered.
func (s *Service) Subscribed(ctx context.Context, agencyID int64, event string) (bool, error) {
	url, err := s.currentURL(ctx, s.db, agencyID, event)
	return url != "", err
}

// currentURL is where event goes for the agency now, read with q (the
// notifying transaction).
func (s *Service) currentURL(ctx context.Context, q sqlx.QueryerContext, agencyID int64, event string) (string, error) {
	if s.agencies != nil {
		a, err := s.agencies.CachedIn(ctx, q, agencyID)
		if err != nil {
			return "", fmt.Errorf("webhook: settings of agency %d: %w", agencyID, err)
		}
		return urlOf(a, event), nil
	}
	var a agency.Agency
	column, settings := `flight_settings`, &a.FlightSettingsJSON
	if IsTrainEvent(event) {
		column, settings = `train_settings`, &a.TrainSettingsJSON
	}
	err := sqlx.GetContext(ctx, q, settings, s.db.Rebind(`SELECT `+column+` FROM agencies WHERE id = ?`), agencyID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("webhook: agency %d: %w", agencyID, fault.NotFound(""))
	}
	if err != nil {
		return "", fmt.Errorf("webhook: settings of agency %d: %w", agencyID, err)
	}
	return urlOf(a, event), nil
}

// urlOf is where the agency's settings send event.
func urlOf(a agency.Agency, event string) string {
	if IsTrainEvent(event) {
		return strings.TrimSpace(a.Config().Train.NotifyURL)
	}
	return URLFor(a.Config().Flight, event)
}

// insertJob queues the delivery job of delivery id in tx and returns the
// job's id; without a queue it returns nil and the row stays unqueued until
// the sweep finds it.
func insertJob(ctx context.Context, tx *sqlx.Tx, q Inserter, id int64) (*int64, error) {
	if q == nil {
		return nil, nil
	}
	res, err := q.InsertTx(ctx, tx.Tx, DeliverArgs{DeliveryID: id}, nil)
	if err != nil {
		return nil, fmt.Errorf("webhook: queue delivery %d: %w", id, err)
	}
	return &res.Job.ID, nil
}

// enqueueTx queues a pending delivery and notes its job on the row.
func enqueueTx(ctx context.Context, tx *sqlx.Tx, q Inserter, id int64) error {
	job, err := insertJob(ctx, tx, q, id)
	if err != nil || job == nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhook_deliveries SET job_id = ? WHERE id = ?`), *job, id); err != nil {
		return fmt.Errorf("webhook: note job of delivery %d: %w", id, err)
	}
	return nil
}

// Get loads one delivery of agencyID; fault.NotFound when it has none such.
func (s *Service) Get(ctx context.Context, agencyID, deliveryID int64) (Delivery, error) {
	var d Delivery
	err := s.db.GetContext(ctx, &d, s.db.Rebind(`SELECT `+columns+` FROM webhook_deliveries WHERE id = ? AND agency_id = ?`), deliveryID, agencyID)
	if errors.Is(err, sql.ErrNoRows) {
		return Delivery{}, fault.NotFound("")
	}
	if err != nil {
		return Delivery{}, fmt.Errorf("webhook: get delivery %d: %w", deliveryID, err)
	}
	return d, nil
}

func (s *Service) load(ctx context.Context, id int64) (Delivery, error) {
	var d Delivery
	err := s.db.GetContext(ctx, &d, s.db.Rebind(`SELECT `+columns+` FROM webhook_deliveries WHERE id = ?`), id)
	if err != nil {
		return Delivery{}, fmt.Errorf("webhook: load delivery %d: %w", id, err)
	}
	return d, nil
}

// Deliveries is one page of an agency's delivery log, newest first, and the
// total.
func (s *Service) Deliveries(ctx context.Context, agencyID int64, page, pageSize int) ([]Delivery, int, error) {
	page = max(page, 1)
	if pageSize < 1 || pageSize > 100 {
		pageSize = 20
	}
	var total int
	if err := s.db.GetContext(ctx, &total, s.db.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE agency_id = ?`), agencyID); err != nil {
		return nil, 0, fmt.Errorf("webhook: count deliveries of agency %d: %w", agencyID, err)
	}
	out := []Delivery{}
	err := s.db.SelectContext(ctx, &out, s.db.Rebind(`SELECT `+columns+` FROM webhook_deliveries WHERE agency_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`), agencyID, pageSize, (page-1)*pageSize)
	if err != nil {
		return nil, 0, fmt.Errorf("webhook: deliveries of agency %d: %w", agencyID, err)
	}
	return out, total, nil
}

// Redeliver queues a failed delivery of agencyID again, with a fresh round
// of attempts; the receiver gets the same body (and delivery id), signed
// anew, at the agency's current URL for the event (a wrong URL is the usual
// reason it failed). Anything but a failed delivery is a conflict.
func (s *Service) Redeliver(ctx context.Context, agencyID, deliveryID int64) (Delivery, error) {
	now := s.now().UTC()
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		var d struct {
			Event  string `db:"event"`
			URL    string `db:"url"`
			Status string `db:"status"`
		}
		err := tx.GetContext(ctx, &d, tx.Rebind(`SELECT event, url, status FROM webhook_deliveries WHERE id = ? AND agency_id = ?`), deliveryID, agencyID)
		if errors.Is(err, sql.ErrNoRows) {
			return fault.NotFound("")
		}
		if err != nil {
			return fmt.Errorf("webhook: redeliver %d: %w", deliveryID, err)
		}
		if d.Status != StatusFailed {
			return fault.Conflict("webhook.error.notFailed")
		}
		url, err := s.currentURL(ctx, tx, agencyID, d.Event)
		if err != nil {
			return err
		}
		if url == "" {
			url = d.URL // the URL was removed since; the manager asked for this one
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhook_deliveries SET status = ?, url = ?, next_attempt_at = ?, job_id = NULL
			WHERE id = ? AND status = ?`), StatusPending, url, now, deliveryID, StatusFailed)
		if err != nil {
			return fmt.Errorf("webhook: redeliver %d: %w", deliveryID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fault.Conflict("webhook.error.notFailed") // redelivered meanwhile
		}
		return enqueueTx(ctx, tx, s.inserter(), deliveryID)
	})
	if err != nil {
		return Delivery{}, err
	}
	return s.Get(ctx, agencyID, deliveryID)
}

// queueUnqueued gives a job to pending deliveries stored while no queue
// was set (at most limit of them) and reports how many it queued. A row is
// claimed before its job is inserted, so two sweeps never queue it twice.
func (s *Service) queueUnqueued(ctx context.Context, limit int) (int, error) {
	q := s.inserter()
	if q == nil {
		return 0, nil
	}
	var ids []int64
	err := s.db.SelectContext(ctx, &ids, s.db.Rebind(`SELECT id FROM webhook_deliveries WHERE status = ? AND job_id IS NULL ORDER BY id LIMIT ?`),
		StatusPending, limit)
	if err != nil {
		return 0, fmt.Errorf("webhook: unqueued deliveries: %w", err)
	}
	queued := 0
	for _, id := range ids {
		claimed := false
		err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
			res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE webhook_deliveries SET job_id = 0 WHERE id = ? AND status = ? AND job_id IS NULL`), id, StatusPending)
			if err != nil {
				return fmt.Errorf("webhook: claim delivery %d: %w", id, err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil
			}
			claimed = true
			return enqueueTx(ctx, tx, q, id)
		})
		if err != nil {
			return queued, err
		}
		if claimed {
			queued++
		}
	}
	return queued, nil
}

// DeleteGuard refuses to delete an agency that has a delivery log (the log
// refers to the agency); agency.Service.AddDeleteGuard takes it.
func (s *Service) DeleteGuard(ctx context.Context, agencyID int64) (string, error) {
	var n int
	if err := s.db.GetContext(ctx, &n, s.db.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE agency_id = ?`), agencyID); err != nil {
		return "", fmt.Errorf("webhook: count deliveries of agency %d: %w", agencyID, err)
	}
	if n > 0 {
		return "webhook.error.hasDeliveries", nil
	}
	return "", nil
}
