package api

import (
	"net/http"
	"strconv"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/jobs"
)

// registerJobs adds the provider's view of the background jobs that did not
// end well, and the retry (what `voyage jobs` calls in remote mode).
func registerJobs(rt *Router, s Services) {
	if s.Jobs == nil {
		return
	}
	provider := Operation{Tag: "jobs", Role: auth.RoleSuperUser, Allow: auth.Subject.IsProvider}

	op := provider
	op.ID, op.Summary, op.Response = "listStuckJobs",
		"Background jobs that need a look (provider only): running past their timeout (their process died), waiting to be retried after a failure, or given up on; oldest first, at most 500",
		[]jobs.Job{}
	rt.Handle("GET /base/v2/stuckJobs", op, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.Jobs.Stuck(r.Context())
	})

	op = provider
	op.ID, op.Summary, op.Response, op.Errors = "retryJob",
		"Run a stuck job again now (provider only); a job that used its attempts gets one more. A running job only once it is past its timeout",
		jobs.Job{}, []int{fault.CodeNotFound, fault.CodeConflict}
	rt.Handle("POST /base/v2/jobs/{id}/retry", op, func(w http.ResponseWriter, r *http.Request) (any, error) {
		id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
		if err != nil || id <= 0 {
			return nil, fault.NotFound("")
		}
		return s.Jobs.Retry(r.Context(), id)
	})

	op = provider
	op.ID, op.Summary, op.Response = "retryStuckJobs",
		"Run every stuck job again now (provider only); answers the jobs retried",
		[]jobs.Job{}
	rt.Handle("POST /base/v2/stuckJobs/retry", op, func(w http.ResponseWriter, r *http.Request) (any, error) {
		return s.Jobs.RetryStuck(r.Context())
	})
}
