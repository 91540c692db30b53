package payment

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/jobs"
)

// CheckArgs is the job of the one status check (Protocol.Check): a gateway
// payment whose answer never came is asked about again until the gateway
// says what happened. Every line queues this one shape; K names the line's
// job kind, so each line's worker takes its own payments. Stage names a
// group order's installment; the other lines leave it empty.
type CheckArgs[K CheckKind] struct {
	OrderID int64  `json:"orderId"`
	Stage   string `json:"stage,omitempty"`
}

// CheckKind names a line's status-check job (its River kind).
type CheckKind interface{ CheckKind() string }

// Kind implements river.JobArgs.
func (CheckArgs[K]) Kind() string {
	var k K
	return k.CheckKind()
}

// InsertOpts: gateways usually know within minutes; twenty attempts ask
// again for about a day, which covers an outage. A gateway that never
// answers is then a matter for the provider's staff: the booking stays
// held, its job discarded, in the job console.
func (CheckArgs[K]) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 20} }

// AddCheck registers a line's status-check worker (for the line's
// AddWorkers): check asks what became of the payment of booking id (and
// its installment, stage) and returns an error to be asked again later.
func AddCheck[K CheckKind](w *jobs.Workers, timeout time.Duration, check func(ctx context.Context, id int64, stage string) error) {
	jobs.AddFunc(w, timeout, func(ctx context.Context, j *river.Job[CheckArgs[K]]) error {
		return check(ctx, j.Args.OrderID, j.Args.Stage)
	})
}
