package webhook

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/jobs"
)

// MaxAttempts is how often a delivery is tried before it is marked failed:
// with DefaultBackoff the last attempt comes about 23 hours after the first.
const MaxAttempts = 8

// RequestTimeout bounds one POST to the receiver.
const RequestTimeout = 10 * time.Second

// schedule is the wait after each failed attempt (the last repeats).
var schedule = []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute, time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour}

// DefaultBackoff is the wait after failed attempt n (from 1), before jitter.
func DefaultBackoff(attempt int) time.Duration {
	return schedule[min(max(attempt, 1), len(schedule))-1]
}

// retryDelay is the backoff with ±10 % jitter, so the retries of deliveries
// that failed together (a receiver's outage) do not all arrive together. The
// jitter is fixed per delivery and attempt, so the time the log shows is the
// time River uses.
func (s *Service) retryDelay(attempt int, deliveryID int64) time.Duration {
	base := s.backoff(attempt)
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", deliveryID, attempt)
	frac := float64(h.Sum64()%2001)/1000 - 1 // -1 … 1
	return base + time.Duration(frac*0.1*float64(base))
}

// DeliverArgs is the job that sends one delivery.
type DeliverArgs struct {
	DeliveryID int64 `json:"deliveryId"`
}

// Kind implements river.JobArgs.
func (DeliverArgs) Kind() string { return "webhook_deliver" }

// InsertOpts gives a delivery its attempts.
func (DeliverArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: MaxAttempts}
}

// DeliverWorker POSTs a delivery's payload, signed, to its URL. A 2xx answer
// delivers it; anything else is recorded and returned as an error, so River
// tries again after NextRetry, until the last attempt marks it failed.
type DeliverWorker struct {
	river.WorkerDefaults[DeliverArgs]
	svc *Service
	// Client sends the requests; tests point it at their own server.
	Client *http.Client
}

// Worker is the delivery worker AddWorkers registers.
func (s *Service) Worker() *DeliverWorker { return s.worker }

// NextRetry implements river.Worker: the service's backoff after the
// attempt that just failed.
func (w *DeliverWorker) NextRetry(job *river.Job[DeliverArgs]) time.Time {
	return w.svc.now().Add(w.svc.retryDelay(job.Attempt, job.Args.DeliveryID))
}

// deliverTimeout bounds a delivery job: the request's own timeout and a
// margin for the bookkeeping around it.
const deliverTimeout = RequestTimeout + 20*time.Second

// sweepTimeout bounds a sweep; a sweep cut off leaves the rest to the next.
const sweepTimeout = 30 * time.Second

// Timeout implements river.Worker (jobs.Add sets the same).
func (w *DeliverWorker) Timeout(*river.Job[DeliverArgs]) time.Duration { return deliverTimeout }

// permanentError is a failure no retry can fix (a URL that is not http or
// https).
type permanentError struct{ msg string }

func (e permanentError) Error() string { return e.msg }

func isPermanent(err error) bool {
	var pe permanentError
	return errors.As(err, &pe)
}

