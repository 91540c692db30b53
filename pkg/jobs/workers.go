package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
)

// Time limits. A job whose run is cut off by a crash stays "running" in the
// database until River's rescuer, run by the elected leader every 30
// seconds, finds it older than RescueAfter and queues it again. A job's own
// timeout must end its run before that, or a slow run and its rescue would
// work the same job side by side.
const (
	// DefaultRescueAfter keeps a paid order whose ticketing died with its
	// process waiting about a minute and a half at most (the rescue, the
	// rescuer's period and the first retry's wait), not River's default
	// hour.
	DefaultRescueAfter = time.Minute
	// rescueMargin is the least time between a kind's timeout and the
	// rescue: a run cut off at its timeout still writes its outcome.
	rescueMargin = 10 * time.Second
)

// Workers is River's worker set together with each kind's timeout, which
// the queue checks against its rescue time and uses to tell a stuck job
// from a slow one.
type Workers struct {
	river    *river.Workers
	timeouts map[string]time.Duration
	loops    []func(context.Context)
}

// NewWorkers returns an empty set.
func NewWorkers() *Workers {
	return &Workers{river: river.NewWorkers(), timeouts: map[string]time.Duration{}}
}

// Loop registers work that is not a River job but runs while the queue
// does: run is started by Start and its context cancelled by Stop, which
// waits for it to return. A loop that claims rows itself (order ticketing)
// is one; it must leave what it did not finish to be found again after a
// crash, as a job would be rescued.
func (w *Workers) Loop(run func(context.Context)) { w.loops = append(w.loops, run) }

// River is the set as River takes it.
func (w *Workers) River() *river.Workers { return w.river }

// Timeout is kind's time limit, false when no worker has the kind.
func (w *Workers) Timeout(kind string) (time.Duration, bool) {
	d, ok := w.timeouts[kind]
	return d, ok
}

// Longest is the longest timeout of any kind.
func (w *Workers) Longest() time.Duration {
	var longest time.Duration
	for _, d := range w.timeouts {
		longest = max(longest, d)
	}
	return longest
}

// Add registers worker for its kind with the longest one run may take: its
// context is cancelled then, and the attempt counts as failed. Adding a kind
// twice panics, as river.AddWorker does.
func Add[T river.JobArgs](w *Workers, worker river.Worker[T], timeout time.Duration) {
	if timeout <= 0 {
		panic(fmt.Sprintf("jobs: kind %s needs a timeout", kindOf[T]()))
	}
	river.AddWorker[T](w.river, timed[T]{Worker: worker, timeout: timeout})
	w.timeouts[kindOf[T]()] = timeout
}

func kindOf[T river.JobArgs]() string {
	var args T
	return args.Kind()
}

// timed is a worker whose Timeout is the one it was added with.
type timed[T river.JobArgs] struct {
	river.Worker[T]
	timeout time.Duration
}

func (t timed[T]) Timeout(*river.Job[T]) time.Duration { return t.timeout }

// AddFunc registers work for its kind (a river.WorkFunc) with the longest
// one run may take, as Add.
func AddFunc[T river.JobArgs](w *Workers, timeout time.Duration, work func(context.Context, *river.Job[T]) error) {
	Add(w, river.WorkFunc(work), timeout)
}

// Every is a periodic job that queues args every interval, and once when
// the instance starts: a sweep of a product line.
func Every(interval time.Duration, args river.JobArgs) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return args, nil },
		&river.PeriodicJobOpts{RunOnStart: true})
}

// AddSweep registers a sweep (a product line's deadlines, the payment
// reconciliation): its worker, which runs sweep within timeout, and the
// periodic job that queues args every interval (Every). What the sweep
// counts is its own to log.
func AddSweep[T river.JobArgs](w *Workers, timeout, every time.Duration, args T, sweep func(context.Context) (int, error)) *river.PeriodicJob {
	AddFunc(w, timeout, func(ctx context.Context, _ *river.Job[T]) error {
		_, err := sweep(ctx)
		return err
	})
	return Every(every, args)
}