// Work implements river.Worker.
func (w *DeliverWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	s := w.svc
	d, err := s.load(ctx, job.Args.DeliveryID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // the row is gone: nothing to send
	}
	if err != nil {
		return err
	}
	if d.Status != StatusPending {
		return nil // delivered or given up on meanwhile
	}
	claimed, err := s.claim(ctx, d.ID)
	if err != nil {
		return err
	}
	if !claimed {
		// Another job is sending this delivery now: look again once its
		// claim has run out, when the row says what became of it.
		return river.JobSnooze(deliverTimeout)
	}
	code, sendErr := w.send(ctx, d)
	if isLocal(sendErr) {
		// The secret could not be read: nothing was sent, so this is not
		// an attempt; River tries again.
		s.release(ctx, d.ID)
		return sendErr
	}
	now := s.now().UTC()
	status, lastErr := StatusDelivered, ""
	var next, delivered *time.Time
	switch {
	case sendErr == nil:
		delivered = &now
	case isPermanent(sendErr) || job.Attempt >= job.MaxAttempts:
		status, lastErr = StatusFailed, describe(sendErr)
	default:
		status, lastErr = StatusPending, describe(sendErr)
		at := now.Add(s.retryDelay(job.Attempt, d.ID))
		next = &at
	}
	// A cancelled job context must not stop the outcome being written.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_, err = s.db.ExecContext(wctx, s.db.Rebind(`UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status_code = ?,
		last_error = ?, last_attempt_at = ?, next_attempt_at = ?, delivered_at = ?, claimed_until = 0 WHERE id = ? AND status = ?`),
		status, code, lastErr, now, next, delivered, d.ID, StatusPending)
	if err != nil {
		return fmt.Errorf("webhook: record attempt of delivery %d: %w", d.ID, err)
	}
	switch {
	case sendErr == nil:
		return nil
	case isPermanent(sendErr):
		return river.JobCancel(sendErr)
	case status == StatusFailed:
		slog.WarnContext(ctx, "webhook delivery failed", "delivery", d.ID, "agency", d.AgencyID, "event", d.Event, "attempts", d.Attempts+1, "err", lastErr)
	}
	return fmt.Errorf("webhook: deliver %d: %s", d.ID, lastErr)
}

// claim takes the delivery for this job until the job's timeout has
// passed; false when another job holds it.
func (s *Service) claim(ctx context.Context, id int64) (bool, error) {
	now := s.now()
	res, err := s.db.ExecContext(ctx, s.db.Rebind(`UPDATE webhook_deliveries SET claimed_until = ?
		WHERE id = ? AND status = ? AND claimed_until < ?`), now.Add(deliverTimeout).UnixMilli(), id, StatusPending, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("webhook: claim delivery %d: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("webhook: claim delivery %d: %w", id, err)
	}
	return n == 1, nil
}

// release gives up a claim when nothing was sent. A release that fails
// leaves the claim to lapse on its own.
func (s *Service) release(ctx context.Context, id int64) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := s.db.ExecContext(rctx, s.db.Rebind(`UPDATE webhook_deliveries SET claimed_until = 0 WHERE id = ?`), id); err != nil {
		slog.WarnContext(ctx, "webhook: release claim", "delivery", id, "err", err)
	}
}

// localError is a failure on our side before anything was sent.
type localError struct{ err error }

func (e localError) Error() string { return e.err.Error() }
func (e localError) Unwrap() error { return e.err }

func isLocal(err error) bool {
	var le localError
	return errors.As(err, &le)
}

// send POSTs the delivery and returns the answer's status code (0 when
// there was none) and an error unless the answer was 2xx.
func (w *DeliverWorker) send(ctx context.Context, d Delivery) (int, error) {
	u, err := url.Parse(d.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return 0, permanentError{"the notification URL must be http or https"}
	}
	secret, err := w.svc.Secret(ctx, d.AgencyID)
	if err != nil {
		return 0, localError{err}
	}
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(d.Payload))
	if err != nil {
		return 0, permanentError{err.Error()}
	}
	id := strconv.FormatInt(d.ID, 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Voyage-Webhooks/1")
	req.Header.Set(HeaderEvent, d.Event)
	req.Header.Set(HeaderDelivery, id)
	req.Header.Set(HeaderSignature, Sign(secret, w.svc.now().Unix(), []byte(d.Payload)))
	client := w.Client
	if client == nil {
		client = newClient(false)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	// Read a little of the answer so the connection can be reused; the
	// receiver's body is not ours to keep.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, fmt.Errorf("HTTP %s", resp.Status)
	}
	return resp.StatusCode, nil
}

// describe is an error as the log keeps it: one line, at most 500 bytes.
func describe(err error) string {
	msg := strings.Join(strings.Fields(err.Error()), " ")
	if len(msg) > 500 {
		msg = msg[:500]
		for !utf8.ValidString(msg) {
			msg = msg[:len(msg)-1]
		}
	}
	return msg
}

// errPrivateAddress refuses a receiver on a loopback, private or link-local
// address.
var errPrivateAddress = errors.New("webhook: receiver address is not public")

// newClient is the default delivery client: no redirects followed (a 3xx
// is a failed attempt), no proxy, and unless allowPrivate only public
// addresses, checked on the address actually dialled so DNS cannot point a
// public name inward.
func newClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return errPrivateAddress
			}
			ip, err := netip.ParseAddr(host)
			if err != nil || !publicAddr(ip.Unmap()) {
				return errPrivateAddress
			}
			return nil
		}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	tr.DialContext = dialer.DialContext
	tr.MaxIdleConnsPerHost = 4
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

func publicAddr(ip netip.Addr) bool {
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !sharedAddressSpace.Contains(ip)
}

// SweepArgs is the periodic job that queues deliveries stored while no
// queue was running.
type SweepArgs struct{}

// Kind implements river.JobArgs.
func (SweepArgs) Kind() string { return "webhook_sweep" }

// InsertOpts keeps one sweep queued at a time, however many instances run
// the schedule.
func (SweepArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Minute}}
}

// SweepWorker queues unqueued pending deliveries.
type SweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	svc *Service
}

// Work implements river.Worker.
func (w *SweepWorker) Work(ctx context.Context, _ *river.Job[SweepArgs]) error {
	for {
		n, err := w.svc.queueUnqueued(ctx, 100)
		if err != nil {
			return err
		}
		if n > 0 {
			slog.InfoContext(ctx, "webhook deliveries queued", "count", n)
		}
		if n < 100 {
			return nil
		}
	}
}

// AddWorkers registers the delivery worker and the sweep, for
// jobs.Config.Register.
func (s *Service) AddWorkers(w *jobs.Workers) []*river.PeriodicJob {
	jobs.Add(w, river.Worker[DeliverArgs](s.worker), deliverTimeout)
	jobs.Add(w, river.Worker[SweepArgs](&SweepWorker{svc: s}), sweepTimeout)
	return []*river.PeriodicJob{jobs.Every(time.Minute, SweepArgs{})}
}
